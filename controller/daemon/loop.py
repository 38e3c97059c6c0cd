"""The daemon: one table on one asyncio loop. :class:`Daemon` takes its steps, :class:`Show` shows
the table after each, and :class:`ControlCommands` answers the control commands (docs/control.md),
the daemon's front door.

Start-up (:mod:`controller.daemon.start`): open the journal and replay it into the table (nothing is
published, :mod:`controller.daemon.journal`), bind the pit sockets, announce ``table.opened``, then
start the boards and the buttons. Every driver input and every control command runs on the loop, one
step at a time, through :class:`controller.table.machine.Table` (the control socket serves requests
at once, each in its task: a PIN check or a ``critical_memory_clear`` that awaits holds up no other
command; PINs are checked one at a time: :class:`ControlCommands`). After each, ``refresh``
saves a checkpoint if one is due, and :class:`Show` publishes the table's picture (``table.view``,
docs/pit-events.md) if it changed and brings the dealer display, the status line and the lights up
to date. The journal, the checkpoint and the published mark are checked at start, before DEAL and
after every hand (:mod:`controller.daemon.memory`); a check that fails latches a fault that stops
DEAL until a supervisor's ``critical_memory_clear``. After a hand's check, the journal is rotated and
old segments pruned when due (``[journal]``, :func:`controller.daemon.journal.rotate`). Under systemd
the daemon says READY once all that has started, keeps its status line current and pings the
watchdog from the loop (:mod:`controller.daemon.service`).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import time
from collections.abc import Callable, Sequence

from controller.commands.books import BOOKS_COMMANDS, DEALER_PINNED
from controller.commands.books import DealerIn as BooksDealerIn
from controller.commands.registry import Command, Request, decode
from controller.commands.request_ids import Reply, RequestIds, mark
from controller.commands.table import (
    PIT_COMMANDS,
    Act,
    CriticalMemoryClear,
    FloorAnswered,
    Links,
    Press,
    Recall,
    ShoeResync,
    State,
)
from controller.config.loader import Config
from controller.daemon import journal, memory, start
from controller.daemon.service import SystemdLink, table_status
from controller.events import codec
from controller.events.codec import record_json
from controller.events.envelope import VIEW_TYPE, encode_event, now_timestamp
from controller.events.picture import Picture
from controller.events.registry import registered
from controller.history.recall import recall_by_hand
from controller.journal import checkpoint
from controller.journal.critical_memory import FAULT_NAME, CriticalMemory
from controller.journal.high_water import HighWater
from controller.journal.lines import Record
from controller.pit.server import PitServer
from controller.security.supervisor_gate import SupervisorGate
from controller.security.supervisor_pins import verify_pin
from controller.table.views import dealer_view, table_picture
from drivers.board import BoardDriver
from drivers.buttons import DealerPanel
from drivers.chips import ChipRegistry
from drivers.inputs import CardDrawn, DriverInput, SpotWager
from firmware_bridge.kernel.repeat_log import RepeatLog

log = logging.getLogger("controller.daemon")
"""The daemon's log: the name its lines had when this was controller/daemon.py."""

JOURNAL_NAME = "journal.log"
CHECKPOINT_NAME = "checkpoint.json"
HIGH_WATER_NAME = "published.mark"
TICK = 1.0
"""Seconds between two looks at the clock for the game (:meth:`Daemon.tick`)."""
REPLAY_WINDOW = 10_000
"""Events the sync socket can always replay (pit-events.md section 2)."""
SHOW_DELAY = 0.002
"""Seconds without a chip reading before the table's picture is drawn after one (:meth:`Show.after`):
readings that come back to back (a stack of chips read as it is placed) are each journaled and
published at once, and share one picture, drawn once they stop; the dealer sees no difference. Every
other input draws the picture at once."""
SHOW_AT_LEAST = 0.05
"""Seconds at most from a step to its picture while inputs keep coming back to back."""


def _describe(item: DriverInput) -> str:
    """An input for the log; a card drawn is named by its place in the shoe only, since it may be
    the hole card (hidden until its ``card.revealed``)."""
    if isinstance(item, CardDrawn):
        return f"CardDrawn(shoe_id={item.shoe_id}, index={item.index})"
    return repr(item)


class Daemon:
    """Everything one table runs, from start to a clean stop."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.checkpoint_path = config.state_dir / CHECKPOINT_NAME
        self.journal, self.checkpoint = checkpoint.open_journal(
            config.state_dir / JOURNAL_NAME, self.checkpoint_path, keep=REPLAY_WINDOW)
        self.high_water = HighWater.open(config.state_dir / HIGH_WATER_NAME)
        self.memory = CriticalMemory(self.journal, self.high_water, self.checkpoint_path,
                                     config.state_dir / FAULT_NAME)
        self.start = journal.begin(self.journal, self.high_water, self.checkpoint_path)
        """The epoch this run publishes in, and what the journal lost since the last run."""
        self.registry = ChipRegistry.load(config.chip_registry)
        self.table = start.make_table(config, self.registry, self.write, self.start.epoch)
        self.renderer = start.make_renderer(config.display.mode)
        self.control = ControlCommands(self, config)
        """The control commands: the PIN gates, the request ids and the handlers."""
        self.stopping = asyncio.Event()
        self.repeats = RepeatLog(log)
        """The log of what may repeat without end: refused presses, inputs that fail."""
        self.failure: BaseException | None = None
        """Why the daemon stopped by itself (the journal could not be written), else None."""
        self.mark_sync_due = False
        """Whether :meth:`sync_mark` is already called for on the loop."""
        self.pit: PitServer | None = None
        self.show = Show(self)
        """The table's picture, the display and the lights after each step."""
        self.boards: list[BoardDriver] = []
        """The drivers of the configured boards (``[devices]``), once started."""
        self.panel: DealerPanel | None = None
        self.systemd = SystemdLink()
        self.in_hand = False
        """Whether a hand was in play at the last :meth:`refresh` (one that ends is checked after)."""

    async def run(self) -> None:
        """Run until SIGTERM or SIGINT, then stop cleanly."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stopping.set)
        self.systemd.status(f"{self.config.table_id} starting: recovering the journal")
        journal.recover(self.journal, self.table, self.checkpoint)
        self.control.requests.rebuild(self.journal.since(0))
        config = self.config
        self.pit = start.make_pit(config, self.start.epoch, snapshot=self.snapshot,
                                         history=self.history, last_seq=lambda: self.table.state.seq,
                                         on_command=self.command)
        await self.pit.start()
        self.table.set_publisher(self.pit.publish)
        self.table.open(recovered=self.journal.last_seq > 0,
                        journal_damage=journal.damage(self.journal, self.start))
        memory.at_start(self.memory, self.table, self.checkpoint)
        self.in_hand = self.table.state.in_hand
        start.check_integrity(config, self.table)
        self.boards = start.make_boards(config, self.registry, self.table.state.shoe.shoe_id,
                                               self.dispatch)
        self.panel = DealerPanel(config.buttons, config.lights, loop=loop, on_press=self.panel_pressed)
        for board in self.boards:
            await board.start()
        self.refresh()
        boards_checked = loop.call_later(max(board.offline_after for board in self.boards),
                                         start.check_boards, self.boards, self.table, self.dispatch)
        self.ticking = loop.call_later(TICK, self.tick)
        codec.prepare([*registered().values(), Picture])   # every encoder made now, not in a hand
        # What start-up made (the replayed journal, the modules) lives as long as the daemon: out of
        # the collector's sight, so that no full collection walks it in the middle of a hand.
        gc.freeze()
        self.systemd.ready(loop, table_status(self.table))
        log.info("table %s running %s", config.table_id, config.game)
        try:
            await self.stopping.wait()
        finally:
            boards_checked.cancel()
            self.ticking.cancel()
            await self.close()

    def tick(self) -> None:
        """Every :data:`TICK` seconds: what the time brings to the table (a tournament level)."""
        seq = self.table.state.seq
        try:
            self.table.tick()
        except Exception as error:
            self.repeats.note(("tick", type(error).__name__), logging.ERROR,
                              "internal error on the table's clock", exc_info=True)
        if self.table.state.seq != seq:
            self.refresh()
        self.ticking = asyncio.get_running_loop().call_later(TICK, self.tick)

    async def close(self) -> None:
        """Stop the boards, the buttons and the sockets; the journal is already durable."""
        self.systemd.stopping(f"{self.config.table_id} stopping")
        self.show.cancel()
        for driver in self.boards:
            await driver.close()
        if self.panel is not None:
            self.panel.close()
        if self.pit is not None:
            await self.pit.close()
        self.renderer.close()
        self.repeats.flush()
        self.table.repeats.flush()
        self.journal.close()
        self.high_water.close()

    def write(self, records: Sequence[Record]) -> None:
        """Journal the events of one step (one fsync), then raise the high-water mark to its last,
        unsynced; the mark is synced after the step is published (:meth:`sync_mark`, on the next
        turn of the loop), so a step costs one sync before it is published. If a write fails,
        nothing more can be made durable: the daemon stops (and systemd starts it again, to
        recover from what the journal holds)."""
        try:
            self.journal.append(*records)
            self.high_water.record(self.start.epoch, records[-1].seq)
        except BaseException as error:
            self.fail(error)
            raise
        if not self.mark_sync_due:
            self.mark_sync_due = True
            try:
                asyncio.get_running_loop().call_soon(self.sync_mark)
            except RuntimeError:                           # driven without a loop (tests): sync now
                self.sync_mark()

    def sync_mark(self) -> None:
        """Make the high-water mark durable, once for the steps written since the last sync (see
        :mod:`controller.journal.high_water`); a failure stops the daemon as a journal's does."""
        self.mark_sync_due = False
        try:
            self.high_water.sync()
        except OSError as error:
            self.fail(OSError(error.errno, f"{self.high_water.path}: {error.strerror}"))

    def fail(self, error: BaseException) -> None:
        """What cannot be made durable stops the table (logged once)."""
        if self.failure is None:
            log.critical("the journal cannot be written (%s): stopping the table", error)
            self.failure = error
            self.stopping.set()

    def dispatch(self, item: DriverInput) -> None:
        """One input from a driver, on the loop; a failure is logged and never stops the table."""
        try:
            self.table.handle(item)
        except Exception as error:
            self.repeats.note(("input", type(item).__name__, type(error).__name__), logging.ERROR,
                              f"input {_describe(item)} could not be handled", exc_info=True)
            self.table.notice = f"internal error handling {type(item).__name__}: see the log"
        self.show.reading = isinstance(item, SpotWager)
        self.refresh()

    def panel_pressed(self, button: str) -> None:
        """A button pressed on the dealer's panel (a refusal shows on the display)."""
        self.press(button)

    def press(self, button: str, amount: int | None = None, *, physical: bool = True) -> str | None:
        """A button pressed on the panel or through the control socket (with an ``amount`` for an
        action whose amount no spot holds), or an action sent by ``act`` (not ``physical``: no
        button needed); returns a refusal or None."""
        if button == "deal" and self.table.phase == "betting":
            memory.check(self.memory, self.table, f"before hand {self.table.state.hand_no + 1}")
        return self.guarded(lambda: self.table.press(button, amount, physical=physical),
                            f"pressing {button}", "press")

    def guarded(self, step: Callable[[], str | None], what: str, kind: str) -> str | None:
        """Run one step of the table on the loop; a failure is logged and refused, never fatal,
        and a refusal is logged (``<kind> refused: ...``) once with a count of its repeats."""
        try:
            reason = step()
        except Exception as error:
            self.repeats.note((what, type(error).__name__), logging.ERROR,
                              f"internal error {what}", exc_info=True)
            reason = f"internal error {what}: see the log"
            self.table.notice = reason
        else:
            if reason is not None:
                self.repeats.note(("refused", reason), logging.INFO, f"{kind} refused: {reason}")
        self.refresh()
        return reason

    def refresh(self) -> None:
        """After every input: a checkpoint if one is due, and the table's picture, the display and
        the lights brought up to date (:meth:`Show.after`: after a chip reading, once the readings
        have been quiet for :data:`SHOW_DELAY`); when a hand has just ended,
        the critical memory is checked first, and the journal rotated after the checkpoint if it is
        due."""
        ended = self.in_hand and not self.table.state.in_hand
        if ended:
            memory.check(self.memory, self.table, f"after hand {self.table.state.hand_no}")
        self.in_hand = self.table.state.in_hand
        self.save_checkpoint()
        if ended:
            self.rotate_journal()
        self.show.after()

    def save_checkpoint(self) -> None:
        """Write a checkpoint between hands, every :data:`checkpoint.EVERY` events."""
        state = self.table.state
        since = self.checkpoint.seq if self.checkpoint is not None else 0
        if state.in_hand or state.seq - since < checkpoint.EVERY:
            return
        try:
            self.checkpoint = checkpoint.save(self.checkpoint_path, self.journal, state.checkpoint(),
                                              self.checkpoint)
            self.memory.saved(self.checkpoint)
        except OSError as error:
            # The copy being written may or may not have been replaced: it is not read back until the next.
            for copy in [checkpoint.next_copy(self.checkpoint)] if self.checkpoint else checkpoint.COPIES:
                self.memory.copies.pop(copy, None)
            self.repeats.note(("checkpoint", type(error).__name__), logging.ERROR,
                              f"checkpoint not written ({error}); the journal is still complete")

    def rotate_journal(self) -> None:
        """Between hands, unless a critical memory fault is latched: the journal rotated and pruned
        when due (:func:`controller.daemon.journal.rotate`); a rotation that fails stops the table,
        as a write does."""
        if self.memory.fault is None:
            try:
                journal.rotate(self.journal, self.config.journal, self.checkpoint_path, self.repeats)
            except OSError as error:
                self.fail(error)

    def snapshot(self) -> dict[str, object]:
        """The sync socket's snapshot: the state as of the last event."""
        return {"seq": self.table.state.seq, "epoch": self.start.epoch,
                "state": record_json(table_picture(self.table))}

    def history(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        """Held events from ``from_seq`` on, byte for byte as published."""
        return [(r.topic.encode(), r.body) for r in self.journal.since(from_seq)]

    async def command(self, request: dict[str, object], client: str | None = None) -> Reply:
        """A control command (docs/control.md) from ``client``, answered by
        :meth:`ControlCommands.command`."""
        return await self.control.command(request, client)


class Show:
    """What the daemon shows after a step: the table's picture, published as ``table.view`` if it
    changed (docs/pit-events.md), the dealer display, the status line, the button lights and the spot
    lights (the spots of the seat in turn and, while betting is open, the spots the game lights for
    betting). After a chip reading they wait until the readings have been quiet for
    :data:`SHOW_DELAY`: readings that come back to back (a stack of chips read as it is placed)
    share one picture. It reads the daemon's parts at each picture (the daemon starts its boards,
    buttons and sockets after it made its :class:`Show`)."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon
        self.last_picture: tuple[int, Picture] | None = None
        """The seq and the picture last published in ``table.view``."""
        self.timer: asyncio.TimerHandle | None = None
        """The :meth:`when_quiet` called for on the loop, until it runs."""
        self.reading = False
        """Whether the step :meth:`after` follows was a chip reading (its picture may wait)."""
        self.quiet_at = 0.0
        """Loop time at which the inputs will have been quiet for :data:`SHOW_DELAY`."""
        self.unshown_since = 0.0
        """Loop time of the first step the picture does not show yet."""

    def after(self) -> None:
        """After a step: :meth:`now`, or after a chip reading (:attr:`reading`) once the readings have
        been quiet for :data:`SHOW_DELAY`."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:                               # driven without a loop (tests): show now
            loop = None
        quiet, self.reading = self.reading, False
        if not quiet or loop is None:
            self.now()
            return
        now = loop.time()
        self.quiet_at = now + SHOW_DELAY
        if self.timer is None:
            self.unshown_since = now
            self.timer = loop.call_at(self.quiet_at, self.when_quiet)

    def when_quiet(self) -> None:
        """:meth:`now` once no input came for :data:`SHOW_DELAY`, or :data:`SHOW_AT_LEAST` after
        the first step it has not shown yet."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        if now < self.quiet_at and now < self.unshown_since + SHOW_AT_LEAST:
            self.timer = loop.call_at(min(self.quiet_at, self.unshown_since + SHOW_AT_LEAST),
                                      self.when_quiet)
            return
        self.now()

    def now(self) -> None:
        """The table's picture published if it changed, and the display and lights up to date."""
        self.cancel()
        daemon = self.daemon
        table = daemon.table
        picture = table_picture(table)
        self.publish(picture)
        view = dealer_view(table, picture)
        daemon.renderer.show(view)
        daemon.systemd.status(table_status(table))
        if daemon.panel is not None:
            daemon.panel.set_live(view.live_buttons)
        seat = table.seat_in_turn()
        lit = table.game.betting_lights if table.phase == "betting" else ()
        spots = {a for a, (s, spot) in daemon.config.antennas.items() if s == seat or spot in lit}
        for board in daemon.boards:
            board.light_spots(spots)

    def cancel(self) -> None:
        """Call off the picture waiting for the readings to stop, if one is."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def publish(self, picture: Picture) -> None:
        """Publish ``table.view`` with the table's picture after every step and whenever it differs
        from the last one sent (docs/pit-events.md, "The table's picture"), so that a consumer
        always has the picture of the last event it took. Like a heartbeat it takes no seq of its
        own (it carries the seq of the last event it reflects) and is neither journaled nor
        replayed: it is drawn from what the journal holds and from what the boards say live."""
        state = self.daemon.table.state
        pit = self.daemon.pit
        if pit is None or (state.seq, picture) == self.last_picture:
            return
        topic, body = encode_event(self.daemon.config.table_id, state.seq, now_timestamp(), VIEW_TYPE,
                                   state.hand_no if state.in_hand else None, record_json(picture),
                                   epoch=self.daemon.start.epoch)
        pit.publish(topic, body)
        self.last_picture = (state.seq, picture)


class ControlCommands:
    """The daemon's answers to control commands (docs/control.md), which the control socket serves at
    once, each in its task: the PIN gates, the request ids and the handlers. A request is decoded and
    checked once, by the command registry (:mod:`controller.commands`, the one place the commands are
    declared); here it is let through (a supervisor's or a dealer's PIN checked one at a time, the
    slow hash off the loop; a ``request_id`` carried out already answered as it was the first time,
    :mod:`controller.commands.request_ids`) and handed to its handler, which takes one step of the
    table through the daemon. It reads the daemon's parts when a command comes (the daemon starts
    its boards and sockets after it made its commands)."""

    def __init__(self, daemon: Daemon, config: Config) -> None:
        self.daemon = daemon
        self.supervisors = SupervisorGate(config.supervisors)
        self.dealers = SupervisorGate(config.dealers, role="dealer")
        self.pin_checks = asyncio.Lock()
        """Held from a PIN's gate to its answer: the control socket serves requests at once, and the
        gates count wrong PINs only if they are checked one at a time."""
        self.requests = RequestIds()
        """The request ids of the commands carried out in the latest events (rebuilt at start)."""

    async def command(self, request: dict[str, object], client: str | None = None) -> Reply:
        """A control command (docs/control.md) from ``client`` (as far as the control socket can
        tell: :func:`controller.pit.server.control_client`), decoded and checked here, once
        (:func:`controller.commands.registry.decode`); one that carries ``supervisor`` is taken only
        with that supervisor's PIN, which goes no further than this check. A ``request_id`` carried
        out already is answered as it was the first time and not applied again
        (:mod:`controller.commands.request_ids`). ``critical_memory_clear`` is answered once its
        whole check is done (:func:`controller.daemon.memory.clear`, off the loop: inputs go on
        meanwhile)."""
        decoded = decode(request)
        if isinstance(decoded, str):
            return {"ok": False, "error": decoded}
        if decoded.supervisor is not None:
            refused = await self.authenticate(decoded, client)
            if refused is not None:
                return {"ok": False, "error": refused}
        order = decoded.command
        if isinstance(order, DEALER_PINNED):
            refused = await self.authenticate_dealer(order, client)
            if refused is not None:
                return {"ok": False, "error": refused}
        table = self.daemon.table
        handler = self.handlers.get(type(order))
        if handler is None:
            if order.name not in table.game.commands:
                return {"ok": False, "error": f"unknown command {order.name!r}"}
            handler = self.game_command
        if decoded.request_id is not None:
            repeat = self.requests.repeat(decoded)
            if repeat is not None:
                self.daemon.repeats.note(("repeat", order.name, str(repeat.get("ok"))), logging.INFO,
                                         f"{order.name}: request_id {decoded.request_id!r} was carried "
                                         f"out already: answered {repeat}, not taken again")
                return repeat
        if isinstance(order, CriticalMemoryClear):
            assert decoded.supervisor is not None
            refused = await memory.clear(self.daemon.memory, self.daemon.repeats,
                                                decoded.supervisor)     # the loop serves meanwhile
            if refused is not None:
                return self.answer(refused)
        if decoded.request_id is None:
            return handler(decoded)
        table.request_mark = mark(decoded)
        try:
            return handler(decoded)
        finally:
            table.request_mark = None
            if table.marked is not None:
                self.requests.note(*table.marked)
                table.marked = None

    @property
    def handlers(self) -> dict[type[Command], Callable[[Request], Reply]]:
        """The table's own commands by record (a game's own go to :meth:`game_command`)."""
        return {Press: self.press_command, Act: self.press_command, State: self.state_command,
                Links: self.links_command, ShoeResync: self.resync_command, Recall: self.recall_command,
                CriticalMemoryClear: self.clear_command, FloorAnswered: self.floor_answered_command,
                **dict.fromkeys(PIT_COMMANDS, self.pit_command),
                **dict.fromkeys(BOOKS_COMMANDS, self.books_command)}

    def press_command(self, request: Request) -> Reply:
        """``press`` (a button this table has) or ``act`` (any action open now)."""
        order = request.command
        assert isinstance(order, Press | Act)
        return self.answer(self.daemon.press(order.subject, order.amount,
                                             physical=isinstance(order, Press)))

    def state_command(self, request: Request) -> Reply:
        """``state`` (the pit server answers it before it gets here)."""
        return {"ok": True, **self.daemon.snapshot()}

    def links_command(self, request: Request) -> Reply:
        """Each board's link and counters, and the sync requests the pit sockets answered."""
        pit = self.daemon.pit
        return {"ok": True, "links": {
            driver.device: {"online": driver.is_online, **driver.counters()}
            for driver in self.daemon.boards
        }, "pit": dict(pit.served) if pit is not None else {}}

    def recall_command(self, request: Request) -> Reply:
        """A supervisor's ``recall``: the last hands step by step, from the records the journal holds
        (docs/control.md), as the pit saw them: a card face down reads so until it is revealed."""
        order = request.command
        assert isinstance(order, Recall)
        hands = recall_by_hand(self.daemon.journal.since(0), order.hands)
        return {"ok": True, "hands": [{"hand": hand, "lines": lines} for hand, lines in hands]}

    def pit_command(self, request: Request) -> Reply:
        """One of the pit's commands, a supervisor's (decoding made sure it names one)."""
        order, supervisor = request.command, request.supervisor
        assert supervisor is not None
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.pit_command(order, supervisor),
                                               f"running {order.name}", "command"))

    def books_command(self, request: Request) -> Reply:
        """A command of the table's books: the dealer's (its PIN checked already) or a supervisor's."""
        order, supervisor = request.command, request.supervisor
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.books_command(order, supervisor),
                                               f"running {order.name}", "command"))

    def floor_answered_command(self, request: Request) -> Reply:
        """``floor_answered``: the pit answered the dealer's floor call (its alert's ``seq``)."""
        order = request.command
        assert isinstance(order, FloorAnswered)
        reason = self.daemon.table.floor_answered(order.seq)
        self.daemon.refresh()
        return self.answer(reason)

    def resync_command(self, request: Request) -> Reply:
        """A supervisor's ``shoe_resync``."""
        assert request.supervisor is not None
        reason = self.daemon.table.resync_shoe(request.supervisor)
        self.daemon.refresh()
        return self.answer(reason)

    def clear_command(self, request: Request) -> Reply:
        """A supervisor's ``critical_memory_clear``, once its check passed and the fault went
        (:func:`controller.daemon.memory.clear`, awaited by :meth:`command` before this step, so that
        the request's mark is on this step's events alone): its ``critical_memory`` alert (info)."""
        supervisor = request.supervisor
        assert supervisor is not None
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.critical_memory(None, supervisor),
                                               "running critical_memory_clear", "command"))

    def game_command(self, request: Request) -> Reply:
        """A game's own command (after the daemon's own commands, which a game cannot hide)."""
        name, args = request.command.name, request.args()
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.command(name, args), f"running {name}",
                                               "command"))

    @staticmethod
    def answer(reason: str | None) -> Reply:
        """The control socket's reply to a step that was taken (None) or refused (the reason)."""
        return {"ok": True} if reason is None else {"ok": False, "error": reason}

    async def authenticate_dealer(self, order: Command, client: str | None) -> str | None:
        """Check the dealer's id and PIN (``dealer_pin``) against ``[dealers]``, as a supervisor's
        are checked: ``dealer_in`` names the dealer, the slips are signed by the dealer signed in.
        Returns None when the dealer is who they say."""
        dealer = order.dealer if isinstance(order, BooksDealerIn) else self.daemon.table.state.books.dealer
        if dealer is None:
            return f"{order.name}: no dealer is signed in: the dealer signs in first"
        pin = getattr(order, "dealer_pin", None)
        gate = self.dealers
        async with self.pin_checks:
            refused = gate.before(dealer, pin, time.monotonic(), client)
            if refused is None:
                assert isinstance(pin, str)
                matched = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: verify_pin(gate.stored(dealer), pin))
                refused = gate.after(dealer, matched, time.monotonic(), client)
        if refused is not None:
            sender = "" if client is None else f" from {client}"
            self.daemon.repeats.note(
                ("dealer refused", order.name, dealer[:32], refused.partition(":")[0]), logging.WARNING,
                f"dealer command {order.name!r} for {dealer[:32]!r}{sender} refused: {refused}")
        return refused

    async def authenticate(self, request: Request, client: str | None) -> str | None:
        """Check a supervisor's id and PIN (the slow hash runs off the loop); every refusal is
        logged with the id and the client, never the PIN. Returns None when the supervisor is who
        they say."""
        supervisor, pin = request.supervisor, request.pin
        async with self.pin_checks:                            # one at a time: see pin_checks
            refused = self.supervisors.before(supervisor, pin, time.monotonic(), client)
            if refused is None:
                assert isinstance(supervisor, str) and isinstance(pin, str)
                gate = self.supervisors
                matched = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: verify_pin(gate.stored(supervisor), pin))
                refused = self.supervisors.after(supervisor, matched, time.monotonic(), client)
        if refused is not None:
            cmd, shown = request.command.name, str(supervisor)[:32]
            sender = "" if client is None else f" from {client}"
            kind = refused.partition(":")[0]                   # the reason, less its seconds
            self.daemon.repeats.note(("supervisor refused", cmd, shown, kind), logging.WARNING,
                                     f"supervisor command {cmd!r} for {shown!r}{sender} refused: {refused}")
        return refused
