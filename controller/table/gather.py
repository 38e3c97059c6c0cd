"""The bets gathered into the pot: a pot game's round ends, and the hand waits until every spot's
chips are in the pot.

When a step changes the hand's pots (``pot``: :class:`~controller.events.hand.PotsChanged`, the
round's bets gathered), each spot the RFID reader reads above what the table's ledger says it
holds now (:mod:`controller.table.ledger`: nothing, between rounds) has chips the dealer must push
into the pot.
Until the reader reads each of them down to that amount the hand waits (and, when the hand ended
with the last round's bets still out, NEXT does): the instruction says
**Gather the bets into the pot: seat 1 bet $20.00, ...**, no game action is offered, and one
pressed is refused in the same words (:func:`controller.table.buttons.wait_words`). Otherwise the
next round's bet would be read on the last round's chips still lying on the spot, and counted
into the pot twice.

Live, as the readings are (not journaled): the spots are read again after a restart, and a spot
that still holds a finished round's chips is then outlined by the picture's ``committed``.
"""

from __future__ import annotations

from controller.events.hand import PotsChanged
from controller.table.facing import TableFacing
from controller.table.ledger import Off, unexplained
from controller.table.writer import Step
from drivers.inputs import SpotWager
from firmware_bridge.kernel.money import dollars


def after_step(table: TableFacing, step: Step) -> None:
    """After a step that changed the pots: every spot reading more than the ledger says it holds
    now is to gather."""
    if table.state.hand is None or not any(isinstance(event, PotsChanged) for event in step.events):
        return
    table.ungathered = {(off.seat, off.spot) for off in unexplained(_due(table), table.live_spots)
                        if off.difference > 0}


def _due(table: TableFacing) -> dict[tuple[int, str], int]:
    """What each spot should hold now: the ledger's spots, and once the hand is settled (its last
    bets gathered as it ended) every spot of the hand's own account too, which holds nothing."""
    due = table.spots_due()
    hand = table.state.hand
    if table.phase == "settled" and hand is not None:
        return {**dict(hand.committed()), **due}
    return due


def on_reading(table: TableFacing, wager: SpotWager) -> None:
    """A spot read: gathered once it reads no more than the ledger says it holds."""
    key = (wager.seat, wager.spot)
    if key in table.ungathered and wager.amount <= _due(table).get(key, 0):
        table.ungathered.discard(key)


def to_gather(table: TableFacing) -> list[Off]:
    """The spots still to gather: each reading more than the ledger says it holds now."""
    if table.state.hand is None or table.phase not in ("in_hand", "settled") or not table.ungathered:
        return []
    return [off for off in unexplained(_due(table), table.live_spots)
            if (off.seat, off.spot) in table.ungathered and off.difference > 0]


def gather_words(table: TableFacing) -> str | None:
    """What to gather, in a dealer's words, or None.

    The spots in seat order, each with the chips to push into the pot:
    ``Gather the bets into the pot: seat 1 bet $20.00, seat 3 bet $20.00``."""
    spots = to_gather(table)
    if not spots:
        return None
    return "Gather the bets into the pot: " + ", ".join(
        f"seat {off.seat} {off.spot} {dollars(off.difference)}" for off in spots)
