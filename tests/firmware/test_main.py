"""The Pico's main.py under CPython: the service-mode window, the unwrapped clock, the USB port over a
real pipe and select.poll, the watchdog scratch registers, and build refusing what it cannot build."""

from __future__ import annotations

import os
import select
from pathlib import Path

import pytest

from firmware_bridge.firmware import main
from firmware_bridge.firmware_host.flash import board_config
from firmware_bridge.firmware_host.machine_fake import WDT_RESET, FakeMachine


class Ticks:
    """MicroPython's ``time`` with ticks that wrap at 2**30 ms, as on the rp2 port; sleeping moves them on."""

    PERIOD = 1 << 30

    def __init__(self, start: int) -> None:
        self.ms = start

    def ticks_ms(self) -> int:
        return self.ms % self.PERIOD

    def ticks_diff(self, a: int, b: int) -> int:
        return (a - b + self.PERIOD // 2) % self.PERIOD - self.PERIOD // 2

    def sleep_ms(self, ms: int) -> None:
        self.ms += ms


class Bootsel:
    def __init__(self, pressed_after: int | None) -> None:
        self.pressed_after = pressed_after
        self.calls = 0

    def bootsel_button(self) -> int:
        self.calls += 1
        return int(self.pressed_after is not None and self.calls > self.pressed_after)


def test_bootsel_within_the_first_second_is_service_mode() -> None:
    assert main.service_requested(Bootsel(pressed_after=50), Ticks(0)) is True
    ticks = Ticks(Ticks.PERIOD - 300)
    never = Bootsel(pressed_after=None)
    assert main.service_requested(never, ticks) is False
    assert never.calls == main.SERVICE_WINDOW_MS // 10           # across the wrap of the ticks
    assert main.service_requested(Bootsel(pressed_after=200), Ticks(0)) is False   # too late


def test_the_clock_goes_on_across_the_wrap_of_the_ticks() -> None:
    ticks = Ticks((1 << 30) - 5)
    clock = main.Clock(ticks)
    seen = []
    for _ in range(4):
        ticks.sleep_ms(4)
        seen.append(clock.now())
    assert seen == [4, 8, 12, 16]


def test_the_usb_port_reads_what_is_there_without_waiting() -> None:
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(read_end, "rb", buffering=0) as stdin, open(os.devnull, "wb") as stdout:
            poller = select.poll()
            poller.register(stdin, select.POLLIN)
            port = main.UsbPort(stdin, stdout, poller)
            assert port.read() == b""
            os.write(write_end, b"\x02\x01\x01\x04\x04\xf0\xb2\x00" * 100)
            assert len(port.read()) == main.READ_MAX
            assert len(port.read()) == 800 - main.READ_MAX
            assert port.read() == b""
    finally:
        os.close(write_end)


def test_the_scratch_registers_are_32_bit_words_at_the_watchdog() -> None:
    class Machine:
        def __init__(self) -> None:
            self.mem32: dict[int, int] = {}

    machine = Machine()
    scratch = main.Scratch(machine)
    scratch[2] = 0xDEADBEEF
    assert machine.mem32 == {main.WATCHDOG_SCRATCH + 8: 0xDEADBEEF} and scratch[2] == 0xDEADBEEF


def test_build_makes_a_shoe_and_says_a_watchdog_reset(tmp_path: Path) -> None:
    class Port:
        def read(self) -> None:
            return None

        def write(self, data: bytes) -> None:
            self.data = data

    machine = FakeMachine({}, WDT_RESET)
    core = main.build(board_config("shoe", "SH-1"), machine, Port(), 0, [0, 0, 0, 0], str(tmp_path / "ids"))
    assert core.app.kind == 1 and machine.wdt is not None and machine.wdt.timeout == main.WATCHDOG_MS
    assert core.link.pending == 1                                # FAULT 5, held until a session
    with pytest.raises(ValueError, match="not shoe or rfid"):
        main.build({"kind": "dice", "serial": "X"}, machine, Port(), 0, [0, 0, 0, 0])
