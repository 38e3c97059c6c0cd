"""The floor's rated play and shift figures, live: every table's open ratings and its current shift.

:class:`Rated` keeps, per table, a :class:`~controller.podium.ratings.rating.TableRatings`
(its open ratings) and a :class:`~controller.podium.ratings.shift.TableShifts` (its
figures shift by shift), fed the events the monitor's followers deliver. The
ratings themselves are the store's (the recorder's database, ``serve --db``):
opening and closing one is written there first, then shown. At start, the
open ratings and the events since the earlier of the current shift's start and
the oldest open rating's opening are read back from the store, so a monitor
restarted mid-shift shows the whole shift; the live events that the store
held already are skipped (each table's events are read once, by ``(epoch,
seq)``).

Each table's edges (what each wager spot is worth to the house) come from its
game's own math under the rules its last ``table.opened`` published
(:func:`~controller.podium.ratings.figures.edges_of`), worked out once per game
and rules in a worker process (the math may take seconds; the loop goes on)
and cached in the store. A rating records the edges it was opened with.
"""

from __future__ import annotations

import asyncio
import datetime
import itertools
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypedDict, TypeVar

from controller.events.envelope import utc_timestamp
from controller.events.table import TableOpened
from controller.follow.records import FollowedEvent
from controller.podium.monitor.apart.edges import edges_apart
from controller.podium.monitor.stores.events import Row, Store
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.hands import RATED_TYPES, BadEvent, Rules, canonical_rules, record_of
from controller.podium.ratings.rating import Rating, RatingError, TableRatings
from controller.podium.ratings.shift import Shifts, ShiftSummary, TableShifts
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)

T = TypeVar("T")
P = ParamSpec("P")

RATED_SET = frozenset(RATED_TYPES)

AT_ONCE = 2
"""Edges worked out at the same time (each in its own child process)."""

NO_PIT = ""
"""The pit of the tables the floor file puts in none."""


class RatedTile(TypedDict):
    """What a table's tile shows of its rated play: its shift's figures, and the ratings open."""

    shift: JsonObject
    rated: int


def utc_now() -> datetime.datetime:
    """Now, aware, in UTC."""
    return datetime.datetime.now(datetime.UTC)


class Rated:
    """Open ratings and shift figures of every table, kept from their events, stored in ``store``."""

    def __init__(self, store: Store, tables: Iterable[str], shifts: Shifts, pits: Mapping[str, str], *,
                 compute: Callable[[str, Rules], Awaitable[Edges]] = edges_apart,
                 clock: Callable[[], datetime.datetime] = utc_now) -> None:
        """``compute`` works out the edges (by default in a child process: the game's math takes
        seconds), :data:`AT_ONCE` at a time."""
        self.store = store
        self.shifts = shifts
        self.clock = clock
        self.compute = compute
        self._turns = asyncio.Semaphore(AT_ONCE)
        self._db = ThreadPoolExecutor(1, thread_name_prefix="ratings-store")
        """The store's one thread: its calls never interleave (one connection, one transaction)."""
        self.ratings = {name: TableRatings(name) for name in tables}
        self.figures = {name: TableShifts(name, shifts) for name in self.ratings}
        for name, figures in self.figures.items():   # one reader per table: each event read once
            figures.reader = self.ratings[name].reader
        self._versions = dict.fromkeys(self.ratings, 0)
        """Per table, a number that changes whenever what its figures are worked out from does."""
        self._shown: dict[str, tuple[tuple[int, datetime.datetime], ShiftSummary, RatedTile]] = {}
        """Per table, its shift's figures and its tile's part as last worked out, and of what (its
        version and the shift's start): a tile drawn again shows them without working them out."""
        self._shift: tuple[datetime.datetime, datetime.datetime] | None = None
        """The current shift's start and end, as last found."""
        self._texts: dict[int, tuple[Rules, str]] = {}
        """Rules (by id, with the object itself, which keeps the id its own) and their canonical text."""
        self.pits = {name: pits.get(name, NO_PIT) for name in self.ratings}
        self._edges: dict[tuple[str, str], Edges] = {}
        """The edges found, by (game, canonical rules)."""
        self._kept: datetime.datetime | None = None
        """The start of the shift whose figures are kept (and any later ones)."""
        self._working: dict[tuple[str, str], asyncio.Future[Edges | None]] = {}
        self.on_change: Callable[[str], None] = lambda table: None
        """Called with a table's name when its ratings or figures changed other than by an event (edges
        found, a new shift begun)."""
        self._turnover: asyncio.TimerHandle | None = None
        """Due when the current shift ends (:meth:`_shift_over`)."""

    async def _stored(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` on the store's thread."""
        return await asyncio.get_running_loop().run_in_executor(self._db, partial(call, *args, **kwargs))

    async def in_store(self, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(*args, **kwargs)`` on the store's thread (its calls never interleave)."""
        return await self._stored(call, *args, **kwargs)

    def let_go(self) -> None:
        """Let the store's thread go (what it was given is done first), and the shift's end."""
        if self._turnover is not None:
            self._turnover.cancel()
        self._db.shutdown(wait=True)

    # ------------------------------------------------------------------ start

    async def load(self) -> None:
        """Read back the open ratings and, per table, the events since the earlier of the shift's
        start and its oldest open rating's opening (one query for the whole floor, read a share at a
        time: a query per table reads every event of the table, a hundred thousand a day)."""
        now = self.clock()
        shift_start = utc_timestamp(self.shifts.bounds(now)[0])
        open_ratings = await self._stored(self.store.ratings, open_only=True)
        since = dict.fromkeys(self.ratings, shift_start)
        for rating in open_ratings:
            if rating.table in self.ratings:
                self.ratings[rating.table].add(rating)
                self._versions[rating.table] += 1
                since[rating.table] = min(since[rating.table], rating.opened)
        openings = await self._stored(_last_by_table, self.store.rows(("table.opened",)))
        for table, row in openings.items():   # the rules in force, from the last opening, however long ago
            if table in self.ratings:
                self._read_opening(table, row)
        rows = self.store.rows(RATED_TYPES, since=min(since.values(), default=shift_start))
        while chunk := await self._stored(_share, rows):
            for row in chunk:
                if row.table in since and row.ts >= since[row.table]:
                    self.feed(row.table, row.epoch, row_event(row))
        self._kept = self.shifts.bounds(now)[0]
        for figures in self.figures.values():
            figures.forget_before(self._kept)
        self._until_shift_over()

    def _read_opening(self, table: str, row: Row) -> None:
        try:
            opened = record_of(row_event(row))
        except BadEvent as exc:
            log.warning("table %s: its last table.opened (seq %d) is not one: %s", table, row.seq, exc)
            return
        reader = self.ratings[table].reader      # the shift's too
        if isinstance(opened, TableOpened):
            reader.game, reader.rules = opened.game, opened.rules
        self._versions[table] += 1
        self._want_edges(table)

    # ------------------------------------------------------------------ events

    def feed(self, table: str, epoch: str, event: FollowedEvent) -> None:
        """One event of ``table`` (in order); a ``table.closed`` closes its open ratings (stored)."""
        if table not in self.ratings or event.type not in RATED_SET:
            return
        if event.type == "hand.settled":
            self._forget_old_shifts()
        happening = self.ratings[table].read(event, epoch)
        opened = event.type == "table.opened"
        if happening is not None or opened:   # the rest changes no figure
            self._versions[table] += 1
        closed = self.ratings[table].take(happening)
        self.figures[table].take(happening)
        if opened:
            self._want_edges(table)
        if closed:
            at, by = closed[0].closed or "", closed[0].closed_by or ""
            asyncio.get_running_loop().create_task(self._store_closing(table, at, by))
            self.ratings[table].forget_closed()

    async def _store_closing(self, table: str, at: str, by: str) -> None:
        try:
            await self._stored(self.store.close_table_ratings, table, at, by)
        except Exception as exc:  # the recorder closes them too when it stores the table.closed
            log.error("table %s: the ratings closed with the table could not be stored: %s", table, exc)

    # ------------------------------------------------------------------ edges

    def _rules(self, table: str) -> tuple[str | None, Rules | None]:
        reader = self.ratings[table].reader
        return reader.game, reader.rules

    def _want_edges(self, table: str) -> None:
        """Start working out the edges of the table's game and rules, unless known or under way."""
        game, rules = self._rules(table)
        if game is None or rules is None:
            return
        key = (game, canonical_rules(rules))
        if key in self._edges or key in self._working:
            return
        self._working[key] = asyncio.get_running_loop().create_task(self._find_edges(key, game, rules))

    async def _find_edges(self, key: tuple[str, str], game: str, rules: Rules) -> Edges | None:
        """The edges from the store's cache, else worked out (and cached there). Not found (an
        unknown game, rules the game refuses, the worker or the store down): logged, and tried
        again when next wanted (a rating opened, the table opened)."""
        found: Edges | None = None
        try:
            found = await self._stored(self.store.edges, game, rules)
        except Exception as exc:  # the store down: work them out all the same
            log.error("the edges of %s cached in the store could not be read: %s", game, exc)
        try:
            if found is None:
                async with self._turns:
                    found = await self.compute(game, rules)
                await self._stored(self.store.put_edges, found)
        except Exception as exc:  # an unknown game, rules the game refuses, the store down
            log.error("the edges of %s under rules %s could not be %s: %s", game, key[1],
                      "found" if found is None else "cached in the store", exc)
        if found is not None:
            self._edges[key] = found
        del self._working[key]
        for table in self._versions:       # a shift may have hands of these rules at any table
            self._versions[table] += 1
        for table in self.ratings:
            game_now, rules_now = self._rules(table)
            if game_now == game and rules_now is not None and canonical_rules(rules_now) == key[1]:
                self.on_change(table)
        return found

    def edges(self, game: str | None, rules: Rules | None) -> Edges | None:
        """The edges known for ``game`` under ``rules`` (None: unknown or not yet worked out)."""
        if game is None or rules is None:
            return None
        return self._edges.get((game, self._rules_text(rules)))

    def _rules_text(self, rules: Rules) -> str:
        """:func:`~controller.podium.ratings.hands.canonical_rules`, worked out once per rules read (a
        table's reader keeps the same object until the table opens again)."""
        known = self._texts.get(id(rules))
        if known is None or known[0] is not rules:
            known = self._texts[id(rules)] = (rules, canonical_rules(rules))
        return known[1]

    async def table_edges(self, table: str) -> Edges | None:
        """The edges of the table's game under its rules now, waiting for them if under way."""
        self._want_edges(table)
        game, rules = self._rules(table)
        if game is None or rules is None:
            return None
        key = (game, canonical_rules(rules))
        working = self._working.get(key)
        return await asyncio.shield(working) if working is not None else self._edges.get(key)

    # ------------------------------------------------------------------ the pit's changes

    async def open(self, table: str, seat: int, player: str, by: str) -> tuple[Rating, Rating | None]:
        """Rate ``player`` at ``table``'s ``seat`` from now (stored first); the rating, and the one it
        closed at that seat. RatingError if it cannot be opened."""
        if table not in self.ratings:
            raise RatingError(f"no table {table}")
        edges = await self.table_edges(table)
        at = utc_timestamp(self.clock())
        rating, replaced = await self._stored(self.store.open_rating, player, table, seat, at, by, edges)
        self._versions[table] += 1
        self.ratings[table].open(rating)
        self.ratings[table].forget_closed()
        return rating, replaced

    async def close(self, rating_id: int, by: str) -> Rating:
        """Close a rating now (stored first); RatingError if it is unknown or closed already."""
        at = utc_timestamp(self.clock())
        rating = await self._stored(self.store.close_rating, rating_id, at, by)
        tables = self.ratings.get(rating.table)
        if tables is not None and rating.id in tables.tallies:
            self._versions[rating.table] += 1
            tables.tallies[rating.id].rating = rating
            tables.forget_closed()
        return rating

    # ------------------------------------------------------------------ views

    def open_ratings(self, table: str) -> list[JsonObject]:
        """The table's open ratings, each with its figures so far."""
        now = self.clock()
        ratings = self.ratings[table]
        return [{**r.to_json(), "figures": ratings.figures(r.id, now).to_json()}
                for r in ratings.ratings() if r.is_open]

    def current_shift(self) -> tuple[datetime.datetime, datetime.datetime]:
        """The start and end of the shift now (UTC)."""
        now = self.clock()
        if self._shift is None or not self._shift[0] <= now < self._shift[1]:
            self._shift = self.shifts.bounds(now)
        return self._shift

    def _figures(self, table: str) -> tuple[ShiftSummary, RatedTile]:
        """The table's shift figures and its tile's part, worked out again only when the table's
        ratings or hands, an edge or the shift changed since (a busy floor draws a tile many times
        between two hands)."""
        start = self.current_shift()[0]
        key = (self._versions[table], start)
        shown = self._shown.get(table)
        if shown is None or shown[0] != key:
            summary = self.figures[table].at(start).summary(self.edges)
            rated = sum(r.is_open for r in self.ratings[table].ratings())
            tile: RatedTile = {"shift": summary.to_json(), "rated": rated}
            shown = self._shown[table] = (key, summary, tile)
        return shown[1], shown[2]

    def shift(self, table: str) -> ShiftSummary:
        """The table's figures in the current shift."""
        return self._figures(table)[0]

    def shift_json(self, table: str) -> JsonObject:
        """:meth:`shift` with the shift's bounds and name."""
        return {**self._figures(table)[1]["shift"], **self.shift_bounds()}

    def shift_bounds(self) -> JsonObject:
        """The current shift's ``shift`` (its name), ``start`` and ``end``."""
        start, end = self.current_shift()
        return {"shift": self.shifts.name(start), "start": utc_timestamp(start), "end": utc_timestamp(end)}

    def tile(self, table: str) -> RatedTile:
        """What a table's tile shows: its shift's figures, how many ratings are open there (the
        same object while they stay the same: read it, do not change it)."""
        return self._figures(table)[1]

    def pit_figures(self) -> list[JsonObject]:
        """Each pit's shift figures (the sum of its tables'), by pit name."""
        sums: dict[str, ShiftSummary] = {}
        for table, pit in self.pits.items():
            summary = self.shift(table)
            sums[pit] = sums[pit] + summary if pit in sums else summary
        return [{"pit": pit, **sums[pit].to_json()} for pit in sorted(sums)]

    def _until_shift_over(self) -> None:
        """Be called back when the current shift ends."""
        delay = (self.current_shift()[1] - self.clock()).total_seconds()
        self._turnover = asyncio.get_running_loop().call_later(max(0.0, delay), self._shift_over)

    def _shift_over(self) -> None:
        """A shift is over: every table's tile and page show the new one at once, whether it deals
        or not (an idle table's would show the last shift's figures until its next event), and the
        old shift's figures are let go."""
        if self._forget_old_shifts():
            for table in self.ratings:
                self.on_change(table)
        self._until_shift_over()

    def _forget_old_shifts(self) -> bool:
        """Once a new shift has begun, drop the figures of the shifts over (a monitor that runs for
        months keeps only the current one's); whether one had."""
        start = self.current_shift()[0]
        if start == self._kept:
            return False
        self._kept = start
        for figures in self.figures.values():
            figures.forget_before(start)
        return True


LOAD_SHARE = 5000
"""Rows read at a time at start (on the store's thread, the loop going on between two)."""


def _share(rows: Iterator[Row]) -> list[Row]:
    """The next :data:`LOAD_SHARE` rows (on the store's thread); none when all were read."""
    return list(itertools.islice(rows, LOAD_SHARE))


def _last_by_table(rows: Iterable[Row]) -> dict[str, Row]:
    """Each table's last row (read on the store's thread; the store gives rows by table and seq)."""
    return {row.table: row for row in rows}


def row_event(row: Row) -> FollowedEvent:
    """A stored event as a follower hands it on (its record decoded when first read)."""
    return FollowedEvent(row.seq, row.ts, row.epoch or None, row.type, row.hand, row.topic.encode(),
                         row.body.encode())

