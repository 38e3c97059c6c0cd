"""The RFID driver on a real HostLink: a chip uid read twice on one spot is a clone."""

from __future__ import annotations

import random
from pathlib import Path

from drivers.chips import ChipRegistry, RegisteredChip
from drivers.inputs import DriverInput, SpotWager
from drivers.rfid import RfidDriver
from firmware_bridge.messages import Chip, Inventory
from firmware_bridge.simulator import SimulatedBoard
from tests.test_link_drivers import Waiter


async def test_a_uid_read_twice_on_one_spot_is_a_clone_and_counts_once(tmp_path: Path) -> None:
    # chips.py: "A uid read more than once on the same spot counts once: its other copies are
    # rejected as counterfeit (two tags with one id means one is a clone)"; pit-events.md:
    # counterfeit_chip. The driver must hand the registry every chip the INVENTORY lists.
    waiter = Waiter()
    inputs: list[DriverInput] = []
    board = SimulatedBoard("rfid", link=tmp_path / "rfid", rng=random.Random(9), rto=0.05)
    board.on_session = waiter.notify

    def on_input(item: DriverInput) -> None:
        inputs.append(item)
        waiter.notify()

    await board.start()
    registry = ChipRegistry([RegisteredChip("00000000000000aa", 500, "active")])
    driver = RfidDriver(str(tmp_path / "rfid"), on_input=on_input, antennas={1: (1, "main")},
                        registry=registry, offline_after=0.5, reopen_interval=0.05)
    try:
        await driver.start()
        await waiter.until(lambda: driver.is_online)
        clone = Chip("00000000000000aa", 500)
        board._send([Inventory(antenna=1, chips=(clone, clone))])     # the reader lists the uid twice
        await waiter.until(lambda: any(isinstance(i, SpotWager) for i in inputs))
        wager = next(i for i in inputs if isinstance(i, SpotWager))
        assert wager.amount == 500
        assert [(chip.uid, chip.reason) for chip in wager.rejected] == [("00000000000000aa", "counterfeit")]
    finally:
        await driver.close()
        await board.close()
