"""What the table decides about chips read on the spots and in the tray: bets, past posting,
rejected chips.

While betting is open every spot whose reading differs from its published wager becomes a
``bet.placed``; while a hand is in play a change the hand does not explain is a ``past_post``;
chips the registry rejects are alerted (:mod:`controller.table.chip_checks`); the tray's reading
is published as ``tray.counted`` (:mod:`controller.table.tray`).
"""

from __future__ import annotations

from collections.abc import Generator

from controller.events import table as events
from controller.events.tray import TrayCounted
from controller.table import gather
from controller.table.chip_checks import chip_alerts
from controller.table.facing import TableFacing
from controller.table.tray import TRAY
from controller.table.writer import Decided, Step, alert
from drivers.inputs import SpotWager
from firmware_bridge.kernel.money import dollars


def on_reading(table: TableFacing, wager: SpotWager) -> Decided:
    """A spot's chips (or the tray's) as the reader reads them now."""
    if (wager.seat, wager.spot) == TRAY:
        yield from on_tray(table, wager)
        return None
    key = (wager.seat, wager.spot)
    previous = table.live_spots.get(key)
    table.live_spots[key] = wager
    gather.on_reading(table, wager)
    yield from check_chips(table, wager)
    if table.state.in_hand:
        before = previous.amount if previous is not None else 0
        if table.phase == "in_hand" and before != wager.amount:
            yield from check_past_post(table, wager, before)
        return None
    yield from sync_bets(table)
    return None


def on_tray(table: TableFacing, reading: SpotWager) -> Generator[Step, None, None]:
    """The tray's chips changed: its rejected chips alerted like a spot's, its value and its chips
    by denomination published (``tray.counted``) when either differs from the last."""
    yield from check_chips(table, reading)
    chips = reading.by_value
    tray = table.state.tray
    if reading.amount != tray.amount or chips != tray.chips:
        yield Step([TrayCounted(reading.amount, chips)])


def check_chips(table: TableFacing, wager: SpotWager) -> Generator[Step, None, None]:
    """An alert for each chip on ``wager`` the registry rejects (once per chip and spot)."""
    made, table.flagged_chips = chip_alerts(wager, table.flagged_chips)
    for raised in made:
        yield Step([raised])


def check_past_post(table: TableFacing, wager: SpotWager, before: int) -> Generator[Step, None, None]:
    """A ``past_post`` alert unless the change is one the hand explains: the spot now holds
    what the ledger says it should (:mod:`controller.table.ledger`), moves towards that (chips
    being collected or paid), or is the spot of an action the seat in turn may take, within that
    action's range. None during a payment walk (the hand's own NEXT, with ``payout_check``): each
    of its NEXTs checks every spot against the ledger, refusing or raising ``mispay``, so a step paid
    over or collected by mistake is named for what it is, not as chips moved after bets closed."""
    hand = table.state.hand
    if hand is None:
        return
    expected = table.spots_due().get((wager.seat, wager.spot), 0)
    amount = wager.amount
    if amount == expected or min(before, expected) <= amount <= max(before, expected):
        return
    decision = hand.decision()
    if decision is not None and "next" in decision.actions and table.settings.payout_check:
        return                  # a payment walk: its NEXT checks every spot (buttons.walk_mispaid)
    if decision is not None and decision.seat == wager.seat:
        for option in decision.actions.values():
            if option.spot == wager.spot and option.low is not None and \
                    expected <= amount <= (option.high if option.high is not None else amount):
                return
    yield alert("past_post",
                f"seat {wager.seat} {wager.spot} changed from {dollars(before)} to "
                f"{dollars(amount)}; it should hold {dollars(expected)}",
                seat=wager.seat, spot=wager.spot, amount=amount, closed=expected)


def sync_bets(table: TableFacing) -> Generator[Step, None, None]:
    """While betting is open, publish every spot whose reading differs from its published wager."""
    bets = table.state.bets
    for (seat, spot), wager in sorted(table.live_spots.items()):
        if wager.amount != bets.get((seat, spot), 0):
            yield Step([events.BetPlaced(seat, spot, wager.amount)])
