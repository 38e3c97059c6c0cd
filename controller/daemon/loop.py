"""The daemon's loop: one table on one asyncio loop. :class:`Daemon` takes its steps and wires the
parts; :class:`~controller.daemon.show.Show` shows the table after each, and
:class:`~controller.daemon.control.ControlCommands` answers the control commands (docs/control.md),
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
from collections.abc import Callable, Sequence

from controller.commands.request_ids import Reply
from controller.config.loader import Config
from controller.daemon import journal, memory, start
from controller.daemon.control import ControlCommands
from controller.daemon.service import SystemdLink, table_status
from controller.daemon.show import Show
from controller.events import codec
from controller.events.codec import record_json
from controller.events.picture import Picture
from controller.events.registry import registered
from controller.journal import checkpoint
from controller.journal.critical_memory import FAULT_NAME, CriticalMemory
from controller.journal.high_water import HighWater
from controller.journal.lines import Record
from controller.pit.server import PitServer
from controller.table.views import table_picture
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
        self.boards = start.make_boards(config, self.registry, self.table.state.shoe,
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
        have been quiet for :data:`controller.daemon.show.SHOW_DELAY`); when a hand has just ended,
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
