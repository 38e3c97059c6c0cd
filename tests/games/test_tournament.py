"""The shared tournament part: the level schedule, a clock that is journaled and pure, standings."""

from __future__ import annotations

from controller.games.interface import (
    LevelStarted,
    PlayerEliminated,
    Session,
    Stacks,
    Tournament,
    TournamentEnded,
)
from controller.games.parts.tournament import Schedule, alive, eliminations, format_time, parse_time

POKER = Schedule(levels=((100, 200, 25), (200, 400, 50)), minutes=15)
"""A poker-style schedule (small blind, big blind, ante), as Hold'em Blackjack's tournaments use it."""


def test_blinds_of_any_shape_double_after_the_last_level() -> None:
    assert POKER.blinds(1) == (100, 200, 25)
    assert POKER.blinds(2) == (200, 400, 50)
    assert POKER.blinds(3) == (400, 800, 100)
    assert POKER.blinds(5) == (1600, 3200, 400)


def test_the_clock_needs_only_the_session_and_the_time() -> None:
    started = POKER.start("2027-03-01T20:00:00.000Z")
    assert started == LevelStarted(1, (100, 200, 25), "2027-03-01T20:15:00.000Z")
    session = Session().apply(started)
    assert POKER.due(Session(), "2027-03-01T21:00:00.000Z") is None      # not started
    assert POKER.due(session, "2027-03-01T20:14:59.999Z") is None
    assert POKER.due(session, "2027-03-01T20:15:00.000Z") == LevelStarted(
        2, (200, 400, 50), "2027-03-01T20:30:00.000Z")
    # After a long stop the clock catches up to the level the schedule has reached, on schedule.
    assert POKER.due(session, "2027-03-01T21:07:00.000Z") == LevelStarted(
        5, (1600, 3200, 400), "2027-03-01T21:15:00.000Z")
    over = Session.of(Tournament(level=3, ends_at="2027-03-01T20:00:00.000Z", winner=2))
    assert POKER.due(over, "2027-03-02T00:00:00.000Z") is None


def test_timestamps_round_trip() -> None:
    stamp = "2027-12-31T23:59:59.999Z"
    assert format_time(parse_time(stamp)) == stamp


def test_places_go_by_the_stacks_the_hand_started_with_and_equal_stacks_share() -> None:
    session = Session.of(Stacks({1: 500, 2: 500, 3: 900, 4: 100, 5: 3000}), Tournament(places={6: 6}))
    assert alive(session) == (1, 2, 3, 4, 5)
    events = eliminations({1: 500, 2: 500, 3: 900, 5: 3000}, {1: 0, 2: 0, 3: 0, 4: 100, 5: 4900}, session)
    assert events == (PlayerEliminated(3, 3), PlayerEliminated(1, 4), PlayerEliminated(2, 4))
    assert eliminations({4: 100, 5: 4900}, {4: 0, 5: 5000}, Session.of(Stacks({4: 100, 5: 4900}))) == (
        PlayerEliminated(4, 2), TournamentEnded(5))
    assert eliminations({4: 100}, {4: 50, 5: 5000}, Session.of(Stacks({4: 100, 5: 4900}))) == ()
