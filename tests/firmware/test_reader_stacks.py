"""The RFID spot reader's firmware reads stacks exactly: sizes 1 to 40 (and any set of UIDs), changes,
the periodic INVENTORY, more chips than one INVENTORY lists, the field off between antennas, the lights."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import iso15693, spot_reader
from firmware_bridge.firmware_host import tags
from firmware_bridge.firmware_host.tags import Tag
from firmware_bridge.link.messages import Inventory
from tests.firmware.reader_rig import ReaderRig, chips_of, stack


def as_bytes(uids: Iterable[int]) -> list[bytes]:
    """UIDs as the firmware holds them: 8 bytes, most significant first."""
    return [uid.to_bytes(8, "big") for uid in uids]


def test_crc_is_iso_iec_13239() -> None:
    # The CRC-16 check value of "123456789" for ISO/IEC 13239 (X.25 family) is 0x906E, both sides.
    assert iso15693.crc16(b"123456789") == tags.crc16(b"123456789") == 0x906E
    assert iso15693.frame_ok(tags.with_crc(b"\x00\x01\x02"))
    assert not iso15693.frame_ok(tags.with_crc(b"\x00\x01\x02")[:-1] + b"\x00")


@pytest.mark.parametrize("count", [1, 5, 20, 40])
def test_a_stack_is_read_exactly(count: int) -> None:
    rig = ReaderRig([1])
    chips = stack(count, seed=count)
    rig.model.place(1, *chips)
    rig.poll()
    assert rig.latest(1) == chips_of(chips)
    assert rig.model.stats.single >= count            # each tag answered alone at least once
    assert rig.reader.status_flags() == 0


uid_sets = st.one_of(
    st.sets(st.integers(0, 2**64 - 1), max_size=40),
    # long shared low bits: the tags collide slot after slot before their UIDs part
    st.tuples(st.integers(0, 2**56 - 1), st.sets(st.integers(0, 255), min_size=2, max_size=12)).map(
        lambda base: {base[0] | (high << 56) for high in base[1]}),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(uids=uid_sets)
def test_any_set_of_distinct_uids_is_read_exactly(uids: set[int]) -> None:
    rig = ReaderRig([1])
    chips = [Tag(uid, uid % 100_000) for uid in uids]
    rig.model.place(1, *chips)
    rig.poll()
    assert rig.latest(1) == chips_of(chips)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(now=uid_sets, before=uid_sets, shared=st.integers(0, 40))
def test_what_the_last_read_found_never_changes_what_is_read(now: set[int], before: set[int],
                                                             shared: int) -> None:
    # The last read's UIDs only choose where the anticollision starts (1-slot requests, rounds per
    # prefix, 1-slot walks along two known UIDs): right, wrong or half right, every tag is read.
    rig = ReaderRig([1])
    rig.model.place(1, *(Tag(uid, 1) for uid in now))
    previous = sorted(before | set(sorted(now)[:shared]))
    rig.chip.reset()
    rig.chip.rf_on()
    assert rig.reader.inventory.uids(as_bytes(previous)) == set(as_bytes(now))


@pytest.mark.parametrize("change", ["same", "one more", "one less", "another stack"])
def test_a_40_chip_stack_read_again_after_a_change_is_read_exactly(change: str) -> None:
    rig = ReaderRig([1])
    before = stack(40)
    now = {"same": before, "one more": [*before, *stack(1, seed=9)], "one less": before[1:],
           "another stack": stack(40, seed=7)}[change]
    rig.model.place(1, *now)
    rig.chip.reset()
    rig.chip.rf_on()
    read = rig.reader.inventory.uids(as_bytes(tag.uid for tag in before))
    assert read == set(as_bytes(tag.uid for tag in now))
    assert rig.reader.inventory.rounds < rig.model.stats.rounds      # 1-slot requests were used


def test_a_read_goes_on_over_several_polls_with_the_field_left_on() -> None:
    # Each poll reads for at most slice_us, so that the board core serves the link between slices.
    rig = ReaderRig([1, 2])
    rig.reader.slice_us = 0                           # one round or one value per poll
    chips = stack(20)
    rig.model.place(1, *chips)
    polls = 0
    while rig.latest(1) is None:
        assert rig.reader.next_deadline_ms(rig.now_ms) == rig.now_ms
        rig.poll()
        polls += 1
    assert polls > 20 and rig.latest(1) == chips_of(chips)
    assert rig.model.stats.field_on == 1              # one read: the field stayed on between slices
    assert rig.latest(2) is None                      # antenna 2 waits for antenna 1's read to end


def test_two_tags_alike_but_for_their_last_four_bits_are_both_read() -> None:
    rig = ReaderRig([1])
    pair = [Tag(0x0123456789ABCDEF, 100), Tag(0xF123456789ABCDEF, 500)]
    rig.model.place(1, *pair)
    rig.poll()
    assert rig.latest(1) == chips_of(pair)
    assert rig.model.stats.collided == 15              # the pair collided at every level but the last


def test_a_chip_put_on_is_reported_at_once_and_one_taken_off_after_three_reads_without_it() -> None:
    rig = ReaderRig([1])
    chips = stack(6)
    rig.model.place(1, *chips[:5])
    rig.poll()
    rig.model.place(1, chips[5])
    assert rig.poll() and rig.latest(1) == chips_of(chips)       # the next read reports it
    rig.model.clear(1)
    rig.model.place(1, *chips[1:])
    assert rig.poll(2) == []                                      # two reads without it: still there
    assert rig.reader.next_deadline_ms(rig.now_ms) == rig.now_ms   # read again at once meanwhile
    assert len(rig.poll()) == 1
    assert rig.latest(1) == chips_of(chips[1:])


def test_inventory_is_repeated_at_least_every_two_seconds_and_not_more_often_unchanged() -> None:
    rig = ReaderRig([1, 2], interval_ms=200)
    rig.model.place(1, *stack(3))
    rig.poll(2)
    sent: dict[int, list[int]] = {1: [rig.now_ms], 2: [rig.now_ms]}
    for _ in range(600):                                   # 6 s of the board core's clock
        for message in rig.poll(step_ms=10):
            assert isinstance(message, Inventory)
            sent[message.antenna].append(rig.now_ms)
    for times in sent.values():
        gaps = [b - a for a, b in itertools.pairwise(times)]
        assert len(gaps) >= 3 and min(gaps) >= 1500 and max(gaps) <= 2000


def test_a_spot_with_more_than_85_chips_lists_85_and_sets_status_bit_2() -> None:
    rig = ReaderRig([1])
    chips = stack(90)
    rig.model.place(1, *chips)
    rig.poll()
    listed = rig.latest(1)
    assert listed is not None and len(listed) == 85
    assert listed == dict(sorted(chips_of(chips).items())[:85])
    assert rig.reader.status_flags() == spot_reader.OVER_FULL
    rig.model.clear(1)
    rig.model.place(1, *chips[:40])
    rig.poll(3)
    assert rig.reader.status_flags() == 0


def test_the_field_is_off_at_least_5_1_ms_between_antennas_and_while_the_multiplexer_switches() -> None:
    rig = ReaderRig([1, 2, 3])
    for antenna in (1, 2, 3):
        rig.model.place(antenna, *stack(4, seed=antenna))
    rig.poll(9)
    gaps = rig.model.stats.field_off_gaps_s
    assert len(gaps) >= 9 and min(gaps) >= 0.0051
    assert rig.model.stats.mux_switched_with_field_on == 0
    assert not rig.model.rf_on


def test_a_snapshot_makes_every_antenna_read_due_and_lights_follow_the_mask() -> None:
    rig = ReaderRig([1, 2, 5])
    chips = stack(3)
    rig.model.place(5, *chips)
    assert rig.reader.snapshot() == rig.reader.take_messages() == []   # nothing read yet: nothing to say
    rig.poll(3)
    assert rig.reader.take_messages() == []
    assert rig.reader.snapshot() == []                 # made due, handed over by take_messages
    assert [msg_type for msg_type, _ in rig.reader.take_messages()] == [spot_reader.MSG_INVENTORY] * 3
    assert rig.latest(5) == chips_of(chips) and rig.latest(2) == {}
    rig.reader.on_spot_lights(0b10010)
    assert [pin.level for pin in rig.lights[:6]] == [0, 1, 0, 0, 1, 0]
    assert rig.reader.kind == 2
