"""A short-stacked dealer, exactly as the seed orders it: who must play, the chip count and
declining, the deal passing, and the payment order with unpaid winners pulling back."""

from __future__ import annotations

import pytest

from controller.games.blackjack_extreme.payments import Line
from controller.games.interface import (
    Acted,
    Button,
    ButtonMoved,
    RuleError,
    Session,
    Settled,
    StackChanged,
    Stacks,
)
from tests.games.blackjack_extreme.script import Play, make_game

# Seat 1 deals with $30.00. Seat 2 has a natural; seat 3 raises its $15.00 blind to $30.00 on a
# pair of nines and splits them (two hands of $30.00, both winning); seat 4 busts; seat 5 checks
# its $15.00 blind and wins; the dealer busts.
DEALER = 3000
SHORT_STACKS = {1: DEALER, 2: 20000, 3: 20000, 4: 20000, 5: 20000}
SHORT_BLINDS = {2: 1000, 3: 1500, 4: 1000, 5: 1500}
DEAL = ("Ah", "9c", "Td", "Th", "Ts", "Kh", "9d", "6c", "9s", "6s")


def short_hand(**rules: object) -> Play:
    play = Play(SHORT_STACKS, 1, SHORT_BLINDS, **rules).cards(*DEAL)
    play.acts(("turn_up", 2), "check", ("raise", 3000), "check", "check", "play")
    play.act("split", 6000).cards("Tc").act("stand").cards("Jc").act("stand")   # 19 and 19
    play.cards("Kc")                                                             # seat 4: 26
    play.act("stand")                                                            # seat 5: 19
    play.cards("9h")                                                             # the dealer: 25
    return play


ORDER = [
    Line("collect", None, 0, 1000, 1000),      # the losing bet first: the bankroll is now $40.00
    Line("natural", 2, 0, 1500, 1500),         # the natural in full
    Line("minimum", 3, 0, 500, 500),           # the minimum of each blind, clockwise
    Line("minimum", 5, 0, 500, 500),
    Line("blind", 3, 0, 1000, 1000),           # the rest of each blind, clockwise
    Line("blind", 5, 0, 500, 1000),            # all the dealer has left
]                                              # raises (and seat 3's second hand) go unpaid


def test_the_payment_order_with_two_split_hands_and_a_blackjack() -> None:
    play = short_hand(format="tournament")
    hand = play.hand
    assert hand.phase == "paying" and list(hand.lines) == ORDER
    assert hand.steps() == 7
    words = hand.view().payouts
    assert words[0] == "1. Collect $10.00 from the losing bets (seat 4 $10.00) <- now"
    assert words[1] == "2. Pay seat 2 $15.00: natural 3:2"
    assert words[5] == "6. Pay seat 5 $5.00 of $10.00 (all the dealer has left): the rest of its blind"
    assert words[6] == ("7. The dealer is out of chips: seat 3 hand 1, seat 3 hand 2, seat 5 "
                        "pull back their bets")
    assert play.prompt == "Step 1 of 7: Collect $10.00 from the losing bets (seat 4 $10.00). Then press NEXT"
    decision = hand.decision()
    assert decision is not None and decision.seat is None and set(decision.actions) == {"next"}

    # What each spot should hold as the steps go: losers emptied at once, winners paid line by line
    # (the line on the display included), the unpaid emptied at the pull-back.
    assert hand.committed() == {(2, "main"): 1000, (3, "main"): 6000, (4, "main"): 0, (5, "main"): 1500}
    play.act("next")
    assert play.events[-1] == Acted(1, 0, "collect", 1000)
    assert play.hand.committed()[(2, "main")] == 2500
    for _ in range(3):
        play.act("next")
    assert play.hand.committed() == {(2, "main"): 2500, (3, "main"): 7500, (4, "main"): 0, (5, "main"): 2000}
    play.acts("next", "next")
    assert play.events[-5:] == [Acted(2, 0, "paid", 1500), Acted(3, 0, "paid", 500), Acted(5, 0, "paid", 500),
                                Acted(3, 0, "paid", 1000), Acted(5, 0, "paid", 500)]
    assert play.hand.committed() == {(2, "main"): 2500, (3, "main"): 0, (4, "main"): 0, (5, "main"): 0}
    assert play.hand.results() is None
    play.act("next")
    assert play.events[-4:-1] == [Acted(3, 0, "pull_back", 3000), Acted(3, 1, "pull_back", 3000),
                                  Acted(5, 0, "pull_back", 1500)]
    assert isinstance(play.events[-1], Settled)
    assert play.results() == [(2, 0, "natural", 1000, 1500), (3, 0, "win", 3000, 1500),
                              (3, 1, "win", 3000, 0), (4, 0, "lose", 1000, -1000), (5, 0, "win", 1500, 1000)]
    labels = [r.label for r in play.hand.results() or ()]
    assert labels[1:3] == ["the dealer ran out: paid $15.00 of $30.00",
                           "the dealer ran out: paid $0.00 of $30.00"]


def test_a_dealer_who_covers_everything_pays_in_the_same_order_at_once() -> None:
    play = Play({**SHORT_STACKS, 1: 50000}, 1, SHORT_BLINDS).cards(*DEAL)
    play.acts(("turn_up", 2), "check", ("raise", 3000), "check", "check", "play")
    play.act("split", 6000).cards("Tc").act("stand").cards("Jc").act("stand").cards("Kc").act("stand")
    play.cards("9h")
    assert play.hand.phase == "complete"
    assert [line.step for line in play.hand.lines] == ["collect", "natural", "minimum", "minimum", "blind",
                                                       "blind", "raise", "raise"]
    assert play.hand.view().payouts[-1] == "Pay seat 3 hand 2 $30.00: a split hand, paid as a raise"
    assert play.finish()[Stacks].stacks[1] == 50000 + 1000 - 1500 - 6000 - 1500


def test_a_ring_dealer_who_runs_short_re_buys_to_pay_in_full() -> None:
    play = short_hand()
    decision = play.hand.decision()
    assert decision is not None and decision.seat == 1 and set(decision.actions) == {"rebuy", "leave"}
    assert play.hand.shortfall() == 5000                               # $90.00 owed, $40.00 to hand
    assert play.prompt.startswith("Dealer (seat 1) is $50.00 short: re-buy at least that much")
    with pytest.raises(RuleError, match=r"at least \$50.00"):
        play.act("rebuy", 4000)
    play.act("rebuy", 6000)
    assert play.results() == [(2, 0, "natural", 1000, 1500), (3, 0, "win", 3000, 3000),
                              (3, 1, "win", 3000, 3000), (4, 0, "lose", 1000, -1000),
                              (5, 0, "win", 1500, 1500)]
    events = play.game.finish(play.hand, play.session)
    assert events[0] == StackChanged(1, 9000, "rebuy")
    assert StackChanged(1, 1000, "result") in events
    assert events[-1] == ButtonMoved(2)


def test_a_ring_dealer_who_runs_short_and_leaves_pays_in_order_and_is_cashed_out() -> None:
    play = short_hand().act("leave")
    assert list(play.hand.lines) == ORDER
    for _ in range(7):
        play.act("next")
    session = play.finish()
    assert 1 not in session[Stacks].stacks and session[Button].seat == 2
    assert session[Stacks].stacks == {2: 21500, 3: 21500, 4: 19000, 5: 21000}
    assert sum(session[Stacks].stacks.values()) == sum(SHORT_STACKS.values())


def test_a_surrender_the_dealer_cannot_pay_in_full_is_paid_minimum_first() -> None:
    play = Play({1: 700, 2: 20000, 3: 20000}, 1, {2: 1000, 3: 1500}, format="tournament")
    play.cards("9h", "8c", "Ts", "Kh", "Qc", "6s").acts(("turn_up", 2), "check", "check", "surrender")
    # $12.50 owed ($5.00 and $7.50), $7.00 to pay with: seat 2's minimum, then $2.00 of seat 3's.
    assert [(line.step, line.seat, line.amount) for line in play.hand.lines] == [
        ("minimum", 2, 500), ("minimum", 3, 200)]
    for _ in range(play.hand.steps()):
        play.act("next")
    assert play.results() == [(2, 0, "win", 1000, 500), (3, 0, "win", 1500, 200)]


def test_the_positions_the_dealer_covers_must_play() -> None:
    game = make_game()
    session = Session.of(Stacks({1: 1200, 2: 20000, 3: 20000, 4: 20000, 6: 300}), Button(1))
    assert game.positions(session) == (2, 3, 4)           # seat 6 holds less than the minimum
    assert game.must_play(session) == (2, 3)               # $12.00 pays two minimums of $5.00
    problems = game.bet_problems({3: {"main": 500}}, session)
    assert problems == ["seat 2 must play: the dealer (seat 1, $12.00) can pay it at least the $5.00 minimum"]
    assert game.bet_problems({2: {"main": 500}, 3: {"main": 1500}}, session) == []


def test_a_player_the_dealer_cannot_cover_may_ask_for_a_chip_count_and_decline() -> None:
    play = Play({1: 1200, 2: 20000, 3: 20000, 4: 20000}, 1, {2: 500, 3: 500, 4: 500})
    decision = play.hand.decision()
    assert decision is not None and decision.card is not None and decision.card.seat == 2
    assert set(decision.actions) == {"count", "decline"}
    assert play.prompt.startswith("Dealer (seat 1) has $12.00: covers 2, 3 for the $5.00 minimum. "
                                  "Seat 4 may ask for a chip count")
    play.act("count", 4)
    assert play.events[-1] == Acted(4, 0, "count", 1200)
    with pytest.raises(RuleError, match=r"seat 3 must play: the dealer's \$12.00 pays it"):
        play.act("decline", 3)
    play.act("decline", 4)
    assert play.hand.committed() == {(2, "main"): 500, (3, "main"): 500}
    play.cards("9h", "8c", "Ts", "Kh", "Qc", "6s")                # seat 4 gets no card
    assert [seat.seat for seat in play.hand.view().seats if seat.hands[0].cards] == [2, 3]
    with pytest.raises(RuleError, match="no count now"):
        play.act("count", 2)


def test_when_nobody_will_play_a_dealer_short_of_one_minimum_the_deal_passes() -> None:
    play = Play({1: 300, 2: 20000, 3: 20000}, 1, {3: 500})
    assert play.hand.required == ()
    play.act("decline", 3)
    assert play.results() == []
    assert play.game.finish(play.hand, play.session) == (ButtonMoved(2),)

    game, session = play.game, Session.of(Stacks({1: 300, 2: 20000, 3: 20000}), Button(1))
    assert game.bet_problems({}, session) == [
        "no seat has a blind",
        "the dealer (seat 1) cannot cover one minimum: pass the deal (pass_deal) if nobody wants to play"]
    assert game.command("pass_deal", {}, session, False) == (ButtonMoved(2),)
    with pytest.raises(RuleError, match="enough to cover"):
        game.command("pass_deal", {}, Session.of(Stacks({1: 3000, 2: 20000}), Button(1)), False)
