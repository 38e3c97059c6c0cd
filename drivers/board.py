"""A board is a role played through a driver: what every role and every driver shares.

The table knows each board by its ROLE (``"shoe"``, ``"rfid"``: the section
``[devices.<role>]``): what the board's readings mean to the table and what the
table is told of them (the shoe's cards, the spot reader's wagers with their
crosstalk and chip registry). A :class:`Role` hands the table plain inputs: the
board coming online, going offline, its status flags when they change, and
faults (one input for a fault and its repeats within the next 10 s, so a fault
that goes on recurring is raised again every 10 s or so).

A DRIVER (:class:`BoardDriver`) is the protocol that talks to the board over its
transport: the link protocol of ``firmware_bridge/link`` (:mod:`drivers.link_driver`,
the default), or any other a plug-in brings (``[devices.<role>] driver``). It tells
its role what the board read, in the role's words (:meth:`drivers.shoe.Shoe.card`,
:meth:`drivers.rfid.SpotReader.inventory`), and answers the daemon's few questions:
whether the board is online, how long to wait for it at start, its counters.

Roles and drivers are plug-ins (entry-point groups ``table_controller.boards`` and
``table_controller.drivers``); the daemon starts each configured board with
:meth:`BoardDriver.from_setup`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from drivers.chips import ChipRegistry
from drivers.inputs import DeviceFault, DeviceOffline, DeviceOnline, DeviceStatus, DriverInput
from firmware_bridge.link.messages import raised_flags

FAULT_REPEAT_WINDOW = 10.0
"""Seconds within which a repeated fault is the same fault (it may come again after a link reset)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class BoardSetup:
    """What the daemon hands a board it starts: its ``role`` (the ``[devices.<role>]`` name), the
    driver's ``options`` (as the driver's :attr:`BoardDriver.Options` parsed them from that section),
    where its inputs go, and what the table knows that a role may need (the betting spots over the
    ``antennas``, the chip ``registry``, the shoe loaded before a restart: its id, its decks and the
    card read at each index so far)."""

    role: str
    options: object
    """An instance of the driver's own ``Options`` (the driver's ``__init__`` names that type)."""
    on_input: Callable[[DriverInput], None]
    antennas: Mapping[int, tuple[int, str]]
    registry: ChipRegistry
    shoe_id: int | None
    shoe_decks: int = 0
    """The decks of the shoe ``shoe_id`` (0: none loaded)."""
    shoe_read: Mapping[int, str | None] = field(default_factory=dict)
    """The card read at each index of that shoe, in pit notation (None: unreadable), as journaled."""


class Role:
    """What the table is told of one board (``device`` is the role: ``"shoe"``, ``"rfid"``),
    whatever protocol its driver speaks. Every input goes to ``on_input`` on the loop thread, in
    the order it happened."""

    device = "board"
    flag_names: tuple[str, ...] = ()
    """The board's status flag bits in words, bit ``n`` at ``n``."""

    def __init__(self, on_input: Callable[[DriverInput], None], *,
                 fault_window: float = FAULT_REPEAT_WINDOW) -> None:
        self._emit = on_input
        self._fault_window = fault_window
        self._faults: dict[tuple[int, str], float] = {}
        """When each fault raised its input, within the last ``fault_window`` seconds."""
        self.status_flags: int | None = None
        """The status flags last reported (None: none yet)."""
        self.memory_errors = 0
        """The board's count of steps dropped for lack of memory, as last reported."""

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> Role:
        """The role as the daemon starts it (a role that needs more of the setup overrides this)."""
        return cls(setup.on_input)

    def online(self, firmware: str, serial: str) -> None:
        """The right board answered: it is online, running ``firmware``, serial number ``serial``."""
        self._emit(DeviceOnline(self.device, firmware, serial))

    def wrong_board(self, found: str) -> None:
        """A board of another kind (``found``) answered on this role's port: it stays offline."""
        self._emit(DeviceFault(self.device, 0, f"a {found} board is connected on the {self.device} port"))

    def offline(self, reason: str) -> None:
        """The board that was online fell silent or its port failed."""
        self._emit(DeviceOffline(self.device, reason))

    def status(self, flags: int, memory_errors: int = 0) -> None:
        """The board's status flags (bit ``n`` is :attr:`flag_names` ``[n]``, as in the link protocol's
        STATUS): handed on in words when they change. A count of ``memory_errors`` above the last
        one reported (the board ran out of memory again) is a fault of code 0 (the host's own), in
        words; a count lower than the last is a board that restarted, taken as it is."""
        if flags != self.status_flags:
            self.status_flags = flags
            self._emit(DeviceStatus(self.device, raised_flags(self.flag_names, flags)))
        if memory_errors > self.memory_errors:
            self._emit(DeviceFault(self.device, 0, (
                f"the board ran out of memory ({memory_errors} times since it started): each time a "
                "step of its work was dropped and done again, nothing lost; if it goes on, the table "
                "holds more than its firmware can: call a technician")))
        self.memory_errors = memory_errors

    def fault(self, code: int, text: str, now: float) -> None:
        """A fault the board reported at ``now`` (seconds on the loop's clock): handed on unless it
        repeats one handed on within the fault window."""
        self._faults = {k: t for k, t in self._faults.items() if now - t <= self._fault_window}
        key = (code, text)
        if key not in self._faults:
            self._faults[key] = now
            self._emit(DeviceFault(self.device, code, text))


class BoardDriver:
    """The protocol that talks to one board playing ``role``.

    A subclass names the roles it can play in :attr:`roles` and its ``[devices.<role>]`` options
    in :attr:`Options` (a frozen dataclass, checked like a game's options: every key typed, unknown
    keys refused, and its own ``problems()`` for the rest), and tells the role what the board says.
    """

    roles: tuple[str, ...] = ()
    """The roles this driver can play (the ``[devices.<role>]`` it may be named in)."""

    @dataclass(frozen=True)
    class Options:
        """The driver's ``[devices.<role>]`` keys beside ``driver`` (by default just ``port``)."""

        port: str
        """The board's serial port."""

    def __init__(self, options: object, role: Role) -> None:
        self.options = options
        """The driver's ``Options``, as :meth:`from_setup` hands them on."""
        self.role = role

    @property
    def device(self) -> str:
        """The role this board plays (its name in ``device.online``, ``links``)."""
        return self.role.device

    @classmethod
    def beside(cls, options: object, folder: Path) -> tuple[object, list[str]]:
        """The options as the driver runs with them, the configuration file being in ``folder`` (a
        relative path taken from there), and what is wrong with them there beyond their types (a file
        missing or unusable), one line each naming its key (``designs: ...``). By default the options
        as they are: the driver names no file."""
        return options, []

    @classmethod
    def from_setup(cls, setup: BoardSetup, role: Role) -> BoardDriver:
        """The driver of ``role`` as the daemon starts it."""
        return cls(setup.options, role)

    @property
    def is_online(self) -> bool:
        """Whether the right board is connected and talking."""
        raise NotImplementedError

    @property
    def offline_after(self) -> float:
        """Seconds of silence after which the board is offline (the daemon waits that long at start
        before it calls a board the journal left online but that never answered offline)."""
        raise NotImplementedError

    def counters(self) -> dict[str, int]:
        """The board's connection counters, by name (what ``links`` reports beside ``online``)."""
        raise NotImplementedError

    async def start(self) -> None:
        """Open the port (or keep trying) and start talking."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop talking and close the port."""
        raise NotImplementedError

    def light_spots(self, antennas: set[int]) -> None:
        """Light the betting spots over these antennas, on a board that has spot lights (after every
        input, the spots of the seat in turn); a board without them ignores it."""
