"""The RFID spot reader's firmware under faults: each gives a defined report and never a wrong chip.

Bad CRCs, tags that answer now and then, a chip over two antennas, a UID no registry knows, a stuck
multiplexer, a PN5180 that restarts in the middle of an inventory, and one whose BUSY line sticks."""

from __future__ import annotations

import pytest

from firmware_bridge.firmware import spot_reader
from firmware_bridge.firmware_host.tags import Tag
from firmware_bridge.link.messages import Inventory
from tests.firmware.reader_rig import ReaderRig, chips_of, stack


def never_wrong(rig: ReaderRig, truth: dict[int, dict[str, int]]) -> None:
    """No INVENTORY sent lists a chip that is not on its antenna."""
    for message in rig.sent:
        if isinstance(message, Inventory):
            listed = {chip.uid: chip.value for chip in message.chips}
            assert listed.items() <= truth.get(message.antenna, {}).items(), message


def test_a_tag_answering_with_bad_crcs_is_never_a_chip_and_fails_its_antenna() -> None:
    rig = ReaderRig([1, 2])
    good = stack(4)
    rig.model.place(1, *good, Tag(0xE0040100BADC0C00, 2500, bad_crc=True))
    rig.model.place(2, *stack(2, seed=2))
    rig.poll(4)
    (fault,) = rig.faults()
    assert fault.code == 3 and fault.text.startswith("antenna 1 cannot be read")
    assert rig.reader.status_flags() == spot_reader.ANTENNA_FAULT
    assert rig.latest(1) is None and rig.latest(2) == chips_of(stack(2, seed=2))   # antenna 2 goes on
    rig.model.clear(1)
    rig.model.place(1, *good)                    # the bad tag taken away: the antenna reads again
    rig.poll(2)
    assert rig.latest(1) == chips_of(good) and rig.reader.status_flags() == 0
    assert len(rig.faults()) == 1


def test_a_tag_answering_only_every_other_time_is_listed_once_heard_and_stays() -> None:
    rig = ReaderRig([1])
    chips = [*stack(5), Tag(0xE004010011223344, 10_000, answer_every=2)]
    rig.model.place(1, *chips)
    rig.poll(12, step_ms=1000)
    listed = [{c.uid: c.value for c in m.chips} for m in rig.sent if isinstance(m, Inventory)]
    assert listed[0] == chips_of(chips[:5])          # not heard in the first read: not there yet
    assert len(listed) >= 6 and all(later == chips_of(chips) for later in listed[1:])
    assert rig.faults() == []


def test_a_chip_over_two_antennas_is_listed_on_neither_and_reported() -> None:
    rig = ReaderRig([1, 2, 3])
    shared = Tag(0xE0040100CAFE0001, 10_000)
    left, right = stack(3, seed=1), stack(2, seed=2)
    rig.model.place(1, *left, shared)
    rig.model.place(2, *right, shared)
    rig.poll(8)
    assert rig.latest(1) == chips_of(left) and rig.latest(2) == chips_of(right)
    (fault,) = rig.faults()
    assert fault.code == 3 and fault.text == "chip e0040100cafe0001 lies over antennas 1 and 2"
    assert rig.reader.status_flags() == spot_reader.ANTENNA_FAULT
    rig.model.fields[2].remove(shared)           # the dealer pushes it onto spot 1
    rig.poll(6)
    assert rig.latest(1) == chips_of([*left, shared]) and rig.latest(2) == chips_of(right)
    assert rig.reader.status_flags() == 0
    never_wrong(rig, {1: chips_of([*left, shared]), 2: chips_of(right), 3: {}})


def test_a_chip_moved_to_another_spot_is_never_listed_on_both() -> None:
    rig = ReaderRig([1, 2])
    chip = Tag(0xE0040100CAFE0002, 500)
    rig.model.place(1, chip)
    rig.poll(2)
    rig.model.clear(1)
    rig.model.place(2, chip)
    rig.poll(4)
    assert rig.latest(1) == {} and rig.latest(2) == chips_of([chip])
    listed = [m for m in rig.sent if isinstance(m, Inventory) and m.chips]
    assert [m.antenna for m in listed] == [1, 2] and rig.faults() == []


def test_a_uid_no_registry_knows_is_reported_faithfully() -> None:
    rig = ReaderRig([1])
    stranger = Tag(0x0000000000000001, 4_294_967_295)     # not an ICODE UID, the largest value
    rig.model.place(1, stranger)
    rig.poll()
    assert rig.latest(1) == {"0000000000000001": 4_294_967_295}


def test_a_stuck_multiplexer_gives_the_same_chips_everywhere_and_is_reported() -> None:
    rig = ReaderRig([1, 2, 3])
    chips = stack(3)
    rig.model.place(1, *chips)
    rig.model.mux_stuck = 1
    rig.poll(8)
    assert all(rig.latest(antenna) in ({}, None) for antenna in (1, 2, 3))   # listed nowhere
    (fault,) = rig.faults()                          # once, not for each pair of antennas
    assert fault.code == 3 and fault.text.endswith("read the same 3 chips: mux stuck?")
    assert rig.reader.status_flags() & spot_reader.ANTENNA_FAULT


def test_a_pn5180_restarting_in_the_middle_of_an_inventory_is_reset_and_read_again() -> None:
    rig = ReaderRig([1])
    chips = stack(20)
    rig.model.place(1, *chips)
    rig.poll()
    rig.model.reset_after_frames = rig.model.frames + 150     # in the middle of the next read
    rig.poll(3)
    (fault,) = rig.faults()
    assert fault.code == 1 and fault.text.startswith("PN5180 stopped answering reading antenna 1")
    assert rig.latest(1) == chips_of(chips) and rig.reader.status_flags() == 0
    never_wrong(rig, {1: chips_of(chips)})
    assert all(len(m.chips) == 20 for m in rig.sent if isinstance(m, Inventory))


def test_a_pn5180_whose_busy_line_sticks_is_reported_and_reset_until_it_answers() -> None:
    rig = ReaderRig([1])
    chips = stack(3)
    rig.model.place(1, *chips)
    rig.poll()
    rig.model.busy_stuck = True
    sent = len(rig.sent)
    rig.poll(3, step_ms=400)
    (fault,) = rig.faults()
    assert fault.code == 1 and "BUSY stuck high" in fault.text
    assert rig.reader.status_flags() == spot_reader.RF_FIELD_FAULT
    assert rig.reader.next_deadline_ms(rig.now_ms) is not None
    assert all(not isinstance(m, Inventory) for m in rig.sent[sent:])
    rig.model.busy_stuck = False
    rig.poll(3, step_ms=600)                      # the next retry resets it and reads again
    assert rig.reader.status_flags() == 0 and rig.latest(1) == chips_of(chips)
    assert len(rig.faults()) == 1


def test_a_read_out_of_memory_is_dropped_with_the_field_off_and_read_again_whole() -> None:
    rig = ReaderRig([1, 2])
    chips = stack(40)
    rig.model.place(1, *chips)
    rig.model.out_of_memory_after_frames = rig.model.frames + 40      # in the middle of the anticollision
    with pytest.raises(MemoryError):
        rig.poll()                                     # the board core counts it (test_board_core)
    assert not rig.model.rf_on and rig.reader._reading is None
    rig.poll(3)
    assert rig.latest(1) == chips_of(chips) and rig.latest(2) == {}
    assert rig.faults() == [] and rig.reader.status_flags() == 0
    assert rig.reader.chips.count == 40 and not any(rig.reader.chips.flags[:40])   # nothing left held
