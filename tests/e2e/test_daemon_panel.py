"""The daemon in process with gpiozero mock pins: the dealer's buttons drive the table, the lights follow.

The boards are simulated on real ptys in the same loop; the buttons and lights
are gpiozero ``MockFactory`` pins. A button is pressed by driving its pin low,
as the switch does. A light must be on exactly while its button may be pressed,
and the RFID board's spot lights show the seat in turn.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon.loop import Daemon
from controller.devkit.simulated import write_config
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card
from tests.rigs.table_rig import phase_of

BUTTON_PINS = {"deal": 5, "stand": 6, "next": 13, "void": 19}
LIGHT_PINS = {"deal": 16, "stand": 20, "next": 21, "void": 26}

class Table:
    """A daemon and its boards; :meth:`until` waits for a condition without polling."""

    def __init__(self, daemon: Daemon, shoe: SimulatedBoard, rfid: SimulatedBoard,
                 factory: MockFactory) -> None:
        self.daemon = daemon
        self.shoe = shoe
        self.rfid = rfid
        self.factory = factory
        self.changed = asyncio.Event()

    def notify(self, *args: object) -> None:
        self.changed.set()

    async def until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                self.changed.clear()
                await self.changed.wait()

    def lit(self) -> set[str]:
        return {name for name, pin in LIGHT_PINS.items() if self.factory.pin(pin).state}

    async def press(self, button: str) -> None:
        pin = self.factory.pin(BUTTON_PINS[button])
        pin.drive_low()
        pin.drive_high()

    @property
    def phase(self) -> str:
        return phase_of(self.daemon.table)


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    config = write_config(tmp_path, chips=[("00000000000001f4", 500, "active")])
    shoe = SimulatedBoard("shoe", link=tmp_path / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=tmp_path / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    daemon = Daemon(load_config(config))
    rig = Table(daemon, shoe, rfid, factory)
    refresh = daemon.refresh

    def refresh_and_notify() -> None:
        refresh()
        rig.notify()

    daemon.refresh = refresh_and_notify  # type: ignore[method-assign]
    rfid.on_message = rig.notify
    running = asyncio.create_task(daemon.run())
    try:
        await rig.until(lambda: all(d.online for d in daemon.table.state.devices.values()))
        yield rig
    finally:
        daemon.stopping.set()
        await running
        await shoe.close()
        await rfid.close()
        Device.pin_factory = previous


async def test_buttons_drive_the_hand_and_lights_show_what_may_be_pressed(table: Table) -> None:
    assert table.lit() == set()                                   # no wager, no shoe: nothing to press
    table.shoe.load_shoe(6, cards=[parse_card(c) for c in ("5h", "9d", "2c")], cut_at=0)
    table.rfid.place(1, [("00000000000001f4", 500)])
    await table.until(lambda: "deal" in table.lit())
    assert table.lit() == {"deal"}

    await table.press("deal")
    await table.until(lambda: table.phase == "dealing")
    assert table.lit() == {"void"}

    table.shoe.draw(2)
    await table.until(lambda: table.phase == "players")
    assert table.lit() == {"stand", "void"}
    await table.until(lambda: table.rfid.spot_lights == 0b11)     # seat 1's spots: antennas 1 and 2

    await table.press("next")                                    # not allowed now: nothing happens
    await table.press("stand")
    await table.until(lambda: table.phase == "settled")
    assert table.lit() == {"next"}
    await table.until(lambda: table.rfid.spot_lights == 0)
    assert table.daemon.table.state.results is not None

    await table.press("next")
    await table.until(lambda: table.phase == "betting")
    assert table.lit() == {"deal"}


async def test_a_journal_that_cannot_be_written_stops_the_daemon(table: Table) -> None:
    daemon = table.daemon
    fd = daemon.journal._fd
    assert fd is not None
    os.close(fd)                                                  # writes now fail, as on a dead disk
    daemon.journal._fd = os.open(os.devnull, os.O_RDONLY)         # a descriptor that cannot be written
    seq = daemon.table.state.seq
    table.rfid.place(1, [("00000000000001f4", 500)])             # a wager: an event to journal
    await table.until(lambda: daemon.failure is not None)
    assert isinstance(daemon.failure, OSError)
    assert daemon.stopping.is_set()
    assert daemon.table.state.seq == seq                          # nothing applied, nothing published
