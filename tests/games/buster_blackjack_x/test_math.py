"""``table-controller math`` for Buster Blackjack X: the exact figures against brute force and the
game itself, and the simulation against the game round by round."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache

import pytest

from controller.games.buster_blackjack_x.hand import BusterHand
from controller.games.buster_blackjack_x.math import (
    PRECISION,
    SEED,
    blazing_chances,
    bonus_busts_by_cards,
    fingerprint,
    house_edges,
    insurance_edge,
    progressive_edges,
    simulate_base,
    stored_base,
)
from controller.games.buster_blackjack_x.progressive import blazing_prize
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.simulate import Tables, build_tables, play_round
from controller.games.buster_blackjack_x.stored import STORED
from controller.games.buster_blackjack_x.strategy import Strategy
from controller.games.catalog import rules_from_json, rules_json
from controller.games.interface import Session
from firmware_bridge.kernel.cards import Card
from tests.games.buster_blackjack_x.helpers import game

RULES = BusterRules(banker="house")
ACTION_NAMES = {"S": "stand", "D": "double", "P": "split", "R": "surrender"}


@cache
def solved() -> tuple[Strategy, Tables]:
    strategy = Strategy(RULES)
    return strategy, build_tables(RULES, strategy)


def code(card: Card) -> int:
    return (card.rank - 1) * 4 + card.suit


def play_by_strategy(strategy: Strategy, cards: list[Card]) -> float:
    """One round of the real game, the seat playing basic strategy: its net result per unit."""
    hand: BusterHand = game(banker="house").start({1: {"main": 1000}}, Session())[0]
    shoe = iter(cards)
    index = 0
    while (decision := hand.decision()) is not None:
        name: str | None = None
        if hand.phase == "insurance":
            name = "next"
        elif hand.phase == "players" and decision.actions:
            _, held = hand.in_turn()  # type: ignore[misc]
            count = held.count()
            up = min(hand.dealer[0].card.rank, 10)
            if len(held.cards) == 2 and not held.hits:
                points = [min(c.card.rank, 10) for c in held.cards]
                pair = points[0] if points[0] == points[1] else 0
                for choice in strategy.ranked(count.hard, count.aces > 0, pair, up):
                    if choice == "H" or ACTION_NAMES[choice] in decision.actions:
                        name = ACTION_NAMES.get(choice)
                        break
            elif not strategy.hits(count.hard, count.aces > 0, up):
                name = "stand"
        if name is None:
            index += 1
            hand = hand.deal(next(shoe), index)[0]
        else:
            option = decision.actions[name]
            amount = {"double": option.high, "split": option.low}.get(name)
            hand = hand.act(name, amount)[0]
    return sum(r.payout for r in hand.results() or ()) / 1000


def test_the_simulation_plays_every_round_as_the_game_does() -> None:
    strategy, tables = solved()
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)] * 8
    rng = random.Random(11)
    splits = 0
    for round_number in range(1500):
        rng.shuffle(deck)
        cards = list(deck[:40])
        if round_number % 3 == 0:                            # many pairs, to split and resplit
            cards[2] = Card(cards[0].rank, rng.randrange(4))
        expected = play_by_strategy(strategy, cards)
        result, _ = play_round(tables, iter([code(card) for card in cards]).__next__)
        assert result == pytest.approx(expected), cards[:12]
        splits += cards[0].rank == cards[2].rank
    assert splits >= 500


def test_the_simulation_agrees_with_the_infinite_deck_value() -> None:
    strategy, tables = solved()
    found = simulate_base(RULES, precision=0.01, workers=1, tables=tables)
    low, high = found["interval"]
    assert 0 < high - low <= 0.02 and found["rounds"] == 250_000          # one batch was enough
    assert low - 0.002 <= -strategy.base_value() <= high + 0.002     # 8 decks differ a little
    assert 0.02 < found["house_edge"] < 0.04


def test_the_whole_report_on_two_processes() -> None:
    report = house_edges(RULES, precision=0.02, workers=2)
    assert set(report) == {"main", "main_infinite_deck", "side", "insurance", "progressive",
                           "progressive_at_base", "progressive_break_even_meter", "bank_fee"}
    assert report["bank_fee"]["value"] == RULES.collection_fee
    assert report["main"]["rounds"] >= 250_000 and report["main"]["method"].startswith("simulated")
    assert "stored" not in report["main"]["method"]                  # not at this precision: simulated
    assert report["side"]["house_edge"] == pytest.approx(0.0617487, abs=1e-6)
    assert report["insurance"]["house_edge"] == pytest.approx(0.0746988, abs=1e-6)


def test_the_stored_base_figures_are_still_those_of_the_rules_they_name() -> None:
    """Regenerate with bench/buster_figures.py when this fails: the rules or the game changed."""
    assert STORED, "no figure stored"
    for key, figure in STORED.items():
        for named in figure["rules"]:
            rules = rules_from_json("buster-blackjack-x", named)
            assert rules_json(rules) == named                 # every option of the rules type, no other
            assert fingerprint(build_tables(rules), PRECISION, SEED) == key
        low, high = figure["interval"]
        assert low < figure["house_edge"] < high and high - figure["house_edge"] <= PRECISION


def test_math_uses_the_stored_figure_only_for_the_same_simulation() -> None:
    rules = BusterRules(banker="house", collection_fee=250, bonus_pays={3: 3, 4: 3, 5: 5})
    tables = build_tables(rules)                         # the bank and the bonus do not change the tables
    assert fingerprint(tables, PRECISION, SEED) in STORED
    stored = house_edges(rules)["main"]
    assert stored["rounds"] == 20_250_000 and stored["method"].endswith(
        "stored with the game, as bench/buster_figures.py ran this same simulation")
    assert stored_base(rules, tables, PRECISION / 2) is None           # another precision
    assert stored_base(rules, tables, PRECISION, seed=32) is None      # another seed
    six = BusterRules(decks=6)
    assert stored_base(six, build_tables(six)) is None                 # another shoe: simulated


def test_blazing_chances_are_the_count_of_every_three_cards() -> None:
    rules = BusterRules(decks=1)
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)]
    counted: Counter[tuple[int, int]] = Counter()
    total = 0
    for three in itertools.combinations(deck, 3):
        total += 1
        prize = blazing_prize(rules, three)
        if prize is not None:
            counted[(prize.for_one, prize.percent)] += 1
    exact = {(for_one, percent): chance for chance, for_one, percent in blazing_chances(rules)}
    assert set(exact) == set(counted)
    for key, ways in counted.items():
        assert exact[key] == pytest.approx(ways / total, rel=1e-12)


def test_progressive_figures() -> None:
    figures = progressive_edges(BusterRules())
    assert figures["progressive_at_base"]["house_edge"] == pytest.approx(0.114392, abs=1e-6)
    assert figures["progressive"]["house_edge"] == pytest.approx(0.071914, abs=1e-6)     # the long run
    meter = figures["progressive_break_even_meter"]["value"]
    at_meter = progressive_edges(BusterRules(progressive_base=meter))["progressive_at_base"]["house_edge"]
    assert -1e-6 < at_meter <= 0


def test_insurance_is_the_ten_under_an_ace() -> None:
    assert insurance_edge(BusterRules(decks=1))["house_edge"] == pytest.approx(1 - 3 * 16 / 51)
    assert insurance_edge(BusterRules(decks=1, insurance_pays_on_blackjack_x=False))["house_edge"] == \
        pytest.approx(1 - 3 * 15 / 51)


def test_bonus_busts_against_the_game_played_out() -> None:
    exact = bonus_busts_by_cards(RULES)
    rng = random.Random(5)
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)] * 8
    busts: Counter[int] = Counter()
    rounds = 4000
    for _ in range(rounds):
        rng.shuffle(deck)
        hand = game().start({1: {"main": 1000, "side": 500}}, Session())[0]
        cards = iter(deck)
        index = 0
        while (decision := hand.decision()) is not None:
            if decision.actions:
                hand = hand.act("next" if hand.phase == "insurance" else "stand")[0]
            else:
                index += 1
                hand = hand.deal(next(cards), index)[0]
        side = next(r for r in hand.results() or () if r.spot == "side")
        if side.outcome == "win":
            busts[len(hand.dealer)] += 1
    for cards in (3, 4, 5):
        chance = exact[cards]
        spread = 4 * (chance * (1 - chance) / rounds) ** 0.5
        assert abs(busts[cards] / rounds - chance) < spread, cards
