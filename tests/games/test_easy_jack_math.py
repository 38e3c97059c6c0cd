"""Easy Jack house-edge math: the exact figures, their invariants, and a Monte Carlo check."""

from __future__ import annotations

import math
import random
from functools import cache

import pytest

from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.math import EasyJackSolver, full_shoe, house_edge
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits, Session
from controller.games.parts.totals import card_points
from firmware_bridge.kernel.cards import Card


def solved(decks: int = 6, peek: bool = False, six_five: bool = False) -> EasyJackSolver:
    """A solver that has worked out its figures (shared, as the tests only read it)."""
    return _solved(decks, peek, six_five)


@cache
def _solved(decks: int, peek: bool, six_five: bool) -> EasyJackSolver:
    solver = EasyJackSolver(EasyJackRules(decks=decks, peek_for_ace=peek, natural_pays_6_5=six_five))
    solver.house_edge()
    return solver


def edges(decks: int = 6, peek: bool = False, six_five: bool = False) -> tuple[float, float]:
    found = solved(decks, peek, six_five).house_edge()
    assert found["main"]["method"] == found["side"]["method"] == "exact"
    return found["main"]["house_edge"], found["side"]["house_edge"]


def test_full_shoe_counts() -> None:
    assert full_shoe(8) == (32,) * 9 + (128,)
    assert sum(full_shoe(6)) == 312


def test_house_edge_of_an_eight_deck_shoe_with_peek_and_six_five_naturals() -> None:
    found = house_edge(EasyJackRules(decks=8, peek_for_ace=True, natural_pays_6_5=True))
    assert found["main"] == {"house_edge": pytest.approx(0.023835, abs=5e-6), "method": "exact",
                             "decks": 8}
    assert found["side"]["house_edge"] == pytest.approx(0.095124, abs=5e-6)


def test_default_figures() -> None:
    main, side = edges()
    assert main == pytest.approx(0.009336, abs=5e-6)
    assert side == pytest.approx(0.094976, abs=5e-6)


def test_six_five_naturals_cost_the_player_and_leave_the_side_alone() -> None:
    main, side = edges(six_five=True)
    assert main == pytest.approx(0.023880, abs=5e-6)
    assert side == edges()[1]


def test_peeking_changes_nothing() -> None:
    """A dealer natural beats every non-natural whether seen early or late, and busts no side."""
    assert edges(peek=True) == pytest.approx(edges())


def test_best_play() -> None:
    solver = solved()
    assert [solver.should_hit([point]) for point in range(2, 11)] == [True] * 5 + [False] * 4
    assert solver.should_hit([1]) is False  # a natural plays no more
    assert solver.should_hit([5, 6]) is False
    assert solver.should_hit([4, 2]) is False  # a one-card 6 hits, a two-card 6 stands


def simulate(solver: EasyJackSolver, hands: int, seed: int) -> tuple[list[float], list[float]]:
    """Play one seat with both wagers through the real game, from a shuffled full shoe each hand."""
    rules = solver.rules
    game = EasyJack(rules, Limits(10, 10))
    shoe = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)] * rules.decks
    rng = random.Random(seed)
    mains: list[float] = []
    sides: list[float] = []
    for _ in range(hands):
        cards = iter(rng.sample(shoe, 24))
        hand = game.start({1: {"main": 10, "side": 10}}, Session())[0]
        index = 0
        while hand.results() is None:
            if hand.can_stand() and not solver.should_hit(
                [card_points(held.card) for held in hand.seats[0].cards]
            ):
                hand, _ = hand.stand()
            else:
                hand, _ = hand.deal(next(cards), index)
                index += 1
        main, side = hand.results()
        mains.append(main.payout / 10)
        sides.append(side.payout / 10)
    return mains, sides


def within_95(values: list[float], edge: float) -> bool:
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
    return abs(-mean - edge) <= 1.96 * spread / math.sqrt(len(values))


@pytest.mark.parametrize(("peek", "seed"), [(False, 11), (True, 12)])
def test_monte_carlo_agrees_with_the_exact_figures(peek: bool, seed: int) -> None:
    mains, sides = simulate(solved(peek=peek), hands=30000, seed=seed)
    main, side = edges(peek=peek)
    assert within_95(mains, main)
    assert within_95(sides, side)
