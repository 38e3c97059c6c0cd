"""End to end: ``kill -9`` in the middle of a hand, a restart, and the same hand at the same step."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.rigs.daemon_rig import TableRig, chip


def test_sigkill_mid_hand_then_restart_resumes_the_same_hand(rig: TableRig) -> None:
    rig.start()
    rig.load(["5h", "4c", "9d", "3s", "Kc", "2d"])
    rig.bet(1, "main", chip("a", 1))
    rig.bet(2, "main", chip("a", 2))
    rig.bet(2, "side", chip("a", 3))
    for _ in range(3):
        rig.next("bet.placed")
    rig.pit.press("deal")
    for _ in range(3):
        rig.draw()
    rig.draw()                                                    # seat 1 hits: 8
    rig.pit.drain()
    before = rig.pit.control({"cmd": "state"})
    last_seq = rig.pit.taken()[-1]["seq"]
    assert before["seq"] == last_seq

    assert rig.kill() == -9
    opened = rig.start()
    assert opened["seq"] == last_seq + 1                          # no gap, no repeat
    assert opened["data"]["recovered"] is True
    after = rig.pit.control({"cmd": "state"})
    for key in ("phase", "hand", "seats", "dealer", "shoe"):
        assert after["state"][key] == before["state"][key], key
    assert after["state"]["dealer"]["cards"] == [None]             # still hidden
    assert "9d" not in json.dumps(after)

    assert rig.pit.press("stand") == {"ok": True}                 # seat 1 is still in turn
    assert rig.next("player.action")["data"]["seat"] == 1
    dealt = rig.draw()
    assert (dealt["hand"], dealt["data"]["seat"], dealt["data"]["card"]) == (1, 2, "Kc")  # seat 2 busts
    settled = rig.next("hand.settled")
    assert settled["hand"] == 1
    seqs = [e["seq"] for e in rig.pit.taken()]
    assert seqs == list(range(1, len(seqs) + 1))

    replay = rig.pit.sync(b"replay", b"1")
    assert [json.loads(body)["seq"] for _, _, body in replay[:-1]] == seqs
    assert "9d" in [json.loads(b)["data"].get("card") for _, _, b in replay[:-1]]  # revealed, at last

    recall = subprocess.run([sys.executable, "-m", "controller.cli", "recall", "--config",
                             str(rig.config), "1"], capture_output=True, text=True, timeout=30)
    assert recall.returncode == 0, recall.stderr
    assert "Hand 1" in recall.stdout and "9d" in recall.stdout


def test_a_torn_journal_tail_is_reported_not_guessed_over(rig: TableRig) -> None:
    rig.start()
    rig.load(["5h"])
    assert rig.kill() == -9
    journal = rig.folder / "state" / "journal.log"
    with open(journal, "ab") as tail:
        tail.write(b'0badc0de {"seq": 99, "topic": "T07/alert", "bo')   # a write torn by the crash
    opened = rig.start()
    corrupt = next(e for e in rig.pit.events if e["data"].get("code") == "journal_corrupt")
    assert corrupt["data"]["severity"] == "critical"
    assert corrupt["seq"] == opened["seq"] + 1
    assert list((rig.folder / "state").glob("journal.log.damaged-*"))


def test_a_restart_after_a_checkpoint_reads_only_the_end_of_the_journal(rig: TableRig) -> None:
    rig.start()
    while rig.pit.last_seq < 1100:                                # a long journal: cards out of turn
        rig.shoe.cmd("load", decks=6, cut_at=0)
        rig.shoe.cmd("draw", count=300)
        rig.shoe.cmd("wait_idle")
        rig.next("alert", index=300)
    rig.bet(1, "main", chip("a", 1))                              # the checkpoint comes after this input
    rig.next("bet.placed")
    assert (rig.folder / "state" / "checkpoint.1.json").exists()
    rig.load(["5h", "9d"])
    rig.pit.press("deal")
    rig.draw()
    rig.pit.drain()
    before = rig.pit.control({"cmd": "state"})
    assert rig.kill() == -9

    opened = rig.start()
    assert opened["seq"] == before["seq"] + 1
    after = rig.pit.control({"cmd": "state"})
    for key in ("phase", "hand", "seats", "dealer", "shoe"):
        assert after["state"][key] == before["state"][key], key
    assert "state from the checkpoint at seq" in rig.log_text()
    replay = rig.pit.sync(b"replay", b"1")                        # fewer than 10,000: all still held
    last = int(replay[-1][1])
    assert last >= opened["seq"]
    assert [json.loads(body)["seq"] for _, _, body in replay[:-1]] == list(range(1, last + 1))
