"""``pit-monitor report --by dealer``, and the counts of ``--by table``: the table's books from the
stored events.

The events are read into :class:`~controller.podium.ratings.books.Books`
(dealers signed in, counts); a count's theoretical win is worked out from the
hands settled between its opener and its closer, with the edges the store
caches for the game and rules of the table's ``table.opened`` (as ``--by
shift``). A count is in the period when its opener is; a dealer's figures
cover the events of the period, a dealer still signed in counted to ``--to``
(or to the last event read). What each figure means:
:mod:`controller.podium.ratings.books` and docs/pit-monitor-reference.md ("The table's books").
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
from collections.abc import Iterable, Mapping
from typing import Any

from controller.podium.monitor.models.rated import row_event
from controller.podium.monitor.reports.player import theo_words
from controller.podium.monitor.stores.events import Row
from controller.podium.ratings.books import BOOKS_TYPES, Books, ChipCounts, Count
from controller.podium.ratings.hands import RATED_TYPES, Hand, HandReader
from controller.podium.ratings.shift import EdgesLookup, TableShift
from controller.podium.ratings.theo import Theo
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

TYPES = tuple(sorted(set(BOOKS_TYPES) | set(RATED_TYPES)))
"""The event types the books and their counts' theo read."""

_FAR = datetime.datetime.max.replace(tzinfo=datetime.UTC)


Theos = dict[tuple[str, str], Theo]
"""Each count's theo by its table and its opener's ``ts``."""


def read_books(rows: Iterable[Row], edges: EdgesLookup | None = None) -> tuple[Books, Theos, str | None]:
    """The books of the stored events, each count's theo (when ``edges`` is given), and the last
    ``ts`` read. An event that cannot be read is left out and logged."""
    books = Books()
    readers: dict[str, HandReader] = {}
    played: dict[tuple[str, str], TableShift] = {}
    last: str | None = None
    for row in rows:
        try:
            event = row_event(row)
            books.feed(row.table, event, row.epoch)
            hand = readers.setdefault(row.table, HandReader(row.table)).feed(event, row.epoch) \
                if edges is not None and row.type in RATED_TYPES else None
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("table %s seq %s (%s) left out of the books: %r", row.table, row.seq, row.type, exc)
            continue
        last = row.ts if last is None else max(last, row.ts)
        count = books.last_count(row.table)
        if isinstance(hand, Hand) and count is not None and count.closer is None:
            opened = datetime.datetime.fromisoformat(count.opened_at.replace("Z", "+00:00"))
            played.setdefault((row.table, count.opened_at), TableShift(row.table, opened, _FAR)).take(hand)
    theo = {key: shift.summary(edges).theo for key, shift in played.items()} if edges is not None else {}
    return books, theo, last


def count_json(count: Count, theo: Theo | None) -> dict[str, Any]:
    """A count as JSON, with its theo (cents, to a hundredth; None: unknown)."""
    value = None if theo is None or theo.value is None else round(theo.value, 2)
    return {**count.to_json(), "theo": value}


def chips_words(chips: ChipCounts | None) -> str:
    """A slip's chips by denomination for a person to read, the highest value first ("" without).

    >>> chips_words({500: 3, 2500: 4})
    ' [4 x $25.00 = $100.00, 3 x $5.00 = $15.00]'
    """
    if chips is None:
        return ""
    return " [" + ", ".join(f"{count} x {dollars(value)} = {dollars(value * count)}"
                            for value, count in sorted(chips.items(), reverse=True)) + "]"


def chips_cell(chips: ChipCounts | None) -> str:
    """A slip's chips by denomination in one CSV cell: ``value_cents:count`` by value, space between.

    >>> chips_cell({2500: 4, 500: 3}), chips_cell(None)
    ('500:3 2500:4', '')
    """
    return "" if chips is None else " ".join(f"{value}:{count}" for value, count in sorted(chips.items()))


def count_words(count: Count, theo: Theo | None) -> str:
    """A count for a person to read, on one line."""
    def signed(who: str | None) -> str:
        return f"signed {who}" if who else "not signed by a supervisor"

    words = [f"opener {dollars(count.opener)}{chips_words(count.opener_chips)} at {count.opened_at} by "
             f"{count.opener_dealer} ({signed(count.opener_signed_by)})", f"fills {dollars(count.fills)}",
             f"credits {dollars(count.credits)}"]
    if count.closer is None:
        words.append("no closer yet")
    else:
        words.append(f"closer {dollars(count.closer)}{chips_words(count.closer_chips)} at {count.closed_at} "
                     f"by {count.closer_dealer} ({signed(count.closer_signed_by)})")
        words.append("no drop yet" if count.drop is None else f"drop {dollars(count.drop)}")
    if count.win is not None:
        hold = "-" if count.hold is None else f"{count.hold} %"
        words.append(f"win {dollars(count.win)}, hold {hold}")
    words.append(theo_words(theo) if theo is not None else "theo unknown (no hand settled)")
    return "; ".join(words)


def table_counts(books: Books,
                 theo: Mapping[tuple[str, str], Theo]) -> dict[str, list[tuple[Count, Theo | None]]]:
    """Each table's counts with their theo."""
    return {table: [(count, theo.get((table, count.opened_at))) for count in counts]
            for table, counts in books.counts.items()}


def _clock(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


def dealers_text(books: Books, now: str | None, since: str | None, until: str | None) -> str:
    """``--by dealer`` for a person to read."""
    lines = [f"Dealer report, from {since or 'the first event'} to {until or 'the last event'} (UTC)", ""]
    if not books.dealers:
        lines.append("No dealer signed in in this period.")
        return "\n".join(lines)
    lines.append(f"  {'dealer':<12}{'table':<10}{'hands':>7}{'voids':>7}{'mismatches':>12}"
                 f"{'time at table':>15}{'hands/h':>9}")
    for key in sorted(books.dealers):
        f = books.dealers[key]
        pace = f.hands_per_hour(now)
        lines.append(f"  {f.dealer:<12}{f.table:<10}{f.hands:>7}{f.voids:>7}{f.mismatches:>12}"
                     f"{_clock(f.time_at_table(now)):>15}{'-' if pace is None else pace:>9}"
                     f"{'  (signed in)' if f.since is not None else ''}")
    return "\n".join(lines)


DEALER_COLUMNS = ("dealer", "table", "hands", "voids", "payout_mismatches", "seconds", "hands_per_hour",
                  "signed_in", "first", "last")


def dealers_csv(books: Books, now: str | None) -> str:
    """One row per dealer and table."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(DEALER_COLUMNS)
    for figures in books.by_dealer(now):
        writer.writerow(["" if figures[c] is None else figures[c] for c in DEALER_COLUMNS])
    return out.getvalue()


def dealers_json(books: Books, now: str | None, since: str | None, until: str | None) -> str:
    """``--by dealer`` as one JSON object."""
    return json.dumps({"from": since, "to": until, "dealers": books.by_dealer(now)}, indent=1)
