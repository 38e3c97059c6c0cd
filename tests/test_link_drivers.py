"""The drivers on a real HostLink: a simulated board on a pty, waiting on events, never sleeping."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from drivers.chips import ChipRegistry
from drivers.inputs import DeviceOnline, DriverInput, SpotWager
from drivers.rfid import RfidDriver
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
