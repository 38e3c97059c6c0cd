"""What the monitor keeps of its own in its database (``serve --db``), beside ``events`` and the ratings.

Two tables, the same in SQLite and in PostgreSQL, created if missing::

    kept_books(table_id PRIMARY KEY, body)
    kept_events(id, table_id, epoch, seq, ts, type, hand, body)   unique on (table_id, epoch, seq)

``kept_books`` holds each table's books as the monitor last worked them out
(:meth:`~controller.podium.ratings.books.Books.kept`: its dealers' figures,
the dealer signed in, its counts with their slips, signatures and drop),
written over at each change. ``kept_events`` holds the events game protection
reads, as the monitor followed them (``id`` in the order it followed them),
each body exactly as published: read again at start, they give back every
subject's figures, the unrated seats' too. They are the monitor's own, apart
from the recorder's ``events`` (whose last row of a table is where the
recorder resumes), so the monitor keeps its books and figures whether a
recorder runs or not.

A table's kept events are cut to what protection still needs
(:meth:`KeptTables.prune_kept`): an unrated seat is followed until its table
closes and forgotten ``keep_hours`` after that, so what came before the last
``table.closed`` older than ``keep_hours`` is needed no more, but for the
shoe loaded before it (the count) and the table's last ``table.opened`` (its
game and rules).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from controller.podium.monitor.stores.ratings import RatingTables


def kept_schema(id_column: str, integer: str) -> list[str]:
    """The statements that create the tables if missing (``id_column``: the backend's auto id;
    ``integer``: its 64-bit whole number)."""
    return [
        "CREATE TABLE IF NOT EXISTS kept_books (table_id TEXT PRIMARY KEY, body TEXT NOT NULL)",
        f"""CREATE TABLE IF NOT EXISTS kept_events (
            id {id_column}, table_id TEXT NOT NULL, epoch TEXT NOT NULL, seq {integer} NOT NULL,
            ts TEXT NOT NULL, type TEXT NOT NULL, hand {integer}, body TEXT NOT NULL,
            UNIQUE (table_id, epoch, seq))""",
        "CREATE INDEX IF NOT EXISTS kept_events_by_type ON kept_events (table_id, type, ts)",
    ]


@dataclass(frozen=True)
class KeptEvent:
    """One event the monitor keeps: its table, epoch (as text), seq, ``ts``, type, hand and body
    (the published JSON text)."""

    table: str
    epoch: str
    seq: int
    ts: str
    type: str
    hand: int | None
    body: str


KEPT_FIELDS = "table_id, epoch, seq, ts, type, hand, body"

SHARE = 5000
"""Kept events read at a time (:meth:`KeptTables.kept_events`)."""


Values = tuple[str | int | None, ...]
"""One row's values for a statement run many times."""


class KeptTables(RatingTables):
    """The monitor's kept books and events, on the connection of the ratings (SQL written with ``?``)."""

    @abstractmethod
    def _run_many(self, sql: str, rows: Sequence[Values]) -> None:
        """Run one statement once per row of values (inside a transaction begun)."""

    def keep(self, events: Sequence[KeptEvent], books: Mapping[str, str]) -> None:
        """Keep these events (one kept already is left as it is) and these tables' books (table ->
        :meth:`~controller.podium.ratings.books.Books.kept` text, written over), in one transaction."""
        with self._transaction():
            if events:
                self._run_many(f"INSERT INTO kept_events ({KEPT_FIELDS}) VALUES (?, ?, ?, ?, ?, ?, ?) "
                               "ON CONFLICT (table_id, epoch, seq) DO NOTHING",
                               [(e.table, e.epoch, e.seq, e.ts, e.type, e.hand, e.body) for e in events])
            for table, body in books.items():
                self._run("INSERT INTO kept_books (table_id, body) VALUES (?, ?) "
                          "ON CONFLICT (table_id) DO UPDATE SET body = excluded.body", (table, body))

    def kept_books(self) -> dict[str, str]:
        """Each table's books as last kept (table -> text)."""
        return {str(table): str(body) for table, body in self._run("SELECT table_id, body FROM kept_books")}

    def kept_events(self, after: int = 0) -> list[tuple[int, KeptEvent]]:
        """The next :data:`SHARE` kept events after the one numbered ``after``, in the order they were
        kept, each with its number (none: all were read)."""
        found = self._run(f"SELECT id, {KEPT_FIELDS} FROM kept_events WHERE id > ? ORDER BY id LIMIT ?",
                          (after, SHARE))
        return [(int(row[0]), KeptEvent(row[1], row[2], int(row[3]), row[4], row[5], row[6], row[7]))
                for row in found]

    def kept_since(self) -> dict[str, str]:
        """Each table's first kept event's ``ts`` (where its kept events begin)."""
        found = self._run("SELECT table_id, min(ts) FROM kept_events GROUP BY table_id")
        return {str(table): str(ts) for table, ts in found}

    def prune_kept(self, table: str, until: str) -> int:
        """Drop ``table``'s kept events that protection needs no more, ``until`` being the time
        ``keep_hours`` ago: those before the last ``shoe.loaded`` at or before the last ``table.closed``
        at or before ``until``, but for the table's last ``table.opened`` before them; how many."""
        with self._transaction():
            closed = self._last(table, "table.closed", "ts <= ?", until)
            start = None if closed is None else self._last(table, "shoe.loaded", "ts <= ?", closed[1])
            if start is None:
                return 0
            opened = self._last(table, "table.opened", "id < ?", start[0])
            gone = self._run("DELETE FROM kept_events WHERE table_id = ? AND id < ? AND id <> ? RETURNING id",
                             (table, start[0], -1 if opened is None else opened[0]))
        return len(gone)

    def _last(self, table: str, kind: str, clause: str, bound: str | int) -> tuple[int, str] | None:
        """The id and ``ts`` of ``table``'s last kept event of type ``kind`` where ``clause`` holds."""
        found = self._run(f"SELECT id, ts FROM kept_events WHERE table_id = ? AND type = ? AND {clause} "
                          "ORDER BY id DESC LIMIT 1", (table, kind, bound))
        return (int(found[0][0]), str(found[0][1])) if found else None
