"""Rated play: a player rated at a seat of a table, and the figures of that play, from the table's events.

A :class:`Rating` is the record the pit boss opens and closes (the store keeps
it). Its figures are worked out from the table's events alone, so they can
always be worked out again from the stored events between its opening and its
closing: :class:`TableRatings` is fed one table's events in order (live from
a follower, or from the store) and keeps each rating's :class:`RatingTally`.

What a rating counts (docs/pit-monitor-reference.md, "Rated play"):

* a hand counts when its ``hand.settled`` falls while the rating is open
  (``opened <= ts < closed``), a jackpot (``progressive.paid``) to the seat
  likewise;
* **hands**: those in which the seat had a wager; **banked**: those it dealt
  as the player-dealer (``hand.started``'s ``dealer_seat``), counted apart
  with the bank's result (the house has no edge on them);
* per wager spot: hands with a wager there, total and average bet;
* **actual**: the seat's payouts (the player's net, positive when the player
  won) and the jackpots paid to it;
* **theo**: :func:`~controller.podium.ratings.theo.theo_of` of its wagers under
  the edges the rating recorded (unknown without them);
* **time played**: from the opening to the closing (or to ``now``).

A rating closes when the pit closes it, when the table closes
(``table.closed``: every rating open at the table, opened before it), or when
another player is rated at the seat. Timestamps are pit ``ts`` text (UTC,
``2026-11-21T22:14:05.123Z``), which sorts as time.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from controller.follow.records import FollowedEvent
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.hands import BadEvent, Closed, Hand, HandReader, Happening, Jackpot
from controller.podium.ratings.theo import SpotWagers, Theo, Wagers, theo_of
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)

PIT, TABLE_CLOSED, REPLACED = "pit", "table closed", "seat rated again"
"""Why a rating closed: the pit closed it, the table closed, another player was rated at the seat."""

PLAYER_ID_LENGTH = 64

MAX_SEAT = 32
"""The highest seat a rating may name: a table has at most 32 seats (``table.seats``, 1..32, the
configuration's ``MAX_SEATS``; no game has more). Checked before the monitor has heard a table and
knows its own seats, so that no number beyond a database's integers reaches the store."""


class RatingError(ValueError):
    """A rating cannot be opened or closed as asked; the message says why."""


def player_id(text: str) -> str:
    """A player id as typed or read by a card reader (which may end it with Enter), checked.

    >>> player_id("  P-1001\\r\\n")
    'P-1001'
    >>> player_id("")
    Traceback (most recent call last):
    ...
    controller.podium.ratings.rating.RatingError: a player id is needed
    """
    text = text.strip()
    if not text:
        raise RatingError("a player id is needed")
    if len(text) > PLAYER_ID_LENGTH or not text.isprintable():
        raise RatingError(f"a player id is up to {PLAYER_ID_LENGTH} printable characters: {text[:80]!r}")
    return text


def seat_number(seat: object) -> int:
    """A rating's seat, checked: a whole number from 1 to :data:`MAX_SEAT`.

    >>> seat_number(3)
    3
    >>> seat_number(33)
    Traceback (most recent call last):
    ...
    controller.podium.ratings.rating.RatingError: a seat is a whole number from 1 to 32, not 33
    """
    if not isinstance(seat, int) or isinstance(seat, bool) or not 1 <= seat <= MAX_SEAT:
        raise RatingError(f"a seat is a whole number from 1 to {MAX_SEAT}, not {str(seat)[:40]}")
    return seat


def parse_ts(ts: str) -> datetime.datetime:
    """A pit ``ts`` as an aware datetime.

    >>> parse_ts("2026-11-21T22:14:05.123Z").isoformat()
    '2026-11-21T22:14:05.123000+00:00'
    """
    return datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))


@dataclass(frozen=True)
class Rating:
    """A player rated at one seat of one table, from ``opened`` until ``closed`` (None: open)."""

    id: int
    player: str
    table: str
    seat: int
    opened: str
    opened_by: str
    edges: Edges | None = None
    """The edges the theoretical win is worked out with (None: unknown, so is the theo)."""
    closed: str | None = None
    closed_by: str | None = None
    reason: str | None = None

    @property
    def is_open(self) -> bool:
        return self.closed is None

    def covers(self, ts: str) -> bool:
        """Whether an event at ``ts`` falls in the rating."""
        return self.opened <= ts and (self.closed is None or ts < self.closed)

    def closing(self, at: str, by: str, reason: str) -> Rating:
        """This rating closed at ``at`` (a time before its opening is taken as its opening: it lasted
        no time); RatingError if it is closed already."""
        if self.closed is not None:
            raise RatingError(f"rating {self.id} was closed already, at {self.closed} by {self.closed_by} "
                              f"({self.reason})")
        return replace(self, closed=max(at, self.opened), closed_by=by, reason=reason)

    def to_json(self) -> JsonObject:
        """The rating as the pages and reports give it (its edges as recorded)."""
        return {"id": self.id, "player": self.player, "table": self.table, "seat": self.seat,
                "opened": self.opened, "opened_by": self.opened_by, "closed": self.closed,
                "closed_by": self.closed_by, "reason": self.reason,
                "edges": None if self.edges is None else self.edges.to_json()}


def time_played(ratings: Iterable[Rating], now: datetime.datetime) -> float:
    """Seconds during which at least one of ``ratings`` was open (a player rated at two seats at
    once plays that time once); an open rating runs to ``now``."""
    spans = sorted((parse_ts(r.opened), parse_ts(r.closed) if r.closed is not None else now)
                   for r in ratings)
    seconds = 0.0
    reached: datetime.datetime | None = None
    for start, end in spans:
        start = start if reached is None else max(start, reached)
        if end > start:
            seconds += (end - start).total_seconds()
        reached = end if reached is None else max(reached, end)
    return seconds


@dataclass(frozen=True)
class Figures:
    """What a player did: one rating's figures, or several ratings' together (``+``)."""

    hands: int = 0
    banked: int = 0
    seconds: float = 0.0
    spots: Mapping[str, SpotWagers] = field(default_factory=dict)
    actual: int = 0
    jackpots: int = 0
    """Of ``actual``, the jackpots paid (``progressive.paid``)."""
    waiting: int = 0
    """Jackpots won (outcome ``waiting``) and not yet paid while rated."""
    bank: int = 0
    """The bank's result in the hands the seat dealt as the player-dealer."""
    theo: Theo = field(default_factory=Theo)

    @property
    def wagered(self) -> int:
        return sum(s.wagered for s in self.spots.values())

    @property
    def average_bet(self) -> int | None:
        """Cents wagered per hand with a wager, rounded (None without one)."""
        return round(self.wagered / self.hands) if self.hands else None

    def __add__(self, other: Figures) -> Figures:
        spots = {name: SpotWagers(s.hands, s.wagered, s.player_dealt) for name, s in self.spots.items()}
        for name, s in other.spots.items():
            mine = spots.setdefault(name, SpotWagers())
            mine.hands, mine.wagered = mine.hands + s.hands, mine.wagered + s.wagered
            mine.player_dealt += s.player_dealt
        return Figures(self.hands + other.hands, self.banked + other.banked, self.seconds + other.seconds,
                       spots, self.actual + other.actual, self.jackpots + other.jackpots,
                       self.waiting + other.waiting, self.bank + other.bank, self.theo + other.theo)

    def to_json(self) -> JsonObject:
        """Money in cents."""
        spots: JsonObject = {name: {"hands": s.hands, "wagered": s.wagered, "average_bet": s.average}
                             for name, s in sorted(self.spots.items())}
        return {"hands": self.hands, "banked": self.banked, "seconds": round(self.seconds),
                "wagered": self.wagered, "average_bet": self.average_bet, "spots": spots,
                "actual": self.actual, "jackpots": self.jackpots, "jackpots_waiting": self.waiting,
                "bank_result": self.bank, "theo": self.theo.to_json()}


class RatingTally:
    """One rating and what its seat did while it was open."""

    def __init__(self, rating: Rating) -> None:
        self.rating = rating
        self.hands = self.banked = self.actual = self.jackpots = self.waiting = 0
        self.wagers = Wagers()

    def take(self, happening: Happening) -> None:
        """Count a settled hand or a jackpot if it falls in the rating and concerns its seat."""
        seat = self.rating.seat
        if isinstance(happening, Hand) and self.rating.covers(happening.settled):
            mine = [r for r in happening.results if r.seat == seat]
            if mine:
                self.hands += 1
                self.wagers.add_hand(mine, player_dealt=happening.dealer_seat is not None,
                                     rake=happening.rake, pot=happening.pot)
                self.actual += sum(r.payout for r in mine)
                self.waiting += sum(r.outcome == "waiting" for r in mine)
            if happening.dealer_seat == seat:
                self.banked += 1
                self.wagers.add_bank(r for r in happening.results if r.seat != seat)
        elif isinstance(happening, Jackpot) and happening.seat == seat and self.rating.covers(happening.ts):
            self.actual += happening.amount
            self.jackpots += happening.amount
            self.waiting = max(0, self.waiting - 1)

    def figures(self, now: datetime.datetime) -> Figures:
        """The figures so far; an open rating's time runs to ``now``."""
        end = parse_ts(self.rating.closed) if self.rating.closed is not None else now
        seconds = max(0.0, (end - parse_ts(self.rating.opened)).total_seconds())
        edges = self.rating.edges
        spots = {name: replace(s) for name, s in self.wagers.spots.items()}
        return Figures(self.hands, self.banked, seconds, spots, self.actual, self.jackpots,
                       self.waiting, self.wagers.bank_result(edges), theo_of(self.wagers, edges))


class TableRatings:
    """The ratings of one table, fed its events in order (pure: the caller stores the changes)."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.reader = HandReader(table)
        self.tallies: dict[int, RatingTally] = {}
        self.problems: list[str] = []
        """The events left out because they could not be read, in words."""

    def add(self, rating: Rating) -> None:
        """Follow a rating as stored (open or closed); its figures count from its opening."""
        if rating.table != self.table:
            raise RatingError(f"rating {rating.id} is at table {rating.table}, not {self.table}")
        self.tallies[rating.id] = RatingTally(rating)

    def open(self, rating: Rating) -> Rating | None:
        """Follow a rating just opened; the rating it ends at that seat (closed), if there was one."""
        replaced = next((t for t in self.tallies.values()
                         if t.rating.is_open and t.rating.seat == rating.seat), None)
        if replaced is not None:
            replaced.rating = replaced.rating.closing(rating.opened, rating.opened_by, REPLACED)
        self.add(rating)
        return None if replaced is None else replaced.rating

    def close(self, rating_id: int, at: str, by: str, reason: str = PIT) -> Rating:
        """Close a rating; RatingError if it is unknown here or closed already."""
        tally = self.tallies.get(rating_id)
        if tally is None:
            raise RatingError(f"no rating {rating_id} at table {self.table}")
        tally.rating = tally.rating.closing(at, by, reason)
        return tally.rating

    def feed(self, event: FollowedEvent, epoch: str = "") -> list[Rating]:
        """One event of the table; the ratings it closed (``table.closed``). An unreadable event is
        left out, logged and kept in :attr:`problems`."""
        return self.take(self.read(event, epoch))

    def read(self, event: FollowedEvent, epoch: str = "") -> Happening | None:
        """What the table's :attr:`reader` makes of one event (None: nothing yet, or an unreadable
        event: left out, logged and kept in :attr:`problems`), for :meth:`take` and whoever else
        counts the table's hands
        (:meth:`TableShifts.take <controller.podium.ratings.shift.TableShifts.take>`): each event is read
        once."""
        try:
            return self.reader.feed(event, epoch)
        except BadEvent as exc:
            problem = f"table {self.table} seq {event.seq}: {exc}"
            self.problems.append(problem)
            log.warning("left out of the ratings: %s", problem)
            return None

    def take(self, happening: Happening | None) -> list[Rating]:
        """Count what :meth:`read` gave; the ratings it closed (``table.closed``)."""
        if happening is None:
            return []
        if isinstance(happening, Closed):
            closed = []
            for tally in self.tallies.values():
                if tally.rating.is_open and tally.rating.opened <= happening.ts:
                    tally.rating = tally.rating.closing(happening.ts, happening.supervisor, TABLE_CLOSED)
                    closed.append(tally.rating)
            return closed
        for tally in self.tallies.values():
            tally.take(happening)
        return []

    def ratings(self) -> list[Rating]:
        """Every rating followed, by id."""
        return [self.tallies[n].rating for n in sorted(self.tallies)]

    def figures(self, rating_id: int, now: datetime.datetime) -> Figures:
        """One rating's figures so far."""
        return self.tallies[rating_id].figures(now)

    def forget_closed(self) -> None:
        """Stop following the closed ratings (a live monitor keeps only the open ones)."""
        self.tallies = {n: t for n, t in self.tallies.items() if t.rating.is_open}
