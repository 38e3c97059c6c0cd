"""The table's state, changed only by applying journaled pit events.

:meth:`TableState.apply` is the single place where table state changes. The
live table and a restart after a crash arrive at a state by applying the same
records in the same order, so a restart resumes exactly. A record is read back
into its typed event by the one codec (:mod:`controller.events.codec`); the
live table hands over the event it encoded instead.

A game call (starting a hand, dealing a card, taking an action) is recorded as
the ``input`` in the private part of the first pit event it caused; the events
it caused follow it in the same journal step, written with one fsync. Applying
that first record runs the same pure game call again (or takes the live table's
result of it), so the hand is rebuilt from the journal without being stored;
the records after it only update what the table itself keeps (results, the
session's parts, the shoe's count). A step cut short by a crash is
dropped whole when the journal is opened (:class:`controller.journal.log.Journal`):
none of it was published.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from controller.events import floor
from controller.events import table as events
from controller.events.alerts import CARD_IMPLAUSIBLE, SHOE_RESYNC
from controller.events.codec import decode, from_json, integer, optional, record_json, text
from controller.events.envelope import parse_json
from controller.events.hand import Alerted, Dealt, Settled, WagerResult
from controller.events.picture import TableAlert
from controller.events.registry import Event
from controller.events.tray import TrayCounted, TrayCredited, TrayFilled, TrayTransfer
from controller.games.interface import Bets, Game, Hand, Limits, ProgressivePaid, Session
from controller.games.session.part import takes
from controller.journal.lines import Record
from controller.table.books import APPLIED as BOOKS_EVENTS
from controller.table.books import BooksState
from controller.table.saved import Saved, SavedFloor, SavedShoe
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject, JsonValue

STEP_KEYS = ("input", "more")
"""Keys of a journal record's private part that belong to its step, not to its event."""


def journaled_event(body: Mapping[str, JsonValue], private: Mapping[str, JsonValue]) -> Event | None:
    """The typed event a journal record holds (its decoded ``body`` and its ``private`` part), or
    None for a type no module registers."""
    own = {key: value for key, value in private.items() if key not in STEP_KEYS}
    data = body["data"]
    if not isinstance(data, dict):
        raise ValueError(f"an event whose data is no object: {data!r}")
    return decode(text(body["type"]), data, own)

ENDS: dict[type[Event], tuple[str, Callable[[TableAlert, Event], bool]]] = {
    events.DeviceOnline: ("device_offline",
                          lambda alert, event: isinstance(event, events.DeviceOnline)
                          and alert.about.get("device") == event.device),
    ProgressivePaid: ("progressive_hit",
                      lambda alert, event: isinstance(event, ProgressivePaid) and alert.seat == event.seat),
}
"""The events that end the condition of an alert that clears by itself (``clears: condition`` in
:mod:`controller.events.alerts`): the code they clear and which of its alerts (the board's, the
seat's). Each alert so cleared keeps the ``seq`` that cleared it (:attr:`TableAlert.cleared`)."""


def _body(body: bytes) -> JsonObject:
    """A journal record's body, decoded (ValueError for one that is no JSON object)."""
    decoded = parse_json(body)
    if not isinstance(decoded, dict):
        raise ValueError("a journal record whose body is no JSON object")
    return decoded


MakeGame = Callable[[Limits], Game[Hand]]
"""The game bound to other limits (the same rules): how a ``table.limits`` event reaches the game."""

TRAY_CHECKED = "tray_fill_mismatch"
"""The alert that gives the verdict on a fill or credit the tray never matched (it clears the wait)."""

CARD_ALERTS_WITH_INDEX = frozenset({"card_out_of_turn", "card_unreadable"})
"""Alerts for a card that left the shoe without being dealt to a hand: they advance the shoe index."""


@dataclass
class DeviceState:
    """What the table knows of one board."""

    online: bool = False
    firmware: str | None = None
    serial: str | None = None
    reason: str | None = "not connected yet"


@dataclass
class ShoeState:
    """The loaded shoe: its id and size, the last card index seen, and the cards seen so far.

    For the plausibility checks (:mod:`controller.table.shoe_checks`): ``read`` is the card read at each
    index (None: unreadable), ``gaps`` the ``(first, last)`` index ranges a ``card_gap`` declared missing,
    ``refused`` the ``(index, reason)`` of each ``card_implausible`` raised, and ``resync`` whether a
    supervisor's ``shoe_resync`` lets the next card come at any index ahead.
    """

    shoe_id: int | None = None
    decks: int = 0
    last_index: int = 0
    seen: Counter[str] = field(default_factory=Counter)
    cut_card_out: bool = False
    read: dict[int, str | None] = field(default_factory=dict)
    gaps: list[tuple[int, int]] = field(default_factory=list)
    refused: set[tuple[int, str]] = field(default_factory=set)
    resync: bool = False


@dataclass
class TrayState:
    """The chip tray: its ``amount`` as last counted (None before its first reading), the amount it
    held when the hand in play started (``at_start``), the reading a fill or credit waits for
    (``expected``; None when none waits), and its chips by denomination as last counted (``chips``:
    value in cents -> count; None before a reading that gave them)."""

    amount: int | None = None
    at_start: int | None = None
    expected: int | None = None
    chips: dict[int, int] | None = None


@dataclass
class FloorState:
    """What the pit set at the table: whether it is ``closed``, its ``limits`` (None: as configured),
    and the ``message`` shown to the dealer until acknowledged."""

    closed: bool = False
    limits: Limits | None = None
    message: str | None = None


@dataclass
class TableState:
    """Everything the table knows, rebuilt from the journal after a restart.

    ``game`` is the game bound to its rules; ``hand`` its immutable hand state
    while a hand is in play; ``session`` what outlives a hand, made of the
    game's ``session_parts``. ``phase`` is the table's phase, the one the state
    machine reads and moves (:meth:`move`): ``in_hand`` from ``hand.started``,
    ``settled`` once the machine sees the hand's results, ``betting`` again from
    ``hand.ended`` or ``hand.voided``. ``tray`` is the chip tray's, ``floor`` what the pit set,
    ``books`` the dealer signed in and the shift's slips (:mod:`controller.table.books`);
    ``remake`` binds the game to new limits when a ``table.limits`` event is applied (None: the
    table's limits cannot change).
    """

    game: Game[Hand]
    seq: int = 0
    hand_no: int = 0
    phase: str = "betting"
    hand: Hand | None = None
    bets: dict[tuple[int, str], int] = field(default_factory=dict)
    results: tuple[WagerResult, ...] | None = None
    session: Session = field(default_factory=Session)
    shoe: ShoeState = field(default_factory=ShoeState)
    devices: dict[str, DeviceState] = field(default_factory=dict)
    alerts: deque[TableAlert] = field(default_factory=lambda: deque(maxlen=20))
    tray: TrayState = field(default_factory=TrayState)
    floor: FloorState = field(default_factory=FloorState)
    books: BooksState = field(default_factory=BooksState)
    remake: MakeGame | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.session.parts:
            self.session = Session.of(*(part() for part in self.game.session_parts))

    def checkpoint(self) -> dict[str, object]:
        """The state as JSON-able data, taken between hands (see :mod:`controller.journal.checkpoint`
        and :mod:`controller.table.saved`); ``books`` only once the table's books hold anything, and
        ``tray_chips`` (the tray's chips by denomination, ``[[value, count], ...]``) only once a
        reading gave them, so a checkpoint without them reads as it always did."""
        if self.in_hand:
            raise ValueError("a checkpoint is taken only between hands")
        shoe, limits = self.shoe, self.floor.limits
        return dict(record_json(Saved(
            self.seq, self.hand_no,
            tuple((seat, spot, amount) for (seat, spot), amount in sorted(self.bets.items())),
            SavedShoe(shoe.shoe_id, shoe.decks, shoe.last_index, dict(shoe.seen), shoe.cut_card_out,
                      tuple(sorted(shoe.read.items())), tuple(shoe.gaps), tuple(sorted(shoe.refused)),
                      shoe.resync),
            {name: (d.online, d.firmware, d.serial, d.reason) for name, d in self.devices.items()},
            tuple(self.alerts), self.session.to_json(), (self.tray.amount, self.tray.expected),
            SavedFloor(self.floor.closed, self.floor.message,
                       None if limits is None else (limits.min_bet, limits.max_bet)),
            None if self.books == BooksState() else self.books,
            None if self.tray.chips is None else tuple(sorted(self.tray.chips.items())))))

    @classmethod
    def from_checkpoint(cls, game: Game[Hand], data: Mapping[str, object],
                        remake: MakeGame | None = None) -> TableState:
        """The state that :meth:`checkpoint` took (``game`` bound to the limits it holds, by
        ``remake``, when the pit had set them)."""
        saved = from_json(Saved, data)
        limits = Limits(*saved.floor.limits) if saved.floor.limits else None
        if limits is not None and remake is not None:
            game = remake(limits)
        state = cls(game=game, seq=saved.seq, hand_no=saved.hand_no, remake=remake)
        amount, expected = saved.tray
        chips = None if saved.tray_chips is None else dict(saved.tray_chips)
        state.tray = TrayState(amount, None, expected, chips)     # between hands: no hand's start to keep
        state.floor = FloorState(saved.floor.closed, limits, saved.floor.message)
        state.books = saved.books if saved.books is not None else BooksState()
        state.bets = {(seat, spot): amount for seat, spot, amount in saved.bets}
        shoe = saved.shoe
        state.shoe = ShoeState(shoe.shoe_id, shoe.decks, shoe.last_index, Counter(shoe.seen),
                               shoe.cut_card_out, dict(shoe.read), list(shoe.gaps), set(shoe.refused),
                               shoe.resync)
        state.devices = {name: DeviceState(*fields) for name, fields in saved.devices.items()}
        state.alerts.extend(saved.alerts)
        state.session = Session.from_json(saved.session)
        return state

    @property
    def in_hand(self) -> bool:
        """Whether a hand is in play (from its ``hand.started`` to its ``hand.ended`` or ``hand.voided``)."""
        return self.phase != "betting"

    @property
    def settled(self) -> bool:
        """Whether the hand in play is settled (the machine saw its results)."""
        return self.phase == "settled"

    def move(self, phase: str) -> None:
        """The state machine moves to ``phase``. It may only settle a hand that has its results;
        any other move must be the phase the journaled events already set (a step is applied
        before the machine moves), else the machine and the journal disagree: RuntimeError."""
        if phase == "settled" and self.phase == "in_hand" and self.results is not None:
            self.phase = phase
        elif phase != self.phase:
            raise RuntimeError(f"the table's machine moves to {phase!r} but its journaled state is "
                               f"{self.phase!r}")

    def layout(self) -> Bets:
        """The published wagers by seat and spot (what a hand starts with)."""
        by_seat: dict[int, dict[str, int]] = {}
        for (seat, spot), amount in sorted(self.bets.items()):
            by_seat.setdefault(seat, {})[spot] = amount
        return by_seat

    def apply(self, record: Record, hand: Hand | None = None, body: Mapping[str, JsonValue] | None = None,
              event: Event | None = None) -> None:
        """Apply one journaled event: the only way table state changes.

        ``hand`` is the live table's result of the game call the record's
        ``input`` names; without it (replaying the journal) the call is made again.
        ``body`` is the record's body already decoded and ``event`` the record it
        encodes, if the caller has them.
        """
        if body is None:
            body = _body(record.body)
        private = record.private
        self.seq = record.seq
        call = private.get("input")
        if call is not None:
            self.hand = hand if hand is not None else self._call(call)
        if event is None:
            event = journaled_event(body, private)
            if event is None:
                return
        handler = _APPLY.get(type(event))
        if handler is not None:
            handler(self, event, optional(integer, body.get("hand")))
        elif isinstance(event, BOOKS_EVENTS):
            self.books.apply(event)
        if takes(event):
            self.session = self.session.apply(event)
        ends = ENDS.get(type(event))
        if ends is not None:
            self._clear(ends[0], lambda alert: ends[1](alert, event))

    def _clear(self, code: str, concerns: Callable[[TableAlert], bool]) -> None:
        """Every alert of ``code`` still on that ``concerns`` the event just applied is cleared by it
        (its ``cleared``, this event's seq): that occurrence is over, whatever comes after."""
        for position, alert in enumerate(self.alerts):
            if alert.code == code and alert.cleared is None and concerns(alert):
                self.alerts[position] = replace(alert, cleared=self.seq)

    def _call(self, call: JsonValue) -> Hand:
        """Make the game call that a record's ``input`` names, again."""
        if not isinstance(call, dict):
            raise ValueError(f"a game call that is no object: {call!r}")
        if call["call"] == "start":
            started: Hand = self.game.start(self.layout(), self.session)[0]
            return started
        assert self.hand is not None, f"{call['call']} with no hand in play"
        if call["call"] == "deal":
            dealt, _ = self.hand.deal(Card.parse(text(call["card"])), integer(call["index"]))
            return dealt
        acted, _ = self.hand.act(text(call["action"]), optional(integer, call.get("amount")))
        return acted

    # -- one method per event type that changes what the table keeps ------------------------------

    def _device_online(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, events.DeviceOnline)
        self.devices[event.device] = DeviceState(True, event.firmware, event.serial, None)

    def _device_offline(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, events.DeviceOffline)
        device = self.devices[event.device]
        self.devices[event.device] = DeviceState(False, device.firmware, device.serial, event.reason)

    def _shoe_loaded(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, events.ShoeLoaded)
        self.shoe = ShoeState(shoe_id=event.shoe_id, decks=event.decks)

    def _cut_card(self, event: Event, hand_no: int | None) -> None:
        self.shoe.cut_card_out = True

    def _bet_placed(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, events.BetPlaced)
        key = (event.seat, event.spot)
        if event.amount:
            self.bets[key] = event.amount
        else:
            self.bets.pop(key, None)

    def _hand_started(self, event: Event, hand_no: int | None) -> None:
        assert hand_no is not None, "hand.started without its hand's number"
        self.hand_no = hand_no
        self.phase = "in_hand"
        self.results = None
        self.tray.at_start = self.tray.amount

    def _card_dealt(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, Dealt)
        self._count_card(event.index, event.card)

    def _hand_settled(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, Settled)
        self.results = event.results

    def _hand_closed(self, event: Event, hand_no: int | None) -> None:
        if self.hand is not None:                                 # its rake is in the drop box
            self.books.hand_ended(sum(move.amount or 0 for move in self.hand.view().moves
                                      if move.kind == "rake"))
        self.phase = "betting"
        self.hand = None
        self.results = None

    def _tray_counted(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, TrayCounted)
        self.tray.amount = event.amount
        self.tray.chips = None if event.chips is None else dict(event.chips)
        if event.amount == self.tray.expected:
            self.tray.expected = None          # the fill or credit is in the tray

    def _tray_transfer(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, TrayTransfer)
        self.tray.expected = event.expected

    def _table_closed(self, event: Event, hand_no: int | None) -> None:
        self.floor.closed = isinstance(event, floor.TableClosed)

    def _limits_set(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, floor.LimitsSet)
        self.floor.limits = Limits(event.min_bet, event.max_bet)
        if self.remake is not None:
            self.game = self.remake(self.floor.limits)

    def _dealer_message(self, event: Event, hand_no: int | None) -> None:
        self.floor.message = event.text if isinstance(event, floor.DealerMessage) else None

    def _alert(self, event: Event, hand_no: int | None) -> None:
        assert isinstance(event, Alerted)
        about, code = event.about, event.code
        self.alerts.append(TableAlert(self.seq, hand_no, code, event.severity, event.message,
                                      event.seat, about))
        if code == TRAY_CHECKED:
            self.tray.expected = None
        elif code in CARD_ALERTS_WITH_INDEX and "index" in about:
            card = Card.parse(text(event.hidden["card"])) if "card" in event.hidden else None
            self._count_card(integer(about["index"]), card)
        elif code == "card_gap":
            self.shoe.gaps.append((integer(about["index"]), integer(about["last_index"])))
        elif code == CARD_IMPLAUSIBLE:
            self.shoe.refused.add((integer(about["index"]), text(about["reason"])))
        elif code == SHOE_RESYNC:
            self.shoe.resync = True

    def _count_card(self, index: int, card: Card | None) -> None:
        self.shoe.last_index = max(self.shoe.last_index, index)
        self.shoe.read[index] = None if card is None else str(card)
        self.shoe.resync = False
        if card is not None:
            self.shoe.seen[str(card)] += 1


_APPLY: dict[type[Event], Callable[[TableState, Event, int | None], None]] = {
    events.DeviceOnline: TableState._device_online,
    events.DeviceOffline: TableState._device_offline,
    events.ShoeLoaded: TableState._shoe_loaded,
    events.CutCardOut: TableState._cut_card,
    events.BetPlaced: TableState._bet_placed,
    events.HandStarted: TableState._hand_started,
    Dealt: TableState._card_dealt,
    Settled: TableState._hand_settled,
    events.HandEnded: TableState._hand_closed,
    events.HandVoided: TableState._hand_closed,
    Alerted: TableState._alert,
    TrayCounted: TableState._tray_counted,
    TrayFilled: TableState._tray_transfer,
    TrayCredited: TableState._tray_transfer,
    floor.TableClosed: TableState._table_closed,
    floor.TableReopened: TableState._table_closed,
    floor.LimitsSet: TableState._limits_set,
    floor.DealerMessage: TableState._dealer_message,
    floor.MessageAcknowledged: TableState._dealer_message,
}
