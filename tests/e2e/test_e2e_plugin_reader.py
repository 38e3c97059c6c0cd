"""A spot reader of another brand is one driver plug-in and a config line: the text reader
(``tests/plugins/text_reader.py``, lines of text instead of the link protocol), installed into a
folder on the daemon's PYTHONPATH (a ``*.dist-info`` with its entry point, as pip would write it)
and named in ``[devices.rfid] driver``; its test board is a tiny script on a pty
(``tests/plugins/text_reader_board.py``). A hand is played through it with the real daemon and the
simulated shoe; a bad option of the driver stops the start with one line and exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.devkit.simulated import write_config
from tests.rigs.daemon_rig import TableRig, chip
from tests.rigs.plugins import ROOT, install

TEXT_BOARD = [sys.executable, "-m", "tests.plugins.text_reader_board"]


def plugin_path(folder: Path) -> dict[str, str]:
    """The environment of a daemon that has the driver ``text-reader`` installed in ``folder``."""
    install(folder, "text-reader", {"table_controller.drivers": {
        "text-reader": "tests.plugins.text_reader:TextReaderDriver"}})
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


@pytest.fixture
def text_rig(tmp_path: Path) -> Iterator[TableRig]:
    (tmp_path / "table").mkdir()
    table = TableRig(tmp_path / "table", payout_check=False, rfid_board=TEXT_BOARD,
                     devices={"rfid": 'driver = "text-reader"\nsilence = 5'})
    try:
        yield table
    finally:
        table.close()


def test_a_hand_is_played_through_a_second_spot_reader_driver(text_rig: TableRig, tmp_path: Path) -> None:
    rig = text_rig
    rig.start(env=plugin_path(tmp_path / "site"))
    links = rig.pit.control({"cmd": "links"})["links"]
    assert links["rfid"]["online"] and links["rfid"]["opened"] == 1
    rig.load(["5h", "4c", "9d", "3s", "6d", "Kh"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    assert rig.next("bet.placed", seat=1)["data"] == {"seat": 1, "spot": "main", "amount": 1000}
    rig.bet(4, "main", chip("b", 1))
    assert rig.next("bet.placed", seat=4)["data"] == {"seat": 4, "spot": "main", "amount": 2500}
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    dealt = [rig.draw()["data"]["card"] for _ in range(3)]
    assert dealt == ["5h", "4c", None]
    # seat 1 in turn: its spots (antennas 1 and 2) lit, over the text protocol
    assert rig.rfid.cmd("lights", want=0b11)["mask"] == 0b11
    assert rig.pit.press("stand") == {"ok": True}
    assert rig.pit.press("stand") == {"ok": True}
    assert rig.next("card.revealed")["data"]["card"] == "9d"
    settled = rig.next("hand.settled")
    assert [(r["seat"], r["outcome"]) for r in settled["data"]["results"]] == [(1, "lose"), (4, "lose")]
    rig.bet(1, "main")
    rig.bet(4, "main")
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")
    assert rig.pit.control({"cmd": "links"})["links"]["rfid"]["bad_lines"] == 0


def run(config: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **env})


def test_a_bad_driver_option_or_a_driver_not_installed_stops_the_start_with_one_line(tmp_path: Path) -> None:
    config = write_config(tmp_path, devices={"rfid": 'driver = "text-reader"\nsilence = 0'})
    bad = run(config, plugin_path(tmp_path / "site"))
    assert bad.returncode == 2
    assert bad.stderr.splitlines() == ["config: devices.rfid.silence: must be 1..60 seconds, not 0"]
    missing = run(config, {"PYTHONPATH": str(ROOT)})
    assert missing.returncode == 2
    assert missing.stderr.splitlines() == [
        "config: devices.rfid.driver: 'text-reader' is not an installed driver (installed: link, optical)"]
    shoe = write_config(tmp_path, devices={"shoe": 'driver = "text-reader"'})
    wrong = run(shoe, plugin_path(tmp_path / "site2"))
    assert wrong.returncode == 2
    assert wrong.stderr.splitlines() == [
        "config: devices.shoe.driver: the driver 'text-reader' drives rfid boards, not 'shoe'"]
