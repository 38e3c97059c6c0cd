"""The table state machine: driver inputs in, pit events out. It names no game.

The machine is declared as a table (:data:`TRANSITIONS`) and run by
``transitions`` with ``auto_transitions=False`` and ``queued=True``. It keeps
only the table's phases::

    betting --deal--> in_hand --settle--> settled --next--> betting
                         \\______ void ______/--> betting

Inside ``in_hand`` the phases are the game's own (:attr:`Hand.phase`, declared
as data in :attr:`Game.phases`). A card from the shoe and every game action
(a button or control command named like the action) are internal transitions of
``in_hand``; the game decides what they mean (:meth:`Hand.decision`), the table
decides what happens around them: refusals, alerts, betting, hand numbers, past
posting against what the game says each spot should hold.

Every input that changes anything becomes one journal step: the pit events it
causes, typed records encoded by the one codec (:mod:`controller.events.codec`),
numbered, written with one fsync, applied to :class:`TableState`, then
published. The path goes one way; nothing is read back.

The phase is the table state's (:attr:`TableState.phase`): ``transitions`` reads
and writes it through the ``phase`` property, and a transition that changes it
journals its step first (``before``), so the machine only ever moves to the phase
the journaled state already holds; settling is the one move the machine makes
itself, once the hand has its results (:meth:`TableState.move` checks both).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from transitions import Machine

from controller.commands.registry import Command
from controller.commands.request_ids import PRIVATE_KEY as REQUEST_KEY
from controller.events import alerts as alert_registry
from controller.events import table as events
from controller.events.codec import encode
from controller.events.envelope import encode_event
from controller.events.floor import LimitsSet, MessageAcknowledged
from controller.events.hand import Alerted
from controller.events.registry import Event
from controller.events.tray import TrayCounted
from controller.games.interface import Decision, Game, GameEvent, Hand, Limits, Option, RuleError, Stacks
from controller.journal.log import Record
from controller.table import shoe_checks, tray
from controller.table.books import books_events
from controller.table.chip_checks import chip_alerts
from controller.table.pit_actions import pit_events
from controller.table.state import DeviceState, MakeGame, TableState
from controller.table.tray import TRAY
from drivers.inputs import (
    CardDrawn,
    CardUnreadable,
    CutCard,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DeviceStatus,
    DriverInput,
    ShoeLoaded,
    SpotWager,
)
from firmware_bridge.kernel.money import dollars
from firmware_bridge.kernel.repeat_log import RepeatLog

STATES = ["betting", "in_hand", "settled"]

TRANSITIONS: list[dict[str, Any]] = [
    {"trigger": "deal", "source": "betting", "dest": "in_hand", "conditions": "deal_allowed",
     "before": "start_hand"},
    {"trigger": "card", "source": "in_hand", "dest": None, "conditions": "card_wanted",
     "after": "deal_card"},
    {"trigger": "act", "source": "in_hand", "dest": None, "conditions": "action_allowed",
     "after": "take_action"},
    {"trigger": "settle", "source": "in_hand", "dest": "settled", "conditions": "hand_settled"},
    {"trigger": "next", "source": "settled", "dest": "betting", "before": "end_hand"},
    {"trigger": "void", "source": "in_hand", "dest": "betting", "before": "void_hand"},
]
"""The table's phases and what moves between them, in the order they are tried."""

TABLE_BUTTONS = ("deal", "next", "void")
"""Buttons the table itself answers; every other button names a game action."""

FLOOR_ACTIONS = ("call_floor", "acknowledge")
"""The dealer's actions towards the pit, open outside the machine's phases: ``call_floor`` at any
time (a ``floor_called`` alert), ``acknowledge`` while the pit's message is shown."""

FLOOR_CALL_WINDOW = 60.0
"""Seconds a floor call stays open: further calls in that time are counted on it, not raised again."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableSettings:
    """What the table needs of its configuration."""

    table_id: str
    game_name: str
    seats: int
    limits: Mapping[str, int]
    buttons: tuple[str, ...]
    boards: tuple[str, ...]
    """The boards the table runs, by name (``[devices]``): a deal waits until all are online."""
    chips: tuple[int, ...] = ()
    """The chip registry's denominations in cents, ascending (a screen pays in the fewest chips)."""
    payout_check: bool = True
    """Whether NEXT checks each settled spot's chips (``payout_mismatch``; ``[table] payout_check``)."""
    tray: bool = False
    """Whether an antenna is the chip tray (``[antennas] N = "tray"``: :mod:`controller.table.tray`)."""
    rules: Mapping[str, Any] | None = None
    """The game's ``[game]`` options in force as plain JSON, published in ``table.opened``
    (:func:`controller.games.catalog.rules_json`); None: none published."""
    floor_call_window: float = FLOOR_CALL_WINDOW
    """Seconds a floor call stays open (``[table] floor_call_window``)."""


@dataclass
class FloorCall:
    """The dealer's last floor call: the ``seq`` of its ``floor_called`` alert, when it was raised
    (``at``, monotonic seconds), and the ``calls`` counted on it, the first included."""

    seq: int
    at: float
    calls: int = 1


def waiting_words(boards: Sequence[str]) -> str:
    """Why the hand takes no decision while ``boards`` are offline, in a dealer's words.

    >>> waiting_words(["rfid"])
    'the rfid is offline: the hand waits until it is back'
    >>> waiting_words(["rfid", "shoe"])
    'the rfid and the shoe are offline: the hand waits until they are back'
    """
    names = " and the ".join(boards)
    if len(boards) == 1:
        return f"the {names} is offline: the hand waits until it is back"
    return f"the {names} are offline: the hand waits until they are back"


Clock = Callable[[], str]
"""Returns the timestamp of an event being emitted (pit format, UTC with milliseconds)."""


class Table:
    """One table: the machine, its state, and the path every event takes.

    ``write`` journals the records of one step durably (it returns only after
    fsync); ``publish`` sends ``(topic, body)`` to the pit. Every step is
    written, then applied to :attr:`state`, then published: durable before visible.
    """

    # Triggers that ``transitions`` adds to the model (declared for type checkers only).
    deal: Callable[[], bool]
    card: Callable[[CardDrawn], bool]
    act: Callable[[str, int | None], bool]
    settle: Callable[[], bool]
    next: Callable[[], bool]
    void: Callable[[], bool]
    may_deal: Callable[[], bool]
    may_card: Callable[[CardDrawn], bool]
    may_act: Callable[[str, int | None], bool]
    may_next: Callable[[], bool]
    may_void: Callable[[], bool]

    def __init__(
        self,
        settings: TableSettings,
        game: Game[Hand],
        *,
        clock: Clock,
        write: Callable[[Sequence[Record]], None],
        publish: Callable[[bytes, bytes], None] | None = None,
        epoch: int | None = None,
        remake: MakeGame | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        """``remake`` binds the game to other limits (the pit's ``set_limits``; None: refused);
        ``monotonic`` (seconds) times how long a floor call stays open."""
        self.settings = settings
        self.epoch = epoch
        """The epoch every event is published in (see :mod:`controller.journal.high_water`)."""
        self.state = TableState(game=game, devices={name: DeviceState() for name in settings.boards},
                                remake=remake)
        self._clock = clock
        self._monotonic = monotonic
        self._write = write
        self._publish = publish
        self.notice: str | None = None
        """The last refusal or problem to show the dealer (cleared by the next accepted input and by
        every change of state)."""
        self.live_spots: dict[tuple[int, str], SpotWager] = {}
        self.device_status: dict[str, tuple[str, ...]] = {}
        """Each board's STATUS flags in words (live, not journaled: boards repeat them every second)."""
        self._flagged_chips: set[tuple[int, str]] = set()
        self.critical_fault: str | None = None
        """The critical memory fault latched (:mod:`controller.journal.critical_memory`): while there
        is one, DEAL is refused."""
        self._verified: tuple[Hand, str, int | None] | None = None
        """The hand, action and amount :meth:`refusal` last verified (see :meth:`action_allowed`)."""
        self.request_mark: dict[str, str] | None = None
        """The request id of the command being run (:mod:`controller.commands.request_ids`): journaled
        with the first step it makes, then :attr:`marked` says at which seq."""
        self.marked: tuple[dict[str, str], int] | None = None
        self.floor_call: FloorCall | None = None
        """The dealer's last floor call since the start (live, not journaled: its alert is)."""
        self.repeats = RepeatLog(log)
        """The log of inputs dropped without an event (a card reported again, a refusal already alerted)."""
        self.machine = Machine(
            model=self,
            states=STATES,
            transitions=TRANSITIONS,
            initial="betting",
            auto_transitions=False,
            queued=True,
            model_attribute="phase",
        )

    @property
    def phase(self) -> str:
        """The machine's phase (``betting``, ``in_hand``, ``settled``): the table state's."""
        return self.state.phase

    @phase.setter
    def phase(self, phase: str) -> None:
        self.state.move(phase)

    @property
    def game(self) -> Game[Hand]:
        """The game this table runs."""
        return self.state.game

    @property
    def hand(self) -> Hand | None:
        """The hand in play, if any."""
        return self.state.hand

    def decision(self) -> Decision | None:
        """What the hand in play waits for (None between hands and once settled)."""
        return None if self.state.hand is None or self.phase != "in_hand" else self.state.hand.decision()

    # -- the event path ---------------------------------------------------------

    def set_publisher(self, publish: Callable[[bytes, bytes], None]) -> None:
        """Where events go after they are journaled (the pit's publish socket)."""
        self._publish = publish

    def recover(self, records: Iterable[Record], checkpoint: dict[str, Any] | None = None) -> int:
        """Apply journaled records again after a restart, publishing nothing; returns how many.

        With a ``checkpoint`` (:meth:`TableState.checkpoint`), start from that state and
        apply only the records after it.
        """
        if checkpoint is not None:
            self.state = TableState.from_checkpoint(self.state.game, checkpoint, self.state.remake)
            for name in self.settings.boards:   # a board configured since the checkpoint
                self.state.devices.setdefault(name, DeviceState())
        count = 0
        for record in records:
            self.state.apply(record)
            count += 1
        if self.state.results is not None:
            self.settle()
        return count

    def open(self, *, recovered: bool, journal_damage: str | None = None) -> None:
        """Announce the table (``table.opened``) and report journal damage."""
        settings = self.settings
        self._step([events.TableOpened(settings.game_name, settings.seats, self.limits(), recovered,
                                       settings.rules)])
        if journal_damage is not None:
            self._alert("journal_corrupt", journal_damage)

    def limits(self) -> dict[str, int]:
        """The table's limits now, in cents: the pit's last ``set_limits``, else the configuration's."""
        set_by_pit = self.state.floor.limits
        if set_by_pit is None:
            return dict(self.settings.limits)
        return {"min_bet": set_by_pit.min_bet, "max_bet": set_by_pit.max_bet}

    def pit_command(self, order: Command, supervisor: str) -> str | None:
        """One of the pit's commands (:data:`controller.commands.table.PIT_COMMANDS`: close or open
        the table, set its limits, a message to the dealer, a tray fill or credit), already decoded,
        for ``supervisor``, already authenticated; returns None if it was taken, else why not."""
        configured = Limits(self.settings.limits["min_bet"], self.settings.limits["max_bet"])
        name = order.name
        made = pit_events(order, supervisor, self.state, has_tray=self.settings.tray,
                          configured=configured)
        if isinstance(made, str):
            return self._refuse(f"{name}: {made}")
        for event in made:
            if isinstance(event, LimitsSet):
                problem = self._limits_problem(Limits(event.min_bet, event.max_bet))
                if problem is not None:
                    return self._refuse(f"{name}: {problem}")
        self._step(made)
        return None

    def books_command(self, order: Command, supervisor: str | None) -> str | None:
        """A command of the table's books (:mod:`controller.table.books`), its PIN checked already
        (the dealer's, or ``supervisor``'s); returns None if it was taken, else why not."""
        tray_now = (self.state.tray.amount, self.state.tray.expected) if self.settings.tray else None
        made = books_events(order, supervisor, self.state.books, tray=tray_now, in_hand=self.state.in_hand)
        if isinstance(made, str):
            return self._refuse(f"{order.name}: {made}")
        self._step(made)
        return None

    def _limits_problem(self, limits: Limits) -> str | None:
        """Why the game cannot be bound to ``limits`` (no way to, or its rules refuse them)."""
        if self.state.remake is None:
            return "this table's limits cannot be changed"
        try:
            self.state.remake(limits)
        except ValueError as error:
            return str(error)
        return None

    def command(self, name: str, args: Mapping[str, Any]) -> str | None:
        """A game's control command that changes the session (:attr:`Game.commands`), its ``args``
        decoded and checked as its registered record (:mod:`controller.commands`); returns None if
        it was taken, else why not. Its events are one step."""
        if name not in self.game.commands:
            return f"unknown command {name!r}"
        seat = args.get("seat")
        if isinstance(seat, int) and not 1 <= seat <= self.settings.seats:
            return self._refuse(f"{name}: there is no seat {seat} at this table (seats 1 to "
                                f"{self.settings.seats})")
        try:
            changes = self.game.command(name, args, self.state.session, self.phase != "betting")
        except RuleError as error:
            return self._refuse(f"{name}: {error}")
        self.notice = None
        if changes:
            self._step(changes)
        return None

    def tick(self) -> None:
        """Between hands, what the time brings (a tournament level starting), as one step."""
        if self.phase == "betting":
            due = self.game.due(self.state.session, self._clock())
            if due:
                self._step(due)

    def critical_memory(self, fault: str | None, supervisor: str | None = None) -> None:
        """A critical memory fault latched (``fault``: the ``critical_memory`` alert, critical; DEAL
        stops), or cleared by ``supervisor`` (``fault`` None: the same alert, info)."""
        self.critical_fault = fault
        if fault is not None:
            self._alert("critical_memory",
                        f"critical memory: {fault}; DEAL is stopped until a supervisor clears it")
        else:
            self._alert("critical_memory",
                        f"critical memory fault cleared by supervisor {supervisor}: the check passes",
                        severity="info")

    def integrity_alerts(self, problems: Iterable[str]) -> None:
        """One ``software_integrity`` alert per installed file that does not match its manifest."""
        for problem in problems:
            self._alert("software_integrity", f"installed software: {problem}")

    def _step(self, events: Sequence[Event], *, call: dict[str, Any] | None = None, at: int = 0,
              result: Hand | None = None) -> None:
        """Encode, number, journal (one fsync), apply and publish the events of one step.

        ``call`` is the game call (``start``, ``deal``, ``act``) that caused the step, journaled in
        the private part of event ``at``; ``result`` is the hand that call returned.
        """
        records: list[Record] = []
        bodies: list[dict[str, Any]] = []
        seq = self.state.seq
        stamp = self._clock()
        table_id = self.settings.table_id
        started: int | None = None
        last = len(events) - 1
        for position, event in enumerate(events):
            kind, data, private = encode(event)
            seq += 1
            if kind == "hand.started":
                started = self.state.hand_no + 1
            number = started if started is not None else self._hand_for(kind, data)
            topic, body = encode_event(table_id, seq, stamp, kind, number, data, epoch=self.epoch)
            if call is not None and position == at:
                private = {**private, "input": call}
            if position == 0 and self.request_mark is not None:
                private = {**private, REQUEST_KEY: self.request_mark}
                self.marked, self.request_mark = (self.request_mark, seq), None
            if position < last:
                private = {**private, "more": True}
            records.append(Record(seq=seq, topic=topic.decode(), body=body, private=private))
            bodies.append({"seq": seq, "type": kind, "hand": number, "data": data})
        self._write(records)
        self.notice = None          # a refusal shown before this change of state is stale now
        for record, decoded, event in zip(records, bodies, events, strict=True):
            self.state.apply(record, result if "input" in record.private else None, decoded, event)
        if self._publish is not None:
            for record in records:
                self._publish(record.topic.encode(), record.body)

    def _game_step(self, head: GameEvent, call: dict[str, Any], result: Hand,
                   caused: Sequence[GameEvent], *, before: Sequence[Event] = ()) -> None:
        """A step caused by a game call: ``before``, ``head`` (carrying the call), then ``caused``."""
        self._step([*before, head, *caused], call=call, at=len(before), result=result)
        if self.state.results is not None:
            self.settle()

    def _hand_for(self, kind: str, data: Mapping[str, Any]) -> int | None:
        if kind.startswith(("device.", "shoe.", "table.")):
            return None
        if self.state.in_hand:
            return self.state.hand_no
        registration = alert_registry.kind(data.get("code")) if kind == "alert" else None
        if kind == "bet.placed" or (registration is not None and registration.next_hand):
            return self.state.hand_no + 1
        return None

    def _alert(self, code: str, message: str, **fields: Any) -> None:
        """One ``alert`` step: the registered alert ``code`` (:func:`controller.events.alerts.alert`
        takes ``fields``: ``severity``, ``seat``, ``hidden`` and what else it concerns)."""
        self._step([alert_registry.alert(code, message, **fields)])

    # -- inputs -----------------------------------------------------------------

    def handle(self, item: DriverInput) -> None:
        """Take one input from a board's driver (buttons come through :meth:`press`)."""
        if isinstance(item, SpotWager) and (item.seat, item.spot) == TRAY:
            self._on_tray(item)
        elif isinstance(item, CardDrawn):
            self._on_card(item)
        elif isinstance(item, SpotWager):
            self._on_spot(item)
        elif isinstance(item, CardUnreadable):
            self._on_unreadable(item)
        elif isinstance(item, ShoeLoaded):
            if item.shoe_id != self.state.shoe.shoe_id:
                self._step([events.ShoeLoaded(item.shoe_id, item.decks)])
            else:
                self.repeats.note(("shoe loaded again", item.shoe_id), logging.INFO,
                                  f"shoe {item.shoe_id} loaded again (a resend): the shoe goes on as it was")
        elif isinstance(item, CutCard):
            if item.shoe_id == self.state.shoe.shoe_id and not self.state.shoe.cut_card_out:
                self._step([events.CutCardOut(item.index)])
            else:
                self.repeats.note(("cut card", item.shoe_id), logging.INFO, f"cut card of shoe "
                                  f"{item.shoe_id} ignored: not the loaded shoe, or out already")
        elif isinstance(item, DeviceOnline):
            self._step([events.DeviceOnline(item.device, item.firmware, item.serial)])
        elif isinstance(item, DeviceOffline):
            self._on_offline(item)
        elif isinstance(item, DeviceFault):
            self._alert("device_fault", f"{item.device} fault {item.code}: {item.text}",
                        device=item.device, fault=item.code)
        elif isinstance(item, DeviceStatus):
            self.device_status[item.device] = item.flags

    def press(self, button: str, amount: int | None = None, *, physical: bool = True) -> str | None:
        """Press a dealer button (or give the same action by control command, with an ``amount``
        where it takes one that no spot holds); returns None if it was taken, else why not (also
        in :attr:`notice`). A ``physical`` button must be one the table has (``[buttons]``); an
        action sent by the control socket's ``act`` (a dealer screen) needs no button. The
        ``amount`` was bounded where the command was decoded (:mod:`controller.commands`)."""
        if physical and button in TABLE_BUTTONS and button not in self.settings.buttons:
            return self._refuse(f"there is no {button!r} button at this table")
        if button in FLOOR_ACTIONS:
            return self._floor_action(button)
        reason = self.refusal(button, amount)
        if reason is not None:
            return self._refuse(f"{button}: {reason}")
        self.notice = None
        if self._is_game_action(button):
            self.act(button, self._amount(button, amount))
        else:
            getattr(self, button)()
        return None

    def _floor_action(self, action: str) -> str | None:
        """The dealer calls the floor (any time), or acknowledges the pit's message. A call while
        the last one is open (:attr:`TableSettings.floor_call_window`) is counted on it, neither
        journaled nor raised again."""
        if action == "call_floor":
            now, call = self._monotonic(), self.floor_call
            if call is not None and now - call.at < self.settings.floor_call_window:
                call.calls += 1
                self.repeats.note(("floor call", call.seq), logging.INFO,
                                  f"call_floor counted on the floor call of event {call.seq}")
                return None
            self._alert("floor_called", "the dealer calls the floor to the table")
            self.floor_call = FloorCall(self.state.seq, now)
            return None
        message = self.state.floor.message
        if message is None:
            return self._refuse("acknowledge: there is no message from the pit to acknowledge")
        self._step([MessageAcknowledged(message)])
        return None

    def _refuse(self, reason: str) -> str:
        self.notice = reason
        return reason

    def _is_game_action(self, name: str) -> bool:
        """Whether ``name`` is a game action now (``next`` is the table's once the hand is settled)."""
        if name == "next":
            decision = self.decision()
            return decision is not None and "next" in decision.actions
        return name not in TABLE_BUTTONS

    def _amount(self, action: str, given: int | None) -> int | None:
        """The amount ``action`` takes: what its spot reads now, or what the command gave."""
        decision = self.decision()
        option = decision.actions.get(action) if decision is not None else None
        if option is None or option.low is None:
            return given
        if option.spot is not None and decision is not None and decision.seat is not None:
            wager = self.live_spots.get((decision.seat, option.spot))
            return wager.amount if wager is not None else 0
        return given

    def refusal(self, button: str, amount: int | None = None) -> str | None:
        """Why pressing ``button`` is not allowed now, or None if it is.

        Whether it is allowed is the machine's answer (``may_<trigger>``, from
        :data:`TRANSITIONS`) and, for a game action, the game's (its reason words).
        """
        if self._is_game_action(button):
            if button not in self.game.actions and button != "next":
                return "this game does not use that button"
            if self.phase != "in_hand" or self.state.hand is None:
                return "no hand is in play"
            waiting = self.hand_waits_for()
            if waiting:
                return waiting_words(waiting)
            taken = self._amount(button, amount)
            try:
                self.state.hand.verify(button, taken)
            except RuleError as error:
                return str(error)
            self._verified = (self.state.hand, button, taken)
            return None
        if getattr(self, f"may_{button}")():
            return None
        if button == "deal":
            return "; ".join(self.deal_problems()) if self.phase == "betting" else "a hand is already in play"
        if button == "next":
            return "the hand is not settled yet"
        if self.phase == "settled":
            return "the hand is settled: pay and collect, then press NEXT"
        return "no hand is in play"

    def hand_waits_for(self) -> list[str]:
        """The boards the hand in play waits for: each board the table runs that is offline while a
        hand is in play. No decision of the hand is taken without them (the cards come from the
        shoe, the amounts and the chips' checks from the reader), so the hand offers none."""
        if self.phase != "in_hand":
            return []
        return [name for name in self.settings.boards if not self.state.devices[name].online]

    def offered(self) -> dict[str, Option]:
        """The game actions open now: the hand's decision's, none while the hand waits for a board."""
        decision = self.decision()
        if decision is None or self.hand_waits_for():
            return {}
        return dict(decision.actions)

    def live_buttons(self) -> tuple[str, ...]:
        """The configured buttons that may be pressed now (their lights are on): the table's
        buttons the machine allows, and the game actions the hand offers now."""
        offered = set(self.offered())
        live = []
        for button in self.settings.buttons:
            if button in offered or (not self._is_game_action(button) and self.refusal(button) is None):
                live.append(button)
        return tuple(live)

    def seat_in_turn(self) -> int | None:
        """The seat whose decision the table waits for, if any."""
        decision = self.decision()
        return decision.seat if decision is not None else None

    def deal_problems(self) -> list[str]:
        """Why a deal cannot start now (empty when it can)."""
        problems: list[str] = []
        if self.critical_fault is not None:
            problems.append(f"critical memory fault ({self.critical_fault}): a supervisor clears it "
                            "once it is repaired")
        if self.state.floor.closed:
            problems.append("the table is closed by the pit")
        devices = self.state.devices
        for name in self.settings.boards:
            if not devices[name].online:
                problems.append(f"the {name} is offline")
        shoe = self.state.shoe
        if shoe.shoe_id is None:
            problems.append("the shoe is not loaded")
        elif shoe.cut_card_out:
            problems.append("the cut card is out: load a new shoe")
        elif shoe.decks != self.game.decks:
            problems.append(f"the shoe holds {shoe.decks} decks, the game is set for {self.game.decks}")
        problems.extend(self.game.bet_problems(self.state.layout(), self.state.session))
        for (seat, spot), wager in sorted(self.live_spots.items()):
            if not wager.complete:
                problems.append(f"seat {seat} {spot} holds more chips than the reader can count: "
                                "colour up to larger chips")
        return problems

    # -- conditions (named in TRANSITIONS) --------------------------------------

    def deal_allowed(self, *args: Any) -> bool:
        """Condition of ``deal``: nothing stands in the way of a deal (:meth:`deal_problems`)."""
        return not self.deal_problems()

    def card_wanted(self, *args: Any) -> bool:
        """Condition of ``card``: the hand in play takes the next card from the shoe."""
        return self.state.hand is not None and self.state.hand.can_deal()

    def action_allowed(self, action: str, amount: int | None) -> bool:
        """Condition of ``act``: the game allows ``action`` with ``amount`` now (known without asking
        the game again when :meth:`refusal` has just verified it on this very hand: hands are frozen,
        so the same hand object allows the same action)."""
        hand, verified = self.state.hand, self._verified
        if hand is None:
            return False
        if verified is not None and verified[0] is hand and verified[1:] == (action, amount):
            return True
        return hand.can(action, amount)

    def hand_settled(self) -> bool:
        """Condition of ``settle``: the hand has its results."""
        return self.state.results is not None

    # -- actions (named in TRANSITIONS) -----------------------------------------

    def start_hand(self) -> None:
        """On ``deal``: ``hand.started`` and ``bets.closed`` with the next hand number, and
        whatever the game's start brings (blinds posted, ...), as one step."""
        state = self.state
        layout = state.layout()
        started, caused = self.game.start(layout, state.session)
        bets = tuple(events.Wager(seat, spot, amount) for (seat, spot), amount in sorted(state.bets.items()))
        opened = events.HandStarted(self.game.seats_in_play(layout, state.session),
                                    self.game.dealer_seat(state.session))
        verdict = tray.fill_verdict(state.tray)
        checked = [verdict] if verdict is not None else []
        self._game_step(events.BetsClosed(bets), {"call": "start"}, started, caused,
                        before=[*checked, opened])

    def deal_card(self, drawn: CardDrawn) -> None:
        """After ``card``: ``card.dealt`` to where the game says, and whatever it brings about."""
        hand = self.state.hand
        assert hand is not None
        result, caused = hand.deal(drawn.card, drawn.index)
        head, *rest = caused
        call = {"call": "deal", "card": str(drawn.card), "index": drawn.index}
        self._game_step(head, call, result, rest)

    def take_action(self, action: str, amount: int | None) -> None:
        """After ``act``: the game action (``player.action``), and whatever it brings about."""
        hand = self.state.hand
        assert hand is not None
        result, caused = hand.act(action, amount)
        head, *rest = caused
        call: dict[str, Any] = {"call": "act", "action": action}
        if amount is not None:
            call["amount"] = amount
        self._game_step(head, call, result, rest)

    def end_hand(self) -> None:
        """On ``next``: a ``payout_mismatch`` for each spot not paid or collected right, what the
        hand changes in the session, ``hand.ended``; betting opens."""
        hand = self.state.hand
        assert hand is not None
        counted = self.state.tray
        off = tray.variance(counted.at_start, counted.amount, hand.house_result())
        self._step([*self.payout_mismatches(), *([off] if off is not None else []),
                    *self.game.finish(hand, self.state.session), events.HandEnded(self.state.hand_no)])
        self._sync_bets()

    def payout_expected(self) -> dict[tuple[int, str], int]:
        """What each settled spot should read once paid and collected: its wagers plus their
        payouts (0 for a lost wager), by (seat, spot). Seats whose money the table keeps as a
        stack (the game settles them in the stack, not in chips on the spot) are left out."""
        expected: dict[tuple[int, str], int] = {}
        stacks = self.state.session[Stacks].stacks
        for result in self.state.results or ():
            if result["seat"] not in stacks:
                key = (result["seat"], result["spot"])
                expected[key] = expected.get(key, 0) + result["wager"] + result["payout"]
        return expected

    def payout_checks(self) -> dict[tuple[int, str], int]:
        """The spots NEXT checks and what each should read then: :meth:`payout_expected`, or none
        with ``payout_check`` off. The one rule: the picture publishes it (``checks``) and a screen
        draws a box to pay or collect for exactly these spots."""
        return self.payout_expected() if self.settings.payout_check else {}

    def payout_mismatches(self) -> list[Alerted]:
        """A ``payout_mismatch`` alert (warning) for each spot NEXT checks (:meth:`payout_checks`)
        whose chips, as the RFID reader reads them now, are not what it should hold once paid and
        collected."""
        alerts: list[Alerted] = []
        for (seat, spot), expected in sorted(self.payout_checks().items()):
            live = self.live_spots.get((seat, spot))
            read = live.amount if live is not None else 0
            if read == expected:
                continue
            gap = (f"{dollars(expected - read)} short" if read < expected
                   else f"{dollars(read - expected)} over")
            alerts.append(alert_registry.alert(
                "payout_mismatch",
                f"seat {seat} {spot} reads {dollars(read)} at NEXT, should read {dollars(expected)} "
                f"once paid and collected: {gap}", seat=seat, spot=spot, expected=expected, read=read))
        return alerts

    def void_hand(self) -> None:
        """On ``void``: what the game shows of a misdeal, ``hand.voided``; nothing is settled."""
        hand = self.state.hand
        shown = hand.void() if hand is not None else ()
        self._step([*shown, events.HandVoided("voided by the dealer")])
        self._sync_bets()

    # -- cards ------------------------------------------------------------------

    def _on_card(self, drawn: CardDrawn) -> None:
        shoe = self.state.shoe
        if shoe.shoe_id is None or drawn.shoe_id != shoe.shoe_id:
            self._unknown_shoe(drawn.shoe_id, drawn.index)
            return
        card = str(drawn.card)
        if not self._plausible(drawn.index, card):
            return
        self._check_gap(drawn.index)
        taken = self.may_card(drawn)
        if shoe.seen[card] >= shoe.decks:
            # A card dealt face down is not named before the event that reveals it (docs/pit-events.md);
            # its identity stays in the journal's private part.
            decision = self.decision() if taken else None
            target = decision.card if decision is not None else None
            named = {} if target is not None and not target.face_up else {"card": card}
            self._alert("card_over_count",
                        f"card {drawn.index}{' ' + card if named else ''}: more copies than "
                        f"{shoe.decks} decks hold", index=drawn.index, **named)
        if taken:
            self.notice = None
            self.card(drawn)
            return
        self._alert("card_out_of_turn",
                    f"card {drawn.index} was drawn when no hand may take one: put it aside",
                    index=drawn.index, hidden={"card": card})

    def _on_unreadable(self, item: CardUnreadable) -> None:
        shoe = self.state.shoe
        if shoe.shoe_id is None or item.shoe_id != shoe.shoe_id:
            self._unknown_shoe(item.shoe_id, item.index)
            return
        if not self._plausible(item.index, None):
            return
        self._check_gap(item.index)
        self._alert("card_unreadable",
                    f"card {item.index} could not be read: put it aside and draw again",
                    index=item.index)

    def _plausible(self, index: int, card: str | None) -> bool:
        """Whether a report of the loaded shoe is a new card (:func:`shoe_checks.check_card`). A refused
        one raises ``card_implausible`` (once; then it is logged) and a repeat is logged: neither changes
        the shoe's state."""
        shoe = self.state.shoe
        verdict = shoe_checks.check_card(shoe, index, card)
        if verdict.take:
            return True
        alert = shoe_checks.refusal_alert(shoe, index, card, verdict) if verdict.refused else None
        if alert is not None:
            self._alert(**alert)
        else:
            self.repeats.note((verdict.reason, shoe.shoe_id), logging.WARNING if verdict.refused else
                              logging.INFO, f"shoe {shoe.shoe_id}: {verdict.words}: ignored")
        return False

    def resync_shoe(self, supervisor: str) -> str | None:
        """A supervisor's ``shoe_resync``: the loaded shoe's next card may come at any index ahead (a
        ``shoe_resync`` alert records it); returns None, or why not."""
        alert = shoe_checks.resync_alert(self.state.shoe, supervisor)
        if isinstance(alert, str):
            return self._refuse(alert)
        self._alert(**alert)
        return None

    def _unknown_shoe(self, shoe_id: int, index: int) -> None:
        """A card from a shoe the table never saw loaded: an alert, and the loaded shoe's count of
        cards drawn is left alone (the alert carries no ``index`` of it)."""
        self._alert("card_out_of_turn",
                    f"card {index} came from shoe {shoe_id}, which was never loaded: put it aside "
                    "and load the shoe again", severity="critical", shoe_id=shoe_id)

    def _check_gap(self, index: int) -> None:
        """A critical ``card_gap`` if cards left the shoe unseen before the one at ``index``."""
        last_index = self.state.shoe.last_index
        if index > last_index + 1:
            first, last = last_index + 1, index - 1
            self._alert("card_gap",
                        f"cards {first} to {last} left the shoe unseen: check the table, void if needed",
                        index=first, last_index=last)

    # -- bets and chips -----------------------------------------------------------

    def _on_spot(self, wager: SpotWager) -> None:
        key = (wager.seat, wager.spot)
        previous = self.live_spots.get(key)
        self.live_spots[key] = wager
        self._check_chips(wager)
        if self.state.in_hand:
            before = previous.amount if previous is not None else 0
            if self.phase == "in_hand" and before != wager.amount:
                self._check_past_post(wager, before)
            return
        self._sync_bets()

    def _on_tray(self, reading: SpotWager) -> None:
        """The tray's chips changed: its rejected chips alerted like a spot's, its value published
        (``tray.counted``) when it differs from the last."""
        self._check_chips(reading)
        if reading.amount != self.state.tray.amount:
            self._step([TrayCounted(reading.amount)])

    def _check_chips(self, wager: SpotWager) -> None:
        alerts, self._flagged_chips = chip_alerts(wager, self._flagged_chips)
        for alert in alerts:
            self._alert(**alert)

    def _check_past_post(self, wager: SpotWager, before: int) -> None:
        """A ``past_post`` alert unless the change is one the hand explains: the spot now holds
        what the game says it should, moves towards that (chips being collected or paid), or is
        the spot of an action the seat in turn may take, within that action's range."""
        hand = self.state.hand
        if hand is None:
            return
        key = (wager.seat, wager.spot)
        expected = hand.committed().get(key, 0)
        amount = wager.amount
        if amount == expected or min(before, expected) <= amount <= max(before, expected):
            return
        decision = hand.decision()
        if decision is not None and decision.seat == wager.seat:
            for option in decision.actions.values():
                if option.spot == wager.spot and option.low is not None and \
                        expected <= amount <= (option.high if option.high is not None else amount):
                    return
        self._alert("past_post",
                    f"seat {wager.seat} {wager.spot} changed from {dollars(before)} to "
                    f"{dollars(amount)}; it should hold {dollars(expected)}",
                    seat=wager.seat, spot=wager.spot, amount=amount, closed=expected)

    def _sync_bets(self) -> None:
        """While betting is open, publish every spot whose reading differs from its published wager."""
        for (seat, spot), wager in sorted(self.live_spots.items()):
            if wager.amount != self.state.bets.get((seat, spot), 0):
                self._step([events.BetPlaced(seat, spot, wager.amount)])

    # -- devices -------------------------------------------------------------------

    def _on_offline(self, item: DeviceOffline) -> None:
        device = self.state.devices.get(item.device)
        if device is None or not device.online:
            return
        self._step([events.DeviceOffline(item.device, item.reason)])
        waiting = " The hand waits until it is back." if self.phase == "in_hand" else ""
        self._alert("device_offline", f"the {item.device} is offline: {item.reason}.{waiting}",
                    severity="critical" if waiting else "warning", device=item.device)
