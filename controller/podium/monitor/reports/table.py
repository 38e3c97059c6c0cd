"""``pit-monitor report``: the figures a pit boss rates players with, from the recorded events.

Per table and per seat, from ``hand.started``, ``bets.closed``,
``hand.settled`` and ``progressive.paid``, whatever the game (a voided hand has no ``hand.settled``
and counts for nothing):

* **hands played**: settled hands in which the seat had a wager, or dealt as
  the player-dealer (``hand.started``'s ``dealer_seat``, in a game where a
  player banks); **banked**: those it dealt (for a table: those a
  player-dealer dealt);
* **total wagered**: the sum of the ``wager`` of the seat's results (what was
  at risk at settlement, any raise, double, split or call included; in a pot
  game the seat's chips in the pots);
* **average bet**: total wagered / the hands it had a wager in (for a table:
  all its hands);
* **net result**: the sum of the seat's ``payout`` (the player's result:
  positive when the player won), plus the jackpots paid to it
  (``progressive.paid``: a jackpot settles as ``waiting`` and is paid only
  then), and as the player-dealer the opposite of what the players it dealt
  to won;
* **hold %**: the seat's loss as a share of what it wagered
  (``-net / wagered * 100``);
* **hands per hour**: hands played / the hours from the seat's first hand
  (its ``bets.closed``) to the end of its last one (its ``hand.settled``).

Per table, the same over all seats, and the alerts by code: the table's net
is what all its players won together, so its hold is what the house kept
(what the players lost to the house, or the rake of a pot game; nothing where
a player banks and the house takes no share). A hand counts in the period
``--from``/``--to`` when its ``hand.settled`` falls in it.

Beside them, each table's counts in the period (the table's books: opener,
fills, credits, closer, drop, the count room's win and hold, and the theo of
the hands between the opener and the closer; :mod:`.books`).
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from controller.podium.monitor.reports.books import chips_cell, count_json, count_words
from controller.podium.monitor.stores.events import Row
from controller.podium.ratings.books import Count
from controller.podium.ratings.theo import Theo
from firmware_bridge.kernel.json import JsonObject
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

Counts = Mapping[str, list[tuple[Count, Theo | None]]]
"""Each table's counts with their theo (:func:`controller.podium.monitor.reports.books.table_counts`)."""

HandKey = tuple[str, str, int | None]
"""A hand: its table, the table's epoch and the hand's number."""

TYPES = ("hand.started", "bets.closed", "hand.settled", "progressive.paid", "alert")
"""The event types the report reads."""


def parse_ts(ts: str) -> datetime.datetime:
    """An event's ``ts`` as an aware datetime.

    >>> parse_ts("2026-11-21T22:14:05.123Z").isoformat()
    '2026-11-21T22:14:05.123000+00:00'
    """
    return datetime.datetime.fromisoformat(ts.replace("Z", "+00:00"))


def bound(text: str, *, end: bool) -> str:
    """A ``--from``/``--to`` argument as an event ``ts`` to compare with (UTC).

    A date alone means the start of that day for ``--from`` and the end of it
    (the next midnight) for ``--to``; a time without a zone is UTC.

    >>> bound("2026-11-21", end=False), bound("2026-11-21", end=True)
    ('2026-11-21T00:00:00.000Z', '2026-11-22T00:00:00.000Z')
    >>> bound("2026-11-21T23:30+01:00", end=True)
    '2026-11-21T22:30:00.000Z'
    """
    try:
        if len(text) == 10:
            day = datetime.date.fromisoformat(text) + datetime.timedelta(days=1 if end else 0)
            when = datetime.datetime.combine(day, datetime.time(), datetime.UTC)
        else:
            when = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
            if when.tzinfo is None:
                when = when.replace(tzinfo=datetime.UTC)
    except ValueError as exc:
        raise ValueError(f"{text!r} is not a date (2026-11-21) or a time (2026-11-21T22:00)") from exc
    utc = when.astimezone(datetime.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


@dataclass
class Figures:
    """Hands, money and time of one seat or one whole table."""

    hands: int = 0
    wagered: int = 0
    net: int = 0
    banked: int = 0
    staked: int = 0
    first: str | None = None
    last: str | None = None

    def add_hand(self, start: str, end: str, wagered: int, net: int, *, banked: bool = False,
                 staked: bool = True) -> None:
        """One settled hand: from ``start`` (bets closed) to ``end`` (settled); ``banked`` when a
        player-dealer dealt it, ``staked`` unless these figures are that player-dealer's (who has
        no wager of her own)."""
        self.hands += 1
        self.banked += banked
        self.staked += staked
        self.wagered += wagered
        self.net += net
        self.first = start if self.first is None else min(self.first, start)
        self.last = end if self.last is None else max(self.last, end)

    @property
    def average_bet(self) -> int | None:
        """Cents wagered per hand with a wager, rounded (None without one)."""
        return round(self.wagered / self.staked) if self.staked else None

    @property
    def hold(self) -> float | None:
        """The house's win as a percentage of what was wagered (None if nothing was)."""
        return round(-self.net * 100 / self.wagered, 2) if self.wagered else None

    @property
    def hands_per_hour(self) -> float | None:
        """Hands per hour of play (None when the time played is zero)."""
        if self.first is None or self.last is None:
            return None
        hours = (parse_ts(self.last) - parse_ts(self.first)).total_seconds() / 3600
        return round(self.hands / hours, 1) if hours > 0 else None

    def to_json(self) -> JsonObject:
        """The figures as the JSON report writes them."""
        return {"hands": self.hands, "banked": self.banked, "wagered": self.wagered,
                "average_bet": self.average_bet,
                "net": self.net, "hold_percent": self.hold, "hands_per_hour": self.hands_per_hour,
                "first": self.first, "last": self.last}


@dataclass
class TableReport:
    """One table: its figures, each seat's, and its alerts by code."""

    table: str
    total: Figures = field(default_factory=Figures)
    seats: dict[int, Figures] = field(default_factory=dict)
    alerts: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> JsonObject:
        """The table as the JSON report writes it."""
        return {"table": self.table, **self.total.to_json(),
                "seats": [{"seat": seat, **f.to_json()} for seat, f in sorted(self.seats.items())],
                "alerts": dict(sorted(self.alerts.items()))}


def rate(rows: Iterable[Row]) -> list[TableReport]:
    """The figures of every table from its events (in stored order), tables by name.

    An event that cannot be read (no valid ``ts``, data that is not what the
    contract says) is left out and logged; it never stops the report.
    """
    tables: dict[str, TableReport] = {}
    started: dict[HandKey, str] = {}
    dealers: dict[HandKey, int] = {}
    for row in rows:
        report = tables.setdefault(row.table, TableReport(row.table))
        try:
            _rate_one(row, report, started, dealers)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.warning("table %s seq %s (%s) left out of the report: %r", row.table, row.seq, row.type,
                        exc)
    return [tables[name] for name in sorted(tables)]


def _rate_one(row: Row, report: TableReport, started: dict[HandKey, str],
              dealers: dict[HandKey, int]) -> None:
    """One event into its table's figures: all of it, or (raising) nothing."""
    parse_ts(row.ts)
    data = json.loads(row.body).get("data") or {}
    key = (row.table, row.epoch, row.hand)
    if row.type == "hand.started":
        if data.get("dealer_seat") is not None:
            dealers[key] = int(data["dealer_seat"])
    elif row.type == "bets.closed":
        started[key] = row.ts
    elif row.type == "alert":
        report.alerts[str(data.get("code"))] += 1
    elif row.type == "progressive.paid":   # a jackpot, settled as waiting: paid now, counted once
        amount = int(data["amount"])
        report.seats.setdefault(int(data["seat"]), Figures()).net += amount
        report.total.net += amount
    elif row.type == "hand.settled":
        by_seat: dict[int, tuple[int, int]] = {}
        for result in data.get("results", []):
            wagered, net = by_seat.get(int(result["seat"]), (0, 0))
            by_seat[int(result["seat"])] = (wagered + int(result.get("wager", 0)),
                                            net + int(result.get("payout", 0)))
        start = started.pop(key, row.ts)
        dealer = dealers.pop(key, None)
        banker = dealer if dealer is not None and by_seat and dealer not in by_seat else None
        bank = -sum(n for _, n in by_seat.values()) if banker is not None else 0
        for seat, (wagered, net) in by_seat.items():
            report.seats.setdefault(seat, Figures()).add_hand(start, row.ts, wagered, net)
        if banker is not None:  # the player-dealer: what the players won, she paid
            report.seats.setdefault(banker, Figures()).add_hand(start, row.ts, 0, bank, banked=True,
                                                                staked=False)
        report.total.add_hand(start, row.ts, sum(w for w, _ in by_seat.values()),
                              sum(n for _, n in by_seat.values()) + bank, banked=banker is not None)


def _money(cents: int | None) -> str:
    return "-" if cents is None else dollars(cents)


def _number(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value}{unit}"


def as_text(reports: list[TableReport], since: str | None, until: str | None,
            counts: Counts | None = None) -> str:
    """The report for a person to read (with each table's ``counts``, when given)."""
    counts = counts or {}
    period = f"from {since or 'the first event'} to {until or 'the last event'}"
    lines = [f"Rating report, {period} (UTC)", ""]
    if not reports:
        lines.append("No event recorded in this period.")
    head = (f"  {'seat':<6}{'hands':>7}{'banked':>8}{'wagered':>14}{'average bet':>13}{'net (player)':>14}"
            f"{'hold':>9}{'hands/h':>9}")
    for report in reports:
        t = report.total
        lines.append(f"Table {report.table}: {t.hands} hands, wagered {_money(t.wagered)}, "
                     f"player net {_money(t.net)}, hold {_number(t.hold, ' %')}, "
                     f"{_number(t.hands_per_hour)} hands/h")
        if report.seats:
            lines.append(head)
        for seat, f in sorted(report.seats.items()):
            lines.append(f"  {seat:<6}{f.hands:>7}{f.banked:>8}{_money(f.wagered):>14}"
                         f"{_money(f.average_bet):>13}{_money(f.net):>14}{_number(f.hold, ' %'):>9}"
                         f"{_number(f.hands_per_hour):>9}")
        alerts = ", ".join(f"{code} {n}" for code, n in sorted(report.alerts.items())) or "none"
        lines.append(f"  alerts: {alerts}")
        lines += [f"  count: {count_words(count, theo)}" for count, theo in counts.get(report.table, [])]
        lines.append("")
    return "\n".join(lines)


CSV_COLUMNS = ("kind", "table", "seat", "hands", "banked", "wagered_cents", "average_bet_cents", "net_cents",
               "hold_percent", "hands_per_hour", "alert_code", "alerts", "opened_at", "opener_cents",
               "fills_cents", "credits_cents", "closer_cents", "drop_cents", "win_cents",
               "count_hold_percent", "theo_cents", "opener_signed_by", "closer_signed_by", "opener_chips",
               "closer_chips")


def as_csv(reports: list[TableReport], counts: Counts | None = None) -> str:
    """One row per seat, per table (seat ``all``), per table and alert code, and per count (kind
    ``count``); money in cents."""
    counts = counts or {}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)

    def figures(kind: str, table: str, seat: str, f: Figures) -> list[object]:
        return [kind, table, seat, f.hands, f.banked, f.wagered, _blank(f.average_bet), f.net, _blank(f.hold),
                _blank(f.hands_per_hour), "", "", *[""] * 13]

    for report in reports:
        writer.writerow(figures("table", report.table, "all", report.total))
        for seat, f in sorted(report.seats.items()):
            writer.writerow(figures("seat", report.table, str(seat), f))
        for code, n in sorted(report.alerts.items()):
            writer.writerow(["alert", report.table, "", "", "", "", "", "", "", "", code, n, *[""] * 13])
        for count, theo in counts.get(report.table, []):
            c = count_json(count, theo)
            writer.writerow(["count", report.table, *[""] * 10,
                             *(_blank(c[key]) for key in ("opened_at", "opener", "fills", "credits", "closer",
                                                          "drop", "win", "hold_percent", "theo",
                                                          "opener_signed_by", "closer_signed_by")),
                             chips_cell(count.opener_chips), chips_cell(count.closer_chips)])
    return out.getvalue()


def _blank(value: float | None) -> float | str:
    return "" if value is None else value


def as_json(reports: list[TableReport], since: str | None, until: str | None,
            counts: Counts | None = None) -> str:
    """The report as one JSON object; money in cents; each table with its ``counts``."""
    counts = counts or {}
    return json.dumps({"from": since, "to": until, "tables": [
        {**r.to_json(), "counts": [count_json(count, theo) for count, theo in counts.get(r.table, [])]}
        for r in reports]}, indent=1)
