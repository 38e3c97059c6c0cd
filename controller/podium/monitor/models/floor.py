"""The floor as the pit boss sees it: one model per table, from the table's pictures and its events.

A :class:`TableModel` draws the table's tile from its last picture, read as
the records a tile needs (:class:`~controller.podium.monitor.models.tile_view.TileView`)
and its page from the whole picture
(:attr:`TablePicture.picture <controller.follow.picture.TablePicture.picture>`,
a :class:`~controller.events.picture.Picture`). The picture is the snapshot's
state at the start and after a gap was repaired, then each ``table.view`` the
table publishes after every change (pit-events.md, "The table's picture"). Its page
gets the picture's JSON but the keys in :data:`SKIPPED` (``alerts``, which the
:class:`AlertBook` keeps, and what the table knows live). It knows no game and
works nothing out from the events: it never asks the table for anything in the
normal flow. Between an event and its picture (published right after it)
:attr:`TableModel.stale` is True.

From the events (each a :class:`~controller.follow.records.FollowedEvent`),
the model keeps what no picture holds, from the events before the snapshot
too: the last hands step by step, the last hand's result (and who banked it),
the rake due on the pots, the table's limits (from ``table.opened``), the
tournament's places and winner. Each event is only kept (its body, as
published); its registered record is read, and the words of the logs and the
views worked out (:mod:`~controller.podium.monitor.models.event_words`), when a page
asks for them.

:class:`Floor` holds every table's model, the :class:`AlertBook` and the tables' books
(:class:`~controller.podium.ratings.books.Books`: the dealer signed in at each
table, each dealer's figures, each table's counts); it is the followers'
listener, and tells ``on_change`` which table changed. What it gives the pages
is JSON (:data:`~firmware_bridge.kernel.json.JsonObject`), the same as before the
records.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping

from controller.events.codec import from_json, record_json
from controller.events.hand import Alerted, PotsChanged
from controller.events.registry import Event
from controller.events.table import HandStarted, TableOpened
from controller.follow.aio import Follower
from controller.follow.core import Message
from controller.follow.picture import TablePicture
from controller.follow.records import FollowedEvent
from controller.games.session.tournament import PlayerEliminated, TournamentEnded
from controller.podium.monitor.models.alerts import Alert, AlertBook
from controller.podium.monitor.models.event_words import (
    NOT_UNDERSTOOD,
    SETTLING,
    hand_log,
    money_list,
    settled_words,
    step,
)
from controller.podium.monitor.models.rated import NO_PIT, Rated
from controller.podium.monitor.models.tile_view import TileView
from controller.podium.protection.watch import TYPES as PROTECTION_TYPES
from controller.podium.protection.watch import Protection
from controller.podium.ratings.books import BOOKS_TYPES, Books
from firmware_bridge.kernel.json import JsonObject, JsonValue
from firmware_bridge.kernel.money import dollars

log = logging.getLogger(__name__)

HANDS_KEPT = 10
"""Hands kept step by step per table."""

TABLE_LOG = 30
"""Events outside any hand (boards, shoe) kept per table."""

REMEMBERED = frozenset({"hand.started", "pot", "hand.settled", "hand.voided", "table.opened",
                        "player.eliminated", "tournament.ended"})
"""The events whose record the model reads (for what no picture holds); the others are only logged."""

SKIPPED = ("live_buttons", "alerts", "instruction", "notice", "actions", "commands", "live",
           "device_status", "chips", "floor_call", "checks", "stack_changes", "moves", "committed",
           "jackpots")
"""Keys of the picture's state the model does not show as the table's state."""

UNHEARD = ("table", "game", "phase", "table_phase", "hand", "next_hand", "seats", "dealer", "pots",
           "results", "devices", "shoe", "session", "meters")
"""The keys of the state a table's page shows before the table is heard from."""


def empty_state(name: str) -> JsonObject:
    """The picture of a table not heard yet, with every key a picture has (its game, phase, hand
    and deck count unknown: None)."""
    return {
        "table": name, "game": None, "phase": None, "table_phase": None, "hand": None, "next_hand": None,
        "seats": [], "dealer": {"cards": [], "total": None, "seat": None}, "pots": [], "results": None,
        "devices": {},
        "shoe": {"shoe_id": None, "decks": None, "cards_drawn": 0, "cut_card_out": False},
        "live_buttons": [], "alerts": [],
        "session": {"button": None, "level": 0, "blinds": [], "level_ends_at": None},
        "meters": {}, "limits": {}, "closed": False, "message": None, "tray": None,
        "books": {"dealer": None, "shift_open": False, "unsigned": {}, "drop_due": False},
        "device_status": {}, "instruction": "", "notice": None, "actions": [], "commands": [], "live": {},
        "chips": [], "floor_call": None, "checks": [], "stack_changes": [], "moves": [], "committed": {},
        "jackpots": [],
    }


class TableModel:
    """One table as the floor shows it: its last picture, and what no picture holds (the last hands
    step by step, the last result, the rake due, the tournament's places, the link)."""

    def __init__(self, name: str, pit: str | None = None) -> None:
        self.name = name
        self.pit = pit
        """The pit the table stands in (the floor file's ``pit``; None: in none)."""
        self.link = "connecting"
        self.reason = ""
        self.epoch = ""
        self.seq = 0
        """The seq of the last event (the picture may still be of an earlier one: :attr:`stale`)."""
        self.heard = 0.0
        """``time.time()`` of the last event (0: none yet)."""
        self.last_ts: str | None = None
        self.limits: Mapping[str, int] | None = None
        self.picture = TablePicture()
        self._shown: tuple[int, TileView | None] = (-1, None)
        """The picture the views read, and the picture's version it is of (-1: none yet, or let go)."""
        self._understood = False
        """That picture was read from the picture of its version (not the last one kept)."""
        self._rake: tuple[int | None, int | None] = (None, None)
        """The hand of the last ``pot`` and the rake it said was due."""
        self.places: dict[int, int] = {}
        """Tournament places of the seats eliminated (``player.eliminated``)."""
        self.winner: int | None = None
        self._settled: tuple[FollowedEvent | None, int | None] = (None, None)
        """The last ``hand.settled`` or ``hand.voided`` and the player-dealer's seat then."""
        self._result: tuple[FollowedEvent | None, JsonObject | None] = (None, None)
        """The event :attr:`last_result` was last worked out from, and what it gave."""
        self._hands: deque[tuple[int | None, list[bytes]]] = deque(maxlen=HANDS_KEPT)
        """The last hands' events: ``(hand, [body, ...])``, newest first (kept as they came: a
        body is a quarter of its decoded message, and most are never shown)."""
        self._table_log: deque[bytes] = deque(maxlen=TABLE_LOG)
        self._dealt_by: tuple[int | None, int | None] = (None, None)
        """The last hand started and its player-dealer's seat (None: the house deals)."""

    # ------------------------------------------------------------------ building

    def load_snapshot(self, snapshot: Message, epoch: str) -> None:
        """Start afresh from a snapshot ``{"seq": S, "state": {...}}``: forget everything else."""
        self.epoch = epoch
        self._hands.clear()
        self._table_log.clear()
        self._settled = (None, None)
        self.places, self.winner = {}, None
        self._rake = self._dealt_by = (None, None)
        self._shown = (-1, None)
        self.picture.restart(snapshot)
        self.seq = self.picture.seq

    def refresh(self, snapshot: Message) -> None:
        """A newer snapshot of the same sequence (after a gap): the logs and the last result stay."""
        self.picture.snapshot(snapshot)
        self.seq = max(self.seq, self.picture.seq)

    def view(self, message: Message) -> None:
        """The table's picture (a ``table.view`` message)."""
        self.picture.view(message)

    @property
    def shown(self) -> TileView | None:
        """What the tiles read of the picture (None before any could be read): read when asked,
        once per picture, only the keys a tile shows (:mod:`~controller.podium.monitor.models.tile_view`).
        A picture that cannot be read leaves the last one that could."""
        version, shown = self._shown
        if version != self.picture.version:
            read: TileView | None = None
            state = self.picture.state
            if state is not None:
                try:
                    read = from_json(TileView, state)
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("%s: a picture that is not the table's picture: %s", self.name, exc)
            self._understood = read is not None
            if read is not None:
                shown = read
            self._shown = (self.picture.version, shown)
        return shown

    @property
    def state(self) -> JsonObject:
        """The picture as the table's page gets it: every key but those in :data:`SKIPPED` (before
        the table is heard from, those of :data:`UNHEARD`, its game and phase None)."""
        picture = self.picture.picture if self.shown is not None else None
        if picture is None:
            blank = empty_state(self.name)
            return {key: blank[key] for key in UNHEARD}
        return {key: value for key, value in record_json(picture).items() if key not in SKIPPED}

    def let_go(self) -> None:
        """Forget the picture read, once drawn, and the picture's decoded state
        (:meth:`TablePicture.let_go`): both are read again, the same, when next asked for. A
        picture that could not be read (the last one stays) is kept."""
        if self._shown[0] == self.picture.version and self._understood:
            self.picture.let_go()
            self._shown = (-1, None)

    @property
    def stale(self) -> bool:
        """An event came after the last picture: its picture is on the way."""
        return self.picture.stale

    def apply(self, event: FollowedEvent, live: bool) -> None:
        """One event: into the hands log always (its body); when ``live`` (after the snapshot) it
        also moves the stream on, and its picture follows. Only the events in :data:`REMEMBERED`
        are read further (their record)."""
        self._log(event.hand, event.body)
        if live:
            self.seq = event.seq
            self.last_ts = event.ts
            self.heard = time.time()
            self.picture.event({"seq": event.seq})
        if event.type not in REMEMBERED:
            return
        if event.type in SETTLING:        # the last result, shown even if not understood
            hand, dealer = self._dealt_by
            self._settled = (event, dealer if hand == event.hand else None)
        record = event.event
        try:
            self._remember(event, record)
        except NOT_UNDERSTOOD as exc:
            log.warning("table %s: event %s (seq %s) not understood: %r", self.name, event.type,
                        event.seq, exc)

    def _remember(self, event: FollowedEvent, record: Event | None) -> None:
        """What no picture holds, from the events before the snapshot too."""
        if isinstance(record, HandStarted):
            self._dealt_by = (event.hand, record.dealer_seat)
        elif isinstance(record, PotsChanged):
            self._rake = (event.hand, record.rake)
        elif isinstance(record, TableOpened):
            self.limits = record.limits
        elif isinstance(record, PlayerEliminated):
            self.places[record.seat] = record.place
        elif isinstance(record, TournamentEnded):
            self.winner = record.seat

    def _log(self, hand: int | None, body: bytes) -> None:
        if hand is None:
            self._table_log.appendleft(body)
            return
        if not self._hands or self._hands[0][0] != hand:
            logged = next((h for h in self._hands if h[0] == hand), None)
            if logged is None:
                self._hands.appendleft((hand, [body]))
                return
            logged[1].append(body)
            return
        self._hands[0][1].append(body)

    @property
    def hands(self) -> list[JsonValue]:
        """The last hands step by step, newest first (see
        :func:`~controller.podium.monitor.models.event_words.hand_log`)."""
        return [hand_log(hand, bodies) for hand, bodies in self._hands]

    @property
    def table_log(self) -> list[JsonValue]:
        """The last events outside any hand, newest first, as steps (see
        :func:`~controller.podium.monitor.models.event_words.step`)."""
        return [step(body) for body in self._table_log]

    @property
    def last_result(self) -> JsonObject | None:
        """The last hand's result: each wager's, and what the house (or the player-dealer, who
        banks the hand instead) won: the opposite of what the players won
        (:func:`~controller.podium.monitor.models.event_words.settled_words`). Worked out once."""
        event, bank = self._settled
        if event is None:
            return None
        if self._result[0] is not event:
            self._result = (event, settled_words(event, bank))
        return self._result[1]

    # ------------------------------------------------------------------ views

    def seat_wagers(self) -> dict[int, int]:
        """Cents in play per seat with a wager: the bets on its spots (during a hand, as they were
        when bets closed: no ``bet.placed`` comes in a hand), or during a hand what rides on its
        hands now if that is more (a raise, a split, chips put into the pots)."""
        picture = self.shown
        amounts: dict[int, int] = {}
        if picture is None:
            return amounts
        in_hand = picture.hand is not None
        for seat in picture.seats:
            amount = sum(seat.bets.values()) if seat.bets else 0
            if in_hand and seat.hands:
                amount = max(amount, sum(h.wager or 0 for h in seat.hands))
            if amount:
                amounts[seat.seat] = amount
        return amounts

    def closed_wagers(self) -> list[JsonValue]:
        """The wagers of the hand in play as ``bets.closed`` listed them (none between hands)."""
        picture = self.shown
        if picture is None or picture.hand is None:
            return []
        return [{"seat": seat.seat, "spot": spot, "amount": amount}
                for seat in picture.seats for spot, amount in sorted(seat.bets.items())]

    def wagers_in_play(self) -> int:
        """Cents on the table: the sum of :meth:`seat_wagers`."""
        return sum(self.seat_wagers().values())

    def occupied(self, amounts: dict[int, int] | None = None) -> list[JsonValue]:
        """Seats with a wager or a stack: how much is in play (``amounts``, else :meth:`seat_wagers`),
        the stack, and who deals."""
        amounts = self.seat_wagers() if amounts is None else amounts
        picture = self.shown
        if picture is None:
            return []
        dealer = picture.dealer.seat
        shown: list[JsonValue] = []
        for seat in picture.seats:
            number = seat.seat
            if number in amounts or seat.stack is not None or number == dealer:
                shown.append({"seat": number, "wager": amounts.get(number, 0), "stack": seat.stack,
                              "dealer": number == dealer, "in_turn": bool(seat.in_turn)})
        return shown

    def tournament(self) -> JsonObject | None:
        """The tournament's level, blinds and places, or None outside a tournament."""
        picture = self.shown
        session = None if picture is None else picture.session
        level = 0 if session is None else session.level
        if not level and not self.places and self.winner is None:
            return None
        blinds = [] if session is None else list(session.blinds)
        return {"level": level, "blinds": list(blinds), "blinds_text": money_list(blinds),
                "ends_at": None if session is None else session.level_ends_at,
                "places": [{"seat": seat, "place": place}
                           for seat, place in sorted(self.places.items(), key=lambda item: item[1])],
                "winner": self.winner}

    def tile(self, alerts: list[JsonValue]) -> JsonObject:
        """What the floor view shows of this table (``alerts``: its open alerts, as JSON)."""
        picture = self.shown
        amounts = self.seat_wagers()
        wagers = sum(amounts.values())
        return {
            "table": self.name, "pit": self.pit, "closed": bool(picture is not None and picture.closed),
            "game": None if picture is None else picture.game,
            "hand": None if picture is None else picture.hand,
            "phase": None if picture is None else picture.phase,
            "wagers": wagers, "wagers_text": dollars(wagers),
            "seats": self.occupied(amounts),
            "seat_count": 0 if picture is None else len(picture.seats),
            "dealer_seat": None if picture is None else picture.dealer.seat,
            "button": None if picture is None else picture.session.button,
            "pots": 0 if picture is None else sum(p.amount for p in picture.pots),
            "tournament": self.tournament(),
            "link": {"state": self.link, "reason": self.reason},
            "offline": [] if picture is None else [
                name for name in sorted(picture.devices) if not picture.devices[name].online],
            "seq": self.seq, "epoch": self.epoch, "ts": self.last_ts, "stale": self.stale,
            "last_result": self.last_result, "meters": self.meters(),
            "alerts": alerts,
        }

    def rake(self) -> int | None:
        """The rake due on the pots of the hand in play, as its last ``pot`` said (None without)."""
        hand, rake = self._rake
        picture = self.shown
        return rake if hand is not None and picture is not None and hand == picture.hand else None

    def meters(self) -> JsonObject:
        """The table's meters by name (a progressive's), without the hand count."""
        picture = self.shown
        return {} if picture is None else {k: v for k, v in picture.meters.items() if k != "hands"}

    def detail(self, alerts: list[JsonValue], acknowledged: list[Alert]) -> JsonObject:
        """What the table's own page shows."""
        picture = self.picture.picture
        limits = picture.limits if picture is not None and picture.limits else self.limits
        return {
            **self.tile(alerts), "limits": None if limits is None else dict(limits), "state": self.state,
            "wagers_list": self.closed_wagers(), "rake": self.rake(),
            "hands": self.hands,
            "table_log": self.table_log,
            "acknowledged": [a.to_json() for a in acknowledged],
        }


Keep = Callable[[str, str, Mapping[str, object], bytes, bool], None]
"""What the floor tells of every event it read: the table, its epoch, the event, its body as published,
and whether the table's books changed (:class:`~controller.podium.monitor.models.kept.Keeper`)."""


class Floor:
    """Every table's model and the alerts; the followers' listener."""

    def __init__(self, names: Iterable[str], book: AlertBook,
                 pits: Mapping[str, str | None] | None = None) -> None:
        pits = pits or {}
        self.tables = {name: TableModel(name, pits.get(name)) for name in names}
        self.book = book
        self.on_change: Callable[[str], None] = lambda table: None
        """Called with a table's name after its picture or its alerts changed."""
        self.rated: Rated | None = None
        """The open ratings and shift figures (:meth:`rate`; None: the monitor keeps none)."""
        self.on_heard: Callable[[], None] = lambda: None
        """Called once, when every table has sent its first snapshot."""
        self._unheard = set(self.tables)
        self.protection: Protection | None = None
        """Game protection (:meth:`protect`; None: the monitor keeps none)."""
        self.books = Books()
        """The tables' books, from the events followed (those before each snapshot too)."""
        self.keep: Keep | None = None
        """Told of every event read (None: the monitor keeps nothing of its own: no ``--db``)."""

    def rate(self, rated: Rated) -> None:
        """Keep ratings and shift figures with ``rated``: fed every event, shown on tiles and details."""
        self.rated = rated
        rated.on_change = lambda table: self.on_change(table)

    def protect(self, protection: Protection) -> None:
        """Keep game protection with ``protection``: fed every event, its subjects rated with the
        ratings kept (:meth:`rate`) when there are, its alerts shown with the others."""
        self.protection = protection
        protection.who = self._rated_at

    def _rated_at(self, table: str, seat: int, ts: str) -> tuple[str, str] | None:
        """The player rated at ``table``'s ``seat`` at ``ts`` (id, rating id), None if none is."""
        if self.rated is None or table not in self.rated.ratings:
            return None
        for tally in self.rated.ratings[table].tallies.values():
            rating = tally.rating
            if rating.seat == seat and rating.covers(ts):
                return rating.player, str(rating.id)
        return None

    def snapshot(self, follower: Follower, snapshot: Message) -> None:
        """The table's picture to start from (at the start, or of a new sequence); its alerts."""
        model = self.tables[follower.name]
        model.load_snapshot(snapshot, follower.epoch)
        self._alerts(follower, model)
        self.on_change(follower.name)
        if self._unheard:
            self._unheard.discard(follower.name)
            if not self._unheard:
                self.on_heard()

    def refreshed(self, follower: Follower, snapshot: Message) -> None:
        """A newer picture of the same sequence (after a gap was repaired); its alerts."""
        model = self.tables[follower.name]
        model.refresh(snapshot)
        self._alerts(follower, model)
        self.on_change(follower.name)

    def _alerts(self, follower: Follower, model: TableModel) -> None:
        """The alerts the table keeps in its picture (those of before the snapshot too)."""
        picture = model.picture.picture
        for alert in () if picture is None else picture.alerts:
            data = alert.json_form()
            del data["seq"], data["hand"]
            self.book.add(follower.name, follower.epoch, alert.seq, alert.hand, None, data)

    def event(self, follower: Follower, message: Message, topic: bytes, body: bytes,
              live: bool) -> None:
        """The next event (``live``: after the snapshot), as the follower delivered it: read as a
        :class:`~controller.follow.records.FollowedEvent` (one without its envelope is left out, said),
        which the model, the alerts, the ratings, game protection and the books take."""
        try:
            event = FollowedEvent.of(message, topic, body)
        except (KeyError, ValueError) as exc:
            log.warning("table %s: an event without its envelope left out: %s", follower.name, exc)
            return
        self.tables[follower.name].apply(event, live)
        if self.rated is not None:
            self.rated.feed(follower.name, follower.epoch, event)
        if event.type == "alert" and isinstance(alerted := event.event, Alerted):
            self.book.add(follower.name, follower.epoch, event.seq, event.hand, event.ts,
                          alerted.to_pit()[0])
        if self.protection is not None and event.type in PROTECTION_TYPES:
            self._protect(follower, event)
        books = event.type in BOOKS_TYPES and self._keep_books(follower.name, follower.epoch, event)
        if self.keep is not None:
            self.keep(follower.name, follower.epoch, message, body, books)
        self.on_change(follower.name)

    def _keep_books(self, table: str, epoch: str, event: FollowedEvent) -> bool:
        """Feed the books one event (one that is not what the contract says is logged, left out);
        whether they changed."""
        try:
            return self.books.feed(table, event, epoch)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("table %s: event %s (seq %s) left out of the books: %r", table, event.type,
                        event.seq, exc)
            return False

    def books_of(self, name: str) -> JsonObject:
        """A table's books as its tile and page show them: the ``dealer`` signed in, each dealer's
        figures at the table (``dealers``, to the table's last event), and its last ``count`` (None
        before its first opener)."""
        count = self.books.last_count(name)
        now = self.tables[name].last_ts
        return {"dealer": self.books.current.get(name),
                "dealers": [f.to_json(now) for (_, table), f in sorted(self.books.dealers.items())
                            if table == name],
                "count": None if count is None else count.to_json()}

    def _protect(self, follower: Follower, event: FollowedEvent) -> None:
        """Feed game protection one event; show the alerts it raises as the table's own are shown
        (the alert registry, when it lands, is where ``advantage_play_suspected`` is declared)."""
        assert self.protection is not None
        for raised in self.protection.feed(follower.name, follower.epoch, event):
            self.book.add(raised.table, raised.epoch, raised.seq, raised.hand, raised.ts, raised.data)

    def picture(self, follower: Follower, message: Message) -> None:
        """The table's picture (a ``table.view``): read when its tile is drawn."""
        self.tables[follower.name].view(message)
        self.on_change(follower.name)

    def link(self, follower: Follower) -> None:
        model = self.tables[follower.name]
        model.link, model.reason = follower.link_state, follower.reason
        self.on_change(follower.name)

    def ack(self, key: str, who: str) -> Alert:
        """Acknowledge an alert (see :meth:`AlertBook.ack`) and tell who watches its table."""
        alert = self.book.ack(key, who)
        self.on_change(alert.table)
        return alert

    def tile(self, name: str) -> JsonObject:
        """What the floor page shows of table ``name``."""
        tile: JsonObject = {**self.tables[name].tile(self.book.open_json(name)), "books": self.books_of(name)}
        if self.rated is None:
            return {**tile, "shift": None, "rated": 0}
        rated = self.rated.tile(name)
        return {**tile, "shift": rated["shift"], "rated": rated["rated"]}

    def detail(self, name: str) -> JsonObject:
        """What the table's own page shows of table ``name``."""
        model = self.tables[name]
        detail: JsonObject = {**model.detail(self.book.open_json(name), self.book.acknowledged(name)),
                              "books": self.books_of(name)}
        if self.protection is not None:
            detail["count"] = self.protection.count_of(name)
        if self.rated is None:
            return {**detail, "shift": None, "rated": 0, "ratings": None}
        return {**detail, "rated": self.rated.tile(name)["rated"], "shift": self.rated.shift_json(name),
                "ratings": [*self.rated.open_ratings(name)]}

    def pits(self) -> list[JsonValue]:
        """The pits, in the order their first table was given, each ``{"pit", "tables"}`` (its tables'
        names); the tables in no pit last, as the pit ``None``. With ratings kept, each has its
        ``shift`` figures too (the sum of its tables').

        >>> Floor(["T1", "T2", "T3"], AlertBook(), {"T1": "Pit 2", "T3": "Pit 2"}).pits()
        [{'pit': 'Pit 2', 'tables': ['T1', 'T3']}, {'pit': None, 'tables': ['T2']}]
        """
        pits: dict[str | None, list[str]] = {}
        for model in self.tables.values():
            if model.pit is not None:
                pits.setdefault(model.pit, []).append(model.name)
        loose = [model.name for model in self.tables.values() if model.pit is None]
        shown: list[JsonObject] = [{"pit": pit, "tables": list(tables)} for pit, tables in pits.items()]
        shown += [{"pit": None, "tables": list(loose)}] if loose else []
        if self.rated is not None:     # the pit's shift: its tables' together
            figures = {p.pop("pit"): p for p in self.rated.pit_figures()}
            for pit in shown:
                pit["shift"] = figures.get(pit["pit"] or NO_PIT)
        return [*shown]

    def view(self) -> JsonObject:
        """The whole floor: every tile, in the order the tables were given, and the pits."""
        return {"tables": [self.tile(name) for name in self.tables], "pits": self.pits()}
