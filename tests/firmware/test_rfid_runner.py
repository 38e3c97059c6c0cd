"""The reference RFID reader run as the board (FirmwareRunner with the PN5180 model on a real pty), the
host's HostLink on the other end: chips placed and taken off, the spot lights, a watchdog reset followed
by a full re-read."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from firmware_bridge.firmware_host.flash import board_config
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Chip, Fault, Inventory, Message, SpotLights

TIMEOUT = 10.0
CHIPS = [("e004010000000a01", 500), ("e004010000000b02", 2500)]


class Host:
    def __init__(self, path: str) -> None:
        self.messages: list[Message] = []
        self.changed = asyncio.Event()
        self.link = HostLink(path, on_message=self.got, on_online=lambda hello: None,
                             on_offline=lambda reason: None)

    def got(self, message: Message) -> None:
        self.messages.append(message)
        self.changed.set()

    async def until(self, predicate: Callable[[], bool]) -> None:
        async def wait() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), TIMEOUT)

    def inventories(self, antenna: int) -> list[Inventory]:
        return [m for m in self.messages if isinstance(m, Inventory) and m.antenna == antenna]


@pytest.fixture
async def reader(tmp_path: Path) -> AsyncIterator[tuple[FirmwareRunner, Host]]:
    runner = FirmwareRunner(board_config("rfid", "RF-T", antennas=[1, 2, 3]), tmp_path,
                            link=tmp_path / "rfid", rng=random.Random(2))
    await runner.start()
    host = Host(str(tmp_path / "rfid"))
    await host.link.start()
    try:
        yield runner, host
    finally:
        await host.link.close()
        await runner.close()


async def test_chips_on_a_spot_are_its_inventory_and_the_lights_follow_the_host(
        reader: tuple[FirmwareRunner, Host]) -> None:
    runner, host = reader
    assert runner.rfid is not None
    runner.rfid.place(2, CHIPS)
    await runner.settle_spot(2)
    expected = Inventory(2, tuple(Chip(uid, value) for uid, value in CHIPS))
    await host.until(lambda: expected in host.inventories(2))
    runner.rfid.clear(2)
    await runner.settle_spot(2)
    await host.until(lambda: host.inventories(2)[-1] == Inventory(2, ()))
    host.link.send(SpotLights(0b101))
    await runner.until(lambda: runner.rfid is not None and runner.rfid.spot_lights() == 0b101)
    with pytest.raises(ValueError, match="antenna 9"):
        runner.rfid.place(9, CHIPS)


async def test_after_a_watchdog_reset_the_reader_reads_every_spot_again(
        reader: tuple[FirmwareRunner, Host]) -> None:
    runner, host = reader
    assert runner.rfid is not None
    runner.rfid.place(1, CHIPS[:1])
    await runner.settle_spot(1)
    await host.until(lambda: bool(host.inventories(1)) and bool(host.inventories(1)[-1].chips))
    seen = len(host.messages)
    runner.reboot()
    await host.until(lambda: any(isinstance(m, Fault) and m.code == 5 for m in host.messages[seen:]))
    again = Inventory(1, (Chip(*CHIPS[0]),))
    await host.until(lambda: again in host.messages[seen:])
    def read_again() -> set[int]:
        return {m.antenna for m in host.messages[seen:] if isinstance(m, Inventory)}

    await host.until(lambda: read_again() == {1, 2, 3})
