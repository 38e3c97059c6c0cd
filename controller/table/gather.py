"""The bets gathered into the pot: a pot game's round ends, and the hand waits until every spot's
chips are in the pot.

When a step changes the hand's pots (``pot``: :class:`~controller.events.hand.PotsChanged`, the
round's bets gathered), each spot the RFID reader reads above what the hand says it holds now
(:meth:`Hand.committed`: nothing, between rounds) has chips the dealer must push into the pot.
Until the reader reads each of them down to that amount the hand waits: the instruction says
**Gather the bets into the pot: seat 1 bet $20.00, ...**, no game action is offered, and one
pressed is refused in the same words (:func:`controller.table.buttons.wait_words`). Otherwise the
next round's bet would be read on the last round's chips still lying on the spot, and counted
into the pot twice.

Live, as the readings are (not journaled): the spots are read again after a restart, and a spot
that still holds a finished round's chips is then outlined by the picture's ``committed``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.events.hand import PotsChanged
from controller.table.writer import Step
from drivers.inputs import SpotWager
from firmware_bridge.kernel.money import dollars

if TYPE_CHECKING:
    from controller.table.machine import Table


def after_step(table: Table, step: Step) -> None:
    """After a step that changed the pots: every spot reading more than it holds now is to gather."""
    hand = table.state.hand
    if hand is None or not any(isinstance(event, PotsChanged) for event in step.events):
        return
    committed = hand.committed()
    table.ungathered = {key for key, wager in table.live_spots.items()
                        if key in committed and wager.amount > committed[key]}


def on_reading(table: Table, wager: SpotWager) -> None:
    """A spot read: gathered once it reads no more than the hand says it holds."""
    key = (wager.seat, wager.spot)
    if key not in table.ungathered:
        return
    hand = table.state.hand
    due = hand.committed().get(key, 0) if hand is not None else 0
    if wager.amount <= due:
        table.ungathered.discard(key)


def to_gather(table: Table) -> list[tuple[int, str, int]]:
    """The spots still to gather, ``(seat, spot, what it reads above what it holds now)``."""
    hand = table.state.hand
    if hand is None or table.phase != "in_hand":
        return []
    committed = hand.committed()
    found = []
    for seat, spot in sorted(table.ungathered):
        wager = table.live_spots.get((seat, spot))
        over = (wager.amount if wager is not None else 0) - committed.get((seat, spot), 0)
        if over > 0:
            found.append((seat, spot, over))
    return found


def gather_words(table: Table) -> str | None:
    """What to gather, in a dealer's words, or None.

    The spots in seat order, each with the chips to push into the pot:
    ``Gather the bets into the pot: seat 1 bet $20.00, seat 3 bet $20.00``."""
    spots = to_gather(table)
    if not spots:
        return None
    return "Gather the bets into the pot: " + ", ".join(
        f"seat {seat} {spot} {dollars(over)}" for seat, spot, over in spots)
