"""A second spot-reader driver, outside the shipped package: a reader of another brand whose board
speaks lines of text instead of the link protocol. Installed as a plug-in (entry point
``text-reader`` in ``table_controller.drivers``) and named in ``[devices.rfid] driver``.

The line protocol (ASCII, one message a line ending in ``\\n``):

board to host
    ``HELLO <firmware> <serial>`` (at start, and in answer to ``HELLO?``), ``ALIVE`` (at least
    every second), ``SPOT <antenna> [<uid>=<cents> ...]`` (exactly these chips on the antenna),
    ``FAULT <code> <text>``.
host to board
    ``HELLO?`` (when the host opens the port), ``OK`` (a SPOT line handed on), ``LIGHTS <mask>``
    (the spots to light, bit ``n - 1`` for antenna ``n``).

A line that is none of these is counted and logged, never a crash. Options: ``port`` and
``silence`` (seconds without a line before the board is offline, 1..60, default 3).
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass
from typing import Any

import serial

from drivers.board import BoardDriver, Role
from drivers.rfid import SpotReader

log = logging.getLogger(__name__)

CHECK_EVERY = 0.25
"""Seconds between the checks for silence, and between two tries to open the port."""


class TextReaderDriver(BoardDriver):
    """The spot reader of another brand, on a serial port, in lines of text."""

    roles = ("rfid",)

    @dataclass(frozen=True)
    class Options:
        """``[devices.rfid]`` for this driver: ``port`` and ``silence``."""

        port: str
        silence: int = 3

        def problems(self) -> list[str]:
            """What is wrong beyond the types."""
            if not 1 <= self.silence <= 60:
                return [f"silence: must be 1..60 seconds, not {self.silence}"]
            return []

    def __init__(self, options: Any, role: Role) -> None:
        super().__init__(options, role)
        assert isinstance(role, SpotReader)
        self.reader = role
        self._port: serial.Serial | None = None
        self._buffer = b""
        self._online = False
        self._heard = 0.0
        self._lights = 0
        self._timer: asyncio.TimerHandle | None = None
        self._counts = {"lines": 0, "bad_lines": 0, "opened": 0}

    @property
    def is_online(self) -> bool:
        """Whether the reader said HELLO and has not fallen silent since."""
        return self._online

    @property
    def offline_after(self) -> float:
        """The configured silence."""
        return float(self.options.silence)

    def counters(self) -> dict[str, Any]:
        """Lines read, lines that made no sense, times the port was opened."""
        return dict(self._counts)

    async def start(self) -> None:
        """Open the port, or keep trying."""
        self._tick()

    async def close(self) -> None:
        """Stop and close the port."""
        if self._timer is not None:
            self._timer.cancel()
        self._close_port()

    def light_spots(self, antennas: set[int]) -> None:
        """Send ``LIGHTS`` when the set changes."""
        mask = sum(1 << (antenna - 1) for antenna in antennas)
        if mask != self._lights:
            self._lights = mask
            self._write(f"LIGHTS {mask}")

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        if self._port is None:
            self._open(loop)
        elif self._online and loop.time() - self._heard > self.options.silence:
            self._went_offline(f"no line for {self.options.silence} s")
        self._timer = loop.call_later(CHECK_EVERY, self._tick)

    def _open(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            port = serial.Serial(self.options.port, 115200, timeout=0, exclusive=True)
        except (serial.SerialException, OSError, ValueError):
            return
        os.set_blocking(port.fileno(), False)
        self._port, self._buffer = port, b""
        self._counts["opened"] += 1
        loop.add_reader(port.fileno(), self._on_readable)
        self._write("HELLO?")

    def _close_port(self) -> None:
        if self._port is not None:
            asyncio.get_running_loop().remove_reader(self._port.fileno())
            self._port.close()
            self._port = None

    def _went_offline(self, reason: str) -> None:
        self._close_port()
        if self._online:
            self._online = False
            self.reader.offline(reason)

    def _write(self, line: str) -> None:
        if self._port is not None:
            try:
                self._port.write(line.encode() + b"\n")
            except (serial.SerialException, OSError) as error:
                self._went_offline(f"port failed: {error}")

    def _on_readable(self) -> None:
        port = self._port
        try:
            data = port.read(4096) if port is not None else b""
        except (serial.SerialException, OSError) as error:
            self._went_offline(f"port failed: {error}")
            return
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            self._counts["lines"] += 1
            self._heard = asyncio.get_running_loop().time()
            if not self._line(line.decode("ascii", "replace").strip().split()):
                self._counts["bad_lines"] += 1
                log.warning("text reader sent a line that makes no sense: %r", line[:80])

    def _line(self, words: list[str]) -> bool:
        """Handle one line; False if it makes no sense."""
        match words:
            case ["HELLO", firmware, number]:
                if not self._online:
                    self._online = True
                    self.reader.online(firmware, number)
                    self._write(f"LIGHTS {self._lights}")
                return True
            case ["ALIVE"]:
                return True
            case ["SPOT", antenna, *chips] if self._online and antenna.isdigit():
                read = [chip.partition("=") for chip in chips]
                if not all(sep and cents.isdigit() for _, sep, cents in read):
                    return False
                self.reader.inventory(int(antenna), [(uid, int(cents)) for uid, _, cents in read])
                self._write("OK")
                return True
            case ["FAULT", code, *text] if self._online and code.isdigit():
                self.reader.fault(int(code), " ".join(text), asyncio.get_running_loop().time())
                return True
        return False
