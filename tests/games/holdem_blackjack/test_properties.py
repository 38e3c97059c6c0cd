"""Hypothesis: whatever the seats, stacks, options and actions, every chip is accounted for.

A hand is played from a random shuffled deck with random legal actions and
amounts (and wrong ones, which must be refused and change nothing). After
every step: no stack below zero, the pots hold exactly the chips gathered,
no round has more than a bet and ``raise_cap`` full raises (counted from the
events alone, as the rules define a full raise), and no face-down card of an
unshown hand is in the view. At the end: the stacks after the hand and the
rake add up to the stacks before it; every pot is paid out exactly; and the
chips in and out that the pit stream shows (blinds, antes, each round's
last bet, bets returned, pots awarded) agree with the results.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.holdem_blackjack.hand import HoldemHand
from controller.games.interface import Acted, PotAwarded, Revealed, RuleError, Stacks
from firmware_bridge.kernel.cards import Card
from tests.games.holdem_blackjack.play import Play

DECK = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "cdhs"]
AMOUNTS = st.sampled_from([50, 100, 150, 200, 350, 600, 1000, 2000, 5000, 20000])
OPTIONS = st.fixed_dictionaries({
    "stakes": st.just("2/4/4-20"),
    "chip_unit": st.just(50),
    "ante": st.sampled_from([0, 50]),
    "raise_cap": st.integers(0, 4),
    "all_in_reopens": st.sampled_from(["full", "half"]),
    "big_blind_option": st.booleans(),
    "heads_up_button_small_blind": st.booleans(),
    "odd_chip": st.sampled_from(["left_of_button", "showdown_order"]),
    "charlie_ties": st.sampled_from(["split", "higher_total", "lower_total"]),
    "showdown_order": st.sampled_from(["last_aggressor", "left_of_button"]),
    "muck_losing_hands": st.booleans(),
    "rake_percent": st.sampled_from([0, 5, 10]),
    "rake_cap": st.sampled_from([None, 100, 300]),
    "rake_first_round": st.booleans(),
})


def check_step(hand: HoldemHand, stacks: dict[int, int]) -> None:
    """What must hold after every step."""
    round_bets = hand.round.bets() if hand.round is not None else {}
    for player in hand.players:
        behind = player.stack - player.put_in - round_bets.get(player.seat, 0)
        assert behind >= 0, (player, round_bets)
        assert player.stack == stacks[player.seat]
    assert sum(pot.amount for pot in hand.pots) == sum(p.put_in for p in hand.players)
    if hand.round is not None:
        assert hand.round.full_bets <= hand.rules.raise_cap + 1
    assert all(amount >= 0 for amount in hand.committed().values())
    for seat_view in hand.view().seats:
        player = hand.player(seat_view.seat)
        for held, shown in zip(player.cards, seat_view.hands[0].cards, strict=True):
            if not held.face_up and player.seat not in hand.shown:
                assert shown is None


class Ledger:
    """The chips of a hand as the pit sees them, from the events alone: each seat's chips in
    (antes, blinds, its last bet of each round, less bets returned), and the full bets and raises
    of each round, counted as the rules define them."""

    def __init__(self, play: Play) -> None:
        rules, stakes = play.game.rules, play.game.rules.parsed_stakes
        self.play = play
        self.sizes = {"first_round": stakes.first, "second_round": stakes.second,
                      "final_round": stakes.final_low}
        self.bets: dict[tuple[str, int], int] = {}
        self.chips_in: dict[int, int] = {}
        self.current = {"first_round": stakes.first, "second_round": 0, "final_round": 0}
        self.full = {"first_round": 1, "second_round": 0, "final_round": 0}
        self.cap = rules.raise_cap + 1
        self.half = rules.all_in_reopens == "half"
        for event in play.events:
            if isinstance(event, Acted):
                self.chips_in[event.seat] = self.chips_in.get(event.seat, 0) + (event.amount or 0)
                if event.action.endswith("blind"):
                    self.bets[("first_round", event.seat)] = event.amount or 0

    def acted(self, phase: str, events: list[Any]) -> None:
        """The events of one step (a card or an action) taken in phase ``phase``."""
        for event in events:
            if not isinstance(event, Acted) or event.amount is None:
                continue
            if event.action == "uncalled":
                self.chips_in[event.seat] -= event.amount
                continue
            before = self.bets.get((phase, event.seat), 0)
            self.chips_in[event.seat] = self.chips_in.get(event.seat, 0) + event.amount - before
            self.bets[(phase, event.seat)] = event.amount
            if event.action in ("bet", "raise"):
                added = event.amount - self.current[phase]
                size = self.sizes[phase]
                if added >= size or (self.half and 2 * added >= size):
                    self.full[phase] += 1
                self.current[phase] = max(self.current[phase], event.amount)
                assert self.full[phase] <= self.cap, (phase, self.full)


def play_out(data: st.DataObject, play: Play, deck: list[Card]) -> Ledger:
    """Random decisions until the hand is over."""
    stacks = dict(play.session[Stacks].stacks)
    ledger = Ledger(play)
    for _ in range(400):
        check_step(play.hand, stacks)
        decision = play.hand.decision()
        if decision is None:
            return ledger
        hit = decision.card is not None and (not decision.actions or data.draw(st.booleans()))
        if hit:
            ledger.acted(play.hand.phase, play.card(str(deck[play.index % len(deck)])))
            continue
        action = data.draw(st.sampled_from(sorted(decision.actions)))
        option = decision.actions[action]
        amount: Any = None
        if option.low is not None:
            high = option.high if option.high is not None else option.low
            amount = data.draw(st.integers(option.low, high))
            if data.draw(st.integers(0, 9)) == 0:
                wrong = data.draw(st.sampled_from([option.low - 50, high + 50, None]))
                if wrong is None or not option.allows(wrong):
                    before = play.hand
                    with pytest.raises(RuleError):
                        play.hand.act(action, wrong)
                    assert play.hand == before
        phase = play.hand.phase
        ledger.acted(phase, play.act(action, amount))
    raise AssertionError("the hand did not end")


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), options=OPTIONS,
       stacks=st.dictionaries(st.integers(1, 6), AMOUNTS, min_size=2, max_size=6),
       deck=st.permutations(DECK))
def test_any_actions_keep_every_chip(data: st.DataObject, options: dict[str, Any],
                                     stacks: dict[int, int], deck: list[Card]) -> None:
    button = data.draw(st.sampled_from([None, *sorted(stacks)]))
    play = Play(dict(stacks), button=button, **options)
    ledger = play_out(data, play, deck)
    hand = play.hand
    assert hand.phase == "complete"
    final = hand.final_stacks()
    assert all(stack >= 0 for stack in final.values())
    assert sum(final.values()) + hand.rake == sum(stacks.values())
    assert sum(a.amount for a in hand.awards) + hand.rake == sum(p.amount for p in hand.pots)
    paid = sum(e.amount * len(e.seats) + e.rake for e in play.of(PotAwarded))
    assert paid == sum(p.amount for p in hand.pots) == sum(ledger.chips_in.values())
    results = hand.results()
    assert results is not None and sum(r.payout for r in results) == -hand.rake
    won = {seat: 0 for seat in stacks}
    for event in play.of(PotAwarded):
        for seat in event.seats:
            won[seat] += event.amount
    assert {r.seat: (r.wager, r.payout) for r in results} == {
        seat: (ledger.chips_in.get(seat, 0), won[seat] - ledger.chips_in.get(seat, 0)) for seat in stacks}
    if hand.rules.rake_cap is not None:
        assert hand.rake <= hand.rules.rake_cap
    assert hand.rake <= sum(p.amount for p in hand.pots) * hand.rules.rake_percent // 100
    winners = {a.seat for a in hand.awards if a.amount}
    revealed = {e.seat for e in play.of(Revealed)}
    if hand.rules.muck_losing_hands:
        assert revealed <= winners | {a.seat for a in hand.awards}
    session = play.finish()
    assert {s: session[Stacks].stack(s) for s in stacks} == final
