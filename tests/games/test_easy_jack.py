"""Easy Jack rules: options, wagers, the flow of a hand, settlement, refusals, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.games.catalog import find_game
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.hand import EasyJackHand
from controller.games.easy_jack.rules import (
    EasyJackRules,
    main_result,
    side_result,
)
from controller.games.interface import (
    Acted,
    CardsView,
    Dealt,
    GameEvent,
    Limits,
    Revealed,
    RuleError,
    SeatHandView,
    Session,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.totals import Total, total_of
from firmware_bridge.kernel.cards import Card

LIMITS = Limits(500, 50000)


def game(**options: object) -> EasyJack:
    return EasyJack(EasyJackRules(**options), LIMITS)  # type: ignore[arg-type]


def play(hand: EasyJackHand, script: str) -> tuple[EasyJackHand, list[tuple[GameEvent, ...]]]:
    """Feed a script: a card in pit notation is dealt, "S" stands; returns every call's events."""
    history = []
    index = sum(len(seat.cards) for seat in hand.seats) + len(hand.dealer)
    for word in script.split():
        if word == "S":
            hand, events = hand.stand()
        else:
            hand, events = hand.deal(Card.parse(word), index)
            index += 1
        history.append(events)
    return hand, history


def kinds(events: tuple[GameEvent, ...]) -> list[str]:
    return [type(event).__name__ for event in events]


def results(hand: EasyJackHand) -> list[tuple[int, str, str, int]]:
    assert hand.results() is not None
    return [(r.seat, r.spot, r.outcome, r.payout) for r in hand.results()]


# --- rules options -------------------------------------------------------------------------


def test_default_rules_have_no_problems() -> None:
    assert EasyJackRules().problems() == []
    assert EasyJackRules(decks=8, peek_for_ace=True, natural_pays_6_5=True).problems() == []


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"decks": 7}, "game.decks: must be 6 or 8, not 7"),
        ({"decks": True}, "game.decks: must be 6 or 8, not True"),
        ({"peek_for_ace": 1}, "game.peek_for_ace: must be true or false, not 1"),
        ({"natural_pays_6_5": "yes"}, "game.natural_pays_6_5: must be true or false, not 'yes'"),
        ({"stand_on_11": None}, "game.stand_on_11: must be true or false, not None"),
        ({"dealer_bust_pays": {}}, "game.dealer_bust_pays: must be a table of card count -> odds"),
        ({"dealer_bust_pays": {2: 3, 4: 10}}, "game.dealer_bust_pays: no payout for 3 cards"),
        ({"dealer_bust_pays": {1: 3}}, "game.dealer_bust_pays: card count 1 must be 2 or more"),
        ({"dealer_bust_pays": {"2": 3}}, "game.dealer_bust_pays: card count '2' must be 2 or more"),
        ({"dealer_bust_pays": {2: 0}}, "game.dealer_bust_pays: odds for 2 cards must be positive"),
        ({"side_min_bet": 0}, "game.side_min_bet: must be a positive number of cents, not 0"),
        ({"side_max_bet": 2.5}, "game.side_max_bet: must be a positive number of cents, not 2.5"),
        (
            {"side_min_bet": 1000, "side_max_bet": 500},
            "game.side_min_bet: 1000 is above game.side_max_bet 500",
        ),
    ],
)
def test_rules_problems(options: dict[str, object], problem: str) -> None:
    assert EasyJackRules(**options).problems() == [problem]  # type: ignore[arg-type]


def test_game_refuses_bad_rules() -> None:
    with pytest.raises(ValueError, match=r"game\.decks: must be 6 or 8, not 5"):
        game(decks=5)


def test_catalog_lists_easy_jack() -> None:
    spec = find_game("easy-jack")
    assert spec.rules_type is EasyJackRules
    assert spec.game_type.spots == ("main", "side")
    assert spec.buttons_required == ("deal", "stand", "next")
    assert spec.buttons_optional == ("void",)
    made = spec.make(EasyJackRules(), LIMITS)
    assert isinstance(made, EasyJack)
    assert made.bet_problems({1: {"main": 500}}) == []


# --- wagers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bets", "problems"),
    [
        ({1: {"main": 500, "side": 500}, 3: {"main": 50000}}, []),
        ({1: {"main": 500, "side": 0}}, []),
        ({}, ["no seat has a main wager"]),
        ({1: {"main": 0}}, ["no seat has a main wager"]),
        ({2: {"main": 300}}, ["seat 2 main $3.00 is below the table minimum $5.00"]),
        ({2: {"main": 60000}}, ["seat 2 main $600.00 is above the table maximum $500.00"]),
        (
            {1: {"main": 500}, 4: {"side": 500}},
            ["seat 4 has a Dealer Bust wager but no main wager"],
        ),
        (
            {1: {"main": 500, "side": 100}},
            ["seat 1 Dealer Bust $1.00 is below the table minimum $5.00"],
        ),
        (
            {1: {"main": 500, "pair": 500}},
            ["seat 1 has a wager on an unknown spot 'pair'"],
        ),
        ({1: {"main": 500, "side": -5}}, ["seat 1 side -5 is not a wager in cents"]),
    ],
)
def test_bet_problems(bets: dict[int, dict[str, int]], problems: list[str]) -> None:
    assert game().bet_problems(bets) == problems


def test_side_limits_of_their_own() -> None:
    easy = game(side_min_bet=100, side_max_bet=2500)
    assert easy.bet_problems({1: {"main": 500, "side": 100}}) == []
    assert easy.bet_problems({1: {"main": 500, "side": 50}, 2: {"main": 500, "side": 3000}}) == [
        "seat 1 Dealer Bust $0.50 is below the Dealer Bust minimum $1.00",
        "seat 2 Dealer Bust $30.00 is above the Dealer Bust maximum $25.00",
    ]


def test_start_refuses_bad_bets_and_keeps_seats_with_a_main_wager_in_order() -> None:
    with pytest.raises(RuleError, match="no seat has a main wager"):
        game().start({}, Session())[0]
    hand = game().start({5: {"main": 500}, 2: {"main": 700, "side": 500}, 3: {}}, Session())[0]
    assert [(s.seat, s.main, s.side) for s in hand.seats] == [(2, 700, 500), (5, 500, 0)]
    assert hand.phase == "dealing" and hand.turn is None and hand.results() is None


# --- the flow of a hand ---------------------------------------------------------------------


def test_the_deal_goes_to_seats_in_order_then_the_hole_card() -> None:
    hand = game().start({3: {"main": 500}, 1: {"main": 500}}, Session())[0]
    assert hand.next_target() == Target("seat", 1, 0, True)
    hand, _ = play(hand, "5h")
    assert hand.next_target() == Target("seat", 3, 0, True)
    hand, _ = play(hand, "6h")
    assert hand.next_target() == Target("dealer", None, 0, False)
    hand, history = play(hand, "9c")
    assert history == [(Dealt(Target("dealer", None, 0, False), Card.parse("9c"), 2),)]
    assert (hand.phase, hand.turn) == ("players", 1)
    assert hand.next_target() == Target("seat", 1, 0, True)


def test_hits_then_stands_in_seat_order_and_the_dealer_draws_to_seven() -> None:
    hand = game().start({1: {"main": 500}, 2: {"main": 1000}}, Session())[0]
    hand, history = play(hand, "5h 6h 2c 3d S 4s S")
    assert hand.seat_total(1) == Total(8, False, False, False, 2)
    assert history[-1] == (Acted(2, 0, "stand"), Revealed("dealer", None, 0, Card.parse("2c"), 2))
    assert (hand.phase, hand.turn, hand.hole_revealed) == ("dealer", None, True)
    assert hand.next_target() == Target("dealer", None, 0, True)
    hand, history = play(hand, "Ac 3c 2d")
    assert [kinds(events) for events in history] == [["Dealt"], ["Dealt"], ["Dealt", "Settled"]]
    assert hand.dealer_total(include_hole=True) == Total(8, False, False, False, 4)
    assert results(hand) == [(1, "main", "push", 0), (2, "main", "win", 1000)]


def test_stand_that_ends_the_turns_can_settle_at_once() -> None:
    hand = game().start({1: {"main": 500}}, Session())[0]
    hand, history = play(hand, "5h 9c 4d S")
    assert kinds(history[-1]) == ["Acted", "Revealed", "Settled"]
    assert results(hand) == [(1, "main", "push", 0)]
    assert hand.phase == "complete" and hand.next_target() is None


def test_a_bust_ends_the_turn_by_itself() -> None:
    hand = game().start({1: {"main": 500}, 2: {"main": 500}}, Session())[0]
    hand, history = play(hand, "9h 5h 4c 3d")
    assert hand.seat_total(1).bust and hand.turn == 2
    assert kinds(history[-1]) == ["Dealt"]


def test_a_natural_ends_the_turn_at_the_deal() -> None:
    hand = game().start({1: {"main": 500}, 2: {"main": 500}}, Session())[0]
    hand, _ = play(hand, "As 5h 9c")
    assert hand.seat_total(1).natural and hand.turn == 2


def test_eleven_ends_the_turn_only_with_stand_on_11() -> None:
    hand, _ = play(game().start({1: {"main": 500}}, Session())[0], "9h 5c 2d")
    assert hand.turn == 1 and hand.can_stand()
    hand, history = play(game(stand_on_11=True).start({1: {"main": 500}}, Session())[0], "9h 5c 2d")
    assert hand.turn is None and kinds(history[-1]) == ["Dealt", "Revealed"]


def test_no_draw_when_no_result_depends_on_the_dealer() -> None:
    hand = game().start({1: {"main": 500}, 2: {"main": 500}}, Session())[0]
    hand, history = play(hand, "9h As 2c 5d")
    assert kinds(history[-1]) == ["Dealt", "Revealed", "Settled"]
    assert hand.dealer_total(include_hole=True).points == 2
    assert results(hand) == [(1, "main", "lose", -500), (2, "main", "natural", 750)]


def test_every_seat_natural_reveals_and_settles_with_the_hole_card() -> None:
    hand, history = play(game().start({1: {"main": 500}}, Session())[0], "As 3c")
    assert kinds(history[-1]) == ["Dealt", "Revealed", "Settled"]
    assert results(hand) == [(1, "main", "natural", 750)]


def test_a_side_wager_keeps_the_dealer_drawing() -> None:
    hand = game().start({1: {"main": 500, "side": 500}}, Session())[0]
    hand, history = play(hand, "9h 2c 5d")
    assert kinds(history[-1]) == ["Dealt", "Revealed"]
    hand, history = play(hand, "Kc")
    assert kinds(history[-1]) == ["Dealt", "Settled"]
    assert results(hand) == [(1, "main", "lose", -500), (1, "side", "win", 1500)]


def test_dealer_ace_without_peek_lets_players_play_then_wins() -> None:
    hand = game().start({1: {"main": 500, "side": 500}, 2: {"main": 500}}, Session())[0]
    hand, history = play(hand, "9h As Ad 2c S")
    assert kinds(history[2]) == ["Dealt"] and hand.phase == "complete"
    assert kinds(history[-1]) == ["Acted", "Revealed", "Settled"]
    assert hand.dealer_total(include_hole=True).natural
    assert results(hand) == [(1, "main", "lose", -500), (1, "side", "lose", -500),
                             (2, "main", "push", 0)]


def test_peek_for_ace_reveals_a_dealer_natural_at_once() -> None:
    hand = game(peek_for_ace=True).start({1: {"main": 500, "side": 500}, 2: {"main": 500}}, Session())[0]
    hand, history = play(hand, "9h As Ad")
    assert history[-1] == (
        Dealt(Target("dealer", None, 0, False), Card.parse("Ad"), 2),
        Revealed("dealer", None, 0, Card.parse("Ad"), 2),
        Settled((
            WagerResult(1, "main", 0, "lose", 500, -500),
            WagerResult(1, "side", 0, "lose", 500, -500),
            WagerResult(2, "main", 0, "push", 500, 0),
        )),
    )


def test_peek_for_ace_plays_on_without_an_ace() -> None:
    hand, _ = play(game(peek_for_ace=True).start({1: {"main": 500}}, Session())[0], "9h Kd")
    assert hand.phase == "players" and not hand.hole_revealed


# --- settlement -----------------------------------------------------------------------------


NATURAL = total_of([1])


@pytest.mark.parametrize(
    ("player", "dealer", "six_five", "expected"),
    [
        ([1], [5, 4], False, ("natural", 1500, "natural 3:2")),
        ([1], [10, 2], False, ("natural", 1500, "natural 3:2")),
        ([1], [1], False, ("push", 0, None)),
        ([1], [5, 4], True, ("natural", 1200, "natural 6:5")),
        ([1], [1], True, ("natural", 1200, "natural 6:5")),
        ([5, 6], [1], False, ("lose", -1000, None)),
        ([5, 6], [1], True, ("lose", -1000, None)),
        ([9, 5], [6, 10], False, ("lose", -1000, None)),
        ([9, 2], [6, 10], False, ("win", 1000, None)),
        ([9], [5, 3], False, ("win", 1000, None)),
        ([8], [5, 3], False, ("push", 0, None)),
        ([7], [5, 3], False, ("lose", -1000, None)),
        ([4, 1, 2], [4, 3], False, ("push", 0, None)),
    ],
)
def test_main_settlement(
    player: list[int], dealer: list[int], six_five: bool, expected: tuple[str, int, str | None]
) -> None:
    rules = EasyJackRules(natural_pays_6_5=six_five)
    assert main_result(rules, total_of(player), total_of(dealer), 1000) == expected


@pytest.mark.parametrize(
    ("wager", "six_five", "payout"),
    [(1001, False, 1501), (999, False, 1498), (1003, True, 1203), (1, False, 1), (4, True, 4)],
)
def test_natural_payouts_round_down(wager: int, six_five: bool, payout: int) -> None:
    rules = EasyJackRules(natural_pays_6_5=six_five)
    assert main_result(rules, NATURAL, total_of([9]), wager)[1] == payout


@pytest.mark.parametrize(
    ("dealer", "payout"),
    [
        ([6, 10], 300),
        ([2, 4, 10], 400),
        ([2, 1, 3, 9], 1000),
        ([2, 1, 1, 2, 9], 5000),
        ([2, 1, 1, 1, 1, 10], 50000),
        ([2, 1, 1, 1, 1, 1, 10], 50000),  # more cards than the largest key pay as the largest
        ([6, 5], -100),
        ([2, 5], -100),
        ([1], -100),
    ],
)
def test_dealer_bust_by_number_of_cards(dealer: list[int], payout: int) -> None:
    assert side_result(EasyJackRules(), total_of(dealer), 100)[1] == payout


def test_dealer_bust_pays_its_own_table() -> None:
    rules = EasyJackRules(dealer_bust_pays={2: 2, 3: 5})
    assert [side_result(rules, total_of(cards), 100)[1] for cards in ([6, 10], [2, 4, 9],
            [2, 1, 3, 9])] == [200, 500, 500]


def test_a_six_card_dealer_bust_in_play() -> None:
    hand = game().start({1: {"main": 500, "side": 500}}, Session())[0]
    hand, _ = play(hand, "Th 2c S Ad As Ah Ac 9s")
    assert results(hand) == [
        (1, "main", "win", 500),
        (1, "side", "win", 250000),
    ]
    assert hand.dealer_total(include_hole=True).cards == 6


def test_results_are_in_seat_order_main_then_side() -> None:
    hand = game().start({4: {"main": 500, "side": 500}, 2: {"main": 600, "side": 700}}, Session())[0]
    hand, _ = play(hand, "9h 8h 6c S S Kd")
    assert [(r.seat, r.spot, r.wager) for r in hand.results() or ()] == [
        (2, "main", 600), (2, "side", 700), (4, "main", 500), (4, "side", 500)]


# --- refusals and what may be seen ----------------------------------------------------------


def test_refusals() -> None:
    hand = game().start({1: {"main": 500}}, Session())[0]
    assert not hand.can_stand()
    with pytest.raises(RuleError, match="before every seat and the dealer have a card"):
        hand.verify_stand()
    with pytest.raises(RuleError, match="seat 7 is not in this hand"):
        hand.seat_total(7)
    hand, _ = play(hand, "9h 5c S")
    assert not hand.can_stand()
    with pytest.raises(RuleError, match="no seat is in turn"):
        hand.stand()
    hand, _ = play(hand, "2s")
    assert not hand.can_deal() and not hand.can_stand()
    with pytest.raises(RuleError, match="the hand is settled"):
        hand.deal(Card.parse("2d"), 9)
    with pytest.raises(RuleError, match="no seat is in turn"):
        hand.verify_stand()


def test_the_hole_card_never_shows_before_it_is_revealed() -> None:
    hand, _ = play(game().start({1: {"main": 500}}, Session())[0], "9h Qs")
    for step in ("", "2d"):
        hand, _ = play(hand, step)
        view = hand.view()
        assert view.dealer == CardsView(cards=(None,), total=None)
        assert "Qs" not in repr(view)
        assert hand.dealer_total(include_hole=False) == Total()
        assert hand.dealer_total(include_hole=True).points == 10
    hand, _ = play(hand, "S")
    view = hand.view()
    assert view.dealer is not None and view.dealer.cards == ("Qs",) and hand.results() is not None
    assert view.seats == (SeatHandView(1, (CardsView(("9h", "2d"), "11", 500, "stood"),)),)
    assert hand.results()[0].outcome == "win"  # type: ignore[index]


# --- properties -----------------------------------------------------------------------------

RULES = st.builds(
    EasyJackRules,
    decks=st.sampled_from([6, 8]),
    peek_for_ace=st.booleans(),
    natural_pays_6_5=st.booleans(),
    stand_on_11=st.booleans(),
)
WAGER = st.integers(min_value=LIMITS.min_bet, max_value=LIMITS.max_bet)
BETS = st.dictionaries(
    st.integers(min_value=1, max_value=7),
    st.fixed_dictionaries({"main": WAGER, "side": st.one_of(st.just(0), WAGER)}),
    min_size=1,
)
CARDS = st.builds(Card, st.integers(min_value=1, max_value=13), st.integers(min_value=0, max_value=3))


def run(rules: EasyJackRules, bets: dict[int, dict[str, int]], inputs: list[Card | None]
        ) -> tuple[EasyJackHand, list[GameEvent]]:
    """Replay recorded inputs: a card is dealt, None stands."""
    hand = EasyJack(rules, LIMITS).start(bets, Session())[0]
    events: list[GameEvent] = []
    for index, item in enumerate(inputs):
        hand, new = hand.stand() if item is None else hand.deal(item, index)
        events.extend(new)
    return hand, events


@settings(max_examples=300, deadline=None)
@given(rules=RULES, bets=BETS, data=st.data())
def test_any_hand_completes_and_settles_every_wager_once(
    rules: EasyJackRules, bets: dict[int, dict[str, int]], data: st.DataObject
) -> None:
    hand = EasyJack(rules, LIMITS).start(bets, Session())[0]
    inputs: list[Card | None] = []
    events: list[GameEvent] = []
    while hand.next_target() is not None:
        assert len(inputs) < 200
        if hand.can_stand() and data.draw(st.booleans(), label="stand"):
            inputs.append(None)
            hand, new = hand.stand()
        else:
            assert hand.can_deal()
            card = data.draw(CARDS, label="card")
            inputs.append(card)
            hand, new = hand.deal(card, len(inputs) - 1)
        events.extend(new)
        if not hand.hole_revealed and hand.dealer:
            assert hand.view().dealer == CardsView((None,), None)
    assert hand.phase == "complete" and not hand.can_deal() and not hand.can_stand()
    settled = [event for event in events if isinstance(event, Settled)]
    assert len(settled) == 1 and events[-1] == settled[0]
    assert settled[0].results == hand.results()
    expected = [(seat, spot) for seat in sorted(bets) for spot in ("main", "side")
                if bets[seat][spot] > 0]
    assert [(r.seat, r.spot) for r in settled[0].results] == expected
    top = max(rules.dealer_bust_pays.values())
    for result in settled[0].results:
        assert result.wager == bets[result.seat][result.spot]
        odds = top if result.spot == "side" else 2
        assert -result.wager <= result.payout <= odds * result.wager
        assert result.outcome in ("win", "lose", "push", "natural")
    assert run(rules, bets, inputs) == (hand, events)
