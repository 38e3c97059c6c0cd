"""End to end: a restart of the real daemon rebuilds the live table exactly, whatever it finds (a journal
whose ``table.opened`` has no ``rules`` too), and announces its game's rules.

architecture.md: "A checkpoint that does not match the journal is ignored and the whole journal is
replayed."
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from controller.events.codec import record_json
from controller.journal import checkpoint
from controller.journal.log import Journal
from controller.table.views import public_state
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.rigs.daemon_rig import TableRig
from tests.rigs.table_rig import Rig


def test_a_checkpoint_that_does_not_match_makes_the_daemon_replay_the_whole_journal(tmp_path: Path) -> None:
    (tmp_path / "state").mkdir(mode=0o750)          # closed to others, or the daemon refuses it
    live = Rig(tmp_path / "state", keep=KEEP)     # the daemon's state_dir, written by a table in process
    live.ready()
    play_hands(live, 6, random.Random(3))           # checkpoints with a replay window well past seq 1
    live.bet(1, "main", 2000)
    live.press("deal")
    live.card("5d")                                 # a hand in play
    expected = record_json(public_state(live.table))
    last_seq = live.table.state.seq
    live.journal.close()
    for copy in checkpoint.COPIES:
        path = checkpoint.copy_path(tmp_path / "state" / "checkpoint.json", copy)
        saved = json.loads(path.read_bytes()[65:])
        assert saved["window"][0] > 1
        journal = Journal.open(tmp_path / "state" / "journal.log", start=tuple(saved["window"]))
        assert journal.start != (1, 0)              # the window still points at a good record
        journal.close()
        saved["body_crc"] ^= 1                      # but the checkpoint was taken on another journal
        text = json.dumps(saved).encode()
        path.write_bytes(hashlib.sha256(text).hexdigest().encode() + b" " + text + b"\n")

    table = TableRig(tmp_path, table="T01")
    try:
        table.start()
        first, opened = [e for e in table.pit.events if e["type"] == "table.opened"]   # caught up from seq 1
        assert opened["seq"] == last_seq + 1
        assert opened["data"]["recovered"] is True
        assert "rules" not in first["data"]            # journaled by a table without rules: still read
        assert opened["data"]["rules"] == {            # the daemon's: Easy Jack's options in force, as JSON
            "decks": 6, "peek_for_ace": False, "natural_pays_6_5": False,
            "dealer_bust_pays": {"2": 3, "3": 4, "4": 10, "5": 50, "6": 500}, "stand_on_11": False}
        state = table.pit.control({"cmd": "state"})["state"]
        for key in ("phase", "hand", "next_hand", "seats", "dealer", "shoe", "meters"):
            assert state[key] == expected[key], key
        assert "no checkpoint used" in table.log_text()
    finally:
        table.close()


def test_a_board_that_does_not_come_back_after_a_restart_is_reported_offline(rig: TableRig) -> None:
    # pit-events.md: device.offline "a board's link ... goes down"; control.md: deal is refused while
    # a board is offline. Before the restart the journal says the shoe is online; after it, nothing
    # answers on its port, so the table must not go on believing it is.
    rig.start()
    rig.load(["5h", "9d"])
    assert rig.kill() == -9
    rig.shoe.cmd("unplug")
    rig.start(wait_online=False)
    offline = rig.next("device.offline", timeout=10)
    assert offline["data"]["device"] == "shoe" and offline["hand"] is None
    assert rig.next("alert", code="device_offline")["data"]["device"] == "shoe"
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["devices"]["shoe"]["online"] is False
    assert state["devices"]["rfid"]["online"] is True
    refused = rig.pit.press("deal")
    assert refused["ok"] is False and "the shoe is offline" in refused["error"]
    rig.shoe.cmd("replug")
    assert rig.next("device.online", timeout=10)["data"]["device"] == "shoe"
