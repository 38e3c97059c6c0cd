"""The reference reader on a whole table: 32 antennas from one PN5180, through two 16-way multiplexers
on shared select lines S0 - S3 and a fifth select line S4 choosing one (docs/boards.md, "32 antennas"),
with the spot lights on a chain of shift registers. The field-off timing and the fault behaviours of 16
antennas hold across the two multiplexers."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from firmware_bridge.firmware import spot_reader
from firmware_bridge.firmware.spot_reader import ShiftLights, SpotReader
from firmware_bridge.firmware_host.flash import RFID_PINS, RFID_PINS_32, board_config
from firmware_bridge.firmware_host.pn5180_model import ModelPin, PN5180Model
from firmware_bridge.firmware_host.rfid_world import ShiftChain
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.firmware_host.tags import Tag
from tests.firmware.reader_rig import ReaderRig, chips_of, stack

EVERY = list(range(1, 33))


def test_every_one_of_32_antennas_reads_its_own_stack() -> None:
    rig = ReaderRig(EVERY, wired=32)
    assert len(rig.model.select) == 5
    stacks = {antenna: stack(antenna % 4, seed=antenna) for antenna in EVERY}
    for antenna, tags in stacks.items():
        rig.model.place(antenna, *tags)
    rig.read_all()
    assert {antenna: rig.latest(antenna) for antenna in EVERY} == {
        antenna: chips_of(tags) for antenna, tags in stacks.items()}
    assert rig.faults() == [] and rig.reader.status_flags() == 0


def test_the_field_is_off_5_1_ms_and_while_s4_switches_between_the_two_multiplexers() -> None:
    rig = ReaderRig([15, 16, 17, 18, 31, 32], wired=32)
    for antenna in (16, 17, 32):
        rig.model.place(antenna, *stack(3, seed=antenna))
    rig.poll(12)
    gaps = rig.model.stats.field_off_gaps_s
    assert len(gaps) >= 12 and min(gaps) >= 0.0051
    assert rig.model.stats.mux_switched_with_field_on == 0
    assert not rig.model.rf_on


def test_a_chip_over_the_last_spot_of_one_multiplexer_and_the_first_of_the_other_is_reported() -> None:
    rig = ReaderRig([16, 17], wired=32)
    shared = Tag(0xE0040100CAFE0016, 2500)
    rig.model.place(16, *stack(2, seed=1), shared)
    rig.model.place(17, shared)
    rig.poll(8)
    assert rig.latest(16) == chips_of(stack(2, seed=1)) and rig.latest(17) == {}
    (fault,) = rig.faults()
    assert fault.code == 3 and fault.text == "chip e0040100cafe0016 lies over antennas 16 and 17"
    assert rig.reader.status_flags() == spot_reader.ANTENNA_FAULT


def test_a_multiplexer_stuck_on_the_second_bank_is_reported_once() -> None:
    rig = ReaderRig([3, 20, 30], wired=32)
    rig.model.place(20, *stack(2))
    rig.model.mux_stuck = 20
    rig.poll(8)
    assert all(rig.latest(antenna) in ({}, None) for antenna in (3, 20, 30))
    (fault,) = rig.faults()
    assert fault.code == 3 and fault.text.endswith("read the same 2 chips: mux stuck?")


def test_a_pn5180_restarting_on_the_second_bank_is_reset_and_read_again() -> None:
    rig = ReaderRig([25], wired=32)
    chips = stack(6)
    rig.model.place(25, *chips)
    rig.model.reset_after_frames = rig.model.frames + 20
    rig.poll(4)
    faults = rig.faults()
    assert [f.code for f in faults] == [1] and "antenna 25" in faults[0].text
    rig.model.reset_after_frames = None
    rig.poll(2)
    assert rig.latest(25) == chips_of(chips)


def test_antennas_beyond_the_select_pins_are_refused() -> None:
    model = PN5180Model(antennas=16)
    lights = spot_reader.PinLights([ModelPin()])
    with pytest.raises(ValueError, match="1 to 16 on 4 select pins"):
        SpotReader(ReaderRig([1]).chip, model.select, lights, [1, 17])
    wide = PN5180Model(antennas=32)
    with pytest.raises(ValueError, match="1 to 32 on 5 select pins"):
        SpotReader(ReaderRig([1]).chip, wide.select, lights, [33])


def test_the_lights_of_32_spots_are_shifted_out_to_the_chain() -> None:
    chain = ShiftChain(32)
    lights = ShiftLights(chain.data, chain.clock, chain.latch)
    for mask in (1, 1 << 31, 0b1010 << 16 | 0b11, 0):
        lights.show(mask)
        assert chain.outputs == mask


def test_the_32_antenna_wiring_is_the_16_antenna_one_with_s4_and_the_lights_on_three_pins() -> None:
    assert board_config("rfid", "RF-1")["pins"] == RFID_PINS
    wide = board_config("rfid", "RF-2", antennas=EVERY)
    assert wide["pins"] == RFID_PINS_32 and wide["antennas"] == EVERY
    assert RFID_PINS_32["select"] == [*RFID_PINS["select"], 14]
    used = [n for key, n in RFID_PINS_32.items() if isinstance(n, int)] + RFID_PINS_32["select"]
    used += [RFID_PINS_32["light_chain"][name] for name in ("data", "clock", "latch")]
    assert len(used) == len(set(used))                       # no GPIO given twice


async def test_the_board_firmware_reads_antenna_30_and_lights_spot_29(tmp_path: Path) -> None:
    runner = FirmwareRunner(board_config("rfid", "RF-W", antennas=EVERY), tmp_path, rng=random.Random(3))
    await runner.start()
    try:
        assert runner.rfid is not None and runner.core is not None
        world = runner.rfid
        world.place(30, [("e004010000003001", 10_000)])
        await asyncio.wait_for(runner.settle_spot(30), 10)
        assert world.reported[30] == {"e004010000003001": 10_000}
        runner.core.app.on_spot_lights(1 << 28)
        assert world.spot_lights() == 1 << 28
    finally:
        await runner.close()
