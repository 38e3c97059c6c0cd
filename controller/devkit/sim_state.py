"""The state of a simulated table, built from the events it makes up (``controller/devkit/pit_table.py``).

A simulated table has no game: the caller makes its events up. Its state is
what those events say (pit-events.md section 3), each read as the registered
record it is (:func:`controller.events.codec.decode_public`): the wagers on the
spots, each card where it was dealt and turned up, the table's own phase, the
results, stacks, the button, the tournament level, meters, pots, the boards and
the shoe, and what the pit set (``closed``, ``limits``, the dealer's
``message``); what only a game works out (totals, the game's phase) the caller
may write in (``game_view``, on the mutable :class:`SimSeat` and
:class:`SimHand`). :meth:`SimulatedState.picture` is the table's picture
(:class:`~controller.events.picture.Picture`), what a real table publishes with
nothing live in it (no instruction, actions, chips read or checks). A real
table's state is the daemon's (``controller/table/views.py``); this is only
for tables that pretend.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import controller.events.floor
import controller.events.hand
import controller.events.table
import controller.games.session.button
import controller.games.session.progressive
import controller.games.session.stacks
import controller.games.session.tournament  # noqa: F401 - with the above, registers the events read here
from controller.events.floor import DealerMessage, LimitsSet, TableClosed, TableReopened
from controller.events.hand import Alerted, DealtInPublic, Pot, PotsChanged, Revealed, Settled, WagerResult
from controller.events.picture import (
    BooksPicture,
    DealerPicture,
    DevicePicture,
    HandPicture,
    Picture,
    SeatPicture,
    SessionPicture,
    ShoePicture,
    TableAlert,
)
from controller.events.registry import Event
from controller.events.table import (
    BetPlaced,
    CutCardOut,
    DeviceOffline,
    DeviceOnline,
    HandEnded,
    HandStarted,
    HandVoided,
    ShoeLoaded,
    TableOpened,
)
from controller.games.session.button import ButtonMoved
from controller.games.session.progressive import MeterChanged
from controller.games.session.stacks import StackChanged
from controller.games.session.tournament import LevelStarted

SHOE_ALERTS = frozenset({"card_out_of_turn", "card_unreadable"})
"""Alerts for a card that left the shoe without being dealt: their ``index`` counts as drawn."""

SHOWN_ALERTS = 20
"""The alerts a picture holds (the last ones), as a real table's."""


@dataclass
class SimHand:
    """One hand of a seat (or the dealer's): its cards (None face down) and what a game writes in."""

    cards: list[str | None] = field(default_factory=list)
    total: str | None = None
    wager: int | None = None
    status: str | None = None


@dataclass
class SimSeat:
    """One seat: its bets by spot, its hands, and what a game writes in (``total``, ``in_turn``)."""

    seat: int
    bets: dict[str, int] = field(default_factory=dict)
    hands: list[SimHand] = field(default_factory=list)
    total: str | None = None
    in_turn: bool = False
    stack: int | None = None


class SimulatedState:
    """A simulated table's public state, event by event."""

    def __init__(self, name: str, game: str, seats: int) -> None:
        self.name = name
        self.game = game
        self.phase = "betting"
        """The game's phase (the caller's ``game_view`` may say it better)."""
        self.table_phase = "betting"
        self.hand: int | None = None
        self.next_hand = 1
        self.seats = [SimSeat(n) for n in range(1, seats + 1)]
        self.dealer = SimHand()
        self.dealer_seat: int | None = None
        self.pots: tuple[Pot, ...] = ()
        self.results: tuple[WagerResult, ...] | None = None
        self.devices: dict[str, DevicePicture] = {}
        self.shoe = ShoePicture(None, 0, 0, False)
        self.session = SessionPicture(None, 0, (), None)
        self.meters: dict[str, int] = {"hands": 0}
        self.limits: dict[str, int] = {}
        self.closed = False
        self.message: str | None = None
        self._indices: dict[int, tuple[SimHand, int]] = {}
        """Each card dealt this hand by its shoe index: the hand it went to and its place there."""

    def apply(self, record: Event, hand: int | None) -> None:
        """One event the table made up, as its record, of hand number ``hand`` (its envelope's)."""
        match record:
            case TableOpened():
                self._opened(record)
            case DeviceOnline():
                self.devices[record.device] = DevicePicture(True, record.firmware, record.serial, None)
            case DeviceOffline():
                self._offline(record)
            case ShoeLoaded():
                self.shoe = ShoePicture(record.shoe_id, record.decks, 0, False)
            case CutCardOut():
                self.shoe = replace(self.shoe, cut_card_out=True)
            case Alerted():
                self._alert(record)
            case BetPlaced():
                self._bet(record)
            case HandStarted():
                self._started(record, hand)
            case DealtInPublic():
                self._dealt(record)
            case Revealed():
                self._revealed(record)
            case PotsChanged():
                self.pots = record.pots
            case Settled():
                self._settled(record)
            case HandEnded() | HandVoided():
                self.hand, self.phase, self.table_phase = None, "betting", "betting"
                self._clear_hand()
            case MeterChanged():
                self.meters[record.name] = record.value
            case StackChanged():
                self._stack(record)
            case ButtonMoved():
                self.session = replace(self.session, button=record.seat)
            case LevelStarted():
                self.session = replace(self.session, level=record.level, blinds=record.blinds,
                                       level_ends_at=record.ends_at)
            case TableClosed() | TableReopened():
                self.closed = isinstance(record, TableClosed)
            case LimitsSet():
                self.limits = {"min_bet": record.min_bet, "max_bet": record.max_bet}
            case DealerMessage():
                self.message = record.text

    def picture(self, alerts: Sequence[TableAlert] = ()) -> Picture:
        """The table's picture now, with the last of ``alerts``."""
        seats = tuple(SeatPicture(
            seat.seat, dict(seat.bets), tuple(seat.hands[0].cards) if seat.hands else (), seat.total,
            tuple(HandPicture(tuple(h.cards), h.total, h.wager, h.status) for h in seat.hands),
            seat.in_turn, seat.stack) for seat in self.seats)
        return Picture(
            table=self.name, game=self.game, phase=self.phase, table_phase=self.table_phase,
            hand=self.hand, next_hand=self.next_hand, seats=seats,
            dealer=DealerPicture(tuple(self.dealer.cards), self.dealer.total, self.dealer_seat),
            pots=self.pots, results=self.results, devices=dict(self.devices), shoe=self.shoe,
            live_buttons=(), alerts=tuple(alerts[-SHOWN_ALERTS:]), session=self.session,
            meters=dict(self.meters), limits=dict(self.limits), closed=self.closed, message=self.message,
            tray=None, books=BooksPicture(None, False, {}, False),
            device_status={}, instruction="", notice=None, actions=(), commands=(), live={}, chips=(),
            floor_call=None, checks=(), stack_changes=(), moves=(), committed={}, jackpots=())

    def seat(self, number: int | None) -> SimSeat | None:
        """Seat ``number``, None if the table has none such."""
        return next((seat for seat in self.seats if seat.seat == number), None)

    def _opened(self, opened: TableOpened) -> None:
        self.game = opened.game
        self.limits = dict(opened.limits)
        seats = {s.seat: s for s in self.seats}
        self.seats = [seats.get(n) or SimSeat(n) for n in range(1, (opened.seats or len(self.seats)) + 1)]

    def _offline(self, offline: DeviceOffline) -> None:
        known = self.devices.get(offline.device)
        self.devices[offline.device] = DevicePicture(False, known.firmware if known else None,
                                                     known.serial if known else None, offline.reason)

    def _drawn(self, index: int) -> None:
        self.shoe = replace(self.shoe, cards_drawn=max(self.shoe.cards_drawn, index))

    def _alert(self, alert: Alerted) -> None:
        index = alert.about.get("index")
        if alert.code in SHOE_ALERTS and isinstance(index, int):
            self._drawn(index)

    def _bet(self, bet: BetPlaced) -> None:
        seat = self.seat(bet.seat)
        if seat is None:
            return
        if bet.amount:
            seat.bets[bet.spot] = bet.amount
        else:
            seat.bets.pop(bet.spot, None)

    def _clear_hand(self, dealer_seat: int | None = None) -> None:
        self.dealer, self.dealer_seat, self.pots, self.results = SimHand(), dealer_seat, (), None
        for seat in self.seats:
            seat.hands, seat.total, seat.in_turn = [], None, False
        self._indices.clear()

    def _started(self, started: HandStarted, hand: int | None) -> None:
        # The game's own phase is the game's to say (game_view): "in_hand" until it does.
        self.hand, self.table_phase, self.phase = hand, "in_hand", "in_hand"
        if hand is not None:
            self.next_hand = hand + 1
            self.meters["hands"] = hand
        self._clear_hand(started.dealer_seat)

    def _hand_of(self, to: str, number: int | None, index: int) -> SimHand | None:
        """The hand a ``card.dealt`` or ``card.revealed`` is about (made if new)."""
        if to == "dealer":
            return self.dealer
        seat = self.seat(number)
        if seat is None:
            return None
        while len(seat.hands) <= index:
            seat.hands.append(SimHand())
        return seat.hands[index]

    def _dealt(self, dealt: DealtInPublic) -> None:
        self._drawn(dealt.index)
        target = dealt.target
        held = self._hand_of(target.to, target.seat, target.hand_index)
        if held is None:
            return
        held.cards.append(str(dealt.card) if target.face_up and dealt.card is not None else None)
        self._indices[dealt.index] = (held, len(held.cards) - 1)

    def _revealed(self, revealed: Revealed) -> None:
        held = self._hand_of(revealed.to, revealed.seat, revealed.hand_index)
        if held is None:
            return
        cards = held.cards
        where = self._indices.get(revealed.index)
        position = where[1] if where is not None and where[0] is held else None
        if position is None or position >= len(cards) or cards[position] is not None:
            position = next((i for i, c in enumerate(cards) if c is None), None)
        if position is None:
            cards.append(str(revealed.card))
        else:
            cards[position] = str(revealed.card)

    def _settled(self, settled: Settled) -> None:
        self.phase, self.table_phase, self.results = "settled", "settled", settled.results
        for seat in self.seats:
            seat.in_turn = False

    def _stack(self, stack: StackChanged) -> None:
        seat = self.seat(stack.seat)
        if seat is not None:
            seat.stack = None if stack.reason == "cash_out" and not stack.amount else stack.amount

