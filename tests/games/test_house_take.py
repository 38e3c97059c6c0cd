"""What the house takes, as each game declares it: the spots a player-dealer banks, a rake instead of an
edge, and ``Hand.house_result`` of settled hands (the tray's expected change) agreeing with both."""

from __future__ import annotations

from controller.games.catalog import find_game, game_names
from controller.games.interface import Hand, Session, Stacks
from tests.games.blackjack_extreme.script import Play as ExtremePlay
from tests.games.buster_blackjack_x.helpers import Play as BusterPlay
from tests.games.holdem_blackjack.play import Play as HoldemPlay


def players_net(hand: Hand) -> int:
    """The players' net result over every wager of a settled hand."""
    return sum(result.payout for result in hand.results() or ())


def test_each_game_declares_who_banks_which_spot_and_who_rakes() -> None:
    declared = {name: (find_game(name).game_type.player_banked, find_game(name).game_type.house_rakes)
                for name in game_names()}
    assert declared == {
        "blackjack-extreme": (("main",), False),          # the players bank each other: every spot
        "buster-blackjack-x": (("main", "insurance"), False),
        "easy-jack": ((), False),
        "holdem-blackjack": ((), True),
    }
    for name in game_names():
        kind = find_game(name).game_type
        assert set(kind.player_banked) <= set(kind.spots), name


def test_blackjack_extreme_the_house_only_deals() -> None:
    play = ExtremePlay({1: 50000, 2: 20000, 3: 20000, 4: 20000}, 1, {2: 1000, 3: 1000, 4: 1000})
    play.cards("Ah", "9c", "7d", "Ts", "Kh", "Tc", "Td", "As")
    play.acts(("turn_up", 1), "check", "check", "check", "play", "stand", "stand", "stand")
    assert play.results() == [(2, 0, "natural", 1000, 1500), (3, 0, "lose", 1000, -1000),
                              (4, 0, "lose", 1000, -1000)]
    assert players_net(play.hand) == -500                    # the player-dealer won $5.00 ...
    assert play.hand.house_result() == 0                     # ... none of it the house's


def test_holdem_blackjack_the_pots_go_to_the_players_and_the_rake_to_the_drop_box() -> None:
    play = HoldemPlay({1: 10000, 2: 10000, 3: 10000, 4: 10000}, button=1, rake_percent=10, rake_cap=150,
                      chip_unit=50)
    play.card("2c", "3c", "4c", "5c")
    for _ in range(3):
        play.call()
    play.check()
    play.card("6c", "7c", "8c", "9c")
    play.bet()
    for _ in range(3):
        play.call()
    for _ in range(4):
        play.stand()
    for _ in range(4):
        play.check()
    assert play.hand.rake == 150 and players_net(play.hand) == -150
    assert play.hand.house_result() == 0                     # not in the tray: the rake is dropped


def test_buster_with_a_player_dealer_the_house_keeps_the_bonus_blazing_7s_and_the_fee() -> None:
    session = Session.of(Stacks({2: 20_000, 5: 30_000}))
    play = BusterPlay({1: {"main": 1000, "progressive": 100}, 4: {"main": 2000, "side": 500}}, session,
                      banker="rotate", collection_fee=100)
    assert play.hand.banker == 2
    play.card("Th", "9c", "Ts", "9d", "6d", "8h")            # 19 and 15 against 18, no 7 among them
    play.act("stand")
    play.act("stand")
    assert play.results() == [(1, "main", 0, "win", 1000), (1, "progressive", 0, "lose", -100),
                              (4, "main", 0, "lose", -2000), (4, "side", 0, "lose", -500)]
    assert play.hand.house_result() == 100 + 100 + 500       # the fee, Blazing 7's and the bonus
    house = BusterPlay({1: {"main": 1000, "side": 500}}, banker="house")
    house.card("Th", "9c", "Td", "8h")                       # 20 against 17
    house.act("stand")
    assert house.hand.house_result() == -players_net(house.hand) == -1000 + 500
