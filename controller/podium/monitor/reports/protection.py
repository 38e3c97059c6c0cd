"""``pit-monitor report --by protection``: game protection worked out from the stored events.

The stored events of the period (``--from``/``--to``) go through the same engine
the monitor follows live (:class:`~controller.podium.protection.watch.Protection`),
under the floor file's ``[protection]`` settings (``--tables``; the defaults
without one), with the stored ratings naming who sat where. A shoe begun
before the period is counted from its next ``shoe.loaded`` on. Each subject
(a rated player, or a seat nobody rated) gets its figures and the reasons it
would be flagged for; the alerts the period would have raised are listed too.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Iterable, Sequence

from controller.podium.monitor.models.rated import row_event
from controller.podium.monitor.stores.events import Row
from controller.podium.protection.settings import Settings
from controller.podium.protection.watch import TYPES, Protection, Raised
from controller.podium.ratings.rating import Rating
from firmware_bridge.kernel.json import JsonValue
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

__all__ = ["TYPES", "as_csv", "as_json", "as_text", "protect"]


def protect(rows: Iterable[Row], ratings: Sequence[Rating],
            settings: Settings) -> tuple[Protection, list[Raised]]:
    """Game protection fed ``rows`` (stored events, in order), with ``ratings`` naming who sat where;
    and the alerts it raised."""
    by_table: dict[str, list[Rating]] = {}
    for rating in ratings:
        by_table.setdefault(rating.table, []).append(rating)

    def who(table: str, seat: int, ts: str) -> tuple[str, str] | None:
        for rating in by_table.get(table, ()):
            if rating.seat == seat and rating.covers(ts):
                return rating.player, str(rating.id)
        return None

    protection = Protection(settings, who)
    raised: list[Raised] = []
    for row in rows:
        raised.extend(protection.feed(row.table, row.epoch, row_event(row)))
    return protection, raised


def _money(cents: JsonValue) -> str:
    return "-" if not isinstance(cents, int | float) else dollars(int(cents))


def as_text(protection: Protection, raised: list[Raised], since: str | None, until: str | None) -> str:
    """The report for a person to read."""
    s = protection.settings
    lines = [f"Game protection: events from {since or 'the first'} to {until or 'the last'} (UTC)",
             f"Count {s.system.name}; flagged when, with {s.confidence:.1%} confidence: bets rise with the "
             f"true count (at least {s.min_hands} hands, correlation {s.min_correlation:g}, spread "
             f"{s.min_spread:g}x, ramp {s.min_ramp:g}x), hands played at +{s.wong_count:g} or more after "
             f"sitting out (at least "
             f"{s.min_entries} entries), deviations with the count (at least {s.min_count_plays})", ""]
    subjects = protection.subjects()
    if not subjects:
        lines.append("No house-banked hand in this period.")
    for subject in subjects:
        f = subject["figures"]
        where = ", ".join(f"{x['table']} seat {x['seat']}" for x in subject["seats"])
        who = f"player {subject['player']}" if subject["player"] else subject["label"]
        flagged = ", ".join(f["reasons"]) or "not flagged"
        lines.append(f"{who} ({where}): {flagged}; suspicion {f['suspicion']:.4f}")
        lines.append(f"  bets: {f['hands']} hands, correlation {f['correlation']:.3f} (confidence "
                     f"{f['bet_confidence']:.4f}), {_money(f['smallest_bet'])} to {_money(f['largest_bet'])} "
                     f"(spread {f['spread'] or '-'}), average at +2 or more {_money(f['average_bet_high'])}, "
                     f"at 0 or less {_money(f['average_bet_low'])} (ramp {f['ramp'] or '-'})")
        lines.append(f"  wonging: {f['entries']} entries after sitting out, {f['high_entries']} at a high "
                     f"count; {f['high_hands']} hands played there where the table dealt "
                     f"{f['high_share']:.1%} (confidence {f['wong_confidence']:.4f})")
        accuracy = "-" if f["accuracy"] is None else f"{f['accuracy']:.1%}"
        lines.append(f"  play: {f['decisions']} decisions, {accuracy} as basic strategy, {f['deviations']} "
                     f"deviations, {f['count_plays']} with the count (confidence "
                     f"{f['play_confidence']:.4f}), insurance {f['insurance']}")
        if subject["ratings"]:
            lines.append(f"  ratings: {', '.join(str(r) for r in subject['ratings'])}")
    if raised:
        lines += ["", "Alerts (advantage_play_suspected):"]
        lines += [f"  {r.ts} {r.table} seq {r.seq}: {r.data['message']}" for r in raised]
    return "\n".join(lines)


CSV_COLUMNS = ("subject", "player", "seats", "ratings", "hands", "correlation", "bet_confidence",
               "smallest_bet_cents", "largest_bet_cents", "spread", "ramp", "entries", "high_entries",
               "high_hands",
               "high_share", "wong_confidence", "decisions", "accuracy", "deviations", "count_plays",
               "insurance", "play_confidence", "suspicion", "reasons")


def as_csv(protection: Protection) -> str:
    """One row per subject, the most suspicious first; money in cents."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for subject in protection.subjects():
        f = subject["figures"]
        writer.writerow([subject["subject"], subject["player"] or "",
                         " ".join(f"{x['table']}:{x['seat']}" for x in subject["seats"]),
                         " ".join(str(r) for r in subject["ratings"]), f["hands"], f["correlation"],
                         f["bet_confidence"], "" if f["smallest_bet"] is None else f["smallest_bet"],
                         "" if f["largest_bet"] is None else f["largest_bet"],
                         "" if f["spread"] is None else f["spread"], "" if f["ramp"] is None else f["ramp"],
                         f["entries"], f["high_entries"],
                         f["high_hands"], f["high_share"], f["wong_confidence"], f["decisions"],
                         "" if f["accuracy"] is None else f["accuracy"], f["deviations"], f["count_plays"],
                         f["insurance"], f["play_confidence"], f["suspicion"], " ".join(f["reasons"])])
    return out.getvalue()


def as_json(protection: Protection, raised: list[Raised], since: str | None, until: str | None) -> str:
    """The report as one JSON object: every subject with its plot and deviations, and the alerts."""
    subjects = [protection.subject(s["subject"]) for s in protection.subjects()]
    return json.dumps({"from": since, "to": until, "settings": protection.settings.to_json(),
                       "subjects": subjects,
                       "alerts": [{"table": r.table, "seq": r.seq, "hand": r.hand, "ts": r.ts, **r.data}
                                  for r in raised]}, indent=1)
