"""Game protection of a floor: every table's count and hands, every subject's tally, the alert.

:class:`Protection` is fed each table's events in order (live from the
monitor's followers, or the stored ones for a report). Per table it counts
the shoe (:class:`~controller.podium.protection.count.ShoeCount`) and reads the
decisions (:class:`~controller.podium.protection.play.PlayReader`); at each
``bets.closed`` of a hand the house banks it gives every subject at the table
a :class:`~controller.podium.protection.tally.Round`.

**Who a subject is.** ``who(table, seat, ts)`` names the rating open at that
seat then (the monitor's and the report's ratings), and the subject is that
rating's player (``player:<id>``), over every rating of the player. A seat
nobody rated is a subject of its own (``seat:<table>:<seat>:<n>``), whoever
sits there, from its first wager until the table closes. A subject follows a
table (its sat-out hands count) from its first wager there until the table
closes. A subject that follows no table and was not seen for ``keep_hours`` is
forgotten.

**Which hands.** Only the hands the house banks count for bets: the game's
first spot (its main wager), at a game that takes no rake, in a hand where no
player-dealer banks that spot (``hand.started``'s ``dealer_seat``; the game's
``player_banked``). Decisions are checked in every hand of a game that has a
strategy (:mod:`~controller.podium.protection.strategies`).

**Live or held.** With ``figures = "held"`` a shoe's rounds and decisions wait
until its cut card comes out (``shoe.cut_card``; or the next shoe, or the
table's closing) before they count, so nothing the pit sees during a shoe can
lead the table to shuffle early.

**The alert.** When a subject's figures cross the floor's thresholds for a
reason (``bets``, ``wonging``, ``play``) not raised for it before,
:meth:`Protection.feed` gives a :class:`Raised`: an ``advantage_play_suspected``
alert (severity ``warning``), raised by the pit side, never by the table.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypedDict

from controller.events.alerts import alert
from controller.events.floor import TableClosed
from controller.events.table import BetsClosed, CutCardOut, HandStarted, ShoeLoaded, TableOpened
from controller.follow.records import FollowedEvent
from controller.games.catalog import find_game
from controller.plugins import PluginError
from controller.podium.protection.count import CountError, ShoeCount
from controller.podium.protection.play import Decision, PlayReader
from controller.podium.protection.settings import DEFAULT, Settings
from controller.podium.protection.strategies import Strategies, not_checked, strategy_for
from controller.podium.protection.tally import Figures, FiguresJson, Round, Tally
from controller.podium.ratings.hands import BadEvent, Rules, canonical_rules, record_of
from firmware_bridge.kernel.json import JsonObject, JsonValue

log = logging.getLogger(__name__)

CODE = "advantage_play_suspected"
"""The alert's code, registered in the alert registry (``controller/events/alerts.py``; docs/pit-events.md,
"Raised by the pit side")."""

TYPES = ("table.opened", "hand.started", "bets.closed", "shoe.loaded", "shoe.cut_card", "card.dealt",
         "card.revealed", "player.action", "table.closed")
"""The event types protection reads (what a store is asked for)."""

REASON_WORDS = {"bets": "bets rise with the count", "wonging": "enters at high counts after sitting out",
                "play": "deviates from basic strategy with the count"}

Who = Callable[[str, int, str], tuple[str, str] | None]
"""``(table, seat, ts)`` -> the rated player there then as ``(player id, rating id as text)``, or None."""


def nobody(table: str, seat: int, ts: str) -> tuple[str, str] | None:
    """A ``Who`` for a floor with no ratings."""
    return None


@dataclass(frozen=True)
class Raised:
    """An ``advantage_play_suspected`` alert to show: at ``table`` (its ``epoch``), after the event
    ``seq``; ``data`` as an alert event's (``code``, ``severity``, ``message``, ``seat``, ...)."""

    table: str
    epoch: str
    seq: int
    hand: int | None
    ts: str | None
    data: JsonObject


@dataclass
class _Table:
    """What protection keeps of one table."""

    name: str
    count: ShoeCount
    play: PlayReader
    epoch: str = ""
    game: str | None = None
    main: str | None = None
    player_banked: frozenset[str] = frozenset()
    rakes: bool = False
    house_banked: bool = False
    hand: int | None = None
    rules: Rules | None = None
    seats: dict[int, str] = field(default_factory=dict)
    """Seat -> its unrated subject while one plays there."""
    generation: int = 0
    followers: set[str] = field(default_factory=set)
    """The subjects whose sat-out hands count here."""
    held: list[tuple[str, Round | Decision]] = field(default_factory=list)
    unchecked: str | None = None
    last: tuple[str, int] | None = None
    """The epoch and seq of the last event read (one read already is skipped)."""


class Protection:
    """A floor's game protection, fed every table's events (pure)."""

    def __init__(self, settings: Settings = DEFAULT, who: Who = nobody,
                 strategies: Strategies = strategy_for) -> None:
        """``strategies`` gives each game's strategy (by default built when first asked for; the
        monitor builds them apart and asks again at each hand until one is ready)."""
        self.settings = settings
        self.who = who
        self.strategies = strategies
        self.tables: dict[str, _Table] = {}
        self.tallies: dict[str, Tally] = {}
        self.problems: list[str] = []
        self.changes = 0
        """Events read so far (each may have changed a subject): a view of the subjects made when
        this was ``n`` is up to date while it still is."""

    def _table(self, name: str) -> _Table:
        table = self.tables.get(name)
        if table is None:
            count = ShoeCount(self.settings.system)
            table = self.tables[name] = _Table(name, count, PlayReader(name, lambda: _true(count)))
        return table

    # ------------------------------------------------------------------ events

    def feed(self, name: str, epoch: str, event: FollowedEvent) -> list[Raised]:
        """One event of table ``name`` (in order); the alerts it raises. An event that cannot be read
        is left out and kept in :attr:`problems`; one read already (of the epoch of the last one read,
        and not after it) is skipped, so that the stored events may be read first and a follower's
        then, which may repeat the last few."""
        if event.type not in TYPES:
            return []
        table = self._table(name)
        seq = event.seq
        if table.last is not None and table.last[0] == epoch and seq <= table.last[1]:
            return []               # read already (the stored events, then a follower's last few)
        table.last = (epoch, seq)
        table.epoch = epoch
        self.changes += 1
        try:
            record = record_of(event)
        except BadEvent as exc:
            self.problems.append(f"table {name} seq {seq}: {exc}")
            return []
        touched: set[str] = set()
        if isinstance(record, TableOpened):
            self._opened(table, record)
        elif isinstance(record, HandStarted):
            table.hand = event.hand
            if table.play.strategy is None and table.unchecked is None and table.game is not None:
                table.play.strategy = self.strategies(table.game, table.rules, canonical_rules(table.rules))
            table.house_banked = (table.main is not None and not table.rakes
                                  and (record.dealer_seat is None or table.main not in table.player_banked))
        elif isinstance(record, BetsClosed):
            touched = self._closed(table, event, record)
        elif isinstance(record, ShoeLoaded | CutCardOut | TableClosed):
            touched = self._release(table)
            if isinstance(record, TableClosed):
                table.seats.clear()
                table.followers.clear()
            elif isinstance(record, ShoeLoaded):
                self._forget_old(event.ts)
        for decision in table.play.feed(event.hand, record):
            touched |= self._decided(table, decision, event.ts)
        try:
            table.count.feed(record)
        except CountError as exc:
            self.problems.append(f"table {name} seq {seq}: {exc}")
            log.warning("left out of the count: table %s seq %s: %s", name, seq, exc)
        return self._check(table, touched, event)

    def _opened(self, table: _Table, opened: TableOpened) -> None:
        table.game = opened.game
        table.main, table.player_banked, table.rakes = None, frozenset(), False
        try:
            kind = find_game(opened.game).game_type
            table.main = kind.spots[0] if kind.spots else None
            table.player_banked, table.rakes = frozenset(kind.player_banked), kind.house_rakes
        except PluginError:
            log.warning("table %s: game %r is not installed here: its bets are not followed", table.name,
                        opened.game)
        table.rules = opened.rules
        table.play.strategy = self.strategies(table.game, table.rules, canonical_rules(table.rules))
        table.unchecked = not_checked(table.game)

    def _closed(self, table: _Table, event: FollowedEvent, closed: BetsClosed) -> set[str]:
        now = table.count.now()
        if not table.house_banked or now is None or event.hand != table.hand:
            return set()
        ts = event.ts
        wagers: dict[int, int] = {}
        for bet in closed.bets:
            if bet.spot != table.main:
                continue
            if bet.amount > 0:                 # the codec read both as ints (events/decoders.py)
                wagers[bet.seat] = wagers.get(bet.seat, 0) + bet.amount
        first = now.drawn == 0
        subjects: dict[str, int | None] = {self._subject(table, seat, ts, create=True): wager
                                           for seat, wager in wagers.items()}
        table.followers.update(subjects)
        for subject in sorted(table.followers - set(subjects)):    # following the table, betting nothing
            if subject in self.tallies and any(
                    where == table.name and seat not in wagers
                    and self._subject(table, seat, ts, create=False) == subject
                    for where, seat in self.tallies[subject].seats):
                subjects[subject] = None
        for subject, wager in subjects.items():
            self._keep(table, subject, Round(table.name, table.hand, ts, now.shoe_id, now.true, wager, first))
        return set(subjects)

    def _subject(self, table: _Table, seat: int, ts: str, *, create: bool) -> str:
        """The subject at ``seat`` now: the rated player, else the seat's own (made if ``create``)."""
        rated = self.who(table.name, seat, ts)
        if rated is not None:
            player, rating = rated
            subject = f"player:{player}"
            tally = self.tallies.get(subject)
            if tally is None:
                tally = self.tallies[subject] = Tally(subject, player, player, self.settings)
            if rating.isdigit():
                tally.ratings.add(int(rating))
        else:
            subject = table.seats.get(seat, "")
            if not subject:
                if not create:
                    return ""
                table.generation += 1
                subject = table.seats[seat] = f"seat:{table.name}:{seat}:{table.generation}"
                self.tallies[subject] = Tally(subject, f"{table.name} seat {seat} (unrated, from {ts})",
                                              settings=self.settings)
            tally = self.tallies[subject]
        tally.seats.add((table.name, seat))
        return subject

    def _decided(self, table: _Table, decision: Decision, ts: str) -> set[str]:
        subject = self._subject(table, decision.seat, ts, create=True)
        self._keep(table, subject, decision)
        return {subject}

    def _forget_old(self, ts: str) -> None:
        """Forget the subjects that follow no table and were not seen for ``keep_hours``."""
        try:
            cutoff = datetime.datetime.fromisoformat(ts.replace("Z", "+00:00")) - datetime.timedelta(
                hours=self.settings.keep_hours)
        except ValueError:
            return
        following = set().union(*(t.followers for t in self.tables.values()))
        for subject, tally in list(self.tallies.items()):
            if subject not in following and tally.last_ts and _before(tally.last_ts, cutoff):
                del self.tallies[subject]

    def _keep(self, table: _Table, subject: str, item: Round | Decision) -> None:
        if self.settings.held:
            table.held.append((subject, item))
        else:
            self._count(subject, item)

    def _count(self, subject: str, item: Round | Decision) -> None:
        tally = self.tallies[subject]
        if isinstance(item, Round):
            tally.add_round(item)
        else:
            tally.add_decision(item)

    def _release(self, table: _Table) -> set[str]:
        """A held shoe's rounds and decisions now count."""
        held, table.held = table.held, []
        for subject, item in held:
            self._count(subject, item)
        return {subject for subject, _ in held}

    # ------------------------------------------------------------------ the alert

    def _check(self, table: _Table, subjects: Iterable[str], event: FollowedEvent) -> list[Raised]:
        raised = []
        for subject in sorted(subjects):
            tally = self.tallies[subject]
            if not tally.may_cross():
                continue
            figures = tally.figures()
            new = [reason for reason in figures.reasons if reason not in tally.raised]
            if not new:
                continue
            tally.raised.update(new)
            seat = next((s for t, s in sorted(tally.seats) if t == table.name), None)
            raised.append(Raised(table.name, f"{table.epoch}:protection:{seat}", event.seq, event.hand,
                                 event.ts, alert_data(tally, figures, new, seat, self.settings)))
        return raised

    # ------------------------------------------------------------------ views

    def count_of(self, table: str) -> JsonObject | None:
        """A table's count now (None: no shoe seen loaded)."""
        found = self.tables.get(table)
        now = None if found is None else found.count.now()
        return None if now is None else {**now.to_json(), "system": self.settings.system.name}

    def subjects(self) -> list[SubjectJson]:
        """Every subject with its figures (no plot), the most suspicious first."""
        shown = sorted(((tally, tally.figures()) for tally in self.tallies.values()
                        if tally.rounds or tally.decisions), key=lambda shown: subject_order(*shown))
        return [subject_json(tally, figures) for tally, figures in shown]

    def subject(self, subject: str) -> SubjectPage | None:
        """One subject's figures with the plot and its decisions that deviated (None: unknown)."""
        tally = self.tallies.get(subject)
        if tally is None:
            return None
        figures = tally.figures()
        unchecked = sorted({reason for t in self.tables.values()
                            if any(where == t.name for where, _ in tally.seats)
                            and (reason := t.unchecked) is not None})
        return {**subject_json(tally, figures, plot=True),
                "deviations": [d.to_json() | {"with_count": d.with_count(self.settings.insurance_index)}
                               for d in tally.decided if not d.matched],
                "not_checked": unchecked, "settings": self.settings.to_json()}


def subject_order(tally: Tally, figures: Figures) -> tuple[int, float, int, str]:
    """Where a subject comes in the list: flagged for more reasons, more suspicious, more hands first."""
    return -len(figures.reasons), -round(figures.suspicion, 6), -figures.hands, tally.subject


def _before(ts: str, cutoff: datetime.datetime) -> bool:
    """Whether the pit ``ts`` is before ``cutoff`` (an unreadable one is not)."""
    try:
        return datetime.datetime.fromisoformat(ts.replace("Z", "+00:00")) < cutoff
    except ValueError:
        return False


def _json(value: object) -> JsonValue:
    """``value``, made of JSON's values (tuples as lists), as a JSON value (TypeError otherwise)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _json(item) for key, item in value.items()}
    raise TypeError(f"not a JSON value: {value!r}")


def _true(count: ShoeCount) -> float | None:
    now = count.now()
    return None if now is None else now.true


class SeatJson(TypedDict):
    """A seat a subject sat at."""

    table: str
    seat: int


class SubjectJson(TypedDict):
    """A subject as the pages and reports give it (:func:`subject_json`)."""

    subject: str
    label: str
    player: str | None
    ratings: list[int]
    seats: list[SeatJson]
    flagged: bool
    figures: FiguresJson


class SubjectPage(SubjectJson):
    """A subject's own page (:meth:`Protection.subject`): its figures with the plot, its decisions
    that deviated, why a table's decisions are not checked, and the settings."""

    deviations: list[JsonObject]
    not_checked: list[str]
    settings: JsonObject


def subject_json(tally: Tally, figures: Figures, plot: bool = False) -> SubjectJson:
    """A subject as the pages and reports give it."""
    return {"subject": tally.subject, "label": tally.label, "player": tally.player,
            "ratings": sorted(tally.ratings),
            "seats": [{"table": t, "seat": s} for t, s in sorted(tally.seats)],
            "flagged": bool(figures.reasons), "figures": figures.to_json(plot)}


def alert_data(tally: Tally, figures: Figures, reasons: list[str], seat: int | None,
               settings: Settings) -> JsonObject:
    """The alert's fields: the evidence, in figures and in words."""
    who = f"player {tally.player}" if tally.player else tally.label
    words = "; ".join(REASON_WORDS[r] for r in reasons)
    evidence = figures.to_json()
    message = (f"{who}: {words} ({figures.hands} hands, bet/count correlation {figures.correlation:.2f}, "
               f"spread {figures.spread or '-'}, {figures.high_hands} hands played and "
               f"{figures.high_entries} of {figures.entries} entries at +{settings.wong_count:g} or more "
               f"(the table: {figures.high_share:.0%} of hands), {figures.count_plays} count plays)")
    about: dict[str, JsonValue] = {"player": tally.player} if tally.player else {}
    about |= {"reasons": list[JsonValue](reasons), "subject": tally.subject, "count": settings.system.name,
              "evidence": _json(evidence)}
    return dataclasses.replace(alert(CODE, message, seat=seat), about=about).to_pit()[0]
