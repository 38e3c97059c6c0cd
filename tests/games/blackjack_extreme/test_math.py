"""The bank's expectation by simulation: pure, repeatable, and the same game as the table's."""

from __future__ import annotations

import random
from collections.abc import Callable

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.hand import BlackjackExtremeHand
from controller.games.blackjack_extreme.math import BLIND, bank_net, bank_report, drawer, shoe, simulate
from controller.games.blackjack_extreme.play import count
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.strategy import betting_move, dealer_hits, dealer_up_card, play_move
from controller.games.interface import Button, Decision, Limits, Session, Stacks
from firmware_bridge.kernel.cards import Card

PLAYERS = 5


def recorded(rng: random.Random, decks: int) -> tuple[Callable[[], int], list[int]]:
    """A draw from a fresh shoe that remembers the cards it gave."""
    draw = drawer(rng, shoe(decks))
    seen: list[int] = []

    def remembering() -> int:
        seen.append(draw())
        return seen[-1]
    return remembering, seen


def table_net(rules: BlackjackExtremeRules, points: list[int]) -> int:
    """The same hand through the table's own game, the same strategy deciding: the bank's net."""
    game = BlackjackExtreme(rules, Limits(BLIND, 10**9))
    seats = range(2, 2 + PLAYERS)
    session = Session.of(Stacks({seat: 10**9 for seat in (1, *seats)}), Button(1))
    hand, _ = game.start({seat: {"main": BLIND} for seat in seats}, session)
    cards = iter(points)
    for index in range(1, 200):
        decision = hand.decision()
        if decision is None:
            break
        action, amount = _choose(hand, decision)
        if action == "card":
            hand, _ = hand.deal(Card(next(cards), 0), index)
        else:
            hand, _ = hand.act(action, amount)
    assert next(cards, None) is None, "the table used fewer cards than the simulation"
    return -sum(result.payout for result in hand.results() or ())


def _choose(hand: BlackjackExtremeHand, decision: Decision) -> tuple[str, int | None]:
    phase, actions = hand.phase, decision.actions
    dealer = hand.dealer_count()
    up = next((held.points for held in hand.dealer if held.shown), 0)
    if phase == "upcard":
        return "turn_up", dealer_up_card(dealer)
    if phase == "betting":
        assert decision.seat is not None
        seat = hand.seat(decision.seat)
        move = betting_move(seat.hands[0].points(), up)
        return move, 2 * BLIND if move == "raise" else None
    if phase == "dealer_choice":
        return "play", None
    if phase == "players":
        assert decision.seat is not None
        seat = hand.seat(decision.seat)
        cards = seat.hands[decision.hand_index]
        if "stand" not in actions:
            return "card", None
        move = play_move(cards.points(), up, may_split="split" in actions)
        if move == "split":
            return "split", actions["split"].low
        return ("stand", None) if move == "stand" else ("card", None)
    if phase == "dealer":
        total = count(dealer)
        if "stand" in actions and not dealer_hits(total.points, total.soft, hand.heads_up_losing()):
            return "stand", None
        return "card", None
    return "card", None


def test_the_simulation_plays_the_tables_own_game_hand_by_hand() -> None:
    rules = BlackjackExtremeRules()
    rng = random.Random(11)
    for _ in range(400):
        draw, seen = recorded(rng, rules.decks)
        assert bank_net(rules, PLAYERS, draw) == table_net(rules, seen)


def test_the_simulation_is_pure_and_repeatable() -> None:
    rules = BlackjackExtremeRules(decks=1)
    first = simulate(rules, random.Random(3), hands=500)
    assert simulate(rules, random.Random(3), hands=500) == first
    assert simulate(rules, random.Random(4), hands=500) != first
    low, high = first.interval()
    assert low < first.edge() < high


def test_the_report_says_what_the_bank_expects_and_what_is_not_computed() -> None:
    report = bank_report(BlackjackExtremeRules(), hands=3000)
    bank = report["bank"]
    low, high = bank["interval"]
    assert low < bank["house_edge"] < high and high - low < 0.1
    assert bank["hands"] == 3000 and "basic-strategy" in bank["method"]
    assert "not computed" in report and "bluffing" in report["not computed"]["value"]
