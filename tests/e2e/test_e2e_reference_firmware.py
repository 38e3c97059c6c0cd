"""End to end with the reference firmware as the boards: the daemon as a subprocess, the shoe board the
MicroPython firmware itself (``firmware-bridge simulate shoe --reference-firmware``: marked cards pushed
past its scanner and through its beam), the RFID reader the simulator, or its reference firmware too
(tags in the fields of a PN5180 model's antennas)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.rigs.daemon_rig import TIMEOUT, TableRig, chip


@pytest.fixture
def firmware_rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, payout_check=False, reference_firmware=("shoe",))
    try:
        yield table
    finally:
        table.close()


def test_a_whole_hand_is_dealt_from_the_reference_firmware_shoe(firmware_rig: TableRig) -> None:
    rig = firmware_rig
    rig.start()
    online = rig.pit.control({"cmd": "links"})["links"]["shoe"]
    assert online["online"]
    loaded = rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    assert loaded["data"]["decks"] == 6 and loaded["data"]["shoe_id"] > 0
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed", seat=1)
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    dealt = [rig.draw() for _ in range(3)]
    assert [(d["type"], d["data"]["index"], d["data"]["card"]) for d in dealt] == [
        ("card.dealt", 1, "5h"), ("card.dealt", 2, "4c"), ("card.dealt", 3, None)]
    assert rig.draw()["data"]["card"] == "3s"                   # seat 1 hits
    assert rig.pit.press("stand") == {"ok": True}
    assert rig.draw()["data"]["card"] == "6d"                   # seat 3 hits
    assert rig.pit.press("stand") == {"ok": True}
    revealed = rig.next("card.revealed")
    assert revealed["data"]["card"] == "9d"
    settled = rig.next("hand.settled")
    assert [(r["seat"], r["outcome"], r["payout"]) for r in settled["data"]["results"]] == [
        (1, "lose", -1000), (3, "win", 2500)]
    rig.bet(1, "main")
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")
    assert not [e for e in rig.pit.taken() if e["type"] == "alert"]
    status = rig.shoe.cmd("status")
    assert status["reference_firmware"] and status["shoe"]["index"] == 5
    assert status["stats"]["framing_errors"] == 0


def test_a_watchdog_reset_keeps_the_shoe_and_loses_the_card_not_yet_acknowledged(
        firmware_rig: TableRig) -> None:
    rig = firmware_rig
    rig.start()
    shoe_id = rig.load(["5h", "9d", "2c", "Kc", "7s"], cut_at=0)["data"]["shoe_id"]
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    rig.pit.press("deal")
    assert rig.draw()["data"]["index"] == 1
    rig.shoe.cmd("unplug")
    assert rig.next("device.offline", timeout=8)["data"]["device"] == "shoe"
    rig.shoe.cmd("draw")                          # card 2 leaves: its CARD waits in the board's RAM
    rig.shoe.cmd("reboot")                        # the watchdog fires: RAM lost, scratch kept
    rig.shoe.cmd("replug")
    assert rig.next("device.online", timeout=8)["data"]["device"] == "shoe"
    fault = rig.next("alert", code="device_fault")
    assert fault["data"]["fault"] == 5
    rig.shoe.cmd("draw")                          # card 3: the same shoe goes on, after a gap
    gap = rig.next("alert", code="card_gap")
    assert gap["data"]["index"] == 2
    hole = rig.next("card.dealt")
    assert (hole["data"]["index"], hole["data"]["to"]) == (3, "dealer")
    status = rig.shoe.cmd("status")
    assert (status["shoe"]["shoe_id"], status["shoe"]["index"], status["boots"]) == (shoe_id, 3, 2)
    assert not [e for e in rig.pit.taken() if e["type"] == "shoe.loaded" and e["data"]["shoe_id"] != shoe_id]


def test_a_whole_hand_with_both_boards_running_the_reference_firmware(tmp_path: Path) -> None:
    rig = TableRig(tmp_path, payout_check=False, reference_firmware=("shoe", "rfid"))
    try:
        rig.start()
        rig.load(["9c", "8d", "Th", "Kc", "7s"], cut_at=0)
        rig.bet(1, "main", chip("a", 1))
        rig.next("bet.placed", seat=1)
        rig.bet(3, "main", chip("b", 1), chip("b", 2))
        assert rig.next("bet.placed", seat=3)["data"]["amount"] == 5000
        assert rig.pit.press("deal") == {"ok": True}
        assert rig.next("bets.closed")["data"]["bets"] == [
            {"seat": 1, "spot": "main", "amount": 500}, {"seat": 3, "spot": "main", "amount": 5000}]
        assert [rig.draw()["data"]["card"] for _ in range(3)] == ["9c", "8d", None]
        assert rig.pit.press("stand") == {"ok": True}
        assert rig.pit.press("stand") == {"ok": True}
        assert rig.next("card.revealed")["data"]["card"] == "Th"
        settled = rig.next("hand.settled")
        assert [(r["seat"], r["outcome"]) for r in settled["data"]["results"]] == [(1, "lose"), (3, "lose")]
        alerts = [(e["seq"], e["data"]) for e in rig.pit.taken() if e["type"] == "alert"]
        assert not alerts, f"alerts during a clean hand: {alerts}\n{rig.log_text()[-3000:]}"
        assert rig.rfid.cmd("status")["reference_firmware"]
    finally:
        rig.close()


def test_a_hand_on_seats_4_to_6_is_read_by_the_reference_reader_of_32_antennas(tmp_path: Path) -> None:
    # Seats 4 to 6 have their spots on antennas 16 to 30: both multiplexers of the reference reader.
    rig = TableRig(tmp_path, payout_check=False, reference_firmware=("shoe", "rfid"))
    try:
        rig.start()
        rig.load(["9c", "8d", "7h", "Th", "Kc"], cut_at=0)
        rig.bet(4, "main", chip("a", 1))                                 # antenna 16
        rig.next("bet.placed", seat=4)
        rig.bet(5, "main", chip("b", 1))                                 # antenna 21
        rig.next("bet.placed", seat=5)
        rig.bet(6, "main", chip("c", 1), chip("a", 2))                   # antenna 26
        assert rig.next("bet.placed", seat=6)["data"]["amount"] == 10500
        assert rig.pit.press("deal") == {"ok": True}
        assert rig.next("bets.closed")["data"]["bets"] == [
            {"seat": 4, "spot": "main", "amount": 500}, {"seat": 5, "spot": "main", "amount": 2500},
            {"seat": 6, "spot": "main", "amount": 10500}]
        assert [rig.draw()["data"]["card"] for _ in range(4)] == ["9c", "8d", "7h", None]
        assert rig.pit.press("stand") == {"ok": True}
        assert rig.pit.press("stand") == {"ok": True}
        seat_6 = 1 << 25 | 1 << 26                      # antennas 26 and 27, on the shift registers
        deadline = time.monotonic() + TIMEOUT
        while rig.rfid.cmd("status")["spot_lights"] != seat_6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert rig.rfid.cmd("status")["spot_lights"] == seat_6
        assert rig.pit.press("stand") == {"ok": True}
        assert rig.next("card.revealed")["data"]["card"] == "Th"
        settled = rig.next("hand.settled")
        assert [(r["seat"], r["outcome"], r["wager"]) for r in settled["data"]["results"]] == [
            (4, "lose", 500), (5, "lose", 2500), (6, "lose", 10500)]
        assert not [e["data"] for e in rig.pit.taken() if e["type"] == "alert"]
    finally:
        rig.close()
