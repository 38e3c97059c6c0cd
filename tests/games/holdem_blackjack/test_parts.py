"""The shared parts of pot games on their own: betting rounds, pots, blinds."""

from __future__ import annotations

import pytest

from controller.games.interface import Acted, Option, Pot, RuleError
from controller.games.parts.betting import BettingRules, Bettor, Round, Sizes
from controller.games.parts.blinds import next_clockwise, seating
from controller.games.parts.pots import build_pots, rake_by_pot, rake_due, split, uncalled

FIXED = Sizes(400, 400)
SPREAD = Sizes(400, 2000)


def round_of(*stacks: int, sizes: Sizes = FIXED, **rules: object) -> Round:
    """A round with no bet yet: seats 1, 2, 3... with these stacks, seat 1 to act first."""
    return Round(tuple(Bettor(seat, stack) for seat, stack in enumerate(stacks, start=1)), sizes,
                 BettingRules(**rules))  # type: ignore[arg-type]


def test_fixed_limit_bet_and_raises_are_one_size_and_capped_at_three_raises() -> None:
    rnd = round_of(10000, 10000, 10000)
    assert rnd.options()["bet"] == Option(400, 400, "bet")
    rnd, acted = rnd.act("bet", 400)
    assert acted == Acted(1, 0, "bet", 400)
    for seat, amount in ((2, 800), (3, 1200), (1, 1600)):
        assert rnd.turn() == seat
        assert rnd.options()["raise"] == Option(amount, amount, "bet")
        rnd, acted = rnd.act("raise", amount)
        assert acted == Acted(seat, 0, "raise", amount)
    assert rnd.turn() == 2 and sorted(rnd.options()) == ["call", "fold"]
    with pytest.raises(RuleError, match=r"seat 2: the betting is capped \(a bet and 3 raises\)"):
        rnd.verify("raise", 2000)
    rnd, _ = rnd.act("call", 1600)
    rnd, _ = rnd.act("call", 1600)
    assert rnd.turn() is None and rnd.bets() == {1: 1600, 2: 1600, 3: 1600}


def test_the_cap_is_an_option() -> None:
    rnd, _ = round_of(10000, 10000, raise_cap=0).act("bet", 400)
    assert "raise" not in rnd.options()
    rnd = round_of(10000, 10000, raise_cap=None)
    for _ in range(8):
        rnd, _ = rnd.act("raise", rnd.current + 400)
    assert rnd.full_bets == 8 and "raise" in rnd.options()


def test_spread_limit_raise_range_and_words() -> None:
    rnd, _ = round_of(10000, 10000, sizes=SPREAD).act("bet", 1000)
    assert rnd.options()["raise"] == Option(1400, 3000, "bet")
    assert rnd.prompt() == "Seat 2: $10.00 to call, raise to $14.00 to $30.00, or fold"
    with pytest.raises(RuleError, match=r"a raise makes the bet \$14.00 to \$30.00; the spot reads \$32.00"):
        rnd.verify("raise", 3200)
    with pytest.raises(RuleError, match=r"there is a bet of \$10.00 already"):
        rnd.verify("bet", 1400)


def test_check_call_and_spot_words() -> None:
    rnd = round_of(10000, 10000)
    with pytest.raises(RuleError, match=r"seat 1 checks: the spot should read \$0.00; it reads \$4.00"):
        rnd.verify("check", 400)
    with pytest.raises(RuleError, match="seat 1 has no bet to call: check or bet"):
        rnd.verify("call", 0)
    rnd, _ = rnd.act("bet", 400)
    with pytest.raises(RuleError,
                       match=r"^seat 2: \$4.00 to call, so the spot should read \$4.00; it reads \$2.00$"):
        rnd.verify("call", 200)
    with pytest.raises(RuleError, match=r"seat 2 cannot check: \$4.00 to call"):
        rnd.verify("check", 0)
    with pytest.raises(RuleError, match=r"seat 2 has \$100.00 in all \(table stakes\); the spot reads \$120"):
        rnd.verify("call", 12000)
    with pytest.raises(RuleError, match="call needs the amount on the bet spot"):
        rnd.verify("call", None)
    with pytest.raises(RuleError, match="no 'stand' in a betting round"):
        rnd.verify("stand", None)


def test_raise_with_no_bet_is_the_opening_bet_and_fold_is_allowed_when_checking() -> None:
    rnd = round_of(10000, 10000)
    assert rnd.options()["raise"] == rnd.options()["bet"] and "fold" in rnd.options()
    rnd, acted = rnd.act("raise", 400)
    assert acted.action == "bet"
    rnd, acted = rnd.act("fold", None)
    assert acted == Acted(2, 0, "fold") and rnd.turn() is None and rnd.live() == (1,)


def test_check_raise_and_everyone_checks() -> None:
    rnd = round_of(10000, 10000, 10000)
    rnd, _ = rnd.act("check", 0)
    rnd, _ = rnd.act("bet", 400)
    rnd, _ = rnd.act("call", 400)
    assert rnd.turn() == 1 and "raise" in rnd.options()          # check-raise
    rnd = round_of(10000, 10000)
    rnd, _ = rnd.act("check", 0)
    rnd, _ = rnd.act("check", 0)
    assert rnd.turn() is None


def test_short_all_in_raise_does_not_reopen_the_betting() -> None:
    rnd = round_of(10000, 700, 10000)
    rnd, _ = rnd.act("bet", 400)
    assert rnd.options()["raise"] == Option(700, 700, "bet")       # all in for less than a raise
    assert rnd.prompt() == "Seat 2: $4.00 to call, raise to $7.00 (all in), or fold"
    rnd, acted = rnd.act("raise", 700)
    assert acted == Acted(2, 0, "raise", 700) and rnd.full_bets == 1
    assert rnd.turn() == 3 and rnd.options()["raise"] == Option(1100, 1100, "bet")   # seat 3 had not acted
    rnd, _ = rnd.act("call", 700)
    assert rnd.turn() == 1 and sorted(rnd.options()) == ["call", "fold"]
    with pytest.raises(RuleError, match="does not reopen the betting"):
        rnd.verify("raise", 1100)


def test_half_a_raise_reopens_with_the_half_rule() -> None:
    rnd = round_of(10000, 700, 10000, reopen="half")
    rnd, _ = rnd.act("bet", 400)
    rnd, _ = rnd.act("raise", 700)          # 3.00 more: at least half of 4.00
    rnd, _ = rnd.act("call", 700)
    assert rnd.full_bets == 2 and rnd.options()["raise"] == Option(1100, 1100, "bet")
    rnd = round_of(10000, 500, 10000, reopen="half")
    rnd, _ = rnd.act("bet", 400)
    rnd, _ = rnd.act("raise", 500)          # 1.00 more: less than half
    rnd, _ = rnd.act("call", 500)
    assert "raise" not in rnd.options()


def test_all_in_for_less_calls_and_a_round_with_one_seat_left_to_act_ends() -> None:
    rnd = round_of(10000, 300)
    rnd, _ = rnd.act("bet", 400)
    assert rnd.options()["call"] == Option(300, 300, "bet") and "raise" not in rnd.options()
    with pytest.raises(RuleError, match=r"^seat 2: \$3.00 to call, all in for \$3.00; it reads \$2.00$"):
        rnd.verify("call", 200)
    rnd, _ = rnd.act("call", 300)
    assert rnd.turn() is None
    assert round_of(10000, 0, 0).turn() is None          # nobody could answer a bet


def test_a_seat_facing_only_all_in_seats_matches_the_largest_of_them() -> None:
    blinds = Round((Bettor(1, 9900, bet=100), Bettor(2, 0, bet=150)), FIXED, current=400, full_bets=1)
    assert blinds.turn() == 1 and blinds.options()["call"] == Option(150, 150, "bet")
    assert "raise" not in blinds.options()
    covered = Round((Bettor(1, 9800, bet=200), Bettor(2, 0, bet=150)), FIXED, current=400, full_bets=1)
    assert covered.turn() is None


def test_pots_side_pots_and_uncalled_bets() -> None:
    assert build_pots({1: 500, 2: 2000, 3: 3000, 4: 3000}, live=[1, 2, 3, 4]) == (
        Pot(2000, (1, 2, 3, 4)), Pot(4500, (2, 3, 4)), Pot(2000, (3, 4)))
    assert build_pots({1: 500, 2: 2000, 3: 1000}, live=[1, 2]) == (      # seat 3 folded
        Pot(1500, (1, 2)), Pot(2000, (2,)))
    assert uncalled({1: 400, 2: 1200, 3: 800}) == (2, 400)
    assert uncalled({}) is None and uncalled({1: 0, 2: 0}) is None


def test_split_gives_odd_chips_in_order() -> None:
    assert split(1000, (4, 2)) == (500, 500)
    assert split(1001, (4, 2)) == (501, 500)
    assert split(1100, (4, 2, 6), unit=100) == (400, 400, 300)
    assert split(1050, (4, 2), unit=100) == (550, 500)


def test_rake_percent_cap_chip_and_pots() -> None:
    assert rake_due(10000, 5, None) == 500
    assert rake_due(10000, 5, 300) == 300
    assert rake_due(1999, 5, None, unit=25) == 75
    assert rake_due(10000, 0, None) == 0
    assert rake_by_pot((Pot(200, (1, 2)), Pot(1000, (1,))), 300) == (200, 100)


def test_blinds_and_button() -> None:
    assert seating((1, 2, 3, 4), None) == seating((1, 2, 3, 4), 1)
    assert seating((1, 3, 4), 2).button == 3                        # seat 2 left: the button moves on
    assert seating((2, 6), 6) .small_blind == 6
    assert next_clockwise((2, 4), 6) == 2
    with pytest.raises(ValueError):
        seating((3,), 3)
