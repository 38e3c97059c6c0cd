"""The PN5180 model at register level (through the firmware's driver where it can be) and its air time."""

from __future__ import annotations

import pytest

from firmware_bridge.firmware import pn5180
from firmware_bridge.firmware.pn5180 import PN5180, PN5180Error
from firmware_bridge.firmware_host import air_time
from firmware_bridge.firmware_host.pn5180_model import HostTime, PN5180Model
from firmware_bridge.firmware_host.tags import Tag, with_crc

INVENTORY_16 = bytes([0x06, 0x01, 0x00])
INVENTORY_1 = bytes([0x26, 0x01, 0x00])


def chip_on() -> tuple[PN5180Model, PN5180]:
    model = PN5180Model()
    chip = PN5180(model.spi, model.nss, model.busy, model.rst, HostTime())
    chip.reset()
    chip.rf_on()
    return model, chip


def answer(chip: PN5180, request: bytes) -> tuple[int, bytes]:
    """What a tag answered ``request`` (status, bytes); there must be an answer."""
    received = chip.transceive(request)
    assert received is not None
    return received


def test_busy_rises_once_a_frame_is_in_and_falls_after_nss_is_released() -> None:
    model = PN5180Model()
    assert model.busy.value() == 1 and model.busy.value() == 0     # booting, then ready
    model.nss.value(0)
    model.spi.write(bytes([0x00, 0x01]) + (0x1234).to_bytes(4, "little"))  # WRITE_REGISTER IRQ_ENABLE
    assert model.busy.value() == 1 and model.busy.value() == 1     # high while NSS is still low
    model.nss.value(1)
    assert model.busy.value() == 1 and model.busy.value() == 0     # processed, then low
    assert model.registers[0x01] == 0x1234


def test_registers_written_masked_and_read_back_and_reset_by_rst() -> None:
    model = PN5180Model()
    chip = PN5180(model.spi, model.nss, model.busy, model.rst, HostTime())
    chip.write_register(0x0C, 0xF0F0)
    chip.or_register(0x0C, 0x000F)
    chip.and_register(0x0C, 0x00FF)
    assert chip.read_register(0x0C) == 0x00FF
    chip.reset()
    assert chip.read_register(0x0C) == pn5180.NO_RESPONSE_US * 1356 // 100   # reset, then set up again
    assert chip.still_set_up()
    model.rst.value(0)
    model.rst.value(1)                                  # a restart behind the firmware's back
    assert not chip.still_set_up()


def test_one_tag_in_16_slots_and_a_silent_slot_cost_what_iso_15693_says() -> None:
    model, chip = chip_on()
    tag = Tag(0xE004010000000003, 500)                 # answers in slot 3
    model.place(1, tag)
    answers = [chip.transceive(INVENTORY_16)]
    chip.symbols_only(True)
    answers += [chip.transceive(b"") for _ in range(15)]
    chip.symbols_only(False)
    assert [i for i, answer in enumerate(answers) if answer is not None] == [3]
    assert answers[3] is not None
    status, frame = answers[3]
    assert frame == tag.inventory_answer() and status & pn5180.RX_BYTES_MASK == 12
    expected = (air_time.request_us(3) + air_time.answered_us(10) + air_time.T3_US
                + 15 * air_time.VCD_EOF_US + 14 * air_time.T3_US)
    assert model.stats.air_us == pytest.approx(expected)
    assert (model.stats.single, model.stats.empty) == (1, 15)


def test_two_tags_in_one_slot_collide() -> None:
    model, chip = chip_on()
    model.place(1, Tag(0x10, 1), Tag(0x20, 1))          # both in slot 0 of a 1-slot request
    status, frame = answer(chip, INVENTORY_1)
    assert status & pn5180.RX_COLLISION and frame != Tag(0x10, 1).inventory_answer()
    assert (status >> 19) & 0x7F == 2 * 8 + 4          # the first bit they differ in: UID bit 4


def test_the_chip_can_check_the_crc_itself() -> None:
    model, chip = chip_on()
    chip.or_register(pn5180.REG_CRC_RX_CONFIG, 1)      # the chip checks and strips the CRC
    model.place(1, Tag(0x10, 1, bad_crc=True))
    status, frame = answer(chip, INVENTORY_1)
    assert status & (1 << 16) and len(frame) == 10      # integrity error, 10 bytes left
    model.clear(1)
    model.place(1, Tag(0x10, 1))
    status, frame = answer(chip, INVENTORY_1)
    assert not status & (1 << 16) and with_crc(frame) == Tag(0x10, 1).inventory_answer()


def test_the_field_reaches_only_the_antenna_the_multiplexer_selects() -> None:
    model, chip = chip_on()
    model.place(2, Tag(0x10, 1))
    assert chip.transceive(INVENTORY_1) is None         # antenna 1 selected: nothing there
    model.select[0].value(1)                            # antenna 2 (with the field on: counted)
    assert chip.transceive(INVENTORY_1) is not None
    assert model.stats.mux_switched_with_field_on == 1
    model.mux_stuck = 1
    assert chip.transceive(INVENTORY_1) is None


def test_a_stuck_busy_line_raises_instead_of_hanging() -> None:
    model, chip = chip_on()
    model.busy_stuck = True
    with pytest.raises(PN5180Error, match="BUSY stuck high"):
        chip.read_register(pn5180.REG_IRQ_STATUS)
