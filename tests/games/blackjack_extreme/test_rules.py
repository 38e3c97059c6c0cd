"""Blackjack Extreme's options, blinds, totals, the dealer's rule and the payment order, one by one."""

from __future__ import annotations

import pytest

from controller.games.blackjack_extreme.payments import Claim, Line, paid, plan
from controller.games.blackjack_extreme.play import count, dealer_rule, hand_outcome, is_natural
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.catalog import find_game
from controller.games.interface import Button, Session, Stacks
from tests.games.blackjack_extreme.script import make_game


def test_options_are_checked_one_line_each() -> None:
    assert BlackjackExtremeRules(decks=1).problems() == []
    assert BlackjackExtremeRules(blind_cap=-1, heads_up_draw=1, min_buy_in=5000, max_buy_in=100,
                                 level_minutes=0, rebuy_levels=-2, levels={1: 0}).problems() == [
        "game.blind_cap: must be a whole number, 0 or more, not -1",
        "game.heads_up_draw: must be true or false, not 1",
        "game.min_buy_in: 5000 is above game.max_buy_in 100",
        "game.level_minutes: must be a positive whole number, not 0",
        "game.rebuy_levels: must be a whole number, 0 or more, not -2",
        "game.levels: the minimum of level 1 must be a positive number of cents"]
    with pytest.raises(ValueError, match=r"game\.decks: must be 1 or 2, not 6"):
        make_game(decks=6)


def test_the_catalog_entry() -> None:
    spec = find_game("blackjack-extreme")
    assert spec.game_type.spots == ("main",)
    assert spec.buttons_required == ("deal", "check", "raise", "fold", "stand", "next")
    assert spec.make(BlackjackExtremeRules(decks=1), make_game().limits).decks == 1


SESSION = Session.of(Stacks({1: 50000, 2: 20000, 3: 900, 4: 20000}), Button(1))


@pytest.mark.parametrize(("blinds", "problem"), [
    ({2: 400, 4: 500}, "seat 2 blind $4.00 is below the $5.00 minimum"),
    ({2: 1600, 4: 500}, "seat 2 blind $16.00 is above the cap $15.00 (3 times the minimum)"),
    ({2: 500, 3: 1000, 4: 500}, "seat 3 blind $10.00 is more than its stack $9.00 (table stakes)"),
    ({1: 500, 2: 500, 4: 500}, "seat 1 deals this hand: it takes no blind"),
    ({2: 500, 4: 500, 5: 500}, "seat 5 has no chips: buy in first"),
    ({2: 500, 3: 500, 4: 500, 6: 500}, "seat 6 has no chips: buy in first"),
    ({2: 500}, "seat 4 must play: the dealer (seat 1, $500.00) can pay it at least the $5.00 minimum"),
])
def test_blinds_within_the_limits_the_cap_and_table_stakes(blinds: dict[int, int], problem: str) -> None:
    game = make_game()
    assert problem in game.bet_problems({seat: {"main": amount} for seat, amount in blinds.items()},
                                        SESSION)


def test_the_cap_is_an_option_and_the_table_maximum_still_holds() -> None:
    assert make_game(blind_cap=0).cap(SESSION) == 50000
    assert make_game(blind_cap=200).cap(SESSION) == 50000
    assert make_game().bet_problems({2: {"main": 1500}, 3: {"main": 900}, 4: {"main": 500}}, SESSION) == []
    problems = make_game().bet_problems({2: {"side": 500}}, SESSION)
    assert problems[0] == "seat 2 has a wager on an unknown spot 'side'"


def test_totals_naturals_and_the_dealers_rule() -> None:
    assert count((1, 1, 9)) == (21, True) and count((1, 6, 10)) == (17, False)
    assert is_natural((1, 10), False, False) and not is_natural((1, 10), True, False)
    assert not is_natural((1, 10), False, True) and not is_natural((5, 6, 10), False, False)
    table = {(10, 6): "hit", (1, 5): "hit", (1, 6): "choose", (1, 10): "choose", (10, 7): "stand",
             (10, 10): "stand", (10, 6, 6): "stand"}
    assert {cards: dealer_rule(count(cards), False) for cards in table} == table
    assert dealer_rule(count((10, 7)), heads_up_losing=True) == "choose"
    assert dealer_rule(count((10, 5, 6)), heads_up_losing=True) == "stand"     # 21 never loses
    assert hand_outcome((10, 5, 9), 1000, False, False, count((10, 7))) == ("lose", -1000, None)
    assert hand_outcome((10, 5), 1000, False, False, count((10, 6, 9))) == ("win", 1000, None)


def test_the_payment_order_edges() -> None:
    winner = Claim(2, 0, "win", 1000, 1000, 1000)
    assert plan((winner,), 0, 500) == ()                                     # nothing to pay with
    assert plan((winner,), 1000, 500) == (Line("minimum", 2, 0, 500, 500), Line("blind", 2, 0, 500, 500))
    small = Claim(3, 0, "win", 300, 300, 300)                  # an all-in blind under the minimum
    assert [line.due for line in plan((small,), 5000, 500)] == [300]
    loser, push = Claim(4, 0, "lose", 700, -700, 0), Claim(5, 0, "push", 900, 0, 0)
    lines = plan((winner, loser, push), 200, 500)
    assert lines[0] == Line("collect", None, 0, 700, 700)
    assert paid((winner, loser, push), lines) == {(2, 0): 900, (4, 0): -700, (5, 0): 0}
