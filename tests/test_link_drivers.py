"""The drivers on a real HostLink: a simulated board on a pty, waiting on events (sleeping only
where the behaviour under test is the passing of time)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from drivers.chips import ChipRegistry
from drivers.inputs import DeviceFault, DeviceOnline, DriverInput, ShoeLoaded, SpotWager
from drivers.rfid import RfidDriver
from drivers.shoe import ShoeDriver
from firmware_bridge.messages import Message
from firmware_bridge.simulator import SimulatedBoard

TIMEOUT = 5.0


class Waiter:
    """Wakes the test whenever anything happened on either end."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self, *_: object) -> None:
        self._event.set()

    async def until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                self._event.clear()
                await self._event.wait()


async def test_spot_lights_are_lit_again_after_the_rfid_board_restarts(tmp_path: Path) -> None:
    waiter = Waiter()
    inputs: list[DriverInput] = []
    board = SimulatedBoard("rfid", link=tmp_path / "rfid", rng=random.Random(5), rto=0.05)

    def on_board_message(message: Message) -> None:
        waiter.notify()

    def on_input(item: DriverInput) -> None:
        inputs.append(item)
        waiter.notify()

    board.on_message = on_board_message
    board.on_session = waiter.notify
    await board.start()
    driver = RfidDriver(str(tmp_path / "rfid"), on_input=on_input, antennas={1: (1, "main"), 3: (2, "main")},
                        registry=ChipRegistry(), offline_after=0.5, reopen_interval=0.05)
    try:
        await driver.start()
        await waiter.until(lambda: driver.is_online)
        driver.light_spots({1, 3})
        await waiter.until(lambda: board.spot_lights == 0b101)
        # the board acknowledged it before this INVENTORY: once the wager is in, nothing is left to resend
        board.place(3, [("00000000000000aa", 500)])
        await waiter.until(lambda: any(isinstance(i, SpotWager) for i in inputs))
        assert driver.link.pending == 0  # so the link itself has nothing to send again
        board.reboot()  # the lights go dark on the board
        assert board.spot_lights == 0
        await waiter.until(lambda: sum(isinstance(i, DeviceOnline) for i in inputs) == 2)
        await waiter.until(lambda: board.spot_lights == 0b101)
    finally:
        await driver.close()
        await board.close()


async def test_a_fault_and_its_repeats_within_the_window_raise_one_input(tmp_path: Path) -> None:
    waiter = Waiter()
    inputs: list[DriverInput] = []
    board = SimulatedBoard("shoe", link=tmp_path / "shoe", rng=random.Random(6), rto=0.05)
    board.on_session = waiter.notify

    def on_input(item: DriverInput) -> None:
        inputs.append(item)
        waiter.notify()

    await board.start()
    driver = ShoeDriver(str(tmp_path / "shoe"), on_input=on_input, offline_after=0.5,
                        reopen_interval=0.05, fault_window=0.5)
    faults = lambda: [i for i in inputs if isinstance(i, DeviceFault)]  # noqa: E731
    try:
        await driver.start()
        await waiter.until(lambda: driver.is_online)
        board.fault(2, "lid opened during draw")
        board.fault(2, "lid opened during draw")                  # a repeat (as after a link reset)
        board.fault(1, "sensor fault")                            # another fault
        board.load_shoe(6)                                        # after them on the link
        await waiter.until(lambda: any(isinstance(i, ShoeLoaded) for i in inputs))
        assert [(f.code, f.text) for f in faults()] == [(2, "lid opened during draw"), (1, "sensor fault")]
        await asyncio.sleep(0.6)                                  # the window passes
        board.fault(2, "lid opened during draw")                  # the fault goes on: raised again
        await waiter.until(lambda: len(faults()) == 3)
    finally:
        await driver.close()
        await board.close()
