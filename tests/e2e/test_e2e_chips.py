"""End to end: chip readings reported for what they are.

The probe found a uid read twice on one spot reported as "not in the chip registry" (it is a
registered chip; one of its two tags is a clone), and one uid read by two antennas at once counted
on both seats.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.devkit.simulated import antenna
from tests.rigs.daemon_rig import TableRig, chip


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_the_same_uid_twice_on_one_spot_is_reported_as_a_duplicate_and_counts_once(rig: TableRig) -> None:
    uid, value = chip("a", 1)
    twice = [{"uid": uid, "value": value}] * 2
    rig.rfid.cmd("send", message={"type": "INVENTORY", "antenna": antenna(2, "main"), "chips": twice})
    alert = rig.next("alert", code="counterfeit_chip")
    data = alert["data"]
    assert (data["seat"], data["spot"], data["uid"], data["reason"]) == (2, "main", uid, "duplicate")
    assert "read twice on seat 2 main" in data["message"]
    assert "not in the chip registry" not in data["message"]
    assert rig.next("bet.placed")["data"] == {"seat": 2, "spot": "main", "amount": 500}


def test_a_chip_read_by_two_antennas_counts_on_neither_until_it_settles(rig: TableRig) -> None:
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    assert rig.next("bet.placed")["data"]["amount"] == 1000
    rig.rfid.cmd("place", antenna=antenna(2, "main"), chips=[chip("a", 2)])   # seat 2's antenna reads it too
    alert, dropped = rig.next(), rig.next()                  # seat 2's reading first, then seat 1's
    assert dropped["data"] == {"seat": 1, "spot": "main", "amount": 500}
    crosstalk = alert["data"]
    assert (alert["type"], crosstalk["code"]) == ("alert", "chip_crosstalk")
    assert crosstalk["severity"] == "warning" and crosstalk["uid"] == chip("a", 2)[0]
    assert crosstalk["spots"] == [{"seat": 1, "spot": "main"}, {"seat": 2, "spot": "main"}]
    assert "seat 1 main and seat 2 main" in crosstalk["message"]
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["seats"][0]["bets"] == {"main": 500} and state["seats"][1]["bets"] == {}
    rig.rfid.cmd("remove", antenna=antenna(1, "main"), uids=[chip("a", 2)[0]])   # it settles on seat 2
    assert rig.next("bet.placed")["data"] == {"seat": 2, "spot": "main", "amount": 500}
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["seats"][0]["bets"] == {"main": 500} and state["seats"][1]["bets"] == {"main": 500}
    assert [e for e in rig.pit.drain() if e["type"] == "alert"] == []        # one alert for both spots
    assert len([e for e in rig.pit.taken() if e["data"].get("code") == "chip_crosstalk"]) == 1
