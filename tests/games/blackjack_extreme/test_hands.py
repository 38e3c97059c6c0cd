"""Scripted Blackjack Extreme hands, one rule at a time, through the pure game.

The table in most of them: seat 1 deals with $500.00; seats 2, 3 and 4 post
$10.00 blinds. Cards go: the players' down cards (2, 3, 4), the dealer's first
card, the players' up cards, the dealer's second card.
"""

from __future__ import annotations

import pytest

from controller.games.interface import Acted, Button, Dealt, Revealed, RuleError, Settled, Stacks
from tests.games.blackjack_extreme.script import Play

STACKS = {1: 50000, 2: 20000, 3: 20000, 4: 20000}
BLINDS = {2: 1000, 3: 1000, 4: 1000}


def three_players(*cards: str, **rules: object) -> Play:
    return Play(STACKS, 1, BLINDS, **rules).cards(*cards)


def test_the_deal_goes_round_from_the_dealers_left_down_then_up_and_hides_the_down_cards() -> None:
    play = Play({1: 50000, 3: 20000, 5: 20000, 6: 20000}, 5, {1: 1000, 3: 1000, 6: 1000})
    assert play.hand.phase == "blinds"
    play.cards("9h", "8c", "7d", "Ts", "Kh", "Qc", "Jd", "6s")
    dealt = [(e.target.to, e.target.seat, e.target.face_up) for e in play.events if isinstance(e, Dealt)]
    assert dealt == [("seat", 6, False), ("seat", 1, False), ("seat", 3, False), ("dealer", 5, False),
                     ("seat", 6, True), ("seat", 1, True), ("seat", 3, True), ("dealer", 5, False)]
    view = play.hand.view()
    assert [seat.seat for seat in view.seats] == [6, 1, 3]
    assert view.seats[0].hands[0].cards == (None, "Kh")
    assert view.dealer is not None and view.dealer.cards == (None, None) and view.dealer_seat == 5
    assert play.hand.phase == "upcard" and play.actions >= {"turn_up"}
    with pytest.raises(RuleError, match="no card now"):
        play.hand.verify_deal()


@pytest.mark.parametrize(("which", "shown"), [(1, ("Ts", None)), (2, (None, "6s"))])
def test_the_dealer_chooses_which_card_to_turn_up(which: int, shown: tuple[str | None, ...]) -> None:
    play = three_players("9h", "8c", "7d", "Ts", "Kh", "Qc", "Jd", "6s").act("turn_up", which)
    assert isinstance(play.events[-1], Revealed) and play.events[-2] == Acted(1, 0, "turn_up", which)
    view = play.hand.view()
    assert view.dealer is not None and view.dealer.cards == shown
    assert play.hand.phase == "betting"
    with pytest.raises(RuleError, match="turn_up takes 1"):
        three_players("9h", "8c", "7d", "Ts", "Kh", "Qc", "Jd", "6s").act("turn_up", 3)


def betting() -> Play:
    return three_players("9h", "8c", "7d", "Ts", "Kh", "Qc", "Jd", "6s").act("turn_up", 2)


def test_the_second_betting_round_checks_raises_to_at_least_double_within_the_stack_and_folds() -> None:
    play = betting()
    decision = play.hand.decision()
    assert decision is not None and decision.seat == 2
    assert decision.actions["raise"].low == 2000 and decision.actions["raise"].high == 20000
    assert decision.actions["raise"].spot == "main"
    play.act("check")
    with pytest.raises(RuleError, match=r"at least \$20.00 \(double the \$10.00 blind\); "
                                        r"the spot reads \$15.00"):
        play.act("raise", 1500)
    with pytest.raises(RuleError, match="table stakes"):
        play.act("raise", 25000)
    play.act("raise", 3500).act("fold")
    assert play.events[-2:] == [Acted(3, 0, "raise", 3500), Acted(4, 0, "fold", 500)]
    assert play.hand.phase == "dealer_choice"
    assert play.hand.committed() == {(2, "main"): 1000, (3, "main"): 3500}


def test_a_fold_keeps_half_the_blind_and_a_dealer_surrender_pays_half_the_blind_to_the_rest() -> None:
    play = betting().acts("check", ("raise", 3000), "fold", "surrender")
    assert play.results() == [(2, 0, "win", 1000, 500), (3, 0, "win", 3000, 500), (4, 0, "fold", 1000, -500)]
    assert isinstance(play.events[-1], Settled)
    session = play.finish()
    assert session[Stacks].stacks == {1: 49500, 2: 20500, 3: 20500, 4: 19500}
    assert session[Button].seat == 2


def test_everyone_folding_settles_at_once() -> None:
    play = betting().acts("fold", "fold", "fold")
    assert play.results() == [(2, 0, "fold", 1000, -500), (3, 0, "fold", 1000, -500),
                              (4, 0, "fold", 1000, -500)]


def test_a_natural_is_paid_3_to_2_when_turned_up_and_a_dealer_two_card_21_is_only_21() -> None:
    play = three_players("Ah", "9c", "7d", "Ts", "Kh", "Tc", "Td", "As").acts(
        ("turn_up", 1), "check", "check", "check", "play")
    view = play.hand.view()
    assert view.seats[0].hands[0].total == "natural" and view.seats[0].hands[0].status is None
    assert play.hand.decision() is not None and play.hand.decision().seat == 3
    play.acts("stand", "stand")
    assert "stand" in play.actions                                   # soft 21: she may still draw
    play.act("stand")
    assert play.results() == [(2, 0, "natural", 1000, 1500), (3, 0, "lose", 1000, -1000),
                              (4, 0, "lose", 1000, -1000)]


def test_a_raised_blackjack_is_11_and_must_take_a_card() -> None:
    play = three_players("Ah", "9c", "7d", "Ts", "Kh", "Tc", "Td", "7s").acts(
        ("turn_up", 2), ("raise", 2000), "check", "check", "play")
    assert play.hand.view().seats[0].hands[0].total == "11"
    assert "stand" not in play.actions and play.prompt == "Seat 2 (11): raised: must draw a card"
    with pytest.raises(RuleError, match="seat 2 raised: its hand must take at least one card"):
        play.act("stand")
    play.cards("9c")
    assert play.hand.view().seats[0].hands[0].total == "20" and "stand" in play.actions
    play.acts("stand", "stand", "stand")                              # 20, 19, 17 against 17
    assert play.results()[0] == (2, 0, "win", 2000, 2000)


def test_a_raised_hand_takes_at_least_one_card_and_may_take_more() -> None:
    play = three_players("5h", "9c", "7d", "Ts", "6d", "Tc", "Td", "8s").acts(
        ("turn_up", 2), ("raise", 2000), "check", "check", "play")
    play.cards("2c")
    assert "stand" in play.actions
    play.cards("5s").act("stand")                                      # 18
    play.acts("stand", "stand")
    assert play.results()[0] == (2, 0, "push", 2000, 0)               # 18 against 18: a push


def test_pairs_split_without_limit_each_new_hand_matching_the_whole_bet() -> None:
    play = three_players("8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s").acts(
        ("turn_up", 2), ("raise", 2000), "check", "check", "play")
    option = play.hand.decision().actions["split"]
    assert (option.low, option.high, option.spot) == (4000, 4000, "main")
    with pytest.raises(RuleError,
                       match=r"a split adds \$20.00, so the spot must read \$40.00; it reads \$30.00"):
        play.act("split", 3000)
    play.act("split", 4000).cards("8c").act("split", 6000)             # three hands of $20.00
    assert play.events[-1] == Acted(2, 0, "split", 2000)
    assert play.hand.committed()[(2, "main")] == 6000
    play.cards("3c", "Tc")                                             # hand 1: 8 3 T = 21, done
    play.cards("Kc").act("stand")                                      # hand 2: 8 K = 18
    play.cards("Ac").act("stand")                                      # hand 3: 8 A = 19
    play.acts("stand", "stand")                                        # seats 3 (19), 4 (17)
    assert play.results()[:3] == [(2, 0, "win", 2000, 2000), (2, 1, "win", 2000, 2000),
                                  (2, 2, "win", 2000, 2000)]


def test_split_blackjacks_pay_even_money_and_a_split_needs_the_stack() -> None:
    play = Play({1: 50000, 2: 2500}, 1, {2: 1000}).cards("Ah", "Ts", "Ad", "8s").acts(
        ("turn_up", 2), "check", "play", ("split", 2000))
    play.cards("Kh")                                                   # hand 1: A K, done at 21
    play.cards("Ac")                                                   # hand 2: A A: no split, stack
    assert "split" not in play.actions
    play.cards("9c")                                                   # hand 2: A A 9, 21 in three cards
    assert play.hand.phase == "dealer" and "stand" in play.actions     # 18 losing heads-up
    play.act("stand")
    results = play.hand.results() or ()
    assert [(r.outcome, r.payout, r.label) for r in results] == [
        ("win", 1000, "split blackjack 1:1"), ("win", 1000, None)]


def test_the_dealer_must_hit_16_or_less() -> None:
    play = three_players("Th", "Tc", "7d", "Ts", "9h", "8c", "Td", "6s").acts(
        ("turn_up", 2), "check", "check", "check", "play", "stand", "stand", "stand")
    assert play.hand.phase == "dealer" and "stand" not in play.actions
    assert play.prompt == "Dealer (seat 1) has 16: must hit. Draw a card"
    play.cards("5c")                                                   # 21: she stands
    assert [r[4] for r in play.results()] == [-1000, -1000, -1000]


def test_the_dealer_may_hit_a_soft_17_or_stand_on_it() -> None:
    hitting = three_players("Th", "Tc", "7d", "As", "9h", "8c", "Td", "6s").acts(
        ("turn_up", 2), "check", "check", "check", "play", "stand", "stand", "stand")
    assert hitting.hand.phase == "dealer" and {"hit", "stand"} <= hitting.actions
    hitting.act("hit")
    assert "stand" not in hitting.actions                              # she said hit: a card follows
    hitting.cards("Kc")                                                # a hard 17: she stands
    assert [r[2] for r in hitting.results()] == ["win", "win", "push"]


def test_the_dealer_must_stand_on_a_hard_17_against_more_than_one_player() -> None:
    play = three_players("Th", "Tc", "7d", "Ts", "9h", "8c", "Td", "7s").acts(
        ("turn_up", 2), "check", "check", "check", "play", "stand", "stand", "stand")
    assert play.results() == [(2, 0, "win", 1000, 1000), (3, 0, "win", 1000, 1000),
                              (4, 0, "push", 1000, 0)]


def test_heads_up_the_dealer_draws_on_a_losing_18() -> None:
    play = Play({1: 50000, 2: 20000}, 1, {2: 1000}).cards("Th", "Ts", "9h", "8s").acts(
        ("turn_up", 2), "check", "play", "stand")
    assert play.hand.phase == "dealer" and {"hit", "stand"} <= play.actions   # 18 losing to 19
    play.cards("2c")                                                   # 20: winning, she must stand
    assert play.results() == [(2, 0, "lose", 1000, -1000)]


def test_heads_up_draws_are_an_option() -> None:
    play = Play({1: 50000, 2: 20000}, 1, {2: 1000}, heads_up_draw=False).cards(
        "Th", "Ts", "9h", "8s").acts(("turn_up", 2), "check", "play", "stand")
    assert play.results() == [(2, 0, "win", 1000, 1000)]


def test_one_player_left_after_the_others_bust_is_heads_up() -> None:
    play = Play({1: 50000, 2: 20000, 3: 20000}, 1, {2: 1000, 3: 1000}).cards(
        "Th", "Tc", "Ts", "9h", "6c", "8s").acts(("turn_up", 2), "check", "check", "play", "stand")
    play.cards("Kc")                                                   # seat 3 busts
    assert play.hand.phase == "dealer" and "stand" in play.actions     # 18 losing to seat 2's 19
    play.act("stand")
    assert play.results() == [(2, 0, "win", 1000, 1000), (3, 0, "lose", 1000, -1000)]


def test_ties_push() -> None:
    play = Play({1: 50000, 2: 20000}, 1, {2: 1000}).cards("Th", "Ts", "9h", "9s").acts(
        ("turn_up", 1), "check", "play", "stand")
    assert play.results() == [(2, 0, "push", 1000, 0)]


def test_nothing_depends_on_the_dealer_when_every_hand_is_bust_or_a_natural() -> None:
    play = Play({1: 50000, 2: 20000, 3: 20000}, 1, {2: 1000, 3: 1000}).cards(
        "Ah", "Tc", "Ts", "Kh", "6c", "4s").acts(("turn_up", 2), "check", "check", "play")
    play.cards("Kc")                                                   # seat 3 busts: the dealer's 14 stands
    assert [e for e in play.events if isinstance(e, Revealed)][-1].card.rank == 10
    assert play.results() == [(2, 0, "natural", 1000, 1500), (3, 0, "lose", 1000, -1000)]


def test_a_card_turned_up_by_mistake_is_public_and_the_hand_plays_on() -> None:
    play = three_players("9h", "8c").act("expose", 2)
    assert play.events[-2:] == [Acted(2, 0, "expose"), Revealed("seat", 2, 0, play.events[0].card, 1)]
    assert play.hand.view().seats[0].hands[0].cards == ("9h",)
    with pytest.raises(RuleError, match="seat 4 has no card face down"):
        play.act("expose", 4)
    play.cards("7d", "Ts", "Kh", "Qc", "Jd", "6s").act("turn_up", 1)
    play.act("expose", 1)                                               # the dealer's hole card shows
    assert play.hand.view().dealer.cards == ("Ts", "6s")
    play.acts("check", "check", "check", "play")
    assert sum(isinstance(e, Revealed) for e in play.events) == 5      # 2, then 3 and 4 at play


def test_a_dealer_card_shown_during_the_deal_is_her_up_card() -> None:
    play = three_players("9h", "8c", "7d", "Ts").act("expose", 1).cards("Kh", "Qc", "Jd", "6s")
    assert play.hand.phase == "betting"
    assert play.hand.view().dealer.cards == ("Ts", None)


def test_void_turns_up_every_hidden_card() -> None:
    play = three_players("9h", "8c", "7d", "Ts", "Kh", "Qc", "Jd", "6s").act("turn_up", 2)
    shown = [(e.to, e.seat, str(e.card)) for e in play.hand.void() if isinstance(e, Revealed)]
    assert shown == [("seat", 2, "9h"), ("seat", 3, "8c"), ("seat", 4, "7d"), ("dealer", 1, "Ts")]


def test_a_card_is_refused_while_a_decision_is_awaited_and_actions_out_of_turn_are_refused() -> None:
    play = betting()
    with pytest.raises(RuleError, match="no card now: Seat 2: CHECK"):
        play.hand.deal(play.events[0].card, 99)
    for action in ("stand", "play", "turn_up", "count", "next", "rebuy"):
        with pytest.raises(RuleError, match=f"no {action} now"):
            play.hand.verify(action, 1)
    with pytest.raises(RuleError, match="has no 'double'"):
        play.hand.verify("double")
    with pytest.raises(RuleError, match="check takes no amount"):
        play.hand.verify("check", 5)
