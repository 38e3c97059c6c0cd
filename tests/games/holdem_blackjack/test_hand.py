"""Scripted hands of Hold'em Blackjack, one rule at a time (the cards and every action given)."""

from __future__ import annotations

import pytest

from controller.games.holdem_blackjack.hand import Award
from controller.games.interface import (
    Acted,
    ButtonMoved,
    Dealt,
    Option,
    Pot,
    PotAwarded,
    PotsChanged,
    Revealed,
    RuleError,
    Settled,
    StackChanged,
    Target,
    WagerResult,
)
from tests.games.holdem_blackjack.play import Play

FOUR = {1: 10000, 2: 10000, 3: 10000, 4: 10000}


def test_a_full_hand_of_four_from_the_blinds_to_the_stacks() -> None:
    play = Play(dict(FOUR), button=1, ante=50, chip_unit=50)
    # Antes and blinds are posted before the deal: antes straight into the pot, blinds as bets.
    assert play.events == [
        Acted(2, 0, "ante", 50), Acted(3, 0, "ante", 50), Acted(4, 0, "ante", 50), Acted(1, 0, "ante", 50),
        Acted(2, 0, "small_blind", 100), Acted(3, 0, "big_blind", 200),
        PotsChanged((Pot(200, (1, 2, 3, 4)),), 0),
    ]
    assert play.hand.committed() == {(1, "bet"): 0, (2, "bet"): 100, (3, "bet"): 200, (4, "bet"): 0}
    # One card face down to each, from the left of the button.
    decision = play.hand.decision()
    assert decision is not None and decision.seat is None and decision.actions == {}
    assert decision.card == Target("seat", 2, 0, face_up=False)
    assert decision.prompt == "Deal seat 2 its first card face down"
    with pytest.raises(RuleError, match="no seat is betting now: the cards are being dealt"):
        play.hand.verify("call", 200)
    play.card("Th", "9c", "5d", "As")
    assert [e.target.seat for e in play.of(Dealt)] == [2, 3, 4, 1]
    assert all(not e.target.face_up for e in play.of(Dealt))
    # First round: fixed limit, a raise is the big blind, from the left of the big blind.
    assert play.turn == 4
    assert play.options == {"call": Option(200, 200, "bet"), "raise": Option(400, 400, "bet"),
                            "fold": Option()}
    assert play.prompt == "Seat 4: $2.00 to call, raise to $4.00, or fold"
    play.raise_()
    play.fold()
    play.call()
    events = play.call()
    assert events == [Acted(3, 0, "call", 400), PotsChanged((Pot(1400, (2, 3, 4)),), 0)]
    assert play.hand.phase == "second_card" and play.hand.committed()[(3, "bet")] == 0
    # Second card face up to the seats still in; second round at twice the big blind from the button's left.
    play.card("Qh", "7s", "6c")
    dealt = [(e.target.seat, e.target.face_up) for e in play.of(Dealt)]
    assert dealt[-3:] == [(2, True), (3, True), (4, True)]
    assert play.turn == 2 and play.options["bet"] == Option(400, 400, "bet")
    play.bet()
    play.raise_(800)
    play.call()
    play.call()
    assert play.hand.phase == "completion" and sum(p.amount for p in play.hand.pots) == 3800
    # Hand completion in turn: a card is a hit, face down; a seventh card ends the turn by itself.
    assert play.turn == 2
    play.stand()
    play.card("5h")
    play.stand()
    assert play.turn == 4
    play.card("2d", "Ac", "2h", "3c")
    assert play.turn == 4
    play.card("2s")
    assert play.hand.phase == "final_round" and play.hand.player(4).stood
    assert all(not e.target.face_up for e in play.of(Dealt)[-6:])
    # Final round: spread limit 2x to 10x the big blind, from the button's left.
    assert play.turn == 2 and play.options["bet"] == Option(400, 2000, "bet")
    play.check()
    play.bet(2000)
    assert play.options["raise"] == Option(2400, 4000, "bet")
    play.raise_(4000)
    play.fold()
    events = play.call()
    # Showdown: seat 4 raised last and shows first; seat 3's 21 loses to the charlie and is mucked unseen.
    assert events[:2] == [Acted(3, 0, "call", 4000), PotsChanged((Pot(11800, (3, 4)),), 0)]
    revealed = [e for e in events if isinstance(e, Revealed)]
    assert [(e.seat, str(e.card)) for e in revealed] == [
        (4, "5d"), (4, "2d"), (4, "Ac"), (4, "2h"), (4, "3c"), (4, "2s")]
    assert [e for e in events if isinstance(e, PotAwarded)] == [PotAwarded(0, (4,), 11800, 0)]
    assert events[-1] == Settled((
        WagerResult(1, "bet", 0, "fold", 50, -50),
        WagerResult(2, "bet", 0, "fold", 1250, -1250),
        WagerResult(3, "bet", 0, "lose", 5250, -5250),
        WagerResult(4, "bet", 0, "win", 5250, 6550, "7-card charlie"),
    ))
    view = {s.seat: s.hands[0] for s in play.hand.view().seats}
    assert (view[3].cards, view[3].total) == ((None, "7s", None), "shows 7")
    assert view[3].status == "big blind, mucked"
    assert view[4].cards == ("5d", "6c", "2d", "Ac", "2h", "3c", "2s") and view[4].total == "7-card charlie"
    assert play.hand.view().payouts == (
        "Pot 1 of $118.00: seat 4 takes $118.00", "Seat 3: muck the hand unseen")
    assert play.game.finish(play.hand, play.session) == (
        StackChanged(1, 9950, "result"), StackChanged(2, 8750, "result"),
        StackChanged(3, 4750, "result"), StackChanged(4, 16550, "result"), ButtonMoved(2))


def test_three_way_all_in_with_two_side_pots() -> None:
    play = Play({1: 10000, 2: 500, 3: 1200, 4: 2000}, button=1, chip_unit=100)
    play.card("Ah", "Kh", "9h", "8h")
    play.raise_(400)                        # seat 4
    play.raise_(600)                        # seat 1
    assert play.options["call"] == Option(500, 500, "bet")
    assert "raise" not in play.options
    play.call()                             # seat 2: all in for $5
    play.raise_(800)                        # seat 3: the third raise caps the round
    assert "raise" not in play.options
    play.call()
    events = play.call()
    assert events[-1] == PotsChanged((Pot(2000, (1, 2, 3, 4)), Pot(900, (1, 3, 4))), 0)
    play.card("Kd", "Qd", "Td", "Jd")
    assert play.turn == 3                   # seat 2 is all in: passed over
    play.bet()                              # seat 3: all in for its last $4
    play.raise_(800)                        # seat 4
    play.raise_(1200)                       # seat 1
    events = play.call()                    # seat 4: all in
    assert events == [Acted(4, 0, "call", 1200), PotsChanged(
        (Pot(2000, (1, 2, 3, 4)), Pot(2100, (1, 3, 4)), Pot(1600, (1, 4))), 0)]
    for seat in (2, 3, 4, 1):               # every seat completes its hand, all-ins too
        assert play.turn == seat
        events = play.stand()
    # Only seat 1 has chips: no final round; each pot goes to the best hand among its seats.
    assert [e for e in events if isinstance(e, PotAwarded)] == [
        PotAwarded(0, (2,), 2000, 0), PotAwarded(1, (3,), 2100, 0), PotAwarded(2, (4,), 1600, 0)]
    assert {e.seat for e in events if isinstance(e, Revealed)} == {2, 3, 4}
    assert [(r.seat, r.outcome, r.payout, r.label) for r in play.hand.results() or ()] == [
        (1, "lose", -2000, None), (2, "win", 1500, "21"), (3, "win", 900, "20"), (4, "lose", -400, "19")]
    assert play.hand.final_stacks() == {1: 8000, 2: 2000, 3: 2100, 4: 1600}
    assert play.hand.view().pots == (Pot(2000, (1, 2, 3, 4)), Pot(2100, (1, 3, 4)), Pot(1600, (1, 4)))


def split_hand(**options: object) -> Play:
    """Three seats, antes of $1, seat 1 folds, seats 2 and 3 tie on 20 for a pot of $7."""
    play = Play({1: 10000, 2: 10000, 3: 10000}, button=1, ante=100, **options)
    play.card("Kc", "Jc", "5c")
    play.fold()
    play.call()
    play.check()
    play.card("Qc", "Tc")
    play.check()
    play.check()
    play.stand()
    play.stand()
    return play


def test_a_split_pot_gives_the_odd_chip_to_the_first_winner_left_of_the_button() -> None:
    play = split_hand()
    play.check()
    events = play.check()
    assert [e for e in events if isinstance(e, PotAwarded)] == [
        PotAwarded(0, (2,), 400, 0), PotAwarded(0, (3,), 300, 0)]
    assert play.hand.awards == (Award(0, 2, 400), Award(0, 3, 300))
    assert [(r.seat, r.outcome, r.payout) for r in play.hand.results() or ()] == [
        (1, "fold", -100), (2, "win", 100), (3, "push", 0)]


def test_the_odd_chip_may_go_by_showdown_order() -> None:
    play = split_hand(odd_chip="showdown_order")
    play.check()
    play.bet(400)                           # seat 3 bets last: it shows first
    events = play.call()
    assert [e for e in events if isinstance(e, PotAwarded)] == [
        PotAwarded(0, (3,), 800, 0), PotAwarded(0, (2,), 700, 0)]
    assert [e.seat for e in events if isinstance(e, Revealed)] == [3, 2]


def test_the_showdown_may_start_left_of_the_button() -> None:
    play = split_hand(odd_chip="showdown_order", showdown_order="left_of_button")
    play.check()
    play.bet(400)
    events = play.call()
    assert [e.seat for e in events if isinstance(e, Revealed)] == [2, 3]
    assert [e for e in events if isinstance(e, PotAwarded)] == [
        PotAwarded(0, (2,), 800, 0), PotAwarded(0, (3,), 700, 0)]


def showdown(*hands: tuple[str, ...], **options: object) -> Play:
    """Two seats (button seat 1) play these hands (first card, second card, hits) and check down."""
    play = Play({1: 10000, 2: 10000}, button=1, **options)
    one, two = hands
    play.card(two[0], one[0])
    play.call()
    play.check()
    play.card(two[1], one[1])
    play.check()
    play.check()
    for seat, cards in ((2, two), (1, one)):
        play.card(*cards[2:])
        if play.turn == seat and play.hand.phase == "completion":
            play.stand()
    play.check()
    play.check()
    return play


def winners(play: Play) -> dict[int, int]:
    return {a.seat: a.amount for a in play.hand.awards}


def test_ranking_charlie_then_21_then_closest_then_closest_from_above() -> None:
    charlie = ("2c", "3c", "2d", "3d", "Ac", "Ad", "2h")               # 7 cards, 14
    assert winners(showdown(charlie, ("As", "Kd"))) == {1: 400}
    assert winners(showdown(("Ks", "Qd", "As"), ("4c", "2d", "8h", "7s"))) == {1: 200, 2: 200}
    assert winners(showdown(("Ks", "8d"), ("9s", "Td"))) == {2: 400}
    assert winners(showdown(("Ks", "8d", "5h"), ("Qs", "2d"))) == {2: 400}   # over 21 loses to 12
    assert winners(showdown(("Ks", "8d", "9h"), ("Qs", "9d", "5c"))) == {2: 400}   # 24 beats 27
    bust_charlie = ("Tc", "2c", "2d", "3d", "Ac", "Ad", "5h")          # 7 cards over 21: no charlie
    assert winners(showdown(bust_charlie, ("Qs", "2d"))) == {2: 400}


def test_charlie_ties_split_or_go_by_total() -> None:
    low = ("2c", "3c", "2d", "3d", "Ac", "Ad", "2h")                   # 14
    high = ("2s", "3s", "4d", "3h", "Ah", "As", "6h")                  # 20
    assert winners(showdown(low, high)) == {1: 200, 2: 200}
    assert winners(showdown(low, high, charlie_ties="higher_total")) == {2: 400}
    assert winners(showdown(low, high, charlie_ties="lower_total")) == {1: 400}


def test_a_busted_seat_stays_in_may_only_stand_and_nobody_can_tell() -> None:
    play = Play({1: 10000, 2: 10000}, button=1)
    play.card("Ts", "9d")
    play.call()
    play.check()
    play.card("8s", "9h")
    play.check()
    play.check()
    before = play.hand.decision()
    play.card("5c")                         # seat 2: 23, over 21
    after = play.hand.decision()
    assert before is not None and after is not None
    assert after.card is None and after.actions == {"stand": Option()} and after.seat == 2
    assert (after.prompt, after.actions) == (before.prompt, before.actions)
    assert play.hand.view() .seats[1].hands[0].total == "shows 8"
    assert not play.hand.can_deal() and play.hand.can("stand")
    play.stand()
    play.stand()
    assert play.hand.phase == "final_round" and 2 in play.hand.live()
    play.bet(2000)                          # the busted seat may still bet, and bluff
    play.fold()
    assert winners(play) == {2: 400}


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_then_last() -> None:
    play = Play({3: 10000, 5: 10000}, button=5)
    assert play.events[:2] == [Acted(5, 0, "small_blind", 100), Acted(3, 0, "big_blind", 200)]
    play.card("2c", "3c")
    assert play.turn == 5
    play.call()
    assert play.turn == 3                   # the big blind's option
    assert "raise" in play.options
    play.check()
    play.card("4c", "5c")
    assert play.turn == 3
    other = Play({3: 10000, 5: 10000}, button=5, heads_up_button_small_blind=False)
    assert other.events[:2] == [Acted(3, 0, "small_blind", 100), Acted(5, 0, "big_blind", 200)]


def test_without_the_big_blinds_option_a_called_round_ends_at_once() -> None:
    play = Play(dict(FOUR), button=1, big_blind_option=False)
    play.card("2c", "3c", "4c", "5c")
    play.call()
    play.call()
    play.call()
    assert play.hand.phase == "second_card"
    raised = Play(dict(FOUR), button=1, big_blind_option=False)
    raised.card("2c", "3c", "4c", "5c")
    raised.raise_()
    raised.call()
    raised.call()
    assert raised.turn == 3 and "raise" in raised.options


def test_a_bet_nobody_calls_comes_back_and_a_hand_won_by_folds_shows_nothing() -> None:
    play = Play(dict(FOUR), button=1, rake_percent=10)
    play.card("2c", "3c", "4c", "5c")
    play.raise_()
    play.fold()
    play.fold()
    events = play.fold()
    assert events == [
        Acted(3, 0, "fold"), Acted(4, 0, "uncalled", 200), PotsChanged((Pot(500, (4,)),), 0),
        PotAwarded(0, (4,), 500, 0), events[-1]]
    assert not play.of(Revealed) and play.hand.rake == 0          # no rake: over in the first round
    assert [(r.seat, r.payout) for r in play.hand.results() or ()] == [(1, 0), (2, -100), (3, -200), (4, 300)]
    assert [r.outcome for r in play.hand.results() or ()] == ["fold", "fold", "fold", "win"]


def test_the_rake_once_the_second_card_is_dealt_with_its_cap_and_chip() -> None:
    play = Play(dict(FOUR), button=1, rake_percent=10, rake_cap=150, chip_unit=50)
    play.card("2c", "3c", "4c", "5c")
    play.call()
    play.call()
    play.call()
    events = play.check()
    assert events[-1] == PotsChanged((Pot(800, (1, 2, 3, 4)),), 50)        # 10% of $8, in 50-cent chips
    play.card("6c", "7c", "8c", "9c")
    play.bet()
    play.call()
    play.call()
    events = play.call()
    assert events[-1] == PotsChanged((Pot(2400, (1, 2, 3, 4)),), 150)     # $2.40 capped at $1.50
    for _ in range(4):
        play.stand()
    for _ in range(3):
        play.check()
    events = play.check()
    assert PotAwarded(0, (1,), 2250, 150) in events                         # 9, 5: 14 wins
    assert sum(r.payout for r in play.hand.results() or ()) == -150
    assert play.hand.view().payouts == (
        "Pot 1 of $24.00, rake $1.50: seat 1 takes $22.50", "Rake $1.50 to the drop box",
        "Seat 2: muck the hand unseen", "Seat 3: muck the hand unseen", "Seat 4: muck the hand unseen")
    raked_early = Play(dict(FOUR), button=1, rake_percent=10, rake_first_round=True)
    raked_early.card("2c", "3c", "4c", "5c")
    for _ in range(3):
        raked_early.fold()
    assert raked_early.hand.rake == 0                                       # $3 raked 10% is 30c: no $1 chip


def test_every_hand_is_shown_when_losing_hands_may_not_be_mucked() -> None:
    play = showdown(("Ks", "8d"), ("9s", "Td"), muck_losing_hands=False)
    assert {e.seat for e in play.of(Revealed)} == {1, 2}
    assert [r.label for r in play.hand.results() or ()] == ["18", "19"]
    assert {s.seat: s.hands[0].status for s in play.hand.view().seats} == {
        1: "button, small blind, loses", 2: "big blind, wins $4.00"}


def test_short_stacks_post_all_in_and_stay_in() -> None:
    play = Play({1: 10000, 2: 60, 3: 150}, button=1, ante=50, chip_unit=10)
    assert play.events[:5] == [Acted(2, 0, "ante", 50), Acted(3, 0, "ante", 50), Acted(1, 0, "ante", 50),
                               Acted(2, 0, "small_blind", 10), Acted(3, 0, "big_blind", 100)]
    play.card("Ac", "Kc", "2c")
    # Nobody else can act: seat 1 need only match the largest all-in, and cannot raise.
    assert play.turn == 1 and play.options == {
        "call": Option(100, 100, "bet"), "fold": Option()}
    play.call()
    assert play.hand.phase == "second_card"
    assert play.hand.pots == (Pot(180, (1, 2, 3)), Pot(180, (1, 3)))


def test_refusals_name_the_amounts() -> None:
    play = Play({1: 10000, 2: 10000, 3: 700}, button=1)
    play.card("2c", "3c", "4c")
    with pytest.raises(RuleError,
                       match=r"^seat 1: \$2.00 to call, so the spot should read \$2.00; it reads \$1.00$"):
        play.hand.verify("call", 100)
    with pytest.raises(RuleError, match=r"^seat 1: a raise makes the bet \$4.00; the spot reads \$5.00$"):
        play.hand.verify("raise", 500)
    with pytest.raises(RuleError, match="no seat is completing its hand now: Seat 1: "):
        play.hand.verify("stand")
    with pytest.raises(RuleError, match="Hold'em Blackjack has no 'double'"):
        play.hand.verify("double")
    with pytest.raises(RuleError, match="no card now: the seats are betting"):
        play.hand.verify_deal()
    play.call()
    play.call()
    with pytest.raises(RuleError,
                       match=r"^seat 3 has \$7.00 in all \(table stakes\); the spot reads \$8.00$"):
        play.hand.verify("raise", 800)
