"""The shoe and the spot reader through the link driver on a real HostLink: a simulated board on a
pty, waiting on events (sleeping only where the behaviour under test is the passing of time)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drivers.board import BoardDriver, Role
from drivers.chips import ChipRegistry, RegisteredChip
from drivers.inputs import DeviceFault, DeviceOnline, DeviceStatus, DriverInput, ShoeLoaded, SpotWager
from drivers.link_driver import LinkDriver
from drivers.rfid import SpotReader
from drivers.shoe import Shoe
from firmware_bridge.link.messages import Chip, Inventory
from firmware_bridge.simulator.board import SimulatedBoard

TIMEOUT = 5.0


@dataclass
class Linked:
    """A simulated board, the driver connected to it, and what the driver handed on."""

    board: SimulatedBoard
    driver: Any
    inputs: list[DriverInput] = field(default_factory=list)
    _event: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self, *_: object) -> None:
        self._event.set()

    def of(self, kind: type[Any]) -> list[Any]:
        return [item for item in self.inputs if isinstance(item, kind)]

    async def until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        """Wait, without polling, until ``predicate`` holds (woken by anything on either end)."""
        async with asyncio.timeout(timeout):
            while not predicate():
                self._event.clear()
                await self._event.wait()


@asynccontextmanager
async def linked(tmp_path: Path, kind: str, make: Callable[..., Role],
                 seed: int, **options: Any) -> AsyncIterator[Linked]:
    """Board ``kind`` on a pty and the link driver playing the role ``make(on_input, **options)``,
    online."""
    board = SimulatedBoard(kind, link=tmp_path / kind, rng=random.Random(seed), rto=0.05)
    pair = Linked(board, None)

    def on_input(item: DriverInput) -> None:
        pair.inputs.append(item)
        pair.notify()

    board.on_message = pair.notify
    board.on_session = pair.notify
    await board.start()
    pair.driver = LinkDriver(BoardDriver.Options(str(tmp_path / kind)), make(on_input, **options),
                             offline_after=0.5, reopen_interval=0.05)
    try:
        await pair.driver.start()
        await pair.until(lambda: pair.driver.is_online)
        yield pair
    finally:
        await pair.driver.close()
        await board.close()


async def test_spot_lights_are_lit_again_after_the_rfid_board_restarts(tmp_path: Path) -> None:
    async with linked(tmp_path, "rfid", SpotReader, 5, antennas={1: (1, "main"), 3: (2, "main")},
                      registry=ChipRegistry()) as pair:
        board, driver = pair.board, pair.driver
        driver.light_spots({1, 3})
        await pair.until(lambda: board.spot_lights == 0b101)
        # the board acknowledged it before this INVENTORY: once the wager is in, nothing is left to resend
        board.place(3, [("00000000000000aa", 500)])
        await pair.until(lambda: bool(pair.of(SpotWager)))
        assert driver.link.pending == 0  # so the link itself has nothing to send again
        board.reboot()  # the lights go dark on the board
        assert board.spot_lights == 0
        await pair.until(lambda: len(pair.of(DeviceOnline)) == 2)
        await pair.until(lambda: board.spot_lights == 0b101)


async def test_a_uid_read_twice_on_one_spot_is_a_clone_and_counts_once(tmp_path: Path) -> None:
    # chips.py: a uid read more than once on the same spot counts once, its other copies are
    # rejected as duplicates (two tags with one id: one is a clone). The driver must hand the
    # registry every chip the INVENTORY lists.
    registry = ChipRegistry([RegisteredChip("00000000000000aa", 500, "active")])
    async with linked(tmp_path, "rfid", SpotReader, 9, antennas={1: (1, "main")},
                      registry=registry) as pair:
        clone = Chip("00000000000000aa", 500)
        pair.board.send(Inventory(antenna=1, chips=(clone, clone)))  # a reader listing it twice
        await pair.until(lambda: bool(pair.of(SpotWager)))
        wager = pair.of(SpotWager)[0]
        assert wager.amount == 500
        assert [(chip.uid, chip.reason) for chip in wager.rejected] == [("00000000000000aa", "duplicate")]


async def test_a_fault_and_its_repeats_within_the_window_raise_one_input(tmp_path: Path) -> None:
    async with linked(tmp_path, "shoe", Shoe, 6, fault_window=0.5) as pair:
        board = pair.board
        board.fault(2, "lid opened during draw")
        board.fault(2, "lid opened during draw")                  # a repeat (as after a link reset)
        board.fault(1, "sensor fault")                            # another fault
        board.load_shoe(6)                                        # after them on the link
        await pair.until(lambda: bool(pair.of(ShoeLoaded)))
        assert [(f.code, f.text) for f in pair.of(DeviceFault)] == [
            (2, "lid opened during draw"), (1, "sensor fault")]
        await asyncio.sleep(0.6)                                  # the window passes
        board.fault(2, "lid opened during draw")                  # the fault goes on: raised again
        await pair.until(lambda: len(pair.of(DeviceFault)) == 3)


async def test_status_flags_are_handed_on_in_words_when_they_change(tmp_path: Path) -> None:
    async with linked(tmp_path, "shoe", Shoe, 4) as pair:
        await pair.until(lambda: bool(pair.of(DeviceStatus)))
        assert pair.of(DeviceStatus) == [DeviceStatus("shoe", ("shoe empty",))]  # nothing loaded yet
        pair.board.shoe.lid_open = True                       # seen at the next heartbeat
        await pair.until(lambda: len(pair.of(DeviceStatus)) == 2)
        assert pair.of(DeviceStatus)[-1] == DeviceStatus("shoe", ("lid open", "shoe empty"))
