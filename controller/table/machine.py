"""The table as a machine: driver inputs in, pit events out, its phases moved by name. It names no game.

Every input goes to the one function that decides its kind (:data:`INPUTS`, a table by type;
buttons through :meth:`Table.press`, commands through :meth:`Table.pit_command` and
:meth:`Table.command`). A deciding function takes the table and the input and yields the steps it
causes (:class:`controller.table.writer.Step`), then returns None or the refusal in words:

- cards from the shoe: :mod:`controller.table.cards`
- chips on the spots and in the tray, past posting: :mod:`controller.table.chips`
- buttons and the same actions by command: :mod:`controller.table.buttons`, with the hand's steps
  they take (game calls and phase moves) and what DEAL and NEXT check
- boards: :mod:`controller.table.devices`
- the pit's and the game's commands, the clock, the daemon's checks: :mod:`controller.table.commands`

Each takes the table as :class:`controller.table.facing.TableFacing` names it (what a deciding
function reads and sets of the table, the moves of :class:`Phases` by name), so none imports this
module, which imports them all.

One writer (:class:`controller.table.writer.Writer`) numbers each step, journals it with one
fsync, applies it to :class:`TableState` and only then publishes it. The phases are a
``transitions`` machine declared as a table of moves (:data:`TRANSITIONS`, run by
:class:`Phases`); it only moves phases::

    betting --deal--> in_hand --settle--> settled --next--> betting
                         \\______ void ______/--> betting

No input travels through it: a deciding function journals a step, then calls the move it makes
by name (``phases.deal()``). The move checks that the journaled state agrees
(:meth:`TableState.move`): the step already set the phase the machine moves to; settling is the
one move the machine makes itself, once the hand has its results. Inside ``in_hand`` the phases
are the game's own (:attr:`Hand.phase`, declared in :attr:`Game.phases`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

from transitions import Machine

from controller.commands.registry import Command
from controller.games.interface import Decision, Game, Hand, Option
from controller.journal.lines import Record
from controller.table import buttons, cards, chips, commands, devices, gather
from controller.table.facing import DealProblemsKey
from controller.table.ledger import Ledger, ledger, spots_due
from controller.table.settings import (
    FLOOR_ACTIONS,
    TABLE_BUTTONS,
    FloorCall,
    TableSettings,
    TakenAction,
    waiting_words,
)
from controller.table.state import DeviceState, MakeGame, TableState
from controller.table.writer import Clock, Decided, Writer
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
    SpotsRead,
    SpotWager,
)
from firmware_bridge.kernel.repeat_log import RepeatLog

__all__ = ["FLOOR_ACTIONS", "INPUTS", "MOVES", "STATES", "TABLE_BUTTONS", "TRANSITIONS", "FloorCall",
           "Phases", "Table", "TableSettings", "waiting_words"]

log = logging.getLogger(__name__)

Input = TypeVar("Input", bound=DriverInput)
Decides = Callable[["Table", DriverInput], Decided]


def _decides(kind: type[Input], decide: Callable[[Table, Input], Decided]) -> Decides:
    """The function that decides an input of ``kind``, taking any input (of that kind)."""

    def run(table: Table, item: DriverInput) -> Decided:
        assert isinstance(item, kind)
        return decide(table, item)

    return run


INPUTS: dict[type[DriverInput], Decides] = {
    CardDrawn: _decides(CardDrawn, cards.on_card),
    CardUnreadable: _decides(CardUnreadable, cards.on_unreadable),
    ShoeLoaded: _decides(ShoeLoaded, cards.on_shoe_loaded),
    CutCard: _decides(CutCard, cards.on_cut_card),
    SpotWager: _decides(SpotWager, chips.on_reading),
    DeviceOnline: _decides(DeviceOnline, devices.on_online),
    DeviceOffline: _decides(DeviceOffline, devices.on_offline),
    DeviceFault: _decides(DeviceFault, devices.on_fault),
    DeviceStatus: _decides(DeviceStatus, devices.on_status),
    SpotsRead: _decides(SpotsRead, devices.on_spots_read),
}
"""The function that decides each kind of driver input."""

STATES = ["betting", "in_hand", "settled"]

TRANSITIONS: list[dict[str, str]] = [
    {"trigger": "deal", "source": "betting", "dest": "in_hand"},
    {"trigger": "settle", "source": "in_hand", "dest": "settled", "conditions": "has_results"},
    {"trigger": "next", "source": "settled", "dest": "betting"},
    {"trigger": "void", "source": "in_hand", "dest": "betting"},
]
"""The table's phases and the named moves between them."""

MOVES = {move["trigger"]: move for move in TRANSITIONS}
"""Each move's row of :data:`TRANSITIONS`, by name."""


class Phases:
    """The model ``transitions`` runs: the phase it moved to last (:attr:`phase`); every move is
    checked against the journaled state's (:attr:`TableState.phase`)."""

    # Triggers that ``transitions`` adds to the model (declared for type checkers only).
    deal: Callable[[], bool]
    settle: Callable[[], bool]
    next: Callable[[], bool]
    void: Callable[[], bool]

    def __init__(self, state: Callable[[], TableState]) -> None:
        """``state``: the table's state now (replaced when a checkpoint is read)."""
        self._state = state
        self._phase = state().phase
        self.machine = Machine(model=self, states=STATES, transitions=TRANSITIONS,
                               initial=self._phase, auto_transitions=False, queued=True,
                               model_attribute="phase")

    @property
    def phase(self) -> str:
        """The phase the machine moved to last."""
        return self._phase

    @phase.setter
    def phase(self, phase: str) -> None:
        """A move: the journaled state must hold ``phase`` already, but for settling, which sets it
        (:meth:`TableState.move` raises RuntimeError otherwise)."""
        self._state().move(phase)
        self._phase = phase

    def allows(self, move: str) -> bool:
        """Whether ``move`` may be made now, read from its row of :data:`TRANSITIONS` (its source
        is the phase, its condition holds): what ``transitions``' ``may_<move>`` answers, without
        building the machine's event list on every look (the picture asks for every button)."""
        row = MOVES[move]
        condition = row.get("conditions")
        return row["source"] == self._phase and (condition is None or bool(getattr(self, condition)()))

    def has_results(self) -> bool:
        """Condition of ``settle``: the hand in play has its results."""
        return self._state().results is not None

    def resume(self) -> None:
        """Take the journaled state's phase as it is (after a restart), and settle if it may."""
        self.machine.set_state(self._state().phase, model=self)
        if self.phase == "in_hand" and self.has_results():
            self.settle()


class Table:
    """One table: its state, its phases, what it knows live, and the one writer of its steps.

    ``write`` journals the records of one step durably (it returns only after fsync);
    ``publish`` sends ``(topic, body)`` to the pit. Every step is written, then applied to
    :attr:`state`, then published: durable before visible.
    """

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
        self.state = TableState(game=game, devices={name: DeviceState() for name in settings.boards},
                                remake=remake)
        self.clock = clock
        self.monotonic = monotonic
        self.writer = Writer(settings.table_id, lambda: self.state, clock=clock, write=write,
                             publish=publish, epoch=epoch)
        self.phases = Phases(lambda: self.state)
        self.notice: str | None = None
        """The last refusal or problem to show the dealer (cleared by the next accepted input and by
        every change of state)."""
        self.live_spots: dict[tuple[int, str], SpotWager] = {}
        self.device_status: dict[str, tuple[str, ...]] = {}
        """Each board's STATUS flags in words (live, not journaled: boards repeat them every second)."""
        self.flagged_chips: set[tuple[int, str]] = set()
        self.critical_fault: str | None = None
        """The critical memory fault latched (:mod:`controller.journal.critical_memory`): while there
        is one, DEAL is refused."""
        self.floor_call: FloorCall | None = None
        """The dealer's last floor call since the start (live, not journaled: its alert is)."""
        self.ungathered: set[tuple[int, str]] = set()
        """The spots whose chips the dealer pushes into the pot before the hand goes on (live:
        :mod:`controller.table.gather`)."""
        self.spots_unread = False
        """Whether the spot reader went offline and has not read every spot since it came back
        (live: :mod:`controller.table.devices`)."""
        self.taken: TakenAction | None = None
        """The last game action a press took (live, not journaled: a restart forgets it), for the
        double press (:func:`controller.table.buttons.repeat_refusal`)."""
        self._decided: tuple[Hand, Decision | None] | None = None
        """The last hand state asked for its decision, and that decision."""
        self.deal_problems_seen: tuple[TableState, DealProblemsKey, tuple[str, ...]] | None = None
        """The state, what else they depend on, and the deal problems last worked out
        (:func:`controller.table.buttons.deal_problems`)."""
        self.repeats = RepeatLog(log)
        """The log of inputs dropped without an event (a card reported again, a refusal already alerted)."""

    @property
    def phase(self) -> str:
        """The table's phase (``betting``, ``in_hand``, ``settled``): the table state's."""
        return self.state.phase

    @property
    def machine(self) -> Machine:
        """The ``transitions`` machine that moves the phases (:class:`Phases`)."""
        return self.phases.machine

    @property
    def game(self) -> Game[Hand]:
        """The game this table runs."""
        return self.state.game

    @property
    def hand(self) -> Hand | None:
        """The hand in play, if any."""
        return self.state.hand

    @property
    def epoch(self) -> int | None:
        """The epoch every event is published in (see :mod:`controller.journal.high_water`)."""
        return self.writer.epoch

    @property
    def request_mark(self) -> dict[str, str] | None:
        """The request id of the command being run (:mod:`controller.commands.request_ids`): journaled
        with the first step it makes, then :attr:`marked` says at which seq."""
        return self.writer.request_mark

    @request_mark.setter
    def request_mark(self, mark: dict[str, str] | None) -> None:
        self.writer.request_mark = mark

    @property
    def marked(self) -> tuple[dict[str, str], int] | None:
        """The request id journaled last and the seq it went with (None once taken)."""
        return self.writer.marked

    @marked.setter
    def marked(self, marked: tuple[dict[str, str], int] | None) -> None:
        self.writer.marked = marked

    def decision(self) -> Decision | None:
        """What the hand in play waits for (None between hands and once settled). The hand is
        immutable and its game pure: its decision is worked out once per hand state (a picture
        asks for it several times)."""
        hand = self.state.hand
        if hand is None or self.phase != "in_hand":
            return None
        if self._decided is None or self._decided[0] is not hand:
            self._decided = (hand, hand.decision())
        return self._decided[1]

    # -- the event path ---------------------------------------------------------

    def run(self, decided: Decided) -> str | None:
        """Write each step a deciding function yields (it goes on once its step is applied), and
        clear :attr:`notice` after each; its refusal, if any, becomes the notice and is returned."""
        while True:
            try:
                step = next(decided)
            except StopIteration as stop:
                reason: str | None = stop.value
                break
            self.writer.write(step)
            gather.after_step(self, step)
            self.notice = None          # a refusal shown before this change of state is stale now
        if reason is not None:
            self.notice = reason
        return reason

    def set_publisher(self, publish: Callable[[bytes, bytes], None]) -> None:
        """Where events go after they are journaled (the pit's publish socket)."""
        self.writer.publish = publish

    def recover(self, records: Iterable[Record], checkpoint: Mapping[str, object] | None = None) -> int:
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
        self.phases.resume()
        return count

    def open(self, *, recovered: bool, journal_damage: str | None = None) -> None:
        """Announce the table (``table.opened``) and report journal damage."""
        self.run(commands.opened(self, recovered, journal_damage))

    def limits(self) -> dict[str, int]:
        """The table's limits now, in cents: the pit's last ``set_limits``, else the configuration's."""
        set_by_pit = self.state.floor.limits
        if set_by_pit is None:
            return dict(self.settings.limits)
        return {"min_bet": set_by_pit.min_bet, "max_bet": set_by_pit.max_bet}

    # -- inputs, each to the function that decides it -----------------------------

    def handle(self, item: DriverInput) -> None:
        """Take one input from a board's driver (buttons come through :meth:`press`)."""
        self.run(INPUTS[type(item)](self, item))

    def press(self, button: str, amount: int | None = None, *, physical: bool = True) -> str | None:
        """Press a dealer button (:func:`controller.table.buttons.press`); returns None if it was
        taken, else why not (also in :attr:`notice`)."""
        return self.run(buttons.press(self, button, amount, physical))

    def pit_command(self, order: Command, supervisor: str) -> str | None:
        """A pit command (:func:`controller.table.commands.pit_command`); None if taken, else why not."""
        return self.run(commands.pit_command(self, order, supervisor))

    def books_command(self, order: Command, supervisor: str | None) -> str | None:
        """A command of the table's books (:func:`controller.table.commands.books_command`); None if
        taken, else why not."""
        return self.run(commands.books_command(self, order, supervisor))

    def command(self, name: str, args: Mapping[str, object]) -> str | None:
        """A game's session command (:func:`controller.table.commands.game_command`); None if
        taken, else why not."""
        if name not in self.game.commands:
            return f"unknown command {name!r}"
        return self.run(commands.game_command(self, name, args))

    def floor_answered(self, seq: int) -> str | None:
        """The pit answered the floor call whose ``floor_called`` alert is event ``seq``: the next call
        raises a new alert (a live matter, journaled by no step); None if that call was open, else why
        not."""
        if self.floor_call is None or self.floor_call.seq != seq:
            return f"floor_answered: no floor call of seq {seq} is open"
        self.floor_call = None
        return None

    def resync_shoe(self, supervisor: str) -> str | None:
        """A supervisor's ``shoe_resync`` (:func:`controller.table.cards.resync`); None, or why not."""
        return self.run(cards.resync(self, supervisor))

    def tick(self) -> None:
        """Between hands, what the time brings (a tournament level starting), as one step."""
        self.run(commands.tick(self))

    def critical_memory(self, fault: str | None, supervisor: str | None = None) -> None:
        """A critical memory fault latched (DEAL stops), or cleared by ``supervisor`` (``fault`` None)."""
        self.critical_fault = fault
        self.run(commands.critical_memory(fault, supervisor))

    def integrity_alerts(self, problems: Iterable[str]) -> None:
        """One ``software_integrity`` alert per installed file that does not match its manifest."""
        self.run(commands.integrity_alerts(problems))

    # -- what the table allows now (the picture and the lights) -------------------

    def refusal(self, button: str, amount: int | None = None) -> str | None:
        """Why pressing ``button`` is not allowed now, or None if it is."""
        return buttons.refusal(self, button, amount)

    def hand_waits_for(self) -> list[str]:
        """The boards the hand in play waits for (:func:`controller.table.buttons.hand_waits_for`)."""
        return buttons.hand_waits_for(self)

    def wait_words(self) -> str | None:
        """Why the hand waits now, in words (:func:`controller.table.buttons.wait_words`)."""
        return buttons.wait_words(self)

    def offered(self) -> dict[str, Option]:
        """The game actions open now: the hand's decision's, none while the hand waits for a board."""
        return buttons.offered(self)

    def live_buttons(self) -> tuple[str, ...]:
        """The configured buttons that may be pressed now (their lights are on)."""
        return buttons.live_buttons(self)

    def seat_in_turn(self) -> int | None:
        """The seat whose decision the table waits for, if any."""
        decision = self.decision()
        return decision.seat if decision is not None else None

    def deal_problems(self) -> list[str]:
        """Why a deal cannot start now (empty when it can)."""
        return buttons.deal_problems(self)

    def ledger(self) -> Ledger:
        """Where every cent should be now (:func:`controller.table.ledger.ledger`): the tray is
        accounted for once the hand is settled."""
        hand, settled = self.state.hand, self.phase == "settled" and self.state.results is not None
        return ledger(self.state, self.phase, payout_check=self.settings.payout_check,
                      house_result=hand.house_result() if settled and hand is not None else None)

    def spots_due(self) -> dict[tuple[int, str], int]:
        """What each spot should hold now: the ledger's spots alone
        (:func:`controller.table.ledger.spots_due`), as every check of a reading takes them."""
        return spots_due(self.state, self.phase, payout_check=self.settings.payout_check)

    def payout_checks(self) -> dict[tuple[int, str], int]:
        """The spots NEXT checks and what each should read then
        (:func:`controller.table.buttons.payout_checks`)."""
        return buttons.payout_checks(self)
