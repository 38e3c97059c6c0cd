"""Where the recorder keeps the events: SQLite (one file, no server), or PostgreSQL for a ``postgresql://``.

One row per event, the body exactly as published (UTF-8 JSON text), unique on
``(table_id, epoch, seq)`` so that storing an event twice stores it once::

    events(id, table_id, epoch, seq, ts, type, hand, topic, body)

``epoch`` is the envelope's epoch as text (``""`` when it has none; see
``follower.py``). ``id`` grows with each row stored, so a table's last row
is where the recorder resumes. ``ts`` is the event's own UTC timestamp
(``2026-11-21T22:14:05.123Z``), which sorts as text. Each :meth:`Store.add`
is one transaction: after a crash the store holds a prefix of each table's
events, and the rest comes again from the table's sync socket.

Beside ``events``, the same database keeps the ratings and the edges they are
worked out with (:mod:`controller.podium.monitor.stores.ratings`), and what the
monitor keeps of its own, each table's books and the events game protection
reads (:mod:`controller.podium.monitor.stores.kept`); a stored ``table.closed``
closes the ratings open at its table in the transaction that stores it.

PostgreSQL needs psycopg 3 (``pip install 'table-controller[monitor-pg]'``).
"""

from __future__ import annotations

import json
import sqlite3
from abc import abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from controller.follow.core import Position
from controller.podium.monitor.stores.kept import KeptTables, Values, kept_schema
from controller.podium.monitor.stores.ratings import schema


@dataclass(frozen=True)
class Row:
    """One event as stored."""

    table: str
    epoch: str
    seq: int
    ts: str
    type: str
    hand: int | None
    topic: str
    body: str


COLUMNS = "table_id, epoch, seq, ts, type, hand, topic, body"


class Store(KeptTables):
    """The events of every table, the ratings, and what the monitor keeps of its own; one writer of
    events at a time."""

    target: str

    @abstractmethod
    def position(self, table: str) -> Position | None:
        """The last event stored of ``table`` (None: none yet)."""

    @abstractmethod
    def add(self, rows: Sequence[Row]) -> None:
        """Store these events in one transaction; rows already stored are left as they are."""

    @abstractmethod
    def rows(self, types: Sequence[str] = (), since: str | None = None,
             until: str | None = None, tables: Sequence[str] = ()) -> Iterator[Row]:
        """Stored events, of these types (all if none) with ``since <= ts < until``, of these tables
        (all if none), by table and seq."""

    @abstractmethod
    def count(self) -> int:
        """How many events are stored."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    def _close_ratings(self, rows: Sequence[Row]) -> None:
        """Inside ``add``'s transaction: each ``table.closed`` stored closes its table's open ratings."""
        for row in rows:
            if row.type == "table.closed":
                try:
                    supervisor = str(json.loads(row.body)["data"]["supervisor"])
                except (ValueError, KeyError, TypeError):
                    supervisor = ""
                self._close_table(row.table, row.ts, supervisor)


def _where(types: Sequence[str], since: str | None, until: str | None, mark: str,
           tables: Sequence[str] = ()) -> tuple[str, list[str]]:
    clauses: list[str] = []
    params: list[str] = []
    for column, values in (("type", types), ("table_id", tables)):
        if values:
            clauses.append(f"{column} IN ({', '.join(mark for _ in values)})")
            params.extend(values)
    if since is not None:
        clauses.append(f"ts >= {mark}")
        params.append(since)
    if until is not None:
        clauses.append(f"ts < {mark}")
        params.append(until)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


class SqliteStore(Store):
    """Events in one SQLite file (write-ahead log; a killed process loses no committed row)."""

    def __init__(self, path: Path) -> None:
        self.target = str(path)
        self.db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=10000")
        self.db.executescript("""
            CREATE TABLE IF NOT EXISTS events (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                table_id TEXT NOT NULL, epoch TEXT NOT NULL, seq INTEGER NOT NULL,
                ts TEXT NOT NULL, type TEXT NOT NULL, hand INTEGER,
                topic TEXT NOT NULL, body TEXT NOT NULL,
                UNIQUE (table_id, epoch, seq));
            CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, id);
            CREATE INDEX IF NOT EXISTS events_by_type ON events (type, ts);
        """)
        for statement in [*schema("INTEGER PRIMARY KEY AUTOINCREMENT"),
                          *kept_schema("INTEGER PRIMARY KEY AUTOINCREMENT", "INTEGER")]:
            self.db.execute(statement)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def _run(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        return self.db.execute(sql, params).fetchall()

    def _run_many(self, sql: str, rows: Sequence[Values]) -> None:
        self.db.executemany(sql, rows)

    def position(self, table: str) -> Position | None:
        found = self.db.execute("SELECT epoch, seq, body FROM events WHERE table_id = ? "
                                "ORDER BY id DESC LIMIT 1", (table,)).fetchone()
        return None if found is None else Position(found[0], found[1], found[2].encode())

    def add(self, rows: Sequence[Row]) -> None:
        with self._transaction():
            self.db.executemany(
                f"INSERT INTO events ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (table_id, epoch, seq) DO NOTHING",
                [(r.table, r.epoch, r.seq, r.ts, r.type, r.hand, r.topic, r.body) for r in rows])
            self._close_ratings(rows)

    def rows(self, types: Sequence[str] = (), since: str | None = None,
             until: str | None = None, tables: Sequence[str] = ()) -> Iterator[Row]:
        where, params = _where(types, since, until, "?", tables)
        query = f"SELECT {COLUMNS} FROM events{where} ORDER BY table_id, id"
        for found in self.db.execute(query, params):
            yield Row(*found)

    def count(self) -> int:
        found: int = self.db.execute("SELECT count(*) FROM events").fetchone()[0]
        return found

    def close(self) -> None:
        self.db.close()


class PostgresStore(Store):
    """Events in a PostgreSQL database (psycopg 3)."""

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError as exc:
            raise RuntimeError("PostgreSQL needs psycopg 3: "
                               "pip install 'table-controller[monitor-pg]'") from exc
        self.target = url
        try:
            self.db = psycopg.connect(url, autocommit=True)  # transactions are explicit
        except psycopg.Error as exc:
            raise RuntimeError(f"cannot connect to {url}: {exc}") from exc
        with self.db.transaction():
            self.db.execute("""
                CREATE TABLE IF NOT EXISTS events (
                    id BIGSERIAL PRIMARY KEY,
                    table_id TEXT NOT NULL, epoch TEXT NOT NULL, seq BIGINT NOT NULL,
                    ts TEXT NOT NULL, type TEXT NOT NULL, hand BIGINT,
                    topic TEXT NOT NULL, body TEXT NOT NULL,
                    UNIQUE (table_id, epoch, seq))""")
            self.db.execute("CREATE INDEX IF NOT EXISTS events_by_table ON events (table_id, id)")
            self.db.execute("CREATE INDEX IF NOT EXISTS events_by_type ON events (type, ts)")
            for statement in [*schema("BIGSERIAL PRIMARY KEY"),
                              *kept_schema("BIGSERIAL PRIMARY KEY", "BIGINT")]:
                self.db.execute(statement)
        self.db.execute("""
            CREATE TEMPORARY TABLE incoming (
                ord INTEGER, table_id TEXT, epoch TEXT, seq BIGINT, ts TEXT, type TEXT, hand BIGINT,
                topic TEXT, body TEXT) ON COMMIT DELETE ROWS""")

    def _transaction(self) -> AbstractContextManager[object]:
        return self.db.transaction()

    def _run(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        cursor = self.db.execute(sql.replace("?", "%s"), params)
        return cursor.fetchall() if cursor.description is not None else []

    def _run_many(self, sql: str, rows: Sequence[Values]) -> None:
        with self.db.cursor() as cursor:
            cursor.executemany(sql.replace("?", "%s"), rows)

    def _lock(self) -> None:
        """Ratings are opened and closed one at a time (so one open per seat holds without a retry)."""
        self.db.execute("LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE")

    def position(self, table: str) -> Position | None:
        found = self.db.execute("SELECT epoch, seq, body FROM events WHERE table_id = %s "
                                "ORDER BY id DESC LIMIT 1", (table,)).fetchone()
        return None if found is None else Position(found[0], found[1], found[2].encode())

    def add(self, rows: Sequence[Row]) -> None:
        """COPY into a temporary table, then insert in the order given (so ``id`` follows it)."""
        with self.db.transaction(), self.db.cursor() as cursor:
            with cursor.copy(f"COPY incoming (ord, {COLUMNS}) FROM STDIN") as copy:
                for n, r in enumerate(rows):
                    copy.write_row((n, r.table, r.epoch, r.seq, r.ts, r.type, r.hand, r.topic, r.body))
            cursor.execute(f"INSERT INTO events ({COLUMNS}) SELECT {COLUMNS} FROM incoming ORDER BY ord "
                           "ON CONFLICT (table_id, epoch, seq) DO NOTHING")
            self._close_ratings(rows)

    def rows(self, types: Sequence[str] = (), since: str | None = None,
             until: str | None = None, tables: Sequence[str] = ()) -> Iterator[Row]:
        where, params = _where(types, since, until, "%s", tables)
        with self.db.cursor() as cursor:
            cursor.execute(f"SELECT {COLUMNS} FROM events{where} ORDER BY table_id, id", params)
            for found in cursor:
                yield Row(*found)

    def count(self) -> int:
        found = self.db.execute("SELECT count(*) FROM events").fetchone()
        return int(found[0]) if found else 0

    def close(self) -> None:
        self.db.close()


def open_store(target: str) -> Store:
    """The store at ``target``: a ``postgresql://`` (or ``postgres://``) URL, else a SQLite file path."""
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(target)
    return SqliteStore(Path(target))
