"""What each settled spot should read once paid and collected, and the ``payout_mismatch``
alerts NEXT raises for the spots that do not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.events import alerts as alert_registry
from controller.events.hand import Alerted
from controller.games.interface import Stacks
from firmware_bridge.kernel.money import dollars

if TYPE_CHECKING:
    from controller.table.machine import Table


def payout_expected(table: Table) -> dict[tuple[int, str], int]:
    """What each settled spot should read once paid and collected: its wagers plus their
    payouts (0 for a lost wager), by (seat, spot). Seats whose money the table keeps as a
    stack (the game settles them in the stack, not in chips on the spot) are left out."""
    expected: dict[tuple[int, str], int] = {}
    stacks = table.state.session[Stacks].stacks
    for result in table.state.results or ():
        if result.seat not in stacks:
            key = (result.seat, result.spot)
            expected[key] = expected.get(key, 0) + result.wager + result.payout
    return expected


def payout_checks(table: Table) -> dict[tuple[int, str], int]:
    """The spots NEXT checks and what each should read then: :func:`payout_expected`, or none
    with ``payout_check`` off. The one rule: the picture publishes it (``checks``) and a screen
    draws a box to pay or collect for exactly these spots."""
    return payout_expected(table) if table.settings.payout_check else {}


def payout_mismatches(table: Table) -> list[Alerted]:
    """A ``payout_mismatch`` alert (warning) for each spot NEXT checks (:func:`payout_checks`)
    whose chips, as the RFID reader reads them now, are not what it should hold once paid and
    collected."""
    made: list[Alerted] = []
    for (seat, spot), expected in sorted(payout_checks(table).items()):
        live = table.live_spots.get((seat, spot))
        read = live.amount if live is not None else 0
        if read == expected:
            continue
        gap = (f"{dollars(expected - read)} short" if read < expected
               else f"{dollars(read - expected)} over")
        made.append(alert_registry.alert(
            "payout_mismatch",
            f"seat {seat} {spot} reads {dollars(read)} at NEXT, should read {dollars(expected)} "
            f"once paid and collected: {gap}", seat=seat, spot=spot, expected=expected, read=read))
    return made
