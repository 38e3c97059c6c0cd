"""Seat stacks: the chips in front of each seat, in games where the table keeps stacks.

A stack changes only through :class:`StackChanged` (``seat.stack``): buy-ins,
top-ups and cash-outs by control command (:mod:`controller.games.parts.stacks`)
and each hand's results.

>>> Stacks().apply(StackChanged(3, 2500, "buy_in")).apply(StackChanged(3, 0, "cash_out")).stacks
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Self

from controller.events.registry import Event, event
from controller.games.session.part import SessionPart, session_part


@event("seat.stack")
@dataclass(frozen=True)
class StackChanged(Event):
    """Seat ``seat``'s stack is now ``amount`` cents (``seat.stack``).

    ``reason`` is ``buy_in``, ``rebuy``, ``result`` or ``cash_out``.
    """

    seat: int
    amount: int
    reason: str


@session_part("stacks")
@dataclass(frozen=True)
class Stacks(SessionPart):
    """Each seat's stack in cents; a seat that cashed out has none."""

    events = (StackChanged,)

    stacks: Mapping[int, int] = field(default_factory=dict)

    def stack(self, seat: int) -> int:
        """The chips in front of ``seat`` (0 for a seat with none)."""
        return self.stacks.get(seat, 0)

    def apply(self, event: Event) -> Self:
        """The stacks after a :class:`StackChanged`."""
        assert isinstance(event, StackChanged)
        stacks = {**self.stacks, event.seat: event.amount}
        if event.amount == 0 and event.reason == "cash_out":
            del stacks[event.seat]
        return replace(self, stacks=stacks)
