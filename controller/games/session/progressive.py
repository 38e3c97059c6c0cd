"""Progressive jackpots: the meters, the hits waiting for a supervisor, the last hits confirmed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Self

from controller.events.registry import Event, event
from controller.games.session.part import SessionPart, session_part

RECENT_HITS = 25
"""Progressive hits the session remembers (``table-controller progressive`` lists them)."""


@event("meter")
@dataclass(frozen=True)
class MeterChanged(Event):
    """Meter ``name`` (a progressive jackpot) now reads ``value`` cents (``meter``)."""

    name: str
    value: int


@event("progressive.hit")
@dataclass(frozen=True)
class ProgressiveHit(Event):
    """A progressive prize was won and waits for a supervisor (``progressive.hit``)."""

    seat: int
    hand_index: int
    prize: str
    amount: int


@event("progressive.paid")
@dataclass(frozen=True)
class ProgressivePaid(Event):
    """A supervisor confirmed the progressive prize of ``seat`` (``progressive.paid``)."""

    seat: int
    amount: int
    supervisor: str


@session_part("progressive")
@dataclass(frozen=True)
class Progressive(SessionPart):
    """The ``meters`` by name (cents); the hits ``unpaid``, oldest first; the last
    :data:`RECENT_HITS` confirmed ``hits``, newest last."""

    events = (MeterChanged, ProgressiveHit, ProgressivePaid)

    meters: Mapping[str, int] = field(default_factory=dict)
    unpaid: tuple[ProgressiveHit, ...] = ()
    hits: tuple[ProgressivePaid, ...] = ()

    def apply(self, event: Event) -> Self:
        """The progressive after a meter changes, a prize is won, or a supervisor confirms one."""
        if isinstance(event, MeterChanged):
            return replace(self, meters={**self.meters, event.name: event.value})
        if isinstance(event, ProgressiveHit):
            return replace(self, unpaid=(*self.unpaid, event))
        assert isinstance(event, ProgressivePaid)
        unpaid = list(self.unpaid)
        for index, hit in enumerate(unpaid):
            if hit.seat == event.seat and hit.amount == event.amount:
                del unpaid[index]
                break
        return replace(self, unpaid=tuple(unpaid), hits=(*self.hits, event)[-RECENT_HITS:])
