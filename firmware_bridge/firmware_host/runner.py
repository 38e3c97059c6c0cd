"""The reference firmware run as a board on the host: its board core and app on a pty, one asyncio loop.

:class:`FirmwareRunner` builds the board exactly as the Pico's main.py does
(``main.build`` with a :class:`~firmware_bridge.firmware_host.machine_fake.FakeMachine`)
and runs it on the caller's loop: the pty is watched with ``loop.add_reader``,
the board core is polled then and at the deadline each poll returns
(``loop.call_at``), and the physical model's timelines are ``loop.call_later``
actions. No threads, no sleeps, no busy loop. Time is the loop's clock in ms.

:meth:`~FirmwareRunner.reboot` models a watchdog reset: the board's RAM is
lost (a new core, app and ``machine``, the link's unacknowledged frames gone),
the watchdog scratch registers and the flash (the shoe id counter, a real file
in ``folder``) are kept, and the physical world (cards, pins' levels) stays.
:meth:`~FirmwareRunner.power_cycle` loses the scratch too.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_bridge.firmware import main as firmware_main
from firmware_bridge.firmware_host.machine_fake import PWRON_RESET, WDT_RESET, FakeMachine
from firmware_bridge.firmware_host.rfid_world import RfidWorld
from firmware_bridge.firmware_host.shoe_world import ShoeWorld, Timeline
from firmware_bridge.kernel.json import JsonObject, int_at, object_at
from firmware_bridge.simulator.pty_port import PtyPort


class FirmwareRunner:
    """A reference-firmware board behind a pty (``link``: a stable symlink to it); ``folder`` is its flash.

    ``config`` is the board's ``board.json`` (firmware_host.flash.board_config): a shoe or an RFID reader.
    """

    def __init__(self, config: JsonObject, folder: Path, *, link: Path | None = None,
                 rng: random.Random | None = None) -> None:
        kind = config.get("kind")
        if kind not in ("shoe", "rfid") or not isinstance(kind, str):
            raise ValueError(f"no reference firmware for a {kind!r} board")
        self.config = config
        self.kind = kind
        self.link = link
        self.rng = rng or random.Random()
        self.folder = folder
        self.ids_path = folder / "shoe_ids.txt"
        if not self.ids_path.exists():  # a board's first boot: a random first shoe id, from the seed
            self.ids_path.write_text(f"{self.rng.randrange(1, 1 << 31)}\n")
        self.scratch = [0, 0, 0, 0]
        """The watchdog scratch registers: kept across :meth:`reboot`."""
        self.shoe: ShoeWorld | None = None
        """The physical shoe (a shoe board)."""
        self.rfid: RfidWorld | None = None
        """The PN5180 and the chips on the spots (an RFID board)."""
        if self.kind == "shoe":
            pins = object_at(config, "pins")
            self.shoe = ShoeWorld({name: int_at(pins, name) for name in ("beam", "load")},
                                  int_at(config, "scanner_uart", 0), self.rng,
                                  int_at(config, "beam_blocked_level", 0))
        else:
            self.rfid = RfidWorld(config)
        self.boots = 0
        self.core: Any = None
        """The firmware's board core (firmware/board.py's ``Board``): MicroPython, type-checked on its own
        against the rp2 stubs (``make lint``), so untyped here; None before :meth:`start`."""
        self.machine: FakeMachine | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port: PtyPort | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []
        self._closed = False

    @property
    def world(self) -> ShoeWorld:
        """The physical shoe; raises for an RFID board."""
        if self.shoe is None:
            raise ValueError("this is not a shoe board")
        return self.shoe

    # --- power, port, time ----------------------------------------------------

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the board is not running (start() it first)")
        return self._loop

    @property
    def port(self) -> PtyPort:
        if self._port is None:
            raise RuntimeError("the board is not running (start() it first)")
        return self._port

    def now_ms(self) -> int:
        """The board's clock: the loop's, in ms."""
        return int(self.loop.time() * 1000)

    async def start(self) -> str:
        """Power on: open the pty and boot; returns the path for the host."""
        self._loop = asyncio.get_running_loop()
        self._port = PtyPort(self._loop, self.link, self.wake)
        path = self._port.plug()
        self._boot(PWRON_RESET)
        return path

    async def close(self) -> None:
        """Power off."""
        self._closed = True
        if self._timer is not None:
            self._timer.cancel()
        if self._port is not None:
            self._port.unplug()
        for _, waiter in self._waiters:
            waiter.cancel()
        self._waiters.clear()

    def reboot(self) -> None:
        """A watchdog reset: RAM lost, scratch and flash kept, the world unchanged."""
        self._boot(WDT_RESET)

    def power_cycle(self) -> None:
        """Power off and on: RAM and the watchdog scratch lost, the flash kept, the world unchanged."""
        self.scratch[:] = [0] * len(self.scratch)
        self._boot(PWRON_RESET)

    def _boot(self, cause: int) -> None:
        self.boots += 1
        world: ShoeWorld | RfidWorld | None = self.shoe or self.rfid
        assert world is not None
        self.machine = FakeMachine(world.levels, cause)
        world.attach(self.machine)
        self.core = firmware_main.build(self.config, self.machine, self.port, self.now_ms(), self.scratch,
                                        str(self.ids_path), time=self.rfid.time if self.rfid else None)
        if self.rfid is not None:
            self.core.app = self.rfid.watch(self.core.app)
        self.wake()

    # --- running the core -----------------------------------------------------

    def wake(self) -> None:
        """Run the core now (input arrived, or the world changed)."""
        if not self._closed:
            self.loop.call_soon(self._poll)

    def _poll(self) -> None:
        if self._closed:
            return
        deadline = self.core.poll(self.now_ms())
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if deadline is not None:
            self._timer = self.loop.call_at(deadline / 1000, self._poll)
        for waiter in [w for w in self._waiters if w[0]() and not w[1].done()]:
            waiter[1].set_result(None)
        self._waiters = [w for w in self._waiters if not w[1].done()]

    async def until(self, condition: Callable[[], bool]) -> None:
        """Return once ``condition()`` holds after a poll of the core."""
        if condition():
            return
        waiter = self.loop.create_future()
        self._waiters.append((condition, waiter))
        await waiter

    async def settle_spot(self, antenna: int) -> None:
        """Return once the reader's last INVENTORY of ``antenna`` lists what is on it."""
        rfid = self.rfid
        if rfid is None:
            raise ValueError("this is not an RFID board")
        self.wake()
        await self.until(lambda: rfid.settled(antenna))

    async def play(self, timeline: Timeline) -> None:
        """Do the physical actions of ``timeline`` at their times, then wait until the shoe has decided."""
        done = self.loop.create_future()

        def act(action: Callable[[], None]) -> None:
            action()
            self.wake()

        for at, action in timeline:
            self.loop.call_later(at / 1000, act, action)
        last = max((at for at, _ in timeline), default=-1)
        self.loop.call_later((last + 1) / 1000, done.set_result, None)
        await done
        await self.until(lambda: not self.core.app.busy())

    # --- what the host sees ---------------------------------------------------

    @property
    def in_session(self) -> bool:
        return bool(self.core.link.in_session)

    @property
    def pending(self) -> int:
        return int(self.core.link.pending)

    async def wait_idle(self) -> None:
        """Return once no data message waits for the host's acknowledgement."""
        await self.until(lambda: self.core.link.pending == 0)
