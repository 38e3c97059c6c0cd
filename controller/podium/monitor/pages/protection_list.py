"""The game protection list as the monitor serves it: every subject's row, and the rows in each column's
order, kept between two asks, so that a page of the list (sorted, filtered) costs little.

A floor follows thousands of subjects (15,000 at 2,000 tables, every seat rated) and its page asks
again two seconds after every change of the floor, for the hundred rows it shows. :class:`ProtectionList`
keeps a :class:`Row` per subject: its figures, its place in the list's own order, the words the filter
searches, and its JSON text once it was shown. At an ask it first brings the rows up to date
(:meth:`ProtectionList.refresh`): nothing at all when protection read no event since
(:attr:`~controller.podium.protection.watch.Protection.changes`), else a look at every subject,
:data:`SLICE` seconds at a time with the loop going on between two, each subject's row made again only
if it changed (its figures worked out again: some 40 us). The rows in a column's order are kept until a
row changes; a filter (words the rows hold, or only the flagged) is a pass over them, and so is
gathering the tables the rows shown sat at (the page shows those tables' counts).

The columns (:data:`SORTS`) are the page's, each first in the order the page gives it first:

* ``flagged``: flagged for more reasons, more suspicious, more hands first (the list's own order,
  :func:`~controller.podium.protection.watch.subject_order`);
* ``suspicion``, ``hands``, ``bets`` (the bet/count correlation), ``spread``, ``high`` (the hands
  played at ``wong_count`` or more), ``strategy`` (the share of basic strategy): the largest first,
  a figure not known yet (``-``) last;
* ``who`` (the name shown, A to Z), ``where`` (the seats, by table then seat).

Ties keep the list's own order, and ``reverse`` turns the whole order round. The figures are compared
as the page shows them (rounded as in :meth:`~controller.podium.protection.tally.Figures.to_json`).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from controller.podium.protection.tally import Figures, Tally
from controller.podium.protection.watch import Protection, subject_json, subject_order

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

SLICE = 0.02
"""Seconds the rows are brought up to date for between two turns of the loop."""


@dataclass(slots=True, eq=False)
class Row:
    """One subject as the list shows it, as it was when :attr:`made`."""

    tally: Tally
    made: tuple[int, int, int]
    """The tally's version and how many seats and ratings it had (the sets only grow)."""
    figures: Figures
    first: tuple[int, float, int, str]
    """Its place in the list's own order."""
    name: str
    """The name the page shows: ``player <id>``, or the seat's label."""
    seats: tuple[tuple[str, int], ...]
    words: str
    """What the filter searches, in lower case: the player (``player P1``) or ``unrated``, and the
    seats (``T07 seat 2``); not the time an unrated seat's label holds, so that ``T03`` finds table
    T03 and not a seat that opened at 03:00."""
    _text: str | None = field(default=None, repr=False)

    @classmethod
    def of(cls, tally: Tally, made: tuple[int, int, int]) -> Row:
        """The row of ``tally`` now (its figures worked out if they changed)."""
        figures = tally.figures()
        seats = tuple(sorted(tally.seats))
        name = f"player {tally.player}" if tally.player else tally.label
        where = ", ".join(f"{table} seat {seat}" for table, seat in seats)
        who = name if tally.player else "unrated"
        return cls(tally, made, figures, subject_order(tally, figures), name, seats,
                   f"{who}\n{where}".casefold())

    @property
    def flagged(self) -> bool:
        """Whether the subject is flagged for a reason."""
        return bool(self.figures.reasons)

    @property
    def text(self) -> str:
        """Its entry in the list, as JSON (``json.dumps`` of
        :func:`~controller.podium.protection.watch.subject_json`), made when first asked for."""
        if self._text is None:
            self._text = json.dumps(subject_json(self.tally, self.figures))
        return self._text


def _unknown_last(value: float | None) -> tuple[bool, float]:
    """A figure's place, the largest first and None last."""
    return (value is None, -(value or 0.0))


SORTS: dict[str, Callable[[Row], SupportsRichComparison]] = {
    "flagged": lambda row: row.first,
    "suspicion": lambda row: (row.first[1], row.first),
    "who": lambda row: (row.name.casefold(), row.first),
    "where": lambda row: (row.seats, row.first),
    "hands": lambda row: (-row.figures.hands, row.first),
    "bets": lambda row: (-round(row.figures.correlation, 4), row.first),
    "spread": lambda row: (_unknown_last(row.figures.spread), row.first),
    "high": lambda row: (-row.figures.high_hands, row.first),
    "strategy": lambda row: (_unknown_last(row.figures.accuracy), row.first),
}
"""Each column's key: sorted by it, the rows come in the order the page gives first (see the module's
words)."""


@dataclass(frozen=True)
class Page:
    """One page of the list: its ``rows``, the ``total`` that pass the filter and the ``tables`` the
    rows sat at (A to Z), and of the whole list how many it holds (``listed``) and are flagged."""

    rows: list[Row]
    total: int
    tables: list[str]
    listed: int
    flagged: int


class ProtectionList:
    """The rows of one floor's game protection, kept between two asks (see the module's words)."""

    def __init__(self) -> None:
        self._protection: Protection | None = None
        self._changes = -1
        """``Protection.changes`` when the rows were last brought up to date."""
        self._rows: dict[str, Row] = {}
        self._flagged = 0
        self._orders: dict[str, list[Row]] = {}
        """Each column's order asked for since the rows last changed."""
        self._lock = asyncio.Lock()

    async def refresh(self, protection: Protection) -> None:
        """Bring the rows up to date with ``protection`` (see the module's words)."""
        async with self._lock:
            if protection is self._protection and protection.changes == self._changes:
                return
            if protection is not self._protection:
                self._protection, self._rows, self._orders = protection, {}, {}
            changes = protection.changes
            rows: dict[str, Row] = {}
            changed = False
            began = time.monotonic()
            for tally in list(protection.tallies.values()):
                if tally.rounds or tally.decisions:
                    made = (tally.version, len(tally.seats), len(tally.ratings))
                    row = self._rows.get(tally.subject)
                    if row is None or row.made != made or row.tally is not tally:
                        row = Row.of(tally, made)
                        changed = True
                    rows[tally.subject] = row
                if time.monotonic() - began >= SLICE:
                    await asyncio.sleep(0)
                    began = time.monotonic()
            if changed or len(rows) != len(self._rows):
                self._rows, self._orders = rows, {}
                self._flagged = sum(row.flagged for row in rows.values())
            self._changes = changes

    def order(self, sort: str) -> list[Row]:
        """Every row in ``sort``'s order (a key of :data:`SORTS`), kept until a row changes (the same
        list again: not to be changed)."""
        found = self._orders.get(sort)
        if found is None:
            found = self._orders[sort] = sorted(self._rows.values(), key=SORTS[sort])
        return found

    def page(self, sort: str = "flagged", reverse: bool = False, text: str = "", offset: int = 0,
             limit: int | None = None, flagged: bool = False) -> Page:
        """The rows in ``sort``'s order (``reverse``: turned round) whose player (or ``unrated``) or
        seats hold ``text`` (any case), only the flagged with ``flagged``, from the ``offset``-th on,
        at most ``limit`` of them (None: all); with the tables the rows shown sat at (the count the page shows
        beside them: a floor's every table would be thousands, each ask)."""
        rows = self.order(sort)
        wanted = text.strip().casefold()
        if wanted or flagged:
            rows = [row for row in rows if (not flagged or row.flagged) and wanted in row.words]
        if reverse:
            rows = rows[::-1]
        end = None if limit is None else offset + limit
        shown = rows[offset:end]
        tables = sorted({table for row in shown for table, _ in row.seats})
        return Page(shown, len(rows), tables, len(self._rows), self._flagged)
