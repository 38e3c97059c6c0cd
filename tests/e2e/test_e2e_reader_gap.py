"""End to end: NEXT never checks a reading older than the chips' last move (issue 33, "Reader
offline at settlement").

The hand of tests/e2e/test_e2e_floor.py is settled (seat 1's main and seat 3's side lose, seat
3's main wins $25.00); the dealer collects and pays while the RFID reader is unplugged. NEXT then
waits, saying why, and raises no alert from the readings taken before the chips moved; once the
reader is back and has read every spot again, NEXT checks what the spots hold now: all paid
right, no ``payout_mismatch``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.devkit.simulated import antenna
from tests.e2e.test_e2e_floor import SHOE, play
from tests.rigs.daemon_rig import TableRig, chip

WAIT = "next: the rfid is offline: pay and collect as shown; NEXT checks the spots once it is back"


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_next_waits_for_the_reader_and_checks_what_the_spots_hold_once_it_is_back(rig: TableRig) -> None:
    rig.load(SHOE)
    play(rig, 1)
    rig.rfid.cmd("unplug")
    assert rig.next("device.offline", timeout=8)["data"]["device"] == "rfid"
    rig.rfid.cmd("clear", antenna=antenna(1, "main"))                # collected while it is away
    rig.rfid.cmd("clear", antenna=antenna(3, "side"))
    rig.rfid.cmd("place", antenna=antenna(3, "main"), chips=[chip("b", 2)])   # seat 3 paid $25.00
    assert rig.pit.press("next") == {"ok": False, "error": WAIT}
    assert rig.pit.control({"cmd": "state"})["state"]["instruction"] == (
        "Wait: the rfid is offline: pay and collect as shown; NEXT checks the spots once it is back.")
    assert rig.pit.press("next") == {"ok": False, "error": WAIT}      # as often as it is pressed

    rig.rfid.cmd("replug")
    assert rig.next("device.online", timeout=8)["data"]["device"] == "rfid"
    rig.add(3, "main")                                               # the board's readings are in
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")
    codes = [event["data"]["code"] for event in rig.pit.taken() if event["type"] == "alert"]
    assert codes == ["device_offline"]                               # no payout_mismatch
