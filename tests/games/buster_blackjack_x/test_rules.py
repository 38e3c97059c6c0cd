"""Buster Blackjack X's pure parts: options, totals to 31, settlement, Blazing 7's, the bank."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from controller.games.buster_blackjack_x.bank import RETURNED, banker_for, cover, next_banker
from controller.games.buster_blackjack_x.outcomes import bonus_result, insurance_result, main_result
from controller.games.buster_blackjack_x.progressive import blazing_prize, jackpot, meter_after
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.totals import (
    Standing,
    count_of,
    dealer_must_draw,
    dealer_standing,
    dealer_total,
    natural_of,
    player_standing,
    player_total,
    total_words,
)
from controller.games.interface import Button, Session, Stacks, WagerResult
from controller.games.options import parse_options
from firmware_bridge.kernel.cards import Card

RULES = BusterRules()


def cards(*texts: str) -> list[Card]:
    return [Card.parse(text) for text in texts]


# -- options ------------------------------------------------------------------------------------


def test_defaults_are_valid_and_every_wrong_value_is_named() -> None:
    assert RULES.problems() == []
    wrong = BusterRules(decks=9, dealer_stands_on=25, hard_31="soft", bonus_pays={4: 2},
                        progressive_pays={4: 9}, progressive_colour_percent=120, min_bank=0,
                        collection_fee=-1, bonus_min_bet=900, bonus_max_bet=800, banker="nobody")
    problems = wrong.problems()
    for key in ("decks", "dealer_stands_on", "hard_31", "bonus_pays", "progressive_pays",
                "progressive_colour_percent", "min_bank", "collection_fee", "bonus_min_bet", "banker"):
        assert any(line.startswith(f"game.{key}:") for line in problems), (key, problems)


def test_options_come_from_toml_with_whole_number_keys() -> None:
    rules, problems = parse_options(BusterRules, {
        "bonus_pays": {"3": 1, "4": 3, "5": 10}, "progressive_pays": {"2": 30}, "banker": "fixed",
        "banker_seat": 3, "collection_fee": 100}, "game")
    assert problems == []
    assert rules.bonus_pays == {3: 1, 4: 3, 5: 10} and rules.bonus_odds(9) == 10
    assert rules.progressive_pays == {2: 30}
    _, problems = parse_options(BusterRules, {"aces": "1_or_11", "colour": 1}, "game")
    assert problems == ["game.colour: unknown key"]


# -- totals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("points", "player", "dealer"), [
    ([10, 1], 31, 31),           # an ace and a ten-point card make 31
    ([1, 5], 6, 6),              # 26 would lose: the ace counts 1
    ([1, 8], 9, 29),             # the player-dealer stands on 29 with its ace at 21
    ([1, 1], 2, 2),
    ([1, 5, 5], 31, 31),
    ([10, 10, 1], 21, 21),
    ([10, 9, 5], 24, 24),
    ([10, 10, 10, 1], 31, 31),
])
def test_totals_to_31(points: list[int], player: int, dealer: int) -> None:
    count = count_of(points)
    assert (player_total(RULES, count), dealer_total(RULES, count)) == (player, dealer)


def test_aces_may_also_count_11() -> None:
    rules = BusterRules(aces="1_11_or_21")
    assert player_total(rules, count_of([1, 6])) == 17
    assert player_total(rules, count_of([1, 10, 10])) == 31        # 11 + 20
    assert dealer_total(rules, count_of([1, 7])) == 28


def test_the_player_dealers_chart() -> None:
    assert dealer_must_draw(RULES, count_of([10, 6]))
    assert not dealer_must_draw(RULES, count_of([10, 7]))
    assert not dealer_must_draw(RULES, count_of([10, 6, 9]))          # stops on 25: a bust
    assert not dealer_must_draw(RULES, count_of([1, 7]))              # 28 with the ace at 21
    assert dealer_must_draw(RULES, count_of([1, 5]))                   # 6, not 26
    drawing = BusterRules(dealer_draws_past_21=True)
    assert dealer_must_draw(drawing, count_of([10, 6, 9]))
    assert not dealer_must_draw(drawing, count_of([10, 6, 9, 3]))       # 28 stands
    losing = BusterRules(dealer_draws_past_21=True, dealer_28_to_30="loses")
    assert dealer_must_draw(losing, count_of([10, 9, 9]))              # 28 loses: draw on
    assert dealer_must_draw(BusterRules(dealer_stands_on=18), count_of([10, 7]))


def test_naturals_need_two_cards_of_an_ace_and_a_ten_point_card() -> None:
    assert natural_of(cards("Ah", "Kh")) == "blackjack-x"
    assert natural_of(cards("Kh", "Ah")) == "blackjack-x"
    assert natural_of(cards("Ah", "Kd")) == "natural-31"
    assert natural_of(cards("Qh", "Ah")) == "natural-31"
    assert natural_of(cards("Ah", "5h", "5d")) is None


def test_standings_and_words() -> None:
    assert player_standing(RULES, count_of([10, 10, 10, 1]), None) == Standing("31", 31, 4, True)
    assert player_standing(RULES, count_of([1, 10]), None).hard_31 is False   # a split 31
    assert player_standing(RULES, count_of([10, 9, 4]), None).kind == "lost"
    assert player_standing(RULES, count_of([10, 9]), None, surrendered=True).kind == "surrendered"
    assert dealer_standing(RULES, count_of([10, 6, 9]), None).kind == "bust"
    assert dealer_standing(RULES, count_of([1, 9]), None) == Standing("high", 30, 2)
    assert dealer_standing(BusterRules(dealer_28_to_30="loses"), count_of([1, 9]), None).kind == "total"
    assert total_words(RULES, count_of([1, 10]), "blackjack-x", False) == "Blackjack X"
    assert total_words(RULES, count_of([1, 8]), None, True) == "29"
    assert total_words(RULES, count_of([10, 9, 4]), None, True) == "bust 23"
    assert total_words(RULES, count_of([]), None, True) is None


# -- settlement ---------------------------------------------------------------------------------


def standing(kind: str, total: int = 31, cards: int = 3, hard: bool = False) -> Standing:
    return Standing(kind, total, cards, hard)


@pytest.mark.parametrize(("player", "dealer", "expected"), [
    (standing("blackjack-x", cards=2), standing("total", 20), ("natural", 2000, "blackjack-x")),
    (standing("natural-31", cards=2), standing("total", 20), ("natural", 1200, "natural-31")),
    (standing("31", hard=True), standing("total", 20), ("natural", 3000, "hard-31")),
    (standing("31"), standing("total", 20), ("win", 1000, None)),
    (standing("31", hard=True), standing("31"), ("push", 0, None)),
    (standing("blackjack-x", cards=2), standing("blackjack-x", cards=2), ("push", 0, None)),
    (standing("natural-31", cards=2), standing("natural-31", cards=2), ("push", 0, None)),
    (standing("natural-31", cards=2), standing("blackjack-x", cards=2), ("lose", -1000, None)),
    (standing("blackjack-x", cards=2), standing("natural-31", cards=2), ("natural", 2000, "blackjack-x")),
    (standing("total", 20), standing("natural-31", cards=2), ("lose", -1000, None)),
    (standing("lost", 25), standing("bust", 24), ("lose", -1000, None)),   # 22-30 loses whatever
    (standing("total", 12), standing("bust", 27), ("win", 1000, None)),    # 22-27 pays every 21 or less
    (standing("total", 21), standing("high", 28), ("lose", -1000, None)),
    (standing("31"), standing("high", 30), ("win", 1000, None)),
    (standing("total", 19), standing("total", 19), ("push", 0, None)),
    (standing("total", 19), standing("total", 18), ("win", 1000, None)),
    (standing("total", 17), standing("total", 18), ("lose", -1000, None)),
    (standing("total", 17), standing("31"), ("lose", -1000, None)),
    (standing("surrendered", 16), standing("31"), ("surrender", -500, None)),
])
def test_base_wager_settlement(player: Standing, dealer: Standing,
                               expected: tuple[str, int, str | None]) -> None:
    assert main_result(RULES, player, dealer, 1000) == expected


def test_28_to_30_may_push_instead() -> None:
    rules = BusterRules(dealer_28_to_30="pushes")
    assert main_result(rules, standing("total", 21), standing("high", 29), 1000) == ("push", 0, None)


def test_insurance_and_bonus() -> None:
    assert insurance_result(RULES, standing("natural-31", cards=2), 500) == ("win", 1000, None)
    assert insurance_result(RULES, standing("total", 20), 500) == ("lose", -500, None)
    assert bonus_result(RULES, standing("bust", 25, 5), 200) == ("win", 800, "bust in 5 cards pays 4 to 1")
    assert bonus_result(RULES, standing("natural-31", cards=2), 200)[0] == "lose"
    assert bonus_result(RULES, standing("high", 29, 2), 200)[0] == "lose"
    over = BusterRules(bonus_bust="over_31")
    assert bonus_result(over, standing("bust", 25, 3), 200)[0] == "lose"
    assert bonus_result(over, standing("bust", 35, 4), 200) == ("win", 400, "bust in 4 cards pays 2 to 1")


@given(st.integers(1, 10**7))
def test_rounding_never_favours_the_player(wager: int) -> None:
    natural = main_result(RULES, standing("natural-31", cards=2), standing("total", 20), wager)[1]
    assert natural == wager * 6 // 5 and natural * 5 <= wager * 6
    surrendered = main_result(RULES, standing("surrendered", 15), standing("total", 20), wager)[1]
    assert -surrendered >= wager / 2 and -surrendered - wager / 2 < 1


# -- Blazing 7's -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("texts", "name", "for_one", "percent"), [
    (("7s", "7s", "7s"), "three suited 7s", 0, 100),
    (("7h", "7d", "7h"), "three 7s of one colour", 0, 10),
    (("7c", "7s", "7c"), "three 7s of one colour", 0, 10),
    (("7h", "7s", "7d"), "three 7s", 200, 0),
    (("7h", "Ks", "7d"), "two 7s", 25, 0),
    (("2h", "Ks", "7d"), "one 7", 2, 0),
])
def test_blazing_prizes(texts: tuple[str, ...], name: str, for_one: int, percent: int) -> None:
    prize = blazing_prize(RULES, cards(*texts))
    assert prize is not None and (prize.name, prize.for_one, prize.percent) == (name, for_one, percent)


def test_no_seven_wins_nothing_and_the_meter_never_drops_below_its_base() -> None:
    assert blazing_prize(RULES, cards("2h", "Ks", "8d")) is None
    prize = blazing_prize(RULES, cards("7s", "7s", "7s"))
    assert prize is not None and prize.is_jackpot
    assert jackpot(prize, 345_678) == 345_678 and meter_after(RULES, 345_678, 345_678) == 100_000


# -- the bank ------------------------------------------------------------------------------------------


def test_the_position_rotates_among_banks_that_may_deal() -> None:
    session = Session.of(Stacks({2: 20_000, 4: 5_000, 5: 15_000}), Button(5))
    assert banker_for(RULES, session) == 5
    assert next_banker(RULES, session, 5) == 2                   # seat 4's bank is below min_bank
    assert next_banker(RULES, session, 2) == 5
    assert banker_for(RULES, Session.of(Stacks({2: 20_000}), Button(5))) == 2
    assert banker_for(RULES, Session()) is None
    fixed = BusterRules(banker="fixed", banker_seat=4)
    assert banker_for(fixed, session) == next_banker(fixed, session, 4) == 4
    assert banker_for(BusterRules(banker="house"), session) is None


def test_a_short_bank_pays_in_order_and_returns_the_rest() -> None:
    results = [WagerResult(1, "main", 0, "win", 1000, 1000), WagerResult(4, "main", 0, "win", 500, 500),
               WagerResult(4, "main", 1, "natural", 500, 1500),
               WagerResult(6, "main", 0, "lose", 2000, -2000), WagerResult(6, "side", 0, "win", 100, 5000),
               WagerResult(6, "insurance", 0, "lose", 300, -300)]
    covered, after = cover(RULES, 3, 1000, results)             # 1000 + 2300 collected: all paid
    assert [(r.seat, r.hand_index, r.payout, r.label) for r in covered[:3]] == [
        (1, 0, 1000, None), (4, 0, 500, None), (4, 1, 1500, None)]
    assert after == 300 and covered[4].payout == 5000               # the bonus is the house's
    short, left = cover(RULES, 3, 0, results)        # 2300 to pay from, from seat 3's left: 4, 6, 1
    assert [(r.seat, r.hand_index, r.outcome, r.label) for r in short[:3]] == [
        (1, 0, "push", RETURNED), (4, 0, "win", None), (4, 1, "natural", None)]
    assert left == 300
    by_seat, _ = cover(BusterRules(cover_order="seat"), 3, 0, results)
    assert [r.payout for r in by_seat[:3]] == [1000, 500, 0]
