"""What every board driver shares: one board behind a :class:`HostLink`, started by name.

A board driver is a plug-in: a :class:`BoardDriver` subclass named in the
entry-point group ``table_controller.boards`` (the shoe's and the RFID reader's
in ``pyproject.toml``), configured as ``[devices.<name>] port``. The daemon
starts each configured board with :meth:`BoardDriver.from_setup`.

A :class:`BoardDriver` turns the link's events into plain inputs: the board
coming online (only if the board on the port is the kind expected there),
going offline, its STATUS flags when they change, and FAULTs: one input for a
fault and its repeats within the next 10 s (docs/protocol.md section 3), so a
fault that goes on recurring is raised again every 10 s or so.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from drivers.chips import ChipRegistry
from drivers.inputs import DeviceFault, DeviceOffline, DeviceOnline, DeviceStatus, DriverInput
from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import DEVICE_KINDS, Fault, Hello, Message, Status, raised_flags
from firmware_bridge.link.stats import LinkStats

FAULT_REPEAT_WINDOW = 10.0
"""Seconds within which a repeated FAULT is the same fault (it may come again after a link reset)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BoardSetup:
    """What the daemon hands a board driver it starts: the board's serial ``port``, where its
    inputs go, and what the table knows that a board may need (the betting spots over the
    ``antennas``, the chip ``registry``, the shoe loaded before a restart)."""

    port: str
    on_input: Callable[[DriverInput], None]
    antennas: Mapping[int, tuple[int, str]]
    registry: ChipRegistry
    shoe_id: int | None


class BoardDriver:
    """One board (``device`` is its kind: ``"shoe"``, ``"rfid"``) on the serial ``port``.

    Subclasses handle the board's own messages in :meth:`on_data`. Every input
    is handed to ``on_input`` on the loop thread, in the order it happened.
    """

    device = "board"
    flag_names: tuple[str, ...] = ()
    """The board's STATUS flag bits in words, bit ``n`` at ``n`` (from the protocol's
    :data:`~firmware_bridge.link.messages.STATUS_FLAGS`)."""

    def __init__(self, port: str, *, on_input: Callable[[DriverInput], None],
                 offline_after: float = 3.0, reopen_interval: float = 1.0,
                 fault_window: float = FAULT_REPEAT_WINDOW) -> None:
        self._emit = on_input
        self._fault_window = fault_window
        self._faults: dict[tuple[int, str], float] = {}
        """When each fault raised its input, within the last ``fault_window`` seconds."""
        self.status_flags: int | None = None
        self._accepted = False
        self.link = HostLink(port, on_message=self._on_message, on_online=self._on_online,
                             on_offline=self._on_offline, offline_after=offline_after,
                             reopen_interval=reopen_interval)

    @property
    def is_online(self) -> bool:
        """Whether the right board is connected and in a link session."""
        return self._accepted and self.link.online

    @property
    def stats(self) -> LinkStats:
        """The link's statistics."""
        return self.link.stats

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> BoardDriver:
        """The driver as the daemon starts it (a board that needs more of the setup overrides this)."""
        return cls(setup.port, on_input=setup.on_input)

    async def start(self) -> None:
        """Open the port (or keep trying) and start the link."""
        await self.link.start()

    async def close(self) -> None:
        """Close the link and the port."""
        await self.link.close()

    def light_spots(self, antennas: set[int]) -> None:
        """Light the betting spots over these antennas, on a board that has spot lights (after every
        input, the spots of the seat in turn); a board without them ignores it."""

    def on_data(self, message: Message) -> None:
        """A data message from the board, other than STATUS and FAULT."""
        raise NotImplementedError

    def _on_online(self, hello: Hello) -> None:
        kind = DEVICE_KINDS.get(hello.kind, f"kind {hello.kind}")
        if kind != self.device:
            self._accepted = False
            log.error("%s port %s: a %s board answered", self.device, self.link.port, kind)
            self._emit(DeviceFault(self.device, 0, f"a {kind} board is connected on the {self.device} port"))
            return
        self._accepted = True
        self._emit(DeviceOnline(self.device, hello.firmware, hello.serial))

    def _on_offline(self, reason: str) -> None:
        if self._accepted:
            self._accepted = False
            self._emit(DeviceOffline(self.device, reason))

    def _on_message(self, message: Message) -> None:
        if not self._accepted:
            return
        if isinstance(message, Status):
            if message.flags != self.status_flags:
                self.status_flags = message.flags
                self._emit(DeviceStatus(self.device, raised_flags(self.flag_names, message.flags)))
        elif isinstance(message, Fault):
            now = asyncio.get_running_loop().time()
            self._faults = {k: t for k, t in self._faults.items() if now - t <= self._fault_window}
            key = (message.code, message.text)
            if key not in self._faults:
                self._faults[key] = now
                self._emit(DeviceFault(self.device, message.code, message.text))
        else:
            self.on_data(message)
