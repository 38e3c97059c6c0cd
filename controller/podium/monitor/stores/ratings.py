"""The ratings and the edges they are worked out with, in the recorder's database beside ``events``.

The same two tables in SQLite and in PostgreSQL, created if missing::

    ratings(id, player, table_id, seat, opened_at, opened_by, closed_at, closed_by, reason, edges)
    edges(game, rules, body)

A rating is opened and closed here; its figures are never stored, they are
worked out from the stored events between ``opened_at`` and ``closed_at``
(:mod:`controller.podium.ratings.rating`). ``edges`` holds the
:class:`~controller.podium.ratings.edges.Edges` the rating was opened with, as
JSON (NULL: none known, so its theoretical win is unknown), so an audit redoes
its sum with the very figures used. At most one rating is open per seat (a
unique index); opening one at a seat closes the seat's open rating in the same
transaction. The table ``edges`` caches computed edges by game and canonical
rules JSON (:func:`~controller.podium.ratings.hands.canonical_rules`).

Times are pit ``ts`` text (UTC, ``2026-11-21T22:14:05.123Z``).
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from controller.events.envelope import utc_timestamp
from controller.follow.sources import valid_name
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.hands import Rules, canonical_rules
from controller.podium.ratings.rating import (
    PIT,
    REPLACED,
    TABLE_CLOSED,
    Rating,
    RatingError,
    parse_ts,
    player_id,
    seat_number,
)

log = logging.getLogger(__name__)


def schema(id_column: str) -> list[str]:
    """The statements that create the tables if missing (``id_column``: the backend's auto id)."""
    return [
        f"""CREATE TABLE IF NOT EXISTS ratings (
            id {id_column}, player TEXT NOT NULL, table_id TEXT NOT NULL, seat INTEGER NOT NULL,
            opened_at TEXT NOT NULL, opened_by TEXT NOT NULL,
            closed_at TEXT, closed_by TEXT, reason TEXT, edges TEXT)""",
        "CREATE UNIQUE INDEX IF NOT EXISTS ratings_open_seat ON ratings (table_id, seat) "
        "WHERE closed_at IS NULL",
        "CREATE INDEX IF NOT EXISTS ratings_by_player ON ratings (player, opened_at)",
        "CREATE INDEX IF NOT EXISTS ratings_by_table ON ratings (table_id, opened_at)",
        """CREATE TABLE IF NOT EXISTS edges (
            game TEXT NOT NULL, rules TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (game, rules))""",
    ]


FIELDS = "id, player, table_id, seat, opened_at, opened_by, closed_at, closed_by, reason, edges"

CLOSE = ("closed_at = CASE WHEN opened_at > ? THEN opened_at ELSE ? END, closed_by = ?, reason = ?")
"""Set a closing (never before the opening)."""


SqlValue = str | int | float | bytes | None
"""A value of a column, or of a statement's parameter."""


def _text(value: SqlValue) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a text column: {value!r}")
    return value


def _whole(value: SqlValue) -> int:
    if not isinstance(value, int):
        raise ValueError(f"not an integer column: {value!r}")
    return value


def _rating(found: Sequence[SqlValue]) -> Rating:
    edges = None
    if found[9] is not None:
        try:
            edges = Edges.from_json(json.loads(_text(found[9])))
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            log.warning("rating %s: its edges cannot be read (its theo is unknown): %r", found[0], exc)
    closed, closed_by, reason = found[6:9]
    return Rating(_whole(found[0]), _text(found[1]), _text(found[2]), _whole(found[3]), _text(found[4]),
                  _text(found[5]), edges,
                  None if closed is None else _text(closed), None if closed_by is None else _text(closed_by),
                  None if reason is None else _text(reason))


def _check_ts(ts: str) -> str:
    """``ts`` as a pit ``ts`` (UTC, milliseconds, ``Z``), which sorts as time; RatingError if it is
    no time with a zone."""
    try:
        return utc_timestamp(parse_ts(ts))
    except (ValueError, AttributeError, TypeError) as exc:
        raise RatingError(f"{ts!r} is not a time like 2026-11-21T22:14:05.123Z") from exc


class RatingTables(ABC):
    """The ratings and edges tables; a store provides the connection (SQL written with ``?``)."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[object]:
        """One write transaction (the other writers wait)."""

    @abstractmethod
    def _run(self, sql: str, params: Sequence[SqlValue] = ()) -> list[tuple[Any, ...]]:
        """Run one statement; the rows it returns (none for a statement that returns none), each
        column a :data:`SqlValue` (left loose here: the kept tables' readers take them as they are;
        the ratings' readers check them)."""

    def open_rating(self, player: str, table: str, seat: int, at: str, by: str,
                    edges: Edges | None) -> tuple[Rating, Rating | None]:
        """Open a rating of ``player`` at ``table``'s ``seat`` at ``at``, by the pit user ``by``,
        with the table's ``edges`` (None: unknown); the new rating, and the one it closed at that
        seat (reason ``seat rated again``) if one was open. RatingError if the arguments are wrong."""
        player = player_id(player)
        if not valid_name(table):
            raise RatingError(f"{table!r} is not a table name")
        seat = seat_number(seat)
        if not by.strip():
            raise RatingError("who opens the rating is needed")
        at = _check_ts(at)
        body = None if edges is None else json.dumps(edges.to_json(), sort_keys=True)
        with self._transaction():
            self._lock()
            replaced = self._run(f"UPDATE ratings SET {CLOSE} WHERE table_id = ? AND seat = ? "
                                 f"AND closed_at IS NULL RETURNING {FIELDS}",
                                 (at, at, by, REPLACED, table, seat))
            (opened,) = self._run(
                "INSERT INTO ratings (player, table_id, seat, opened_at, opened_by, edges) "
                f"VALUES (?, ?, ?, ?, ?, ?) RETURNING {FIELDS}", (player, table, seat, at, by, body))
        return _rating(opened), (_rating(replaced[0]) if replaced else None)

    def close_rating(self, rating_id: int, at: str, by: str, reason: str = PIT) -> Rating:
        """Close a rating; RatingError if there is no such rating or it is closed already."""
        at = _check_ts(at)
        with self._transaction():
            self._lock()
            closed = self._run(f"UPDATE ratings SET {CLOSE} WHERE id = ? AND closed_at IS NULL "
                               f"RETURNING {FIELDS}", (at, at, by, reason, rating_id))
        if closed:
            return _rating(closed[0])
        known = self.rating(rating_id)
        if known is None:
            raise RatingError(f"there is no rating {rating_id}")
        raise RatingError(f"rating {rating_id} was closed already, at {known.closed} by {known.closed_by} "
                          f"({known.reason})")

    def close_table_ratings(self, table: str, at: str, by: str) -> list[Rating]:
        """Close every rating open at ``table`` and opened by ``at`` (the table closed at ``at``)."""
        at = _check_ts(at)
        with self._transaction():
            self._lock()
            return self._close_table(table, at, by)

    def _close_table(self, table: str, at: str, by: str) -> list[Rating]:
        """:meth:`close_table_ratings` inside a transaction already begun (a store's ``add``)."""
        found = self._run(f"UPDATE ratings SET {CLOSE} WHERE table_id = ? AND closed_at IS NULL "
                          f"AND opened_at <= ? RETURNING {FIELDS}", (at, at, by, TABLE_CLOSED, table, at))
        return sorted((_rating(r) for r in found), key=lambda r: r.id)

    def _lock(self) -> None:  # noqa: B027 (a hook: nothing to do where the transaction locks already)
        """Keep other writers of ratings out until the transaction ends (where the backend needs it)."""

    def rating(self, rating_id: int) -> Rating | None:
        """One rating, None if there is none with that id."""
        found = self._run(f"SELECT {FIELDS} FROM ratings WHERE id = ?", (rating_id,))
        return _rating(found[0]) if found else None

    def ratings(self, *, table: str | None = None, player: str | None = None, open_only: bool = False,
                since: str | None = None, until: str | None = None) -> list[Rating]:
        """Ratings by id: of a table, of a player, only the open ones, opened in ``[since, until)``."""
        clauses: list[str] = []
        params: list[SqlValue] = []
        for clause, value in (("table_id = ?", table), ("player = ?", player), ("opened_at >= ?", since),
                              ("opened_at < ?", until)):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        if open_only:
            clauses.append("closed_at IS NULL")
        where = " WHERE " + " AND ".join(clauses) if clauses else ""
        return [_rating(r) for r in self._run(f"SELECT {FIELDS} FROM ratings{where} ORDER BY id", params)]

    def edges(self, game: str | None, rules: Rules | None) -> Edges | None:
        """The edges cached for ``game`` under ``rules``; None if none are (or rules are unknown)."""
        if game is None or rules is None:
            return None
        found = self._run("SELECT body FROM edges WHERE game = ? AND rules = ?",
                          (game, canonical_rules(rules)))
        if not found:
            return None
        try:
            body = json.loads(_text(found[0][0]))
            if not isinstance(body, dict) or "bank_fee" not in body:
                return None     # cached before the bank's fee was counted: work them out again
            return Edges.from_json(body)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("the edges cached for %s cannot be read: %r", game, exc)
            return None

    def put_edges(self, edges: Edges) -> None:
        """Cache ``edges`` for their game and rules (replacing what was cached for them)."""
        with self._transaction():
            self._run("INSERT INTO edges (game, rules, body) VALUES (?, ?, ?) ON CONFLICT (game, rules) "
                      "DO UPDATE SET body = excluded.body",
                      (edges.game, canonical_rules(edges.rules), json.dumps(edges.to_json(), sort_keys=True)))
