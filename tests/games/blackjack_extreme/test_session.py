"""What outlives a Blackjack Extreme hand: stacks, the rotating deal, seats joining a game under
way, ring buy-ins and tournaments (the level clock, eliminations, re-buys, the winner)."""

from __future__ import annotations

import pytest

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.interface import (
    Button,
    ButtonMoved,
    LevelStarted,
    PlayerEliminated,
    RuleError,
    Session,
    StackChanged,
    Stacks,
    Tournament,
    TournamentEnded,
)
from tests.games.blackjack_extreme.script import Play, make_game

NOW = "2027-03-01T20:00:00.000Z"


def apply(session: Session, *events: object) -> Session:
    for event in events:
        session = session.apply(event)
    return session


def test_ring_buy_ins_top_ups_and_cash_outs_within_the_limits_between_hands() -> None:
    game = make_game(min_buy_in=10000, max_buy_in=100000)
    session = Session()
    with pytest.raises(RuleError, match=r"the minimum buy-in is \$100\.00"):
        game.command("buy_in", {"seat": 2, "amount": 5000}, session, False)
    session = apply(session, *game.command("buy_in", {"seat": 2, "amount": 20000}, session, False))
    assert game.command("top_up", {"seat": 2, "amount": 5000}, session, False) == (
        StackChanged(2, 25000, "rebuy"),)
    with pytest.raises(RuleError, match="only between hands"):
        game.command("top_up", {"seat": 2, "amount": 5000}, session, True)
    assert game.command("cash_out", {"seat": 2}, session, False) == (StackChanged(2, 0, "cash_out"),)
    assert make_game().command("buy_in", {"seat": 3, "amount": 500}, Session(), False) == (
        StackChanged(3, 500, "buy_in"),)                                 # the default: the table minimum


def test_the_deal_passes_clockwise_after_each_hand_and_skips_seats_without_chips() -> None:
    game = make_game()
    session = Session.of(Stacks({2: 10000, 4: 0, 5: 10000, 6: 10000}))
    assert game.dealer_seat(session) == 2                               # no button yet: the first seat
    assert game.dealer_seat(apply(session, ButtonMoved(4))) == 5        # the button's seat has no chips
    play = Play({2: 10000, 4: 0, 5: 10000}, 5, {2: 1000}).cards("9h", "Ts", "9d", "8s").acts(
        ("turn_up", 1), "check", "play", "stand")                       # 18 against 18: a push
    assert play.finish()[Button].seat == 2


def test_a_seat_that_joins_a_game_under_way_waits_until_the_deal_has_passed_it() -> None:
    game = make_game()
    session = Session.of(Stacks({1: 10000, 2: 10000, 3: 10000}), Button(1))
    session = apply(session, *game.command("buy_in", {"seat": 5, "amount": 10000}, session, False))
    assert session[Button].waiting == (5,)
    assert game.positions(session) == (2, 3)
    assert game.bet_problems({2: {"main": 500}, 3: {"main": 500}, 5: {"main": 500}}, session) == [
        "seat 5 joined during the game: it waits until the deal has passed it"]
    session = apply(session, ButtonMoved(2), ButtonMoved(3))
    assert session[Button].waiting == (5,)                                       # the deal has not reached it
    play = Play({}, 3, {1: 1000, 2: 1000}, session=session)
    play.cards("9h", "9c", "Ts", "Th", "Tc", "8s").acts(("turn_up", 1), "check", "check", "play",
                                                        "stand", "stand")
    events = play.game.finish(play.hand, session)
    assert events[-1] == ButtonMoved(1)                                  # past seat 5, which sits out
    assert apply(session, *events)[Button].waiting == ()
    assert make_game().command("buy_in", {"seat": 4, "amount": 10000}, Session(), False) == (
        StackChanged(4, 10000, "buy_in"),)
    assert Session().apply(StackChanged(4, 10000, "buy_in"))[Button].waiting == ()  # before the game starts


def test_a_dealer_alone_with_a_seat_that_waits_passes_the_deal_to_it() -> None:
    game = make_game()
    session = Session.of(Stacks({1: 10000}), Button(1))
    session = apply(session, *game.command("buy_in", {"seat": 3, "amount": 10000}, session, False))
    assert game.positions(session) == ()                               # seat 3 waits: no hand can start
    assert game.bet_problems({}, session) == [
        "no seat has a blind", "nobody may play against the dealer (seat 1): pass the deal (pass_deal)"]
    moved = game.command("pass_deal", {}, session, False)
    assert moved == (ButtonMoved(3),)
    session = apply(session, *moved)
    assert session[Button].waiting == () and game.positions(session) == (1,)
    with pytest.raises(RuleError, match="enough to cover"):            # someone may play: the deal stays
        game.command("pass_deal", {}, session, False)


def tournament(**rules: object) -> tuple[BlackjackExtreme, Session]:
    game = make_game(format="tournament", starting_stack=200000, **rules)
    session = Session()
    for seat in (1, 2, 3):
        session = apply(session, *game.command("buy_in", {"seat": seat}, session, False))
    return game, session


def test_a_tournament_starts_when_the_deal_is_given_and_its_levels_are_journaled() -> None:
    game, session = tournament()
    assert session[Stacks].stacks == {1: 200000, 2: 200000, 3: 200000}
    with pytest.raises(RuleError, match="every tournament stack is"):
        game.command("buy_in", {"seat": 4, "amount": 100000}, session, False)
    assert game.bet_problems({2: {"main": 2000}}, session) == [
        "the tournament has not started: give the deal to a seat (button) to start the clock"]
    assert game.due(session, NOW) == ()
    session = apply(session, *game.command("button", {"seat": 1}, session, False))
    started = game.due(session, NOW)
    assert started == (LevelStarted(1, (2000, 4000, 6000), "2027-03-01T20:20:00.000Z"),)
    session = apply(session, *started)
    assert game.due(session, "2027-03-01T20:19:59.999Z") == ()
    assert game.minimum(session) == 2000 and game.cap(session) == 6000
    with pytest.raises(RuleError, match="no new players"):
        game.command("buy_in", {"seat": 4}, session, False)

    changed = game.due(session, "2027-03-01T20:20:00.000Z")
    assert changed == (LevelStarted(2, (4000, 8000, 12000), "2027-03-01T20:40:00.000Z"),)
    session = apply(session, *changed)
    assert game.bet_problems({2: {"main": 2000}, 3: {"main": 4000}}, session) == [
        "seat 2 blind $20.00 is below the $40.00 minimum"]


def test_blinds_double_after_the_last_level_and_the_level_length_is_an_option() -> None:
    game, session = tournament(levels={1: 500, 2: 1000}, level_minutes=5)
    session = apply(session, ButtonMoved(1), LevelStarted(2, (1000, 2000, 3000), NOW))
    assert game.due(session, "2027-03-01T20:09:59.000Z") == (
        LevelStarted(4, (4000, 8000, 12000), "2027-03-01T20:10:00.000Z"),)


def tournament_hand(stacks: dict[int, int], blinds: dict[int, int], **rules: object) -> Play:
    return Play(stacks, 1, blinds, format="tournament", **rules)


def test_a_player_who_loses_everything_is_eliminated_with_a_place_and_the_last_one_wins() -> None:
    play = tournament_hand({1: 50000, 2: 1000, 3: 20000}, {2: 1000, 3: 1000})
    play.cards("9h", "Th", "Ts", "8c", "9c", "9s").acts(("turn_up", 1), "check", "check", "play",
                                                        "stand", "stand")   # 17 and 19 against 19
    events = play.game.finish(play.hand, play.session)
    assert PlayerEliminated(2, 3) in events
    assert events[-1] == ButtonMoved(3)

    final = tournament_hand({1: 50000, 3: 1000}, {3: 1000})
    final.session = apply(final.session, PlayerEliminated(2, 3))
    final.cards("9h", "Ts", "8c", "9s").acts(("turn_up", 1), "check", "play", "stand")
    events = final.game.finish(final.hand, final.session)
    assert events[-2:] == (PlayerEliminated(3, 2), TournamentEnded(1))
    session = apply(final.session, *events)
    assert session[Tournament].winner == 1
    assert final.game.bet_problems({}, session) == ["the tournament is over: seat 1 won it"]
    assert final.game.due(session, "2030-01-01T00:00:00.000Z") == ()


def test_a_dealer_who_pays_out_everything_in_a_tournament_is_eliminated() -> None:
    play = tournament_hand({1: 1000, 2: 20000, 3: 20000}, {2: 1000, 3: 1000})
    play.cards("9h", "Th", "Ts", "Kh", "Tc", "6s").acts(("turn_up", 2), "check", "check", "play",
                                                        "stand", "stand")
    play.cards("Kc")                                                     # the dealer busts
    while play.hand.phase == "paying":
        play.act("next")
    session = play.finish()
    assert session[Tournament].places == {1: 3} and session[Stacks].stacks[1] == 0
    assert sum(session[Stacks].stacks.values()) == 41000
    assert session[Button].seat == 2


def test_a_player_short_of_the_minimum_in_a_tournament_plays_all_in() -> None:
    game = make_game(format="tournament")
    session = Session.of(Stacks({1: 50000, 2: 300, 3: 20000}), Button(1),
                         Tournament(level=1, blinds=(500, 1000, 1500), ends_at=NOW))
    assert game.bet_problems({2: {"main": 300}, 3: {"main": 500}}, session) == []
    assert game.bet_problems({2: {"main": 200}, 3: {"main": 500}}, session) == [
        "seat 2 blind $2.00 is below the $5.00 minimum"]


def test_re_buys_while_they_are_open_then_the_broke_are_eliminated() -> None:
    game = make_game(format="tournament", rebuy_levels=1, starting_stack=10000)
    session = Session.of(Stacks({1: 25000, 2: 0, 3: 5000}), Button(1),
                         Tournament(level=1, blinds=(500, 1000, 1500), ends_at=NOW))
    assert game.command("top_up", {"seat": 2}, session, False) == (StackChanged(2, 10000, "rebuy"),)
    with pytest.raises(RuleError, match="a re-buy is for a player in the tournament who has run out"):
        game.command("top_up", {"seat": 3}, session, False)
    level = LevelStarted(2, (4000, 8000, 12000), "2027-03-01T20:20:00.000Z")
    assert game.due(session, NOW) == (level, PlayerEliminated(2, 3))
    closed = apply(session, level)
    with pytest.raises(RuleError, match="re-buys are closed"):
        game.command("top_up", {"seat": 2}, closed, False)
    with pytest.raises(RuleError, match="freeze-out"):
        make_game(format="tournament").command("top_up", {"seat": 2}, session, False)


def test_in_the_re_buy_levels_a_player_at_zero_is_not_eliminated() -> None:
    play = tournament_hand({1: 50000, 2: 1000, 3: 20000}, {2: 1000, 3: 1000}, rebuy_levels=2)
    play.cards("9h", "Th", "Ts", "8c", "9c", "9s").acts(("turn_up", 1), "check", "check", "play",
                                                        "stand", "stand")
    session = play.finish()
    assert session[Stacks].stacks[2] == 0 and session[Tournament].places == {}


def test_commands_refuse_what_they_cannot_do() -> None:
    game = make_game()
    session = Session.of(Stacks({1: 10000, 2: 10000}), Button(1))
    with pytest.raises(RuleError, match="button needs the seat"):
        game.command("button", {}, session, False)
    with pytest.raises(RuleError, match="seat 5 has no chips to deal with"):
        game.command("button", {"seat": 5}, session, False)
    assert game.command("button", {"seat": 2}, session, False) == (ButtonMoved(2),)
    with pytest.raises(RuleError, match="a tournament needs two players"):
        make_game(format="tournament").command("button", {"seat": 1}, Session.of(Stacks({1: 5})), False)


def test_waiting_seats_survive_a_checkpoint_and_a_cash_out_ends_the_wait() -> None:
    session = apply(Session.of(Stacks({1: 10000}), Button(1)), StackChanged(4, 10000, "buy_in"),
                    StackChanged(5, 10000, "buy_in"))
    assert session[Button].waiting == (4, 5)
    assert Session.from_json(session.to_json()) == session
    assert apply(session, StackChanged(4, 0, "cash_out"))[Button].waiting == (5,)
    older = {"stacks": [[1, 10000], [4, 10000], [5, 10000]], "button": 1, "level": 0, "blinds": [],
             "level_ends_at": None, "places": [], "winner": None, "meters": {}, "unpaid": [], "hits": []}
    assert Session.from_json(older)[Button].waiting == ()               # a checkpoint from before
