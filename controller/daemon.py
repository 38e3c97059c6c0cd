"""The daemon: one table on one asyncio loop, wired from its configuration.

Start-up order: open the journal and replay it into the table (nothing is
published), bind the pit sockets, announce ``table.opened``, then start the
boards and the buttons. Every driver input and every control command runs on
the loop, one at a time, through :class:`controller.table.machine.Table`; after each the
dealer display, the button lights and the spot lights (the spots of the seat
in turn, and while betting is open the spots the game lights for betting) are
brought up to date. A control command that carries ``"supervisor"`` is let
through only with that supervisor's PIN (:mod:`controller.security.supervisor_gate`).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from controller.config.loader import Config
from controller.games.catalog import GAMES
from controller.journal import checkpoint
from controller.journal.log import Record
from controller.pit.events import now_timestamp
from controller.pit.server import CurveKeys, PitServer
from controller.security import integrity
from controller.security.supervisor_gate import SupervisorGate
from controller.security.supervisor_pins import verify_pin
from controller.table.machine import Table, TableSettings
from controller.table.views import dealer_view, public_state
from drivers.buttons import DealerPanel
from drivers.chips import ChipRegistry
from drivers.display import LogRenderer, NullRenderer, Renderer, TerminalRenderer
from drivers.inputs import CardDrawn, DeviceOffline, DriverInput
from drivers.rfid import RfidDriver
from drivers.shoe import ShoeDriver

log = logging.getLogger(__name__)

JOURNAL_NAME = "journal.log"
CHECKPOINT_NAME = "checkpoint.json"
TICK = 1.0
"""Seconds between two looks at the clock for the game (:meth:`Daemon.tick`)."""
REPLAY_WINDOW = 10_000
"""Events the sync socket can always replay (pit-events.md section 2)."""


def make_renderer(mode: str) -> Renderer:
    """The dealer display for ``[display] mode``."""
    if mode == "terminal":
        return TerminalRenderer(sys.stdout)
    if mode == "log":
        return LogRenderer(sys.stderr)
    return NullRenderer()


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
        self.registry = ChipRegistry.load(config.chip_registry)
        spec = GAMES[config.game]
        settings = TableSettings(
            table_id=config.table_id, game_name=config.game, seats=config.seats,
            limits={"min_bet": config.limits.min_bet, "max_bet": config.limits.max_bet},
            buttons=tuple(config.buttons),
        )
        self.table = Table(settings, spec.make(config.rules, config.limits), clock=now_timestamp,
                           write=self.write)
        self.renderer = make_renderer(config.display.mode)
        self.supervisors = SupervisorGate(config.supervisors)
        self.stopping = asyncio.Event()
        self.failure: BaseException | None = None
        """Why the daemon stopped by itself (the journal could not be written), else None."""
        self.pit: PitServer | None = None
        self.shoe: ShoeDriver | None = None
        self.rfid: RfidDriver | None = None
        self.panel: DealerPanel | None = None

    async def run(self) -> None:
        """Run until SIGTERM or SIGINT, then stop cleanly."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.stopping.set)
        saved = self.checkpoint
        replayed = self.table.recover(self.journal.records(after=saved.seq if saved else 0),
                                      saved.state if saved else None)
        log.info("journal at seq %d: %s, %d events replayed", self.journal.last_seq,
                 f"state from the checkpoint at seq {saved.seq}" if saved else "no checkpoint used",
                 replayed)
        config = self.config
        curve = None
        if config.pit.curve_secret_key is not None and config.pit.curve_clients is not None:
            curve = CurveKeys(config.pit.curve_secret_key, config.pit.curve_clients)
        self.pit = PitServer(
            config.table_id, publish=config.pit.publish, sync=config.pit.sync,
            control=config.pit.control, snapshot=self.snapshot, history=self.history,
            last_seq=lambda: self.table.state.seq, on_command=self.command, curve=curve,
        )
        await self.pit.start()
        self.table.set_publisher(self.pit.publish)
        damage = self.journal.damage
        self.table.open(
            recovered=self.journal.last_seq > 0,
            journal_damage=None if damage is None else
            f"journal tail cut at byte {damage.offset} ({damage.reason}); kept in {damage.quarantine}",
        )
        self.check_integrity()
        self.shoe = ShoeDriver(config.shoe_port, on_input=self.dispatch,
                               shoe_id=self.table.state.shoe.shoe_id)
        self.rfid = RfidDriver(config.rfid_port, on_input=self.dispatch, antennas=config.antennas,
                               registry=self.registry)
        self.panel = DealerPanel(config.buttons, config.lights, loop=loop, on_press=self.panel_pressed)
        await self.shoe.start()
        await self.rfid.start()
        self.refresh()
        boards_checked = loop.call_later(self.shoe.link.offline_after, self.check_boards)
        self.ticking = loop.call_later(TICK, self.tick)
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
        except Exception:
            log.exception("internal error on the table's clock")
        if self.table.state.seq != seq:
            self.refresh()
        self.ticking = asyncio.get_running_loop().call_later(TICK, self.tick)

    def check_boards(self) -> None:
        """Some time after start, a board that the journal left online but that has not answered
        since is offline (its link never came up, so the link will not say so itself)."""
        for driver in (self.shoe, self.rfid):
            if driver is not None and not driver.is_online and self.table.state.devices[driver.device].online:
                self.dispatch(DeviceOffline(driver.device, "no answer since the controller started"))

    def check_integrity(self) -> None:
        """Check the installed files against the manifest, if one is configured."""
        manifest = self.config.integrity_manifest
        if manifest is None:
            return
        problems = integrity.check(manifest)
        for problem in problems:
            log.critical("software integrity: %s", problem)
        self.table.integrity_alerts(problems)

    async def close(self) -> None:
        """Stop the boards, the buttons and the sockets; the journal is already durable."""
        for driver in (self.shoe, self.rfid):
            if driver is not None:
                await driver.close()
        if self.panel is not None:
            self.panel.close()
        if self.pit is not None:
            await self.pit.close()
        self.renderer.close()
        self.journal.close()

    def write(self, records: Sequence[Record]) -> None:
        """Journal the events of one step. If that fails, nothing more can be made durable: the
        daemon stops (and systemd starts it again, to recover from what the journal holds)."""
        try:
            self.journal.append(*records)
        except BaseException as error:
            if self.failure is None:
                log.critical("the journal cannot be written (%s): stopping the table", error)
                self.failure = error
                self.stopping.set()
            raise

    def dispatch(self, item: DriverInput) -> None:
        """One input from a driver, on the loop; a failure is logged and never stops the table."""
        try:
            self.table.handle(item)
        except Exception:
            log.exception("input %s could not be handled", _describe(item))
            self.table.notice = f"internal error handling {type(item).__name__}: see the log"
        self.refresh()

    def panel_pressed(self, button: str) -> None:
        """A button pressed on the dealer's panel (a refusal shows on the display)."""
        self.press(button)

    def press(self, button: str, amount: int | None = None) -> str | None:
        """A button pressed on the panel or through the control socket (with an ``amount`` for an
        action whose amount no spot holds); returns a refusal or None."""
        return self.guarded(lambda: self.table.press(button, amount), f"pressing {button}")

    def guarded(self, step: Callable[[], str | None], what: str = "handling a command") -> str | None:
        """Run one step of the table on the loop; a failure is logged and refused, never fatal."""
        try:
            reason = step()
        except Exception:
            log.exception("internal error %s", what)
            reason = f"internal error {what}: see the log"
            self.table.notice = reason
        self.refresh()
        return reason

    def refresh(self) -> None:
        """After every input: a checkpoint if one is due, and the display and lights up to date."""
        self.save_checkpoint()
        view = dealer_view(self.table)
        self.renderer.show(view)
        if self.panel is not None:
            self.panel.set_live(view.live_buttons)
        if self.rfid is not None:
            seat = self.table.seat_in_turn()
            lit = self.table.game.betting_lights if self.table.phase == "betting" else ()
            self.rfid.light_spots({a for a, (s, spot) in self.config.antennas.items()
                                   if s == seat or spot in lit})

    def save_checkpoint(self) -> None:
        """Write a checkpoint between hands, every :data:`checkpoint.EVERY` events."""
        state = self.table.state
        since = self.checkpoint.seq if self.checkpoint is not None else 0
        if state.in_hand or state.seq - since < checkpoint.EVERY:
            return
        try:
            self.checkpoint = checkpoint.save(self.checkpoint_path, self.journal, state.checkpoint())
        except OSError:
            log.exception("checkpoint not written; the journal is still complete")

    def snapshot(self) -> dict[str, Any]:
        """The sync socket's snapshot: the state as of the last event."""
        return {"seq": self.table.state.seq, "state": public_state(self.table)}

    def history(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        """Held events from ``from_seq`` on, byte for byte as published."""
        return [(r.topic.encode(), r.body) for r in self.journal.since(from_seq)]

    async def command(self, request: dict[str, Any]) -> dict[str, Any]:
        """A control command (docs/control.md); one that carries ``supervisor`` is taken only with
        that supervisor's PIN, which goes no further than this check."""
        cmd = request.get("cmd")
        if "supervisor" in request:
            refused = await self.authenticate(request)
            if refused is not None:
                return {"ok": False, "error": refused}
            request = {key: value for key, value in request.items() if key != "pin"}
        if cmd in ("press", "act"):
            field = "button" if cmd == "press" else "action"
            name, amount = request.get(field), request.get("amount")
            if not isinstance(name, str):
                return {"ok": False, "error": f"{cmd} needs a {field} name"}
            if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
                return {"ok": False, "error": "amount must be a whole number of cents"}
            reason = self.press(name, amount)
            return {"ok": True} if reason is None else {"ok": False, "error": reason}
        if isinstance(cmd, str) and cmd in self.table.game.commands:
            reason = self.guarded(lambda: self.table.command(cmd, request))
            return {"ok": True} if reason is None else {"ok": False, "error": reason}
        if cmd == "links":
            return {"ok": True, "links": {
                driver.device: {"online": driver.is_online, **driver.stats.snapshot()}
                for driver in (self.shoe, self.rfid) if driver is not None
            }}
        return {"ok": False, "error": f"unknown command {cmd!r}"}

    async def authenticate(self, request: dict[str, Any]) -> str | None:
        """Check a supervisor's id and PIN (the slow hash runs off the loop); every refusal is
        logged with the id, never the PIN. Returns None when the supervisor is who they say."""
        supervisor, pin = request.get("supervisor"), request.get("pin")
        refused = self.supervisors.before(supervisor, pin, time.monotonic())
        if refused is None:
            assert isinstance(supervisor, str) and isinstance(pin, str)
            gate = self.supervisors
            matched = await asyncio.get_running_loop().run_in_executor(
                None, lambda: verify_pin(gate.stored(supervisor), pin))
            refused = self.supervisors.after(matched, time.monotonic())
        if refused is not None:
            log.warning("supervisor command %r for %r refused: %s", request.get("cmd"), supervisor, refused)
        return refused
