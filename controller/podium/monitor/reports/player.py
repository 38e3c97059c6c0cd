"""``pit-monitor report --by player``: each player's ratings and totals, worked out from the stored events.

The ratings come from the store (opened in the period ``--from``/``--to``);
their figures from the stored events of their tables, through the same engine
the monitor follows live (:class:`~controller.podium.ratings.rating.TableRatings`),
so the report gives what the monitor showed. A rating still open counts up
to ``now``; one open at a table whose ``table.closed`` is stored ends there.
What each figure means: :mod:`controller.podium.ratings.rating` and
docs/pit-monitor-reference.md ("Rated play").
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from operator import add

from controller.events.envelope import utc_timestamp
from controller.podium.monitor.models.rated import row_event
from controller.podium.monitor.stores.events import Row
from controller.podium.ratings.hands import RATED_TYPES
from controller.podium.ratings.rating import Figures, Rating, TableRatings, parse_ts, time_played
from controller.podium.ratings.theo import Theo
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

LEAD = datetime.timedelta(days=1)
"""How long before a rating's opening the events are read (its first hand may have begun before)."""


@dataclass(frozen=True)
class PlayerReport:
    """One player's ratings (oldest first), each with its figures, and the player's time played."""

    player: str
    ratings: tuple[tuple[Rating, Figures], ...]
    seconds: float

    @property
    def total(self) -> Figures:
        """The ratings' figures together; the time is the time at least one of them was open."""
        return replace(reduce(add, (figures for _, figures in self.ratings), Figures()), seconds=self.seconds)


def events_needed(ratings: Sequence[Rating]) -> tuple[str | None, str | None]:
    """``(since, until)`` of the stored events the figures of ``ratings`` are worked out from."""
    if not ratings:
        return None, None
    first = parse_ts(min(r.opened for r in ratings)) - LEAD
    last = None if any(r.is_open for r in ratings) else max(r.closed or "" for r in ratings)
    return utc_timestamp(first), last


def rate_players(ratings: Sequence[Rating], rows: Iterable[Row],
                 now: datetime.datetime) -> list[PlayerReport]:
    """Every player's ratings with their figures from ``rows`` (the stored events, in order), by player."""
    tables: dict[str, TableRatings] = {}
    for rating in ratings:
        tables.setdefault(rating.table, TableRatings(rating.table)).add(rating)
    for row in rows:
        book = tables.get(row.table)
        if book is None:
            continue
        book.feed(row_event(row), row.epoch)
    rated: dict[str, list[tuple[Rating, Figures]]] = {}
    for book in tables.values():
        for rating in book.ratings():
            rated.setdefault(rating.player, []).append((rating, book.figures(rating.id, now)))
    return [PlayerReport(player, tuple(sorted(rated[player], key=lambda r: (r[0].opened, r[0].id))),
                         time_played((r for r, _ in rated[player]), now))
            for player in sorted(rated)]


TYPES = RATED_TYPES
"""The event types this report reads."""


def theo_words(theo: Theo) -> str:
    """A theoretical win for a person to read."""
    if theo.value is None:
        return "theo unknown (no edges recorded)"
    words = f"theo {dollars(round(theo.value))}"
    if theo.interval is not None:
        words += f" (95% interval {dollars(round(theo.interval[0]))} to {dollars(round(theo.interval[1]))})"
    if theo.rake:
        words += " (share of the rake)"
    if theo.no_edge:
        words += f" (no edge for {', '.join(sorted(theo.no_edge))}: counted 0)"
    return words


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    return f"{minutes // 60}h{minutes % 60:02d}"


def _figures_words(f: Figures) -> str:
    average = dollars(f.average_bet) if f.average_bet is not None else "-"
    words = (f"{f.hands} hands, {_duration(f.seconds)} played, wagered {dollars(f.wagered)}, "
             f"average bet {average}, actual {dollars(f.actual)}, {theo_words(f.theo)}")
    if f.jackpots:
        words += f", of the actual {dollars(f.jackpots)} in jackpots"
    if f.waiting:
        words += f", {f.waiting} jackpot(s) won and not yet paid"
    if f.banked:
        words += f"; banked {f.banked} hands as the player-dealer, the bank's result {dollars(f.bank)}"
    return words


def as_text(players: list[PlayerReport], since: str | None, until: str | None) -> str:
    """The report for a person to read."""
    period = f"opened from {since or 'the first'} to {until or 'the last'}"
    lines = [f"Player report: ratings {period} (UTC)", ""]
    if not players:
        lines.append("No rating in this period.")
    for player in players:
        lines.append(f"Player {player.player}: {len(player.ratings)} ratings, "
                     f"{_figures_words(player.total)}")
        for rating, f in player.ratings:
            end = rating.closed or "open"
            closed = f" ({rating.reason}, {rating.closed_by})" if rating.closed else ""
            lines.append(f"  rating {rating.id} at {rating.table} seat {rating.seat}, {rating.opened} to "
                         f"{end}{closed}, opened by {rating.opened_by}")
            lines.append(f"    {_figures_words(f)}")
            for name, spot in sorted(f.spots.items()):
                average = dollars(spot.average) if spot.average is not None else "-"
                lines.append(f"    {name}: {spot.hands} hands, wagered {dollars(spot.wagered)}, "
                             f"average {average}")
            for term in f.theo.terms:
                lines.append(f"    theo {term.spot}: {dollars(term.wagered)} x {term.edge.house_edge:.6%} "
                             f"({term.edge.method})")
        lines.append("")
    return "\n".join(lines)


CSV_COLUMNS = ("kind", "player", "rating", "table", "seat", "opened", "closed", "closed_by", "reason", "spot",
               "hands", "banked", "seconds", "wagered_cents", "average_bet_cents", "actual_cents",
               "jackpots_cents", "bank_result_cents", "theo_cents", "theo_low_cents", "theo_high_cents",
               "house_edge", "edge_method")


def _theo_cells(theo: Theo) -> list[str | float]:
    interval = theo.interval
    return ["" if theo.value is None else round(theo.value, 2),
            "" if interval is None else round(interval[0], 2),
            "" if interval is None else round(interval[1], 2)]


def as_csv(players: list[PlayerReport]) -> str:
    """One row per rating (spot ``all``), per rating and spot, and per player (``total``); money in
    cents (a theoretical win to a hundredth of a cent)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)

    def figures(f: Figures) -> list[str | float]:
        average = "" if f.average_bet is None else f.average_bet
        return [f.hands, f.banked, round(f.seconds), f.wagered, average, f.actual, f.jackpots, f.bank,
                *_theo_cells(f.theo)]

    for player in players:
        for r, f in player.ratings:
            head = [player.player, r.id, r.table, r.seat, r.opened, r.closed or "", r.closed_by or "",
                    r.reason or ""]
            writer.writerow(["rating", *head, "all", *figures(f), "", ""])
            terms = {t.spot: t for t in f.theo.terms}
            for name, spot in sorted(f.spots.items()):
                term = terms.get(name)
                theo = "" if term is None else round(term.wagered * term.edge.house_edge, 2)
                writer.writerow(["spot", *head, name, spot.hands, "", "", spot.wagered,
                                 "" if spot.average is None else spot.average, "", "", "", theo, "", "",
                                 "" if term is None else term.edge.house_edge,
                                 "" if term is None else term.edge.method])
        writer.writerow(["total", player.player, "", "", "", "", "", "", "", "all", *figures(player.total),
                         "", ""])
    return out.getvalue()


def as_json(players: list[PlayerReport], since: str | None, until: str | None) -> str:
    """The report as one JSON object; money in cents."""
    return json.dumps({"from": since, "to": until, "players": [
        {"player": p.player, "total": p.total.to_json(),
         "ratings": [{**r.to_json(), "figures": f.to_json()} for r, f in p.ratings]} for p in players]},
        indent=1)
