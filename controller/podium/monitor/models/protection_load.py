"""Game protection read back at start: the stored events of the tables where a player is rated.

A monitor started with ``--db`` (again, say, mid-shift) feeds its game
protection the events the recorder stored for each table with an open
rating, from the last shoe loaded there before the oldest open rating's
opening (so that the count is known from that shoe on), the table's last
opening before that first (the game and rules its bets and decisions are read
by, as the ratings take them, however long ago), before it follows the
tables live: the rated players' figures and alerts are then those the
monitor would have shown had it run all along. The live events the store held
already are skipped (:meth:`~controller.podium.protection.watch.Protection.feed`).
Tables where no player is rated start from the live events, as unrated seats
are followed only from the monitor's start.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterator, Mapping

from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.rated import Rated, row_event
from controller.podium.monitor.stores.events import Row
from controller.podium.protection.watch import TYPES, Protection

log = logging.getLogger(__name__)

SHARE = 5000
"""Rows read at a time (on the store's thread, the loop going on between two)."""


def _share(rows: Iterator[Row]) -> list[Row]:
    return list(itertools.islice(rows, SHARE))


def _last_shoe(rows: Iterator[Row]) -> dict[str, str]:
    """Each table's last ``shoe.loaded`` time (rows by table and seq)."""
    return {row.table: row.ts for row in rows}


def _last_before(rows: Iterator[Row], since: dict[str, str]) -> list[Row]:
    """Each table's last row before its time in ``since`` (rows by table and seq)."""
    return list({row.table: row for row in rows if row.ts < since[row.table]}.values())


async def replay_stored(rated: Rated, floor: Floor, until: Mapping[str, str] | None = None) -> int:
    """Feed ``floor``'s game protection the stored events of the tables with an open rating (see the
    module's words), its alerts to the floor's alerts; the events read. ``until``: per table, the
    ``ts`` from which the monitor's own kept events take over
    (:mod:`controller.podium.monitor.models.kept`)."""
    until = until or {}
    protection = floor.protection
    opened = {}
    for table, ratings in rated.ratings.items():
        times = [r.opened for r in ratings.ratings() if r.is_open]
        if times:
            opened[table] = min(times)
    if protection is None or not opened:
        return 0
    tables = sorted(opened)
    shoes = await rated.in_store(_last_shoe, rated.store.rows(("shoe.loaded",), until=min(opened.values()),
                                                              tables=tables))
    since = {table: min(opened[table], shoes.get(table, opened[table])) for table in tables}
    openings = await rated.in_store(_last_before, rated.store.rows(("table.opened",), tables=tables), since)
    read = 0
    for row in openings:                    # the game and rules in force
        if not (row.table in until and row.ts >= until[row.table]):
            read += 1
            _feed(floor, protection, row)
    rows = rated.store.rows(TYPES, since=min(since.values()), tables=tables)
    while chunk := await rated.in_store(_share, rows):
        for row in chunk:
            if row.ts < since[row.table] or (row.table in until and row.ts >= until[row.table]):
                continue
            read += 1
            _feed(floor, protection, row)
    log.info("game protection read back %d stored events of %d tables", read, len(tables))
    return read


def _feed(floor: Floor, protection: Protection, row: Row) -> None:
    """Feed ``protection`` one stored event, its alerts to ``floor``'s."""
    for raised in protection.feed(row.table, row.epoch, row_event(row)):
        floor.book.add(raised.table, raised.epoch, raised.seq, raised.hand, raised.ts, raised.data)
