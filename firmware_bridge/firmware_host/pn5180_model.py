"""A register-level model of an NXP PN5180 behind MicroPython's ``machine.SPI`` API, with tags in the fields
of the antennas an analog multiplexer switches to it.

The firmware's driver (firmware_bridge/firmware/pn5180.py) talks to it exactly as to the chip: SPI frames
framed by NSS, the BUSY handshake (BUSY rises once a frame is clocked in and falls after NSS is released),
RST, and the host-interface commands WRITE_REGISTER(_OR/AND_MASK), READ_REGISTER, SEND_DATA, READ_DATA,
LOAD_RF_CONFIG, RF_ON and RF_OFF on the registers the driver uses (IRQ_STATUS, RX_STATUS, TX_CONFIG, CRC
configuration, Timer 1). A SEND_DATA reaches the tags of the antenna the multiplexer's select pins choose
while the field is on; their answers are combined as a receiver sees them (identical frames are one frame,
different ones a collision, RX_STATUS bit 18). It runs on MicroPython too, with tags.py
(tests/firmware/vm). The model counts the air time of each exchange
(``air_time``), the field's on and off times, and what each inventory slot held.

Faults: ``busy_stuck``, ``reset_after_frames`` (the chip restarts on its own in the middle of whatever
it is doing), ``mux_stuck`` (every select code reaches that antenna), ``out_of_memory_after_frames``
(the firmware's heap runs out at that frame: ``MemoryError`` out of the SPI call, once), and the tags'
own (tags.py).
"""

from __future__ import annotations

import time

from firmware_bridge.firmware_host import air_time
from firmware_bridge.firmware_host.tags import CMD_INVENTORY, FLAG_INVENTORY, Tag, with_crc

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: the model runs on MicroPython too (tests/firmware/vm)
    from collections.abc import Callable

IRQ_RX, IRQ_TX, IRQ_IDLE, IRQ_TX_RFOFF, IRQ_TX_RFON, IRQ_TIMER1 = 1, 2, 4, 1 << 8, 1 << 9, 1 << 12
IRQ_RX_SOF, IRQ_GENERAL_ERROR = 1 << 14, 1 << 17
RX_INTEGRITY_ERROR, RX_COLLISION = 1 << 16, 1 << 18
REG_SYSTEM_CONFIG, REG_IRQ_STATUS, REG_IRQ_CLEAR = 0x00, 0x02, 0x03
REG_TIMER1_CONFIG, REG_CRC_RX_CONFIG, REG_RX_STATUS = 0x0F, 0x12, 0x13
REG_TX_CONFIG, REG_CRC_TX_CONFIG = 0x18, 0x19
TX_DATA_ENABLE = 1 << 10
TIMER1_ENABLE, TIMER1_START_ON_TX_ENDED = 1, 1 << 11
TX_CONFIG_ISO15693 = 0x000007C0     # after LOAD_RF_CONFIG 0x0D: data, start, stop symbols (illustrative)
_monotonic: Callable[[], float] = getattr(time, "monotonic", time.time)
"""Seconds of a monotonic clock (MicroPython, in the VM tests, has no ``time.monotonic``: its ``time``)."""


class HostTime:
    """MicroPython's ``time.ticks_us``, ``ticks_diff`` and ``sleep_us`` on the host's clock (the driver's)."""

    @staticmethod
    def ticks_us() -> int:
        """Microseconds of a monotonic clock."""
        return time.perf_counter_ns() // 1000

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        """``a - b`` (the host's ticks do not wrap)."""
        return a - b

    @staticmethod
    def sleep_us(us: int) -> None:
        """Sleep ``us`` microseconds."""
        time.sleep(us / 1e6)


class ModelPin:
    """A GPIO with ``machine.Pin``'s ``value()``; ``on_change`` hears the firmware driving it."""

    def __init__(self, level: int = 0, on_change: object = None) -> None:
        self.level = level
        self.on_change = on_change

    def value(self, x: int | None = None) -> int | None:
        """Read the level (``value()``) or drive it (``value(x)``)."""
        if x is None:
            return self.level
        old, self.level = self.level, 1 if x else 0
        if callable(self.on_change) and old != self.level:
            self.on_change(self.level)
        return None


class _Busy:
    def __init__(self, model: PN5180Model) -> None:
        self.model = model

    def value(self, x: int | None = None) -> int | None:
        return self.model._busy_level()


class Stats:
    """What the model saw: air time, requests and inventory slots by what they held, field switching."""

    def __init__(self) -> None:
        self.air_us = 0.0
        self.requests = 0
        self.rounds = 0
        self.empty = 0
        self.single = 0
        self.collided = 0
        self.field_on = 0
        self.field_off_gaps_s: list[float] = []
        self.mux_switched_with_field_on = 0


class PN5180Model:
    """The chip, the multiplexer (``select`` pins, 4 for 16 antennas, 5 for 32: two 16-way multiplexers
    on S0 - S3, S4 enabling one or the other) and ``fields[antenna]`` (1-based)."""

    def __init__(self, antennas: int = 16) -> None:
        self.fields: dict[int, list[Tag]] = {n: [] for n in range(1, antennas + 1)}
        self.spi = self
        self.nss = ModelPin(1, self._on_nss)
        self.busy = _Busy(self)
        self.rst = ModelPin(1, self._on_rst)
        self.select = [ModelPin(0, self._on_select) for _ in range(max(1, len(bin(antennas - 1)) - 2))]
        self.stats = Stats()
        self.busy_stuck = False
        self.reset_after_frames: int | None = None
        self.mux_stuck: int | None = None
        self.out_of_memory_after_frames: int | None = None
        self.frames = 0
        self._reset_state()

    # -- what tests set up ---------------------------------------------------------------------

    def place(self, antenna: int, *tags: Tag) -> None:
        """Put ``tags`` in the field of ``antenna``."""
        self.fields[antenna].extend(tags)

    def clear(self, antenna: int) -> None:
        """Take every tag out of the field of ``antenna``."""
        self.fields[antenna].clear()

    def antenna(self) -> int:
        """The antenna the multiplexer connects (1-based)."""
        if self.mux_stuck is not None:
            return self.mux_stuck
        return 1 + sum(pin.level << bit for bit, pin in enumerate(self.select))

    # -- the chip's state ----------------------------------------------------------------------

    def _reset_state(self) -> None:
        self.registers = dict.fromkeys(range(0x2A), 0)
        self.registers[REG_IRQ_STATUS] = IRQ_IDLE
        self.rf_on = False
        self.in_reset = False
        self._frame = bytearray()
        self._reply = b""
        self._rx = b""
        self._busy_until_nss = False
        self._busy_reads = 1
        self._slot = 0
        self._round: dict[int, list[Tag]] = {}
        self._off_since: float | None = _monotonic()
        for tags in self.fields.values():
            for tag in tags:
                tag.power_off()

    def _busy_level(self) -> int:
        if self.busy_stuck or self.in_reset or self._busy_until_nss:
            return 1
        if self._busy_reads:
            self._busy_reads -= 1
            return 1
        return 0

    def _on_rst(self, level: int) -> None:
        if level == 0:
            self._reset_state()
            self.in_reset = True
        else:
            self.in_reset = False
            self._busy_reads = 1

    def _on_select(self, level: int) -> None:
        if self.rf_on:
            self.stats.mux_switched_with_field_on += 1

    def _on_nss(self, level: int) -> None:
        if level == 0:
            self._frame = bytearray()
            return
        if self._busy_until_nss:
            self._busy_until_nss = False
            self._busy_reads = 1
            if self._frame:
                self._command(bytes(self._frame))

    # -- SPI ------------------------------------------------------------------------------------

    def write(self, buf: bytes) -> None:
        """``machine.SPI.write``: clock ``buf`` into the chip (while NSS is low)."""
        if self.nss.level == 0 and not self.in_reset and not self.busy_stuck:
            self._frame += buf
            self._busy_until_nss = True

    def readinto(self, buf: bytearray, write: int = 0x00) -> None:
        """``machine.SPI.readinto``: clock the pending reply out of the chip."""
        reply = self._reply if self.nss.level == 0 and not self.busy_stuck else b""
        buf[:] = (reply + b"\xff" * len(buf))[: len(buf)]
        if self.nss.level == 0:
            self._reply = b""
            self._busy_until_nss = True

    def write_readinto(self, write_buf: bytes, read_buf: bytearray) -> None:
        """``machine.SPI.write_readinto``: both at once."""
        self.readinto(read_buf)
        self.write(write_buf)

    # -- commands -------------------------------------------------------------------------------

    def _command(self, frame: bytes) -> None:
        self.frames += 1
        if self.out_of_memory_after_frames is not None and self.frames >= self.out_of_memory_after_frames:
            self.out_of_memory_after_frames = None
            raise MemoryError("memory allocation failed, allocating 1036 bytes")
        if self.reset_after_frames is not None and self.frames >= self.reset_after_frames:
            self.reset_after_frames = None
            self._reset_state()
            return
        command, regs = frame[0], self.registers
        value = int.from_bytes(frame[2:6], "little") if len(frame) >= 6 else 0
        if command == 0x00 and len(frame) == 6:
            self._write(frame[1], value)
        elif command == 0x01 and len(frame) == 6:
            self._write(frame[1], regs.get(frame[1], 0) | value)
        elif command == 0x02 and len(frame) == 6:
            self._write(frame[1], regs.get(frame[1], 0) & value)
        elif command == 0x04 and len(frame) == 2:
            self._reply = regs.get(frame[1], 0).to_bytes(4, "little")
        elif command == 0x09 and len(frame) >= 2:
            self._send(frame[2:])
        elif command == 0x0A and len(frame) == 2:
            self._reply = self._rx
        elif command == 0x11 and len(frame) == 3 and frame[1:] == b"\x0d\x8d":
            regs[REG_TX_CONFIG] = TX_CONFIG_ISO15693
            regs[REG_CRC_TX_CONFIG] = regs[REG_CRC_RX_CONFIG] = 1
        elif command == 0x16 and len(frame) == 2:
            self._field(True)
        elif command == 0x17 and len(frame) == 2:
            self._field(False)

    def _write(self, reg: int, value: int) -> None:
        if reg == REG_IRQ_CLEAR:
            self.registers[REG_IRQ_STATUS] &= ~value
        elif reg not in (REG_IRQ_STATUS, REG_RX_STATUS):
            self.registers[reg] = value & 0xFFFFFFFF

    def _field(self, on: bool) -> None:
        if on == self.rf_on:
            return
        self.rf_on = on
        now = _monotonic()
        if on:
            self.stats.field_on += 1
            if self._off_since is not None:
                self.stats.field_off_gaps_s.append(now - self._off_since)
            self.registers[REG_IRQ_STATUS] |= IRQ_TX_RFON
        else:
            self._off_since = now
            self.registers[REG_IRQ_STATUS] |= IRQ_TX_RFOFF
            for tags in self.fields.values():
                for tag in tags:
                    tag.power_off()

    def _send(self, data: bytes) -> None:
        regs = self.registers
        if regs[REG_SYSTEM_CONFIG] & 0x7 != 0x3:
            return                                   # not in Transceive: nothing is sent
        eof_only = not regs[REG_TX_CONFIG] & TX_DATA_ENABLE
        tags = self.fields[self.antenna()] if self.rf_on else []
        stats = self.stats
        if eof_only:
            stats.air_us += air_time.VCD_EOF_US
            self._slot += 1
            answers = [tag.inventory_answer() for tag in self._round.get(self._slot, [])]
            self._count_slot(answers)
        else:
            stats.requests += 1
            stats.air_us += air_time.request_us(len(data))
            if regs[REG_CRC_TX_CONFIG] & 1:
                data = with_crc(data)                # the tags see what went on the air
            answers = self._requests_answers(data[:-2], tags)
        regs[REG_IRQ_STATUS] |= IRQ_TX
        if not answers:
            stats.air_us += air_time.T3_US
            if regs[REG_TIMER1_CONFIG] & (TIMER1_ENABLE | TIMER1_START_ON_TX_ENDED) == (
                    TIMER1_ENABLE | TIMER1_START_ON_TX_ENDED):
                regs[REG_IRQ_STATUS] |= IRQ_TIMER1
            return
        received, status = _combine(answers)
        stats.air_us += air_time.answered_us(max(len(a) for a in answers) - air_time.CRC)
        if regs[REG_CRC_RX_CONFIG] & 1:
            if len(received) < 3 or int.from_bytes(received[-2:], "little") != int.from_bytes(
                    with_crc(received[:-2])[-2:], "little"):
                status |= RX_INTEGRITY_ERROR
            received = received[:-2]
        self._rx = received
        regs[REG_RX_STATUS] = status | len(received)
        regs[REG_IRQ_STATUS] |= IRQ_RX | IRQ_RX_SOF

    def _requests_answers(self, request: bytes, tags: list[Tag]) -> list[bytes]:
        if len(request) >= 2 and request[0] & FLAG_INVENTORY and request[1] == CMD_INVENTORY:
            self.stats.rounds += 1
            self._slot = 0
            self._round = {}
            for tag in tags:
                slot = tag.inventory_slot(request)
                if slot is not None:
                    self._round.setdefault(slot, []).append(tag)
            answers = [tag.inventory_answer() for tag in self._round.get(0, [])]
            self._count_slot(answers)
            return answers
        self._round = {}
        return [answer for tag in tags if (answer := tag.command(request)) is not None]

    def _count_slot(self, answers: list[bytes]) -> None:
        if not answers:
            self.stats.empty += 1
        elif len(set(answers)) == 1:
            self.stats.single += 1
        else:
            self.stats.collided += 1


def _combine(answers: list[bytes]) -> tuple[bytes, int]:
    """What the receiver gets from tags answering at once: one frame, or a collision (their bits ORed,
    RX_STATUS bit 18 and the position of the first bit that differs)."""
    if len(set(answers)) == 1:
        return answers[0], 0
    length = max(len(a) for a in answers)
    base = int.from_bytes(answers[0], "little")
    merged = differ = 0
    for answer in answers:
        bits = int.from_bytes(answer, "little")
        merged |= bits
        differ |= bits ^ base
    lowest, first = differ & -differ, 0
    while lowest > 1:                     # its bit number (MicroPython's int has no bit_length)
        lowest >>= 1
        first += 1
    return merged.to_bytes(length, "little"), RX_COLLISION | (first & 0x7F) << 19
