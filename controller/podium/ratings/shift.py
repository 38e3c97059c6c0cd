"""Shifts: when each begins, and what each table (and each pit) did in one.

The floor file (the monitor's ``--tables`` TOML) may say when shifts begin,
in a zone of the IANA database (default: one shift a day from midnight UTC)::

    [shifts]
    starts = ["06:00", "14:00", "22:00"]
    zone = "Europe/Paris"

:class:`Shifts` gives the shift a moment falls in (a shift that crosses
midnight or a change of summer time simply lasts from one start to the next).
:class:`TableShifts` is fed one table's events in order and keeps, per
shift, a :class:`TableShift`; its :meth:`~TableShift.summary` gives the
figures (:class:`ShiftSummary`), which add up per pit. A hand counts in the
shift its ``hand.settled`` falls in, a jackpot in the shift it is paid in.

>>> shifts = Shifts((datetime.time(6), datetime.time(22)), ZoneInfo("Europe/Paris"))
>>> start, end = shifts.bounds(datetime.datetime(2026, 11, 21, 23, 30, tzinfo=datetime.UTC))
>>> start.isoformat(), end.isoformat()
('2026-11-21T21:00:00+00:00', '2026-11-22T05:00:00+00:00')
>>> shifts.name(start)
'2026-11-21 22:00 Europe/Paris'
"""

from __future__ import annotations

import datetime
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from controller.follow.records import FollowedEvent
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.hands import (
    Closed,
    Hand,
    HandReader,
    Happening,
    Jackpot,
    Rules,
    canonical_rules,
)
from controller.podium.ratings.rating import parse_ts
from controller.podium.ratings.theo import Theo, Wagers, theo_of
from firmware_bridge.kernel.json import JsonObject

EdgesLookup = Callable[[str | None, Rules | None], Edges | None]
"""``(game, rules) -> Edges`` of hands played under them, None when unknown (``rules`` None: the
table did not publish its rules)."""


class ShiftsError(ValueError):
    """The ``[shifts]`` table is wrong; the message lists every mistake, one per line."""


@dataclass(frozen=True)
class Shifts:
    """When shifts begin: local times of day in ``zone``, each shift lasting until the next start."""

    starts: tuple[datetime.time, ...] = (datetime.time(0),)
    zone: datetime.tzinfo = datetime.UTC

    def bounds(self, when: datetime.datetime) -> tuple[datetime.datetime, datetime.datetime]:
        """The start and end (UTC) of the shift ``when`` (aware) falls in."""
        if when.tzinfo is None:
            raise ValueError("a shift is found for an aware datetime, not a naive one")
        day = when.astimezone(self.zone).date()
        moments = sorted({datetime.datetime.combine(day + datetime.timedelta(days=n), start,
                                                    tzinfo=self.zone).astimezone(datetime.UTC)
                          for n in (-1, 0, 1, 2) for start in self.starts})
        begun = [m for m in moments if m <= when]
        return begun[-1], next(m for m in moments if m > when)

    def name(self, start: datetime.datetime) -> str:
        """A shift's name: its start, local, and the zone."""
        return f"{start.astimezone(self.zone):%Y-%m-%d %H:%M} {self.zone}"


def parse_shifts(section: object, where: str = "[shifts]") -> Shifts:
    """The ``[shifts]`` table of a floor file; ShiftsError lists what is wrong.

    >>> parse_shifts({"starts": ["22:00", "06:00"]}).starts
    (datetime.time(6, 0), datetime.time(22, 0))
    >>> parse_shifts({"starts": ["6h"], "zone": "Mars/Olympus"})
    Traceback (most recent call last):
    ...
    controller.podium.ratings.shift.ShiftsError: [shifts]: a start is "HH:MM" (00:00 to 23:59), not '6h'
    [shifts]: zone 'Mars/Olympus' is not a time zone of the IANA database (e.g. "Europe/Paris")
    """
    if not isinstance(section, Mapping):
        raise ShiftsError(f"{where} must be a table: starts = [\"06:00\", ...], zone = \"...\"")
    problems = [f"{where}: unknown key {key!r} (starts, zone)" for key in section
                if key not in ("starts", "zone")]
    starts: list[datetime.time] = []
    raw = section.get("starts", ["00:00"])
    if not isinstance(raw, list) or not raw:
        problems.append(f"{where}: starts is a list of times, at least one: [\"06:00\", \"14:00\"]")
        raw = []
    for text in raw:
        if not isinstance(text, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", text):
            problems.append(f"{where}: a start is \"HH:MM\" (00:00 to 23:59), not {text!r}")
        elif datetime.time.fromisoformat(text) in starts:
            problems.append(f"{where}: {text} is given twice")
        else:
            starts.append(datetime.time.fromisoformat(text))
    zone: datetime.tzinfo = datetime.UTC
    name = section.get("zone", "UTC")
    try:
        zone = ZoneInfo(name) if name != "UTC" else datetime.UTC
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        problems.append(f"{where}: zone {name!r} is not a time zone of the IANA database "
                        "(e.g. \"Europe/Paris\")")
    if problems:
        raise ShiftsError("\n".join(problems))
    return Shifts(tuple(sorted(starts)), zone)


def read_floor(path: Path) -> tuple[Shifts, dict[str, str]]:
    """A floor file's shifts (default if it has no ``[shifts]``) and each table's pit (``pit =
    "..."`` in ``[tables.NAME]``; a table without one is in no pit); ShiftsError if unusable."""
    try:
        floor = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ShiftsError(f"{path}: {exc}") from exc
    shifts = parse_shifts(floor["shifts"], f"{path}: [shifts]") if "shifts" in floor else Shifts()
    pits: dict[str, str] = {}
    tables = floor.get("tables", {})
    for name, entry in tables.items() if isinstance(tables, dict) else ():
        pit = entry.get("pit") if isinstance(entry, dict) else None
        if pit is not None and (not isinstance(pit, str) or not pit.strip()):
            raise ShiftsError(f"{path}: [tables.{name}] pit is a name, not {pit!r}")
        if pit is not None:
            pits[name] = pit.strip()
    return shifts, pits


@dataclass(frozen=True)
class ShiftSummary:
    """The figures of a table, or of several tables together (``+``: a pit), in one shift."""

    tables: tuple[str, ...]
    hands: int = 0
    banked: int = 0
    """Hands a player-dealer dealt."""
    hours: float = 0.0
    """The hours played: each table's, from its first hand's bets closing to its last settling."""
    wagered: int = 0
    players: int = 0
    """What the players won together (payouts, jackpots paid)."""
    bank: int = 0
    """What player-dealers won banking (player-banked games)."""
    rake: int = 0
    jackpots: int = 0
    theo: Theo = field(default_factory=Theo)

    @property
    def house_result(self) -> int:
        """What the house won: what neither the players nor a player-dealer won (a pot game's rake)."""
        return -(self.players + self.bank)

    @property
    def hands_per_hour(self) -> float | None:
        """Hands per hour played, per table (None before a table played for any time)."""
        return round(self.hands / self.hours, 1) if self.hours > 0 else None

    def __add__(self, other: ShiftSummary) -> ShiftSummary:
        return ShiftSummary(self.tables + other.tables, self.hands + other.hands,
                            self.banked + other.banked, self.hours + other.hours,
                            self.wagered + other.wagered, self.players + other.players,
                            self.bank + other.bank, self.rake + other.rake, self.jackpots + other.jackpots,
                            self.theo + other.theo)

    def to_json(self) -> JsonObject:
        """Money in cents."""
        return {"tables": list(self.tables), "hands": self.hands, "hours": round(self.hours, 4),
                "hands_per_hour": self.hands_per_hour,
                "banked": self.banked, "wagered": self.wagered, "house_result": self.house_result,
                "theo": self.theo.to_json(), "rake": self.rake, "bank_result": self.bank,
                "jackpots": self.jackpots}


@dataclass
class TableShift:
    """What one table did in one shift, kept exact; :meth:`summary` gives the figures."""

    table: str
    start: datetime.datetime
    end: datetime.datetime
    hands: int = 0
    banked: int = 0
    players: int = 0
    rake: int = 0
    jackpots: int = 0
    first: str | None = None
    last: str | None = None
    wagers: dict[tuple[str | None, str | None], Wagers] = field(default_factory=dict)
    """The wagers by the game and rules (canonical text) they were played under."""
    rules: dict[tuple[str | None, str | None], Rules | None] = field(default_factory=dict)
    _last_key: tuple[Rules | None, tuple[str | None, str | None]] | None = field(
        default=None, repr=False, compare=False)
    """The rules :meth:`_key` was last given (the object itself) and the key it gave."""

    def take(self, happening: Hand | Jackpot) -> None:
        """Count a settled hand or a jackpot paid."""
        if isinstance(happening, Hand):
            key = self._key(happening)
            self.rules[key] = happening.rules
            wagers = self.wagers.setdefault(key, Wagers())
            dealt = happening.dealer_seat is not None
            wagers.add_hand(happening.results, player_dealt=dealt)
            if dealt:
                wagers.add_bank(r for r in happening.results if r.seat != happening.dealer_seat)
            if happening.rake:      # (a Fraction: adding 0 costs as much)
                wagers.rake += happening.rake
            self.hands += 1
            self.banked += dealt
            self.players += sum(r.payout for r in happening.results)
            self.rake += happening.rake
            self.first = happening.started if self.first is None else min(self.first, happening.started)
            self.last = happening.settled if self.last is None else max(self.last, happening.settled)
        else:
            self.players += happening.amount
            self.jackpots += happening.amount

    def _key(self, hand: Hand) -> tuple[str | None, str | None]:
        """The game and canonical rules a hand was played under (the text worked out once for the
        rules a table's reader holds, which are the same object hand after hand)."""
        last = self._last_key
        if last is None or last[0] is not hand.rules or last[1][0] != hand.game:
            last = (hand.rules, (hand.game, None if hand.rules is None else canonical_rules(hand.rules)))
            self._last_key = last
        return last[1]

    def summary(self, edges: EdgesLookup) -> ShiftSummary:
        """The figures, the theoretical win under the edges of each game and rules played."""
        hours = 0.0
        if self.first is not None and self.last is not None:
            hours = (parse_ts(self.last) - parse_ts(self.first)).total_seconds() / 3600
        theo, bank = Theo(), 0
        for key, wagers in self.wagers.items():
            found = edges(key[0], self.rules[key])
            theo += theo_of(wagers, found)
            bank += wagers.bank_result(found)
        return ShiftSummary((self.table,), self.hands, self.banked, hours,
                            sum(w.wagered for w in self.wagers.values()), self.players, bank, self.rake,
                            self.jackpots, theo)


class TableShifts:
    """One table's figures shift by shift, fed its events in order (pure)."""

    def __init__(self, table: str, shifts: Shifts) -> None:
        self.table = table
        self.shifts = shifts
        self.reader = HandReader(table)
        self.by_start: dict[datetime.datetime, TableShift] = {}
        self.problems: list[str] = []
        self._last: TableShift | None = None
        """The shift :meth:`at` found last."""

    def feed(self, event: FollowedEvent, epoch: str = "") -> None:
        """One event of the table (an unreadable one is left out and kept in :attr:`problems`)."""
        try:
            happening: Happening | None = self.reader.feed(event, epoch)
        except ValueError as exc:
            self.problems.append(f"table {self.table} seq {event.seq}: {exc}")
            return
        self.take(happening)

    def take(self, happening: Happening | None) -> None:
        """Count what the table's reader made of an event (when another reads the events: the live
        monitor reads each once for the ratings and the shift)."""
        if happening is None or isinstance(happening, Closed):
            return
        ts = happening.settled if isinstance(happening, Hand) else happening.ts
        self.at(parse_ts(ts)).take(happening)

    def at(self, when: datetime.datetime) -> TableShift:
        """The figures of the shift ``when`` falls in (empty when the table did nothing in it yet)."""
        last = self._last
        if last is not None and last.start <= when < last.end:     # most often the shift of the last
            return last
        start, end = self.shifts.bounds(when)
        self._last = self.by_start.setdefault(start, TableShift(self.table, start, end))
        return self._last

    def forget_before(self, start: datetime.datetime) -> None:
        """Drop the shifts that began before ``start`` (a live monitor keeps the current one)."""
        self.by_start = {s: f for s, f in self.by_start.items() if s >= start}
        self._last = None
