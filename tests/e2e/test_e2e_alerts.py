"""End to end: everything a dealer or the hardware can get wrong raises its alert, and nothing is lost."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import TableRig, chip


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def alert(rig: TableRig, code: str) -> dict[str, Any]:
    event = rig.next("alert", code=code)
    assert event["data"]["severity"] in ("info", "warning", "critical")
    assert event["data"]["message"]
    return event


def test_counterfeit_void_and_mismatched_chips_alert_and_never_count(rig: TableRig) -> None:
    rig.bet(1, "main", chip("a", 1), ["ffffffffffffffff", 500])
    fake = alert(rig, "counterfeit_chip")
    data = fake["data"]
    assert (data["seat"], data["spot"], data["uid"]) == (1, "main", "ffffffffffffffff")
    assert rig.next("bet.placed")["data"]["amount"] == 500
    rig.bet(2, "main", [f"d{1:015x}", 10000])                     # marked void in the registry
    assert alert(rig, "counterfeit_chip")["data"]["seat"] == 2
    rig.bet(3, "main", [f"b{1:015x}", 10000])                     # written 100.00, registered 25.00
    assert alert(rig, "chip_value_mismatch")["data"]["seat"] == 3
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["seats"][1]["bets"] == {} and state["seats"][2]["bets"] == {}


def test_chips_moved_after_bets_closed_is_past_posting(rig: TableRig) -> None:
    rig.load(["5h", "9d", "Kc", "2c"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed")
    rig.pit.press("deal")
    rig.next("bets.closed")
    rig.bet(1, "main", chip("a", 1), chip("a", 2), chip("c", 1))    # a late $100 chip
    posted = alert(rig, "past_post")
    assert (posted["hand"], posted["data"]["seat"], posted["data"]["spot"]) == (1, 1, "main")
    assert not [e for e in rig.pit.drain() if e["type"] == "bet.placed"]


def test_card_problems_raise_their_alerts(rig: TableRig) -> None:
    rig.load(["5h", "5h", "9d", "Kc", "Kc", *["Kc"] * 6, "2c", "3c", "4c"], cut_at=0)
    assert rig.draw()["data"]["code"] == "card_out_of_turn"        # no hand is in play
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    rig.pit.press("deal")
    rig.next("bets.closed")
    rig.shoe.cmd("skip")                                           # card 2 leaves unseen
    rig.shoe.cmd("draw")
    gap = alert(rig, "card_gap")
    assert gap["data"]["index"] == 2
    assert rig.next("card.dealt")["data"]["index"] == 3
    rig.shoe.cmd("unreadable")
    rig.shoe.cmd("draw")
    assert alert(rig, "card_unreadable")["data"]["index"] == 4
    assert rig.draw()["data"]["to"] == "dealer"                   # the hole card: the first Kc read
    for _ in range(6):                                             # 6 more: 7 Kc in a 6-deck shoe
        rig.shoe.cmd("draw")
    over = alert(rig, "card_over_count")
    assert over["data"]["card"] == "Kc"


def test_a_board_offline_mid_hand_holds_the_hand_until_it_is_back(rig: TableRig) -> None:
    rig.load(["5h", "9d", "2c", "Kc"])
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    rig.pit.press("deal")
    rig.draw()
    rig.shoe.cmd("unplug")
    offline = rig.next("device.offline", timeout=8)
    assert offline["data"]["device"] == "shoe"
    assert alert(rig, "device_offline")["data"]["severity"] == "critical"
    rig.shoe.cmd("draw")                                           # drawn while unplugged: kept by the board
    rig.shoe.cmd("replug")
    assert rig.next("device.online", timeout=8)["data"]["device"] == "shoe"
    hole = rig.next("card.dealt")
    assert hole["data"]["to"] == "dealer" and hole["data"]["index"] == 2
    assert rig.pit.press("stand") == {"ok": True}


def test_a_board_fault_raises_one_alert(rig: TableRig) -> None:
    rig.shoe.cmd("fault", code=2, text="lid opened during draw")
    fault = alert(rig, "device_fault")
    assert fault["data"]["device"] == "shoe"
    rig.shoe.cmd("fault", code=2, text="lid opened during draw")   # the same fault within 10 s
    assert not [e for e in rig.pit.drain(0.5) if e["type"] == "alert"]


def test_installed_files_that_differ_from_the_manifest_raise_software_integrity(tmp_path: Path) -> None:
    table = TableRig(tmp_path)
    try:
        manifest = tmp_path / "manifest.json"
        made = subprocess.run([sys.executable, "-m", "controller.cli", "manifest", "--output",
                               str(manifest)], capture_output=True, text=True, timeout=30)
        assert made.returncode == 0, made.stderr
        recorded = json.loads(manifest.read_text())
        recorded["sha256"]["controller/table/machine.py"] = "0" * 64      # as if table.py had been changed
        manifest.write_text(json.dumps(recorded))
        table.config.write_text(table.config.read_text() + f'\n[integrity]\nmanifest = "{manifest}"\n')
        table.start()
        found = [e for e in table.pit.events if e["data"].get("code") == "software_integrity"]
        assert [e["data"]["severity"] for e in found] == ["critical"]
        assert "controller/table/machine.py" in found[0]["data"]["message"]
    finally:
        table.close()
