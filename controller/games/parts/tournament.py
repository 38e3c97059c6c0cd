"""The tournament clock and standings, for any game with tournament stakes.

A :class:`Schedule` holds each level's blinds (amounts in cents, as many as the
game uses: Blackjack Extreme's minimum, middle and cap; a poker game's small
blind, big blind and ante) and the minutes a level lasts; after the last level
every amount doubles at each new level.

The clock is journaled, never timed from start-up: a level starts as a
:class:`~controller.games.interface.LevelStarted` event carrying its ``ends_at``,
so a restart finds the level and its end in the session's
:class:`~controller.games.session.tournament.Tournament` part. The table asks the
game every second between hands what the time ``now`` brings
(``Game.due(session, now)``); the game answers with :meth:`Schedule.due`, a pure
function of the session and the time. A level that ends during a hand takes
effect at the next hand. After a long stop the clock catches up in one step to
the level the schedule has reached, with that level's own ``ends_at``.

>>> schedule = Schedule(levels=((2000, 4000, 6000), (4000, 8000, 12000)), minutes=20)
>>> schedule.start("2027-03-01T20:00:00.000Z")
LevelStarted(level=1, blinds=(2000, 4000, 6000), ends_at='2027-03-01T20:20:00.000Z')
>>> session = Session().apply(schedule.start("2027-03-01T20:00:00.000Z"))
>>> schedule.due(session, "2027-03-01T20:19:59.999Z") is None
True
>>> schedule.due(session, "2027-03-01T21:05:00.000Z")
LevelStarted(level=4, blinds=(16000, 32000, 48000), ends_at='2027-03-01T21:20:00.000Z')
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from controller.games.interface import (
    LevelStarted,
    PlayerEliminated,
    Session,
    SessionEvent,
    Stacks,
    Tournament,
    TournamentEnded,
)

STAMP = "%Y-%m-%dT%H:%M:%S.%fZ"
"""The pit's timestamp format (UTC, milliseconds, ``Z``)."""


def parse_time(stamp: str) -> datetime.datetime:
    """A pit timestamp as an aware UTC datetime.

    >>> parse_time("2027-03-01T20:00:00.250Z").isoformat()
    '2027-03-01T20:00:00.250000+00:00'
    """
    return datetime.datetime.strptime(stamp, STAMP).replace(tzinfo=datetime.UTC)


def format_time(when: datetime.datetime) -> str:
    """An aware datetime as a pit timestamp (milliseconds, truncated)."""
    utc = when.astimezone(datetime.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


@dataclass(frozen=True)
class Schedule:
    """Blind levels: ``levels[n - 1]`` are level n's blinds in cents; each lasts ``minutes``."""

    levels: tuple[tuple[int, ...], ...]
    minutes: int

    def blinds(self, level: int) -> tuple[int, ...]:
        """Level ``level``'s blinds (from 1); past the last level every amount doubles per level.

        >>> Schedule(((20, 40), (40, 80)), 10).blinds(4)
        (160, 320)
        """
        last = len(self.levels)
        if level <= last:
            return self.levels[level - 1]
        return tuple(amount * 2 ** (level - last) for amount in self.levels[-1])

    def start(self, now: str) -> LevelStarted:
        """Level 1, starting at ``now``."""
        return self._level(1, parse_time(now) + datetime.timedelta(minutes=self.minutes))

    def due(self, session: Session, now: str) -> LevelStarted | None:
        """The level the clock has reached at ``now``, if the session's level has ended; else None
        (also before the first level and once the tournament has a winner)."""
        tournament = session[Tournament]
        if tournament.level == 0 or tournament.ends_at is None or tournament.winner is not None:
            return None
        ends = parse_time(tournament.ends_at)
        late = parse_time(now) - ends
        if late < datetime.timedelta(0):
            return None
        length = datetime.timedelta(minutes=self.minutes)
        passed = late // length + 1
        return self._level(tournament.level + passed, ends + passed * length)

    def _level(self, level: int, ends: datetime.datetime) -> LevelStarted:
        return LevelStarted(level, self.blinds(level), format_time(ends))


def alive(session: Session) -> tuple[int, ...]:
    """The seats still in the tournament: seated and not eliminated, in seat order."""
    places = session[Tournament].places
    return tuple(seat for seat in sorted(session[Stacks].stacks) if seat not in places)


def eliminations(before: Mapping[int, int], after: Mapping[int, int],
                 session: Session) -> tuple[SessionEvent, ...]:
    """Who a hand knocked out, and the winner if one seat is left.

    ``before`` holds the stacks at the hand's start of the seats that played it,
    ``after`` every alive seat's stack after it. Each seat that played and now
    has nothing is eliminated; its place is one below the players still in.
    Players knocked out in the same hand are placed by the stacks they started
    the hand with (more chips, better place); equal stacks share the place.
    When one seat is left with chips, ``TournamentEnded`` names it.

    >>> session = Session.of(Stacks({1: 100, 2: 300, 3: 300, 4: 50}))
    >>> eliminations({1: 100, 2: 300, 4: 50}, {1: 0, 2: 0, 3: 750, 4: 0}, session)
    (PlayerEliminated(seat=2, place=2), PlayerEliminated(seat=1, place=3), \
PlayerEliminated(seat=4, place=4), TournamentEnded(seat=3))
    """
    still = alive(session)
    out = [seat for seat in still if seat in before and after.get(seat, 0) == 0]
    left = len(still) - len(out)
    events: list[SessionEvent] = []
    for seat in sorted(out, key=lambda s: (-before[s], s)):
        better = sum(1 for other in out if before[other] > before[seat])
        events.append(PlayerEliminated(seat, left + 1 + better))
    standing = [seat for seat in still if seat not in out and after.get(seat, 0) > 0]
    if out and len(standing) == 1:
        events.append(TournamentEnded(standing[0]))
    return tuple(events)
