"""The roles without any protocol: what the table is told of a shoe and a spot reader, whichever driver
reads the board (drivers/shoe.py, drivers/rfid.py, drivers/board.py)."""

from __future__ import annotations

from drivers.board import Role
from drivers.chips import ChipRegistry, RegisteredChip
from drivers.inputs import (
    CardDrawn,
    CardUnreadable,
    CutCard,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DeviceStatus,
    DriverInput,
    ShoeLoaded,
    SpotsRead,
    SpotWager,
)
from drivers.rfid import SpotReader
from drivers.shoe import Shoe
from firmware_bridge.kernel.cards import Card

A, B = "00000000000000aa", "00000000000000bb"


def test_the_spot_reader_hands_on_a_wager_when_a_spots_chips_change_and_crosstalk_on_both() -> None:
    told: list[DriverInput] = []
    registry = ChipRegistry([RegisteredChip(A, 500, "active"), RegisteredChip(B, 2500, "active")])
    reader = SpotReader(told.append, antennas={1: (1, "main"), 2: (2, "main")}, registry=registry)
    reader.inventory(1, [(A, 500)])
    reader.inventory(1, [(A, 500)])                          # a repeat: nothing new
    assert [(w.seat, w.amount) for w in told if isinstance(w, SpotWager)] == [(1, 500)]
    reader.inventory(2, [(B, 2500), (A, 500)])               # A over both spots: it counts on neither
    wagers = [w for w in told if isinstance(w, SpotWager)][1:]
    assert [(w.antenna, w.amount, [r.reason for r in w.rejected]) for w in wagers] == [
        (2, 2500, ["crosstalk"]), (1, 0, ["crosstalk"])]
    reader.inventory(7, [(A, 500)])                          # under no spot: logged, never a wager
    assert len(told) == 3


def test_the_spot_reader_says_once_it_has_read_again_every_antenna_it_read_before_a_gap() -> None:
    told: list[DriverInput] = []
    registry = ChipRegistry([RegisteredChip(A, 500, "active"), RegisteredChip(B, 2500, "active")])
    reader = SpotReader(told.append, antennas={1: (1, "main"), 2: (2, "main"), 3: (3, "main")},
                        registry=registry)
    reader.online("fw", "RF-1")                              # nothing read before: read at once
    assert told[1:] == [SpotsRead("rfid")]
    reader.inventory(1, [(A, 500)])
    reader.inventory(2, [(B, 2500)])
    reader.offline("unplugged")
    told.clear()
    reader.online("fw", "RF-1")
    reader.inventory(2, [(B, 2500)])                         # unchanged: no wager, but read
    assert told[1:] == []
    reader.inventory(1, [])                                  # taken off while it was away
    assert [type(item).__name__ for item in told[1:]] == ["SpotWager", "SpotsRead"]
    reader.inventory(1, [(A, 500)])                          # once per session
    assert [type(item).__name__ for item in told[1:]] == ["SpotWager", "SpotsRead", "SpotWager"]


def test_crosstalk_ends_when_one_antenna_stops_reading_the_chip_and_a_uid_in_capitals_is_that_chip() -> None:
    told: list[DriverInput] = []
    registry = ChipRegistry([RegisteredChip(A, 500, "active"), RegisteredChip(B, 2500, "active")])
    reader = SpotReader(told.append, antennas={1: (1, "main"), 2: (2, "main"), 3: (3, "main")},
                        registry=registry)

    def wagers() -> list[tuple[int, int, list[str]]]:
        found = [(w.antenna, w.amount, [r.reason for r in w.rejected])
                 for w in told if isinstance(w, SpotWager)]
        told.clear()
        return found

    reader.inventory(1, [(A, 500)])
    reader.inventory(2, [(A.upper(), 500)])                  # the same chip, read over spot 2 too
    assert wagers() == [(1, 500, []), (2, 0, ["crosstalk"]), (1, 0, ["crosstalk"])]
    reader.inventory(2, [(B, 2500)])                         # it lies on spot 1 alone again
    assert wagers() == [(2, 2500, []), (1, 500, [])]
    reader.inventory(1, [])                                  # A moves from spot 1 to spot 3
    reader.inventory(3, [(A, 500)])
    assert wagers() == [(1, 0, []), (3, 500, [])]
    reader.inventory(2, [(B, 2500), (A, 500)])               # and now lies across spots 2 and 3
    assert wagers() == [(2, 2500, ["crosstalk"]), (3, 0, ["crosstalk"])]


def test_the_shoe_names_each_card_by_its_shoe_and_a_card_that_is_none_is_unreadable() -> None:
    told: list[DriverInput] = []
    shoe = Shoe(told.append, shoe_id=4)
    shoe.card(1, 1, 3)
    shoe.loaded(9, 6)
    shoe.card(1, 14, 0)                                      # rank 14: no card
    shoe.unreadable(2)
    shoe.cut_card(3)
    assert told == [CardDrawn(4, 1, Card(1, 3)), ShoeLoaded(9, 6), CardUnreadable(9, 1),
                    CardUnreadable(9, 2), CutCard(9, 3)]


def test_a_role_says_online_offline_its_flags_when_they_change_and_a_fault_once_a_window() -> None:
    told: list[DriverInput] = []
    role = Shoe(told.append, fault_window=10.0)
    role.online("fw-1", "SN1")
    role.status(0b10)
    role.status(0b10)
    role.fault(2, "lid opened", now=100.0)
    role.fault(2, "lid opened", now=105.0)                   # a repeat within the window
    role.fault(2, "lid opened", now=111.0)                   # the fault goes on: raised again
    role.wrong_board("rfid")
    role.status(0b10, memory_errors=2)                       # out of memory twice: said once
    role.status(0b10, memory_errors=2)
    role.offline("silent")
    assert told == [DeviceOnline("shoe", "fw-1", "SN1"), DeviceStatus("shoe", ("shoe empty",)),
                    DeviceFault("shoe", 2, "lid opened"), DeviceFault("shoe", 2, "lid opened"),
                    DeviceFault("shoe", 0, "a rfid board is connected on the shoe port"),
                    DeviceFault("shoe", 0, "the board ran out of memory (2 times since it started): each "
                                "time a step of its work was dropped and done again, nothing lost; if it "
                                "goes on, the table holds more than its firmware can: call a technician"),
                    DeviceOffline("shoe", "silent")]
    assert issubclass(Shoe, Role) and issubclass(SpotReader, Role)
