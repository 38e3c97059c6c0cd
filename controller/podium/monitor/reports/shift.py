"""``pit-monitor report --by shift``: per shift, each table's figures and each pit's, from the stored events.

The shifts and the pits come from the floor file (``--tables``: its
``[shifts]`` and each table's ``pit``; without it, one shift a day from
midnight UTC and no pit). Each table's events go through the engine the
monitor follows live (:class:`~controller.podium.ratings.shift.TableShifts`); a
hand counts in the period, and in a shift, when its ``hand.settled`` falls
in it. The theoretical win is worked out with the edges the store caches for
the game and rules of the table's ``table.opened`` (unknown where none are).
What each figure means: :mod:`controller.podium.ratings.shift` and
docs/pit-monitor-reference.md ("Shift figures").
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from controller.events.envelope import utc_timestamp
from controller.podium.monitor.models.rated import row_event
from controller.podium.monitor.reports.player import LEAD, theo_words
from controller.podium.monitor.stores.events import Row
from controller.podium.ratings.hands import RATED_TYPES
from controller.podium.ratings.rating import parse_ts
from controller.podium.ratings.shift import EdgesLookup, Shifts, ShiftSummary, TableShifts
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

TYPES = RATED_TYPES
"""The event types this report reads."""

COUNTED = ("hand.settled", "progressive.paid")
"""The events that count in the shift they fall in (the others only prepare a hand)."""


@dataclass(frozen=True)
class ShiftReport:
    """One shift: each table's figures, each pit's, and all of them together."""

    name: str
    start: datetime.datetime
    end: datetime.datetime
    tables: Mapping[str, ShiftSummary]
    pits: Mapping[str, ShiftSummary]
    total: ShiftSummary


def rows_from(since: str | None) -> str | None:
    """Where to start reading the stored events for a period from ``since`` (a hand may have begun
    before it)."""
    return None if since is None else utc_timestamp(parse_ts(since) - LEAD)


def rate_shifts(rows: Iterable[Row], shifts: Shifts, edges: EdgesLookup, pits: Mapping[str, str],
                since: str | None = None) -> list[ShiftReport]:
    """The shifts in which hands were settled (``hand.settled`` from ``since`` on), oldest first."""
    books: dict[str, TableShifts] = {}
    for row in rows:
        if since is not None and row.type in COUNTED and row.ts < since:
            continue
        book = books.setdefault(row.table, TableShifts(row.table, shifts))
        book.feed(row_event(row), row.epoch)
    for book in books.values():
        for problem in book.problems:
            log.warning("left out of the report: %s", problem)
    starts = sorted({start for book in books.values() for start in book.by_start})
    reports = []
    for start in starts:
        tables = {name: books[name].by_start[start].summary(edges) for name in sorted(books)
                  if start in books[name].by_start}
        by_pit: dict[str, ShiftSummary] = {}
        for name, summary in tables.items():
            if name in pits:
                pit = pits[name]
                by_pit[pit] = by_pit[pit] + summary if pit in by_pit else summary
        total = ShiftSummary(())
        for summary in tables.values():
            total += summary
        reports.append(ShiftReport(shifts.name(start), start, shifts.bounds(start)[1], tables,
                                   dict(sorted(by_pit.items())), total))
    return reports


def _hph(value: float | None) -> str:
    return "-" if value is None else f"{value}"


def _line(label: str, s: ShiftSummary) -> str:
    theo = "unknown" if s.theo.value is None else dollars(round(s.theo.value))
    return (f"  {label:<18}{s.hands:>7}{_hph(s.hands_per_hour):>9}{dollars(s.wagered):>14}"
            f"{dollars(s.house_result):>14}{theo:>12}{dollars(s.rake):>11}{dollars(s.bank):>13}")


def as_text(reports: list[ShiftReport], since: str | None, until: str | None, shifts: Shifts) -> str:
    """The report for a person to read."""
    starts = ", ".join(f"{t:%H:%M}" for t in shifts.starts)
    lines = [f"Shift report, from {since or 'the first event'} to {until or 'the last event'} (UTC); "
             f"shifts start at {starts} {shifts.zone}", ""]
    if not reports:
        lines.append("No hand settled in this period.")
    head = (f"  {'':<18}{'hands':>7}{'hands/h':>9}{'wagered':>14}{'house result':>14}{'theo':>12}"
            f"{'rake':>11}{'bank result':>13}")
    for report in reports:
        lines += [f"Shift {report.name} to {report.end.astimezone(shifts.zone):%Y-%m-%d %H:%M}", head]
        lines += [_line(f"table {name}", s) for name, s in report.tables.items()]
        lines += [_line(f"pit {name}", s) for name, s in report.pits.items()]
        lines.append(_line("all tables", report.total))
        unknown = [name for name, s in report.tables.items() if s.theo.value is None]
        if unknown:
            lines.append(f"  theo unknown at {', '.join(unknown)}: no edges cached for their game and rules")
        lines += [f"  {name}: {theo_words(s.theo)}" for name, s in report.tables.items()
                  if s.theo.interval is not None or s.theo.no_edge]
        lines.append("")
    return "\n".join(lines)


CSV_COLUMNS = ("kind", "shift", "shift_start", "shift_end", "table", "pit", "hands", "hands_per_hour",
               "banked", "wagered_cents", "house_result_cents", "theo_cents", "theo_low_cents",
               "theo_high_cents", "rake_cents", "bank_result_cents", "jackpots_cents")


def as_csv(reports: list[ShiftReport], pits: Mapping[str, str]) -> str:
    """One row per shift and table, per shift and pit, and per shift (``all``); money in cents (a
    theoretical win to a hundredth of a cent)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in reports:
        head = [r.name, utc_timestamp(r.start), utc_timestamp(r.end)]
        rows: list[tuple[str, str, str, ShiftSummary]] = [
            *(("table", name, pits.get(name, ""), s) for name, s in r.tables.items()),
            *(("pit", "", name, s) for name, s in r.pits.items()), ("all", "", "", r.total)]
        for kind, table, pit, s in rows:
            interval = s.theo.interval
            pace = "" if s.hands_per_hour is None else s.hands_per_hour
            writer.writerow([kind, *head, table, pit, s.hands, pace, s.banked, s.wagered, s.house_result,
                             "" if s.theo.value is None else round(s.theo.value, 2),
                             "" if interval is None else round(interval[0], 2),
                             "" if interval is None else round(interval[1], 2), s.rake, s.bank, s.jackpots])
    return out.getvalue()


def as_json(reports: list[ShiftReport], since: str | None, until: str | None, shifts: Shifts,
            pits: Mapping[str, str]) -> str:
    """The report as one JSON object; money in cents."""
    return json.dumps({
        "from": since, "to": until,
        "shifts": {"starts": [f"{t:%H:%M}" for t in shifts.starts], "zone": str(shifts.zone)},
        "report": [{"shift": r.name, "start": utc_timestamp(r.start), "end": utc_timestamp(r.end),
                    "tables": [{"table": name, "pit": pits.get(name), **s.to_json()}
                               for name, s in r.tables.items()],
                    "pits": [{"pit": name, **s.to_json()} for name, s in r.pits.items()],
                    "all": r.total.to_json()} for r in reports]}, indent=1)
