"""Settling a hand of Buster Blackjack X: every wager's result, the bank's cover, the Blazing 7's
jackpots and the meter, and the lines the dealer pays and collects by.

Results come seat by seat: each hand's base wager (by hand index), then the
bonus (``side``), Blazing 7's (``progressive``) and insurance. A jackpot is a
``ProgressiveHit`` and a ``progressive_hit`` alert, and the meter drops by what
it pays (``MeterChanged``), all in the step that settles the hand; its result
waits (outcome ``waiting``, the wager collected) and the jackpot is paid by the
``ProgressivePaid`` of a supervisor's confirmation, never in the settlement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.buster_blackjack_x.bank import BANKED_SPOTS, RETURNED, cover
from controller.games.buster_blackjack_x.outcomes import bonus_result, insurance_result, main_result
from controller.games.buster_blackjack_x.progressive import blazing_prize, jackpot, meter_after
from controller.games.buster_blackjack_x.rules import METER, BusterRules
from controller.games.buster_blackjack_x.seats import Jackpot, SeatPlay
from controller.games.buster_blackjack_x.totals import Standing, player_standing
from controller.games.interface import (
    GameEvent,
    MeterChanged,
    ProgressiveHit,
    WagerResult,
    alert,
)
from controller.games.parts.hand_names import hand_number, split_spots
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.money import dollars

WAITING = "waiting"
"""The outcome of a Blazing 7's wager that won a jackpot a supervisor has yet to confirm."""


@dataclass(frozen=True)
class Settlement:
    """A settled hand: the results, the bank afterwards (None: the house banks), the jackpots won,
    the meter afterwards, and the events besides ``Settled`` (hits, alerts, the meter)."""

    results: tuple[WagerResult, ...]
    bank_after: int | None
    jackpots: tuple[Jackpot, ...]
    meter: int
    events: tuple[GameEvent, ...]


def settle(rules: BusterRules, seats: Sequence[SeatPlay], dealer: Standing, up: Card, meter: int,
           banker: int | None, bank: int) -> Settlement:
    """Settle every wager of ``seats`` against the player-dealer's final ``dealer`` hand."""
    results: list[WagerResult] = []
    jackpots: list[Jackpot] = []
    events: list[GameEvent] = []
    start = meter
    for play in seats:
        for index, hand in enumerate(play.hands):
            player = player_standing(rules, hand.count(), hand.natural(), hand.state == "surrendered")
            outcome, payout, label = main_result(rules, player, dealer, hand.wager)
            results.append(WagerResult(play.seat, "main", index, outcome, hand.wager, payout, label))
        if play.bonus:
            outcome, payout, label = bonus_result(rules, dealer, play.bonus)
            results.append(WagerResult(play.seat, "side", 0, outcome, play.bonus, payout, label))
        if play.progressive:
            result, won = blazing_result(rules, play, up, meter)
            results.append(result)
            if won is not None:
                jackpots.append(won)
                meter = meter_after(rules, meter, won.amount)
                events += [ProgressiveHit(play.seat, 0, won.prize, won.amount),
                           alert("progressive_hit", f"seat {play.seat}: {won.prize} win the Blazing 7's "
                                 f"jackpot {dollars(won.amount)}; a supervisor must confirm it",
                                 seat=play.seat, prize=won.prize, amount=won.amount)]
        if play.insurance:
            outcome, payout, label = insurance_result(rules, dealer, play.insurance)
            results.append(WagerResult(play.seat, "insurance", 0, outcome, play.insurance, payout, label))
    settled: tuple[WagerResult, ...] = tuple(results)
    bank_after = None
    if banker is not None:
        settled, bank_after = cover(rules, banker, bank, settled)
    if meter != start:
        events.append(MeterChanged(METER, meter))
    return Settlement(settled, bank_after, tuple(jackpots), meter, tuple(events))


def blazing_result(rules: BusterRules, play: SeatPlay, up: Card,
                   meter: int) -> tuple[WagerResult, Jackpot | None]:
    """A seat's Blazing 7's result (the seat's first two cards and the up card), and its jackpot
    if it won one: every prize is N for 1, so the net is the prize less the wager; a jackpot's
    result is :data:`WAITING` with the wager collected (its payment is ``progressive.paid``)."""
    prize = blazing_prize(rules, [*play.first_two, up])
    wager = play.progressive
    if prize is None:
        return WagerResult(play.seat, "progressive", 0, "lose", wager, -wager), None
    if prize.is_jackpot:
        # Not a win yet: the wager is collected now, and the jackpot is paid (ProgressivePaid) only
        # once a supervisor confirms it, so nothing counts it twice or early.
        amount = jackpot(prize, meter)
        label = f"{prize.name}: jackpot {dollars(amount)} waits for a supervisor (paid by progressive.paid)"
        return (WagerResult(play.seat, "progressive", 0, WAITING, wager, -wager, label),
                Jackpot(play.seat, prize.name, amount))
    label = f"{prize.name} pays {prize.for_one} for 1"
    return WagerResult(play.seat, "progressive", 0, "win", wager, wager * (prize.for_one - 1), label), None


def payout_lines(rules: BusterRules, settlement: Settlement, banker: int | None,
                 bank: int) -> tuple[str, ...]:
    """What the dealer pays and collects, wager by wager, then the bank's sum."""
    lines = []
    split = split_spots((r.seat, r.spot, r.hand_index) for r in settlement.results)
    for result in settlement.results:
        where = f"Seat {result.seat} {result.spot}" + hand_number(
            result.hand_index, (result.seat, result.spot) in split)
        lines.append(f"{where}: {_pay_words(result, settlement, banker)}")
    if banker is not None and settlement.bank_after is not None:
        fee = f", fee {dollars(rules.collection_fee)}" if rules.collection_fee else ""
        lines.append(f"Bank at seat {banker}: {dollars(bank)} -> {dollars(settlement.bank_after)}{fee}")
    return tuple(lines)


def _pay_words(result: WagerResult, settlement: Settlement, banker: int | None) -> str:
    banked = banker is not None and result.spot in BANKED_SPOTS
    if result.label == RETURNED:
        left = dollars(settlement.bank_after or 0)
        return (f"RETURN the wager: the bank, with {left} left, cannot pay it, and every winning wager "
                "after the first it cannot pay is returned")
    for won in settlement.jackpots:
        if won.seat == result.seat and result.spot == "progressive":
            return f"COLLECT {dollars(result.wager)}; JACKPOT {dollars(won.amount)} waits for a supervisor"
    if result.payout > 0:
        return f"PAY {dollars(result.payout)}" + (" from the bank" if banked else "")
    if result.payout < 0:
        return f"COLLECT {dollars(-result.payout)}" + (" for the bank" if banked else "")
    return "PUSH"
