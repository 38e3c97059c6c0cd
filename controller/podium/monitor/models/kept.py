"""The books and game protection a monitor keeps in its own database (``serve --db``), read back at start.

A table holds only its last events (its journal's window, the sync socket's
history), so a monitor started again used to rebuild the books (openers,
closers, fills, credits, drops, signatures, the dealers' figures) and the
unrated seats' figures from what the tables still held. :class:`Keeper`
keeps them in the monitor's database instead
(:mod:`controller.podium.monitor.stores.kept`):

- **the books**: each table's, written over whenever they change;
- **game protection**: every event protection reads, as followed, each table's
  cut to what protection still needs (at each ``shoe.loaded`` kept, when
  protection forgets the subjects no table follows).

What the floor reads is kept a moment later (:data:`DELAY`: the changes of a
busy floor go in one transaction, on the store's thread); a monitor killed in
between gets those events again from the tables, which hold their last ones.

At start (:meth:`Keeper.load`), before the tables are followed, the books come
back as kept, and protection is fed the kept events in the order they were
followed, after the recorder's stored events of the rated players' tables from
before them (:func:`~controller.podium.monitor.models.protection_load.replay_stored`):
the figures, the unrated seats' too, are those of a monitor that ran all
along. The live events read already are skipped (the books and protection each
know the last event of each table they read).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
from collections.abc import Mapping

from controller.events.envelope import utc_timestamp
from controller.follow.records import FollowedEvent
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.protection_load import replay_stored
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.stores.kept import KeptEvent
from controller.podium.protection.watch import TYPES as PROTECTION_TYPES

log = logging.getLogger(__name__)

DELAY = 0.25
"""Seconds between an event read and its keeping (what comes meanwhile goes in the same transaction)."""

RETRY = 1.0
"""Seconds before what the database refused is tried again."""


class Keeper:
    """What ``floor`` reads, kept in the store of ``rated`` (whose thread it uses) and read back."""

    def __init__(self, rated: Rated, floor: Floor, keep_hours: float) -> None:
        """``keep_hours``: how long protection remembers a subject no table follows."""
        self.rated = rated
        self.floor = floor
        self.keep_hours = keep_hours
        self.events: list[KeptEvent] = []
        """Read, not yet kept."""
        self.books: set[str] = set()
        """The tables whose books changed since they were last kept."""
        self._due: asyncio.Handle | None = None
        self._writing: asyncio.Task[None] | None = None

    def heard(self, table: str, epoch: str, message: Mapping[str, object], body: bytes, books: bool) -> None:
        """An event the floor read (``books``: it changed the table's books): kept soon."""
        kind = message.get("type")
        if self.floor.protection is not None and kind in PROTECTION_TYPES:
            seq, hand = message.get("seq"), message.get("hand")
            if isinstance(seq, int) and isinstance(kind, str):
                self.events.append(KeptEvent(table, epoch, seq, str(message.get("ts") or ""), kind,
                                             hand if isinstance(hand, int) and not isinstance(hand, bool)
                                             else None, body.decode("utf-8", "replace")))
        if books:
            self.books.add(table)
        if (self.events or self.books) and self._due is None:
            self._due = asyncio.get_running_loop().call_later(DELAY, self._start)

    def _start(self) -> None:
        self._due = None
        if self._writing is None or self._writing.done():
            self._writing = asyncio.get_running_loop().create_task(self.flush())
        else:                                       # one write at a time: this one after it
            self._due = asyncio.get_running_loop().call_later(DELAY, self._start)

    async def flush(self) -> None:
        """Keep what was read so far (tried again later if the database refuses it)."""
        events, self.events = self.events, []
        tables, self.books = self.books, set()
        if not events and not tables:
            return
        books = {table: self.floor.books.kept(table) for table in sorted(tables)}
        prune = {e.table: _before(e.ts, self.keep_hours) for e in events if e.type == "shoe.loaded"}
        try:
            await self.rated.in_store(self._write, events, books, prune)
        except Exception as exc:  # the database down: keep them, try again
            log.error("keeping %d events and the books of %d tables failed, trying again: %s", len(events),
                      len(books), exc)
            self.events[:0] = events
            self.books |= tables
            if self._due is None:
                self._due = asyncio.get_running_loop().call_later(RETRY, self._start)

    def _write(self, events: list[KeptEvent], books: dict[str, str], prune: dict[str, str | None]) -> None:
        """On the store's thread: keep, then cut the tables where a shoe was loaded."""
        store = self.rated.store
        store.keep(events, books)
        for table, until in prune.items():
            if until is not None:
                store.prune_kept(table, until)

    async def close(self) -> None:
        """Keep what is left (the monitor is stopping)."""
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if self._writing is not None:
            await asyncio.gather(self._writing, return_exceptions=True)
        await self.flush()

    # ------------------------------------------------------------------ start

    async def load(self) -> int:
        """Read back the books and feed protection what was kept (see the module's words); the events
        read."""
        store = self.rated.store
        for table, text in (await self.rated.in_store(store.kept_books)).items():
            if table not in self.floor.tables:
                continue
            try:
                self.floor.books.restore(table, text)
            except (ValueError, KeyError, TypeError, IndexError) as exc:
                log.warning("table %s: the books kept cannot be read (they start again): %r", table, exc)
        protection = self.floor.protection
        if protection is None:
            return 0
        since = await self.rated.in_store(store.kept_since)
        read = await replay_stored(self.rated, self.floor, until=since)
        after = 0
        while share := await self.rated.in_store(store.kept_events, after):
            after = share[-1][0]
            for _, kept in share:
                if kept.table not in self.floor.tables:
                    continue
                read += 1
                event = FollowedEvent(kept.seq, kept.ts, kept.epoch or None, kept.type, kept.hand,
                                      f"{kept.table}/{kept.type}".encode(), kept.body.encode())
                for raised in protection.feed(kept.table, kept.epoch, event):
                    self.floor.book.add(raised.table, raised.epoch, raised.seq, raised.hand, raised.ts,
                                        raised.data)
        log.info("read back %d events of game protection", read)
        return read


def _before(ts: str, hours: float) -> str | None:
    """The pit ``ts`` ``hours`` before ``ts`` (None: ``ts`` is no time)."""
    try:
        return utc_timestamp(datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))
                             - datetime.timedelta(hours=hours))
    except (ValueError, OverflowError):
        return None
