"""Fakes of MicroPython's ``machine`` module for running the reference firmware under CPython.

:class:`FakeMachine` is what main.py's ``build`` gets instead of ``machine``:
``Pin`` (``value``, ``irq``), ``UART`` (``any``, ``read``, ``write``), ``WDT``
(``feed``) and ``reset_cause``, with the rp2 port's constants. The physical
models drive it from outside: :meth:`FakeMachine.drive` sets the level on a
pin number (firing its IRQ handler as the rp2 port's soft IRQ would), and a
:class:`FakeUart`'s :meth:`~FakeUart.receive` puts bytes in its receive buffer.

Pin levels live in a dict the caller keeps (the physical world), so a new
``FakeMachine`` after a reboot sees a beam still blocked; pins, UARTs and
their buffers are new (the board's RAM and peripherals were reset).

The module runs on MicroPython too: the firmware's tests on MicroPython's VM (firmware_host/vm) use it
as the board's ``machine`` (what the type checker alone needs is under ``TYPE_CHECKING``).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: MicroPython has neither collections.abc nor typing
    from collections.abc import Callable
    from typing import Protocol

    class DevicePin(Protocol):
        """A pin of a device model (a PN5180's NSS, BUSY, RST): ``machine.Pin``'s ``value()``."""

        def value(self, x: int | None = None) -> int | None:
            """Read the level (``value()``) or drive it (``value(x)``)."""

    class SpiBus(Protocol):
        """What ``machine.SPI(...)`` gives: the bus of the device model wired to it."""

        def write(self, buf: bytes) -> None:
            """Clock ``buf`` out."""

        def readinto(self, buf: bytearray, write: int = 0x00) -> None:
            """Clock ``len(buf)`` bytes in, sending ``write``."""

        def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
            """Clock ``write_buf`` out and as many bytes into ``read_buf``."""

PWRON_RESET = 1
WDT_RESET = 3


class FakePin:
    """A GPIO: its level comes from the machine's levels; ``irq`` handlers fire on the edges asked for."""

    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, machine: FakeMachine, pin: int, mode: int = 0, pull: int | None = None,
                 value: int | None = None) -> None:
        self.machine = machine
        self.pin = pin
        if pull == self.PULL_UP:
            machine.levels.setdefault(pin, 1)
        if value is not None:
            machine.levels[pin] = 1 if value else 0
        self._handler: Callable[[FakePin], None] | None = None
        self._trigger = 0
        machine.pins[pin] = self

    def value(self, level: int | None = None) -> int:
        """The pin's level (an output pin is set when ``level`` is given)."""
        if level is not None:
            self.machine.levels[self.pin] = 1 if level else 0
        return self.machine.levels.get(self.pin, 0)

    def irq(self, handler: Callable[[FakePin], None] | None = None, trigger: int = 12) -> None:
        """Call ``handler(pin)`` on the edges of ``trigger`` (IRQ_FALLING, IRQ_RISING or both)."""
        self._handler = handler
        self._trigger = trigger

    def edge(self, rising: bool) -> None:
        """The level changed (called by the machine): run the handler if this edge is wanted."""
        wanted = self.IRQ_RISING if rising else self.IRQ_FALLING
        if self._handler is not None and self._trigger & wanted:
            self._handler(self)


class FakeUart:
    """A UART's receive side: bytes the outside world sent wait in a buffer of ``rxbuf`` bytes."""

    def __init__(self, machine: FakeMachine, uart: int, baudrate: int = 115200, *, rxbuf: int = 256,
                 **pins: object) -> None:
        self.uart = uart
        self.baudrate = baudrate
        self.rxbuf = rxbuf
        self.buffer = bytearray()
        self.overrun = 0
        """Bytes lost because the buffer was full."""
        self.written = bytearray()
        machine.uarts[uart] = self

    def receive(self, data: bytes) -> None:
        """Bytes arrive on RX (from the physical model)."""
        room = self.rxbuf - len(self.buffer)
        self.buffer += data[:room]
        self.overrun += max(0, len(data) - room)

    def any(self) -> int:
        """Bytes waiting."""
        return len(self.buffer)

    def read(self, count: int | None = None) -> bytes | None:
        """Up to ``count`` waiting bytes (all if None); None when there are none, as on the Pico."""
        if not self.buffer:
            return None
        size = len(self.buffer) if count is None else count
        data = bytes(self.buffer[:size])
        self.buffer = self.buffer[size:]      # MicroPython: no del of a bytearray slice
        return data

    def write(self, data: bytes) -> int:
        """Bytes sent on TX (kept, for a test to look at)."""
        self.written += data
        return len(data)


class FakeWdt:
    """The watchdog: counts its feeds (a runner that stops polling models a hang)."""

    def __init__(self, timeout: int = 5000) -> None:
        self.timeout = timeout
        self.feeds = 0

    def feed(self) -> None:
        """The firmware is alive."""
        self.feeds += 1


class PinFactory:
    """``machine.Pin`` of a :class:`FakeMachine`: makes pins, and has the class's constants."""

    IN = FakePin.IN
    OUT = FakePin.OUT
    PULL_UP = FakePin.PULL_UP
    PULL_DOWN = FakePin.PULL_DOWN
    IRQ_FALLING = FakePin.IRQ_FALLING
    IRQ_RISING = FakePin.IRQ_RISING

    def __init__(self, machine: FakeMachine) -> None:
        self.machine = machine

    def __call__(self, pin: int, mode: int = 0, pull: int | None = None,
                 value: int | None = None) -> FakePin | DevicePin:
        """``machine.Pin(id, mode, pull, value=...)``: a device's own pin if one is wired there."""
        device = self.machine.devices.get(pin)
        if device is not None:
            if value is not None:
                device.value(value)
            return device
        return FakePin(self.machine, pin, mode, pull, value)


class FakeMachine:
    """A ``machine`` module for one boot of a board; ``levels`` (pin number -> 0/1) outlives it.

    ``devices`` are pins that belong to a device model (a PN5180's NSS, BUSY, RST), handed out by
    ``Pin(n)`` instead of a plain pin; ``spi`` is what ``SPI(...)`` gives (the device's bus).
    """

    PWRON_RESET = PWRON_RESET
    WDT_RESET = WDT_RESET

    def __init__(self, levels: dict[int, int], reset_cause: int = PWRON_RESET) -> None:
        self.levels = levels
        self.pins: dict[int, FakePin] = {}
        self.uarts: dict[int, FakeUart] = {}
        self.wdt: FakeWdt | None = None
        self.devices: dict[int, DevicePin] = {}
        self.spi: SpiBus | None = None
        self._reset_cause = reset_cause
        self.Pin = PinFactory(self)

    def SPI(self, bus: int, **settings: object) -> SpiBus:
        """``machine.SPI(id, baudrate=..., ...)``: the bus of the device model wired to this machine."""
        if self.spi is None:
            raise OSError(f"nothing is wired to SPI{bus}")
        return self.spi

    def UART(self, uart: int, baudrate: int = 115200, *, rxbuf: int = 256, **pins: object) -> FakeUart:
        """``machine.UART(id, baudrate=..., tx=..., rx=..., rxbuf=...)``."""
        return FakeUart(self, uart, baudrate, rxbuf=rxbuf, **pins)

    def WDT(self, timeout: int = 5000) -> FakeWdt:
        """``machine.WDT(timeout=...)``."""
        self.wdt = FakeWdt(timeout)
        return self.wdt

    def reset_cause(self) -> int:
        """Why the board last started: PWRON_RESET or WDT_RESET."""
        return self._reset_cause

    def drive(self, pin: int, level: int) -> None:
        """The outside world sets ``pin`` to ``level``; the pin's IRQ fires on a change."""
        before = self.levels.get(pin, 0)
        self.levels[pin] = level
        if pin in self.pins and before != level:
            self.pins[pin].edge(rising=level > before)

