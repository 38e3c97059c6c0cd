"""Property tests: whatever the stacks, blinds, cards and choices, chips are never created or destroyed.

Hypothesis deals random tables (ring or tournament, dealers rich and poor) and
plays random legal choices through the pure hand. At every step: no seat has
more in play than its stack (table stakes); while the dealer pays short, what
she has paid never passes what she had. At the end: every chip is accounted
for (the stacks after the hand add up to the stacks before, plus a re-buy),
no stack is below zero, no winner is paid more than owed, and the same calls
made again give the same hand (the journal's replay relies on it).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.blackjack_extreme.hand import BlackjackExtremeHand
from controller.games.blackjack_extreme.payments import paid
from controller.games.interface import Button, Session, Stacks, Tournament
from firmware_bridge.kernel.cards import Card
from tests.games.blackjack_extreme.script import make_game

CARDS = st.builds(Card, st.integers(1, 13), st.integers(0, 3))
SMALL_CARDS = st.builds(Card, st.integers(1, 7), st.integers(0, 3))   # more hits and dealer draws
PAIRS = st.builds(Card, st.sampled_from([1, 8, 8, 9, 10]), st.integers(0, 3))   # more splits


def _amount(data: st.DataObject, hand: BlackjackExtremeHand, action: str) -> int | None:
    decision = hand.decision()
    assert decision is not None
    option = decision.actions[action]
    if option.low is None:
        return None
    high = option.high if option.high is not None else option.low + 5000
    return data.draw(st.integers(option.low, high), label=f"{action} amount")


@given(data=st.data(), tournament=st.booleans(), heads_up_draw=st.booleans())
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_chips_are_never_created_or_destroyed(data: st.DataObject, tournament: bool,
                                              heads_up_draw: bool) -> None:
    game = make_game(format="tournament" if tournament else "ring", heads_up_draw=heads_up_draw)
    seats = data.draw(st.lists(st.integers(1, 6), min_size=2, max_size=6, unique=True), label="seats")
    dealer = seats[0]
    stacks = {seat: data.draw(st.integers(100, 30000), label=f"stack {seat}") for seat in seats}
    stacks[dealer] = data.draw(st.sampled_from([100, 700, 1200, 2500, 9000, 60000]), label="dealer")
    session = Session.of(Stacks(stacks), Button(dealer))
    if tournament:
        session = Session.of(Stacks(stacks), Button(dealer), Tournament(
            level=1, blinds=(500, 1000, 1500), ends_at="2027-03-01T20:20:00.000Z"))
    required = set(game.must_play(session))
    blinds: dict[int, dict[str, int]] = {}
    for seat in game.positions(session):
        if seat in required or data.draw(st.booleans(), label=f"seat {seat} plays"):
            low = min(500, stacks[seat])
            blinds[seat] = {"main": data.draw(st.integers(low, min(1500, stacks[seat])), label="blind")}
    if not blinds or game.bet_problems(blinds, session):
        assert not blinds or not game.bet_problems(blinds, session)
        return
    hand, _ = game.start(blinds, session)
    calls: list[tuple[str, Any, Any]] = []
    cards = data.draw(st.sampled_from([CARDS, SMALL_CARDS, PAIRS]), label="deck")
    for index in range(1, 120):
        decision = hand.decision()
        if decision is None:
            break
        weights = {"expose": 0, "play": 3, "split": 4, "next": 2}
        choices = [name for name in sorted(decision.actions) for _ in range(weights.get(name, 1))]
        choices += ["card"] * 4 if decision.card is not None else []
        if "expose" in decision.actions and data.draw(st.integers(0, 15), label="mistake") == 0:
            choices.append("expose")
        choice = data.draw(st.sampled_from(choices), label="choice")
        if choice == "card":
            card = data.draw(cards, label="card")
            hand, _ = hand.deal(card, index)
            calls.append(("deal", card, index))
        else:
            amount = _amount(data, hand, choice)
            if not hand.can(choice, amount):
                continue
            hand, _ = hand.act(choice, amount)
            calls.append(("act", choice, amount))
        _check_step(hand)
    if hand.results() is None:
        return
    _check_settled(game, session, hand)
    again, _ = game.start(blinds, session)
    for kind, first, second in calls:
        again = again.deal(first, second)[0] if kind == "deal" else again.act(first, second)[0]
    assert again == hand


def _check_step(hand: BlackjackExtremeHand) -> None:
    for seat in hand.seats:
        assert seat.staked() <= seat.stack
    if hand.phase == "paying":
        net = paid(hand.claims, hand.lines[: hand.confirmed])
        assert sum(max(v, 0) for v in net.values()) <= (
            hand.dealer_stack + hand.rebought + sum(-c.owed for c in hand.claims if c.owed < 0))
    for seat_view in hand.view().seats:
        seat = hand.seat(seat_view.seat)
        for shown, held_hand in zip(seat_view.hands, seat.hands, strict=True):
            assert shown.cards == tuple(str(h.card) if h.shown else None for h in held_hand.cards)


def _check_settled(game: Any, session: Session, hand: BlackjackExtremeHand) -> None:
    results = hand.results() or ()
    for result in results:
        claim = next(c for c in hand.claims if (c.seat, c.hand_index) == (result.seat, result.hand_index))
        assert -result.wager <= result.payout <= max(claim.owed, 0)
        assert result.payout == claim.owed or 0 <= result.payout < claim.owed
    after = session
    for event in game.finish(hand, session):
        after = after.apply(event)
    assert sum(after[Stacks].stacks.values()) == sum(session[Stacks].stacks.values()) + hand.rebought
    assert all(stack >= 0 for stack in after[Stacks].stacks.values())
    assert hand.dealer_stack + hand.rebought - sum(r.payout for r in results) >= 0
