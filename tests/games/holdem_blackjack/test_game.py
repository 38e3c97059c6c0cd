"""Hold'em Blackjack as the table sees it: seats dealt in, the blinds due, the button, the stacks,
the options and the stakes notation, the catalog and the configuration, the rake figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.config.loader import load_config
from controller.devkit.simulated import write_config
from controller.games.catalog import find_game
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.math import house_take
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules, rank_words
from controller.games.holdem_blackjack.stakes import Stakes, parse_stakes
from controller.games.interface import (
    Acted,
    Button,
    ButtonMoved,
    Limits,
    RuleError,
    Session,
    StackChanged,
    Stacks,
)
from firmware_bridge.kernel.cards import Card
from tests.games.holdem_blackjack.play import Play

LIMITS = Limits(100, 100_000)


def game(**options: object) -> HoldemBlackjack:
    return HoldemBlackjack(HoldemBlackjackRules(**options), LIMITS)  # type: ignore[arg-type]


def test_the_blinds_and_antes_must_be_on_the_spots_before_the_deal() -> None:
    table = game(ante=50, chip_unit=50)
    session = Session.of(Stacks({1: 10000, 2: 10000, 4: 120, 5: 0}), Button(2))   # seat 4 small, seat 1 big
    assert table.bet_problems({1: {"bet": 250}, 2: {"bet": 50}, 4: {"bet": 120}}, session) == []
    assert table.bet_problems({1: {"bet": 100}, 4: {"bet": 100}, 5: {"bet": 500}, 6: {"main": 100}},
                              session) == [
        "seat 6 has chips on an unknown spot 'main'",
        "seat 5 has chips on its bet spot but no stack: buy in first, or take them off",
        "seat 1 posts the big blind $2.00 and the ante $0.50: its bet spot should read $2.50; "
        "it reads $1.00",
        "seat 2 posts the ante $0.50: its bet spot should read $0.50; it reads $0.00",
        "seat 4 posts the small blind $0.70 and the ante $0.50 (all in): its bet spot should read "
        "$1.20; it reads $1.00",
    ]
    assert game().bet_problems({1: {"bet": 100}, 2: {"bet": 200}, 3: {"bet": 100}},
                               Session.of(Stacks({1: 10000, 2: 10000, 3: 10000}), Button(3))) == [
        "seat 3 posts nothing before the deal: its bet spot should read $0.00; it reads $1.00"]
    assert game().bet_problems({}, Session.of(Stacks({1: 10000}))) == [
        "at least two seats need chips to play: a supervisor buys them in"]
    assert game().bet_problems({}, Session.of(Stacks({1: 10000, 3: 10000}), Button(3)))[0] == (
        "seat 1 posts the big blind $2.00: its bet spot should read $2.00; it reads $0.00")
    with pytest.raises(RuleError, match="seat 1 posts the big blind"):
        game().start({}, Session.of(Stacks({1: 10000, 3: 10000}), Button(3)))
    assert game().bet_problems({2: {"bet": 200}}, Session.of(Stacks({1: 10000, 2: 10000}), Button(1))) == [
        "seat 1 posts the small blind $1.00: its bet spot should read $1.00; it reads $0.00"]


def test_every_seat_with_chips_is_dealt_in_and_the_first_button_is_the_lowest_seat() -> None:
    table = game()
    session = Session.of(Stacks({2: 10000, 4: 10000, 6: 0, 5: 5000}))
    assert table.seats_in_play({}, session) == (2, 4, 5)
    hand, events = table.start({4: {"bet": 100}, 5: {"bet": 200}}, session)
    assert events[:3] == (ButtonMoved(2), Acted(4, 0, "small_blind", 100), Acted(5, 0, "big_blind", 200))
    assert (hand.button, hand.small_blind, hand.big_blind) == (2, 4, 5)


def test_the_button_moves_clockwise_to_the_next_seat_with_chips() -> None:
    play = Play({1: 10000, 3: 200, 5: 10000}, button=5)        # seat 1 posts $1, seat 3 $2: all in
    play.card("Kc", "5c", "2c")
    play.call()                             # seat 5
    play.call()                             # seat 1
    play.card("Kd", "Qd", "2d")
    for _ in range(2):
        play.check()
    for _ in range(3):
        play.stand()
    play.check()
    play.check()
    assert {a.seat for a in play.hand.awards} == {1}
    session = play.finish()
    assert session[Stacks].stacks == {1: 10400, 3: 0, 5: 9800} and session[Button].seat == 1
    place = play.game.seating(session)                          # seat 3 has no chips: not dealt in
    assert place is not None and (place.seats, place.small_blind, place.big_blind) == ((1, 5), 1, 5)
    moved = Play({1: 10000, 3: 10000, 5: 10000}, button=1)
    moved.card("Kc", "Qc", "2c")
    moved.fold()
    moved.fold()                            # seat 5, the big blind, takes the blinds
    assert moved.game.finish(moved.hand, moved.session)[-1] == ButtonMoved(3)


def test_a_button_on_a_seat_that_left_moves_on_at_the_next_deal() -> None:
    table = game()
    session = Session.of(Stacks({1: 10000, 4: 10000, 6: 10000}), Button(3))
    place = table.seating(session)
    assert place is not None and (place.button, place.small_blind, place.big_blind) == (4, 6, 1)
    _, events = table.start({6: {"bet": 100}, 1: {"bet": 200}}, session)
    assert events[0] == ButtonMoved(4)


def test_stacks_by_command_only_between_hands() -> None:
    table = game()
    assert table.commands == ("buy_in", "top_up", "cash_out")
    session = Session()
    with pytest.raises(RuleError, match=r"the minimum buy-in is \$20\.00"):
        table.command("buy_in", {"seat": 1, "amount": 1000}, session, False)
    events = table.command("buy_in", {"seat": 1, "amount": 10000}, session, False)
    assert events == (StackChanged(1, 10000, "buy_in"),)
    session = session.apply(events[0])
    with pytest.raises(RuleError, match="seat 1: stacks change only between hands"):
        table.command("top_up", {"seat": 1, "amount": 1000}, session, True)
    with pytest.raises(RuleError, match=r"this game seats players at seats 1 to 6, not 7"):
        table.command("buy_in", {"seat": 7, "amount": 10000}, session, False)
    capped = game(min_buy_in=500, max_buy_in=20000)
    with pytest.raises(RuleError, match=r"a stack may hold at most \$200\.00"):
        capped.command("top_up", {"seat": 1, "amount": 10001}, session, False)


def test_the_stakes_notation() -> None:
    assert parse_stakes("100/200/200-1000") == Stakes(10000, 20000, 20000, 100000)
    assert parse_stakes(" 0.50/1/1-5 ") == Stakes(50, 100, 100, 500)
    assert parse_stakes("2/4/4-20").sizes(1).low == 200
    for bad in ("2/4/4", "2/4/4-20/1", "$2/4/4-20", "2/4/4-20.005", "0/4/4-20", ""):
        with pytest.raises(ValueError):
            parse_stakes(bad)
    rules = HoldemBlackjackRules(stakes="100/200/200-1000", ante=2500)
    assert (rules.small_blind_amount, rules.big_blind, rules.ante) == (5000, 10000, 2500)
    assert rules.buy_in_minimum == 100000


def test_options_problems() -> None:
    assert HoldemBlackjackRules(stakes="5/10/10-50", chip_unit=500).problems() == [
        "game.small_blind: not a whole number of 500-cent chips (game.chip_unit, the smallest chip in play)"]
    assert HoldemBlackjackRules(stakes="5/10/10-50", chip_unit=500, small_blind=500).problems() == []
    assert HoldemBlackjackRules(small_blind=300).problems() == [
        "game.small_blind: 300 is above the big blind 200"]
    assert HoldemBlackjackRules(decks=0, raise_cap=-1, rake_percent=101, all_in_reopens="never",
                                charlie_ties="suit", big_blind_option=1, rake_cap=0,  # type: ignore[arg-type]
                                min_buy_in=5000, max_buy_in=4000).problems() == [
        "game.big_blind_option: must be true or false, not 1",
        "game.all_in_reopens: must be one of full, half, not 'never'",
        "game.charlie_ties: must be one of split, higher_total, lower_total, not 'suit'",
        "game.decks: must be 1 to 8, not 0",
        "game.raise_cap: must be 0 to 10 raises, not -1",
        "game.rake_percent: must be 0 to 100, not 101",
        "game.rake_cap: must be more than 0 cents, not 0",
        "game.min_buy_in: 5000 is above game.max_buy_in 4000",
    ]
    with pytest.raises(ValueError, match=r"game\.decks"):
        game(decks=9)


def test_rank_words() -> None:
    def words(*texts: str) -> str:
        return rank_words([Card.parse(text) for text in texts])
    assert words("Ac", "Kd") == "21" and words("Ac", "6d", "9c") == "16"
    assert words("Tc", "9d", "5h") == "bust 24"
    assert words("Ac", "Ad", "2c", "2d", "3c", "3d", "4h") == "7-card charlie"


def test_registered_and_configured_as_holdem_blackjack(tmp_path: Path) -> None:
    spec = find_game("holdem-blackjack")
    assert spec.game_type is HoldemBlackjack and spec.game_type.spots == ("bet",)
    assert spec.buttons_required == ("deal", "check", "call", "raise", "fold", "stand", "next")
    assert spec.buttons_optional == ("bet", "void")
    path = write_config(tmp_path, game_name="holdem-blackjack", spots=("bet",),
                        buttons=(*spec.buttons_required, "bet"),
                        game='stakes = "100/200/200-1000"\nante = 2500\nrake_percent = 5\nrake_cap = 50000\n')
    config = load_config(path)
    assert config.game == "holdem-blackjack" and config.rules.ante == 2500
    assert config.buttons.keys() >= {"bet", "check", "call", "raise", "fold", "stand"}
    assert spec.math(config.rules)["capped 6"]["cents"] == 50000


def test_math_reports_the_rake_or_that_there_is_no_house_edge() -> None:
    assert house_take(HoldemBlackjackRules()) == {"house": {
        "value": "none: the players bet against each other, the house only deals and takes no rake",
        "method": "rules: no house edge exists in a pot game"}}
    figures = house_take(HoldemBlackjackRules(rake_percent=10, rake_cap=500, chip_unit=50))
    assert figures["rake"]["value"] == (
        "10% of the pots, at most $5.00, in whole $0.50 chips (rounded down); "
        "none when the hand ends in the first round")
    assert figures["called 2"] == {"value": "$0.00 a hand (pots of $4.00)", "cents": 0,
                                   "method": "exact: 2 players, every player calls the big blind, "
                                             "then checks to the showdown"}
    assert figures["called 6"]["cents"] == 100                    # 10% of $12
    assert figures["capped 2"]["cents"] == 500                    # capped: $5
