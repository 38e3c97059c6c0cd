"""Types of the hardware objects the reader firmware is handed (for mypy only: never imported on the board).

The firmware uses only these methods of MicroPython's ``machine.SPI`` and ``machine.Pin``, so the
PN5180 model's fakes (firmware_bridge/firmware_host) and the real objects both fit.
"""

from typing import Protocol

class SPI(Protocol):
    def write(self, buf: bytes, /) -> int | None: ...
    def readinto(self, buf: bytearray, write: int = 0x00, /) -> int | None: ...

class Pin(Protocol):
    def value(self, x: int | None = None, /) -> int | None: ...
