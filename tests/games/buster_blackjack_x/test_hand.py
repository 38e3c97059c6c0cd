"""One hand of Buster Blackjack X, decision by decision: the deal, the check, insurance, hits,
doubles, splits, surrender, the player-dealer's draw, settlement, Blazing 7's, a void."""

from __future__ import annotations

import pytest

from controller.games.interface import (
    Acted,
    Alerted,
    Dealt,
    MeterChanged,
    Option,
    Progressive,
    ProgressiveHit,
    Revealed,
    RuleError,
    Settled,
    Stacks,
    Target,
)
from tests.games.buster_blackjack_x.helpers import Play

ONE = {1: {"main": 1000}}


def test_the_deal_goes_seat_by_seat_then_up_card_then_hole_card_face_down() -> None:
    play = Play({1: {"main": 1000}, 4: {"main": 2000}})
    targets = []
    for text in ("9h", "8c", "6d", "Th", "7s", "Qc"):
        decision = play.hand.decision()
        assert decision is not None and decision.actions == {} and decision.seat is None
        targets.append(decision.card)
        play.card(text)
    seats = [Target("seat", 1, 0, True), Target("seat", 4, 0, True)]
    assert targets == [*seats, Target("dealer", None, 0, True), *seats, Target("dealer", None, 0, False)]
    view = play.hand.view()
    assert view.dealer is not None and view.dealer.cards == ("6d", None) and view.dealer.total == "6"
    assert [h.cards for s in view.seats for h in s.hands] == [("9h", "Th"), ("8c", "7s")]
    assert play.hand.phase == "players" and play.hand.decision().seat == 1  # type: ignore[union-attr]


def test_a_player_dealer_natural_under_a_ten_ends_the_hand_at_the_check() -> None:
    play = Play({1: {"main": 1000}, 2: {"main": 1000, "side": 500}})
    last = play.card("Ah", "9c", "Kd", "Kh", "9d", "As")
    assert play.kinds(last) == ["Dealt", "Revealed", "Settled"]
    assert play.results() == [(1, "main", 0, "natural", 2000),       # Blackjack X beats a Natural 31
                              (2, "main", 0, "lose", -1000), (2, "side", 0, "lose", -500)]
    assert play.hand.decision() is None


def test_insurance_with_an_ace_up_then_the_check_pays_it() -> None:
    play = Play({1: {"main": 1000}, 2: {"main": 3000}})
    play.card("9h", "8c", "Ac", "9s", "8d", "Qc")
    decision = play.hand.decision()
    assert decision is not None and decision.seat == 1 and decision.card is None
    assert decision.actions == {"insurance": Option(1, 500, "insurance"), "next": Option()}
    with pytest.raises(RuleError, match=r"at most \$5.00"):
        play.hand.verify("insurance", 600)
    with pytest.raises(RuleError, match="insurance spot first"):
        play.hand.verify("insurance", 0)
    with pytest.raises(RuleError, match="insurance first"):
        play.hand.verify_deal()
    assert play.act("insurance", 500) == [Acted(1, 0, "insurance", 500)]
    assert play.hand.committed()[(1, "insurance")] == 500
    last = play.act("next")
    assert play.kinds(last) == ["Acted", "Revealed", "Settled"]
    assert last[0] == Acted(2, 0, "no_insurance")
    assert play.results() == [(1, "main", 0, "lose", -1000), (1, "insurance", 0, "win", 1000),
                              (2, "main", 0, "lose", -3000)]


def test_insurance_loses_when_the_hole_card_makes_no_natural_and_play_goes_on() -> None:
    play = Play(ONE)
    play.card("9h", "Ac", "9s", "7d")
    play.act("insurance", 300)
    assert play.hand.phase == "players" and play.hand.decision().seat == 1  # type: ignore[union-attr]
    play.act("stand")
    assert play.results() == [(1, "main", 0, "lose", -1000), (1, "insurance", 0, "lose", -300)]  # 18 v 28


def test_insurance_on_blackjack_x_is_an_option_and_is_not_offered_when_switched_off() -> None:
    play = Play(ONE, insurance_pays_on_blackjack_x=False)
    play.card("9h", "Ac", "9s", "Kc")
    play.act("insurance", 500)
    assert play.results()[-1] == (1, "insurance", 0, "lose", -500)
    off = Play(ONE, insurance=False)
    off.card("9h", "Ac", "9s", "Kc")
    assert off.hand.phase == "complete"


def test_hits_stand_and_the_player_dealer_completes_for_a_bonus() -> None:
    play = Play({1: {"main": 1000, "side": 500}})
    play.card("Th", "9c", "2d", "8s")                       # 12 against a 9 up, hole 8 (17)
    decision = play.hand.decision()
    assert decision is not None and set(decision.actions) == {"stand", "double", "surrender"}
    assert decision.card == Target("seat", 1, 0, True)
    assert "draw a card to hit" in decision.prompt
    play.card("5h")                                          # 17
    assert set(play.hand.decision().actions) == {"stand"}    # type: ignore[union-attr]
    last = play.act("stand")
    assert play.kinds(last) == ["Acted", "Revealed", "Settled"]  # the player-dealer stands on 17
    assert play.results() == [(1, "main", 0, "push", 0), (1, "side", 0, "lose", -500)]


def test_22_to_30_ends_the_turn_and_loses_and_31_ends_it_too() -> None:
    play = Play({1: {"main": 1000}, 2: {"main": 1000}})
    play.card("Th", "Ac", "6d", "9s", "5c", "8h")          # seat 1: 19; seat 2: soft 6; up 6, hole 8
    play.card("5d")                                          # seat 1: 24, its turn ends
    assert play.hand.turn == (2, 0)
    last = play.card("5h")                                   # seat 2: 31 in three cards
    assert play.kinds(last) == ["Dealt", "Revealed"] and play.hand.phase == "dealer"
    play.card("9c")                                          # the player-dealer: 14 + 9 = 23, a bust
    assert play.results() == [(1, "main", 0, "lose", -1000), (2, "main", 0, "natural", 3000)]
    assert play.hand.view().seats[1].hands[0].total == "31"


def test_no_draw_for_the_player_dealer_when_nothing_depends_on_it() -> None:
    play = Play(ONE)
    play.card("Th", "6d", "9s", "8h")
    play.card("5d")                                          # 24: lost
    assert play.hand.phase == "complete"
    assert play.results() == [(1, "main", 0, "lose", -1000)]


def test_a_bonus_paid_on_a_five_card_bust() -> None:
    five = Play({1: {"main": 1000, "side": 500}})
    five.card("Th", "2d", "9s", "3h")                       # 5
    five.act("stand")
    five.card("4c", "5c", "Kd")                              # 9, 14, 24: a bust in five cards
    assert five.results() == [(1, "main", 0, "win", 1000),
                              (1, "side", 0, "win", 2000)]
    assert five.hand.settled is not None
    assert five.hand.settled.results[1].label == "bust in 5 cards pays 4 to 1"


def test_double_reads_the_main_spot_and_takes_one_card() -> None:
    play = Play({1: {"main": 1000}})
    play.card("5h", "6d", "6s", "Ts")                       # 11 against a 6
    options = play.hand.decision().actions                   # type: ignore[union-attr]
    assert options["double"] == Option(1001, 2000, "main")
    for amount, words in ((1000, "a double adds up to"), (2100, "a double adds up to")):
        with pytest.raises(RuleError, match=words):
            play.hand.verify("double", amount)
    assert play.act("double", 1800) == [Acted(1, 0, "double", 800)]
    assert play.hand.committed()[(1, "main")] == 1800
    assert play.hand.decision().actions == {}                # type: ignore[union-attr]
    play.card("Kd")                                           # 21, and the turn is over
    assert play.hand.phase == "dealer"                        # the player-dealer's 16 draws
    play.card("9c")                                           # 25: a bust
    assert play.results() == [(1, "main", 0, "win", 1800)]


def test_no_double_after_a_hit_nor_surrender() -> None:
    play = Play(ONE)
    play.card("5h", "6d", "2s", "Ts")
    play.card("2c")                                           # a hit: 9
    assert set(play.hand.decision().actions) == {"stand"}     # type: ignore[union-attr]
    with pytest.raises(RuleError, match="first two cards"):
        play.hand.verify("double", 2000)
    with pytest.raises(RuleError, match="surrender only before"):
        play.hand.verify("surrender")


def test_surrender_forfeits_half() -> None:
    play = Play({1: {"main": 1001}, 2: {"main": 1000}})
    play.card("Th", "9c", "Ts", "6d", "Td", "8h")
    assert play.act("surrender") == [Acted(1, 0, "surrender")]
    play.act("stand")
    assert play.results() == [(1, "main", 0, "surrender", -501), (2, "main", 0, "win", 1000)]


def test_split_double_after_split_and_surrender_after_split() -> None:
    play = Play({1: {"main": 1000, "progressive": 100}})
    play.card("8h", "6d", "8c", "Ts")                        # a pair of 8s against 16
    options = play.hand.decision().actions                    # type: ignore[union-attr]
    assert options["split"] == Option(2000, 2000, "main")
    with pytest.raises(RuleError, match=r"exactly \$10.00 more"):
        play.hand.verify("split", 1500)
    assert play.act("split", 2000) == [Acted(1, 0, "split", 1000)]
    assert play.hand.decision().card == Target("seat", 1, 0, True)  # type: ignore[union-attr]
    assert play.hand.decision().actions == {}                # type: ignore[union-attr]
    play.card("3d")                                           # hand 1: 8 3 = 11
    assert play.hand.decision().actions["double"] == Option(2001, 3000, "main")  # type: ignore[union-attr]
    assert play.act("double", 3000) == [Acted(1, 0, "double", 1000)]
    play.card("Kh")                                           # hand 1: 21, doubled
    assert play.hand.turn == (1, 1)
    play.card("8s")                                           # hand 2: 8 8 again
    assert "split" in play.hand.decision().actions            # type: ignore[union-attr]
    play.act("surrender")
    assert play.hand.phase == "dealer"                          # 16: the player-dealer draws
    play.card("5c")                                           # 21
    assert play.results() == [(1, "main", 0, "push", 0), (1, "main", 1, "surrender", -500),
                              (1, "progressive", 0, "lose", -100)]
    view = play.hand.view()
    assert [h.status for h in view.seats[0].hands] == ["doubled", "surrendered"]
    assert [h.wager for h in view.seats[0].hands] == [2000, 1000]


def test_three_splits_at_most_and_aces_once_with_one_card_each() -> None:
    play = Play(ONE)
    play.card("8h", "6d", "8c", "Ts")
    for main in (2000, 3000, 4000):
        play.act("split", main)
        play.card("8d")                                       # another 8 each time
    assert len(play.hand.seats[0].hands) == 4
    with pytest.raises(RuleError, match="three splits at most"):
        play.hand.verify("split", 5000)
    aces = Play(ONE)
    aces.card("Ah", "6d", "Ac", "Ts")
    aces.act("split", 2000)
    aces.card("Kh")                                           # a split ace and a king: 31, not a natural
    assert aces.hand.turn == (1, 1)
    aces.card("Ad")                                           # a pair of aces again: no resplit
    assert aces.hand.phase == "dealer"                        # 16 draws: the 31 depends on it
    aces.card("5c")
    assert aces.results() == [(1, "main", 0, "win", 1000),    # 31 in two cards pays even money
                              (1, "main", 1, "lose", -1000)]  # 2 against 21


def test_hit_button_makes_a_hand_wait_for_hit() -> None:
    play = Play(ONE, hit_button=True)
    play.card("5h", "6d", "8s", "Ts")
    decision = play.hand.decision()
    assert decision is not None and decision.card is None and "hit" in decision.actions
    with pytest.raises(RuleError, match="press HIT"):
        play.hand.verify_deal()
    assert play.act("hit") == [Acted(1, 0, "hit")]
    assert play.hand.decision().actions == {}               # type: ignore[union-attr]
    play.card("2c")
    assert play.hand.decision().card is None                 # type: ignore[union-attr]
    plain = Play(ONE)
    plain.card("5h", "6d", "8s", "Ts")
    with pytest.raises(RuleError, match="a card drawn is the hit"):
        plain.hand.verify("hit")


def test_the_player_dealer_position_is_the_target_seat() -> None:
    from controller.games.interface import Session
    play = Play(ONE, Session.of(Stacks({3: 50_000})), banker="rotate")
    decision = play.card("5h")
    assert play.hand.decision().card == Target("dealer", 3, 0, True)   # type: ignore[union-attr]
    assert isinstance(decision[0], Dealt)


def test_blazing_jackpot_is_announced_at_settlement_and_the_meter_resets() -> None:
    from controller.games.interface import Session
    play = Play({1: {"main": 1000, "progressive": 100}, 2: {"main": 1000, "progressive": 100}},
                Session.of(Progressive(meters={"blazing_7s": 250_000})))
    assert play.events == [MeterChanged("blazing_7s", 250_010)]
    play.card("7s", "9c", "7s", "7s", "9d", "Kd")           # seat 1: three 7s of spades
    play.act("stand")
    last = play.act("stand")
    hit, alert, meter, settled = last[-4:]
    assert hit == ProgressiveHit(1, 0, "three suited 7s", 250_010)
    assert isinstance(alert, Alerted) and (alert.code, alert.seat) == ("progressive_hit", 1)
    assert meter == MeterChanged("blazing_7s", 100_000)
    assert isinstance(settled, Settled)
    # Not booked as a win before a supervisor confirms it: the wager is collected, and the jackpot is
    # paid by progressive.paid (issue 18 item 7).
    assert play.results()[1] == (1, "progressive", 0, "waiting", -100)
    assert play.results()[3] == (2, "progressive", 0, "win", 100)           # one 7: 2 for 1
    assert "JACKPOT $2,500.10 waits for a supervisor" in "\n".join(play.hand.view().payouts)


def test_void_shows_the_hole_card_and_takes_the_increments_off_the_meter() -> None:
    play = Play({1: {"main": 1000, "progressive": 100}})
    play.card("7s", "9c", "7h", "Kd")
    events = play.hand.void()
    assert events == (Revealed("dealer", None, 0, play.hand.dealer[1].card, 4),
                      MeterChanged("blazing_7s", 100_000))
    assert Play(ONE).hand.void() == ()
