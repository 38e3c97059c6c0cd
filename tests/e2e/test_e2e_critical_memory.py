"""End to end: critical memory (docs/architecture.md, "Critical memory") through the real daemon.

Bytes of the journal, of each checkpoint copy, of the published mark and of the fault file are
flipped or torn, the daemon running or stopped (``kill -9`` included); each time a check that
fails stops DEAL with the reason on the dealer's instruction line, raises the critical
``critical_memory`` alert, and holds across restarts until a supervisor's
``critical_memory_clear`` with the right PIN, which is refused while the check still fails.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from controller.journal import checkpoint
from controller.security.supervisor_pins import hash_pin
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.rigs.daemon_rig import TableRig, chip
from tests.rigs.table_rig import Rig

PIN = "60417293"
CARDS = ["5h", "9d"] * 40


def table(folder: Path, name: str = "T07") -> TableRig:
    return TableRig(folder, table=name, payout_check=False, supervisors={"S101": hash_pin(PIN)})


@pytest.fixture
def rig(tmp_path: Path) -> Any:
    made = table(tmp_path)
    try:
        yield made
    finally:
        made.close()


def hand(rig: TableRig) -> None:
    """One hand of seat 1 (its wager on the spot, the shoe loaded): deal, two cards, stand, next."""
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("hand.started")
    rig.draw()
    rig.draw()
    assert rig.pit.press("stand") == {"ok": True}
    rig.next("hand.settled")
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")


def clear(rig: TableRig, pin: str = PIN) -> dict[str, Any]:
    return rig.pit.control({"cmd": "critical_memory_clear", "supervisor": "S101", "pin": pin})


def stopped(rig: TableRig, *words: str, since: int | None = None) -> dict[str, Any]:
    """Check that DEAL is refused for a critical memory fault whose reason holds ``words``; returns
    the critical ``critical_memory`` alert raised for it (after seq ``since``: at a start, with the
    start's ``table.opened``; by default, for this DEAL)."""
    since = rig.pit.last_seq if since is None else since
    refused = rig.pit.press("deal")                                # checked before the hand
    assert refused["ok"] is False and "critical memory fault" in refused["error"]
    raised = [e for e in rig.pit.events if e["seq"] > since and e["type"] == "alert"
              and e["data"]["code"] == "critical_memory"]
    alert = raised[0] if raised else rig.next("alert", code="critical_memory")
    assert alert["data"]["severity"] == "critical"
    for word in words:
        assert word in alert["data"]["message"], (word, alert)
    instruction = rig.pit.control({"cmd": "state"})["state"]["instruction"]
    assert "critical memory fault" in instruction                  # on the dealer's display and screen
    return alert


def cleared(rig: TableRig) -> None:
    assert clear(rig, "00000000")["ok"] is False                   # a wrong PIN clears nothing
    assert clear(rig) == {"ok": True}
    alert = rig.next("alert", code="critical_memory")
    assert alert["data"]["severity"] == "info" and "S101" in alert["data"]["message"]
    assert not (rig.folder / "state" / "critical_memory.fault").exists()


def flip(path: Path, offset: int) -> bytes:
    """Flip one bit of the byte at ``offset`` (from the end if negative); returns the file before."""
    good = path.read_bytes()
    data = bytearray(good)
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))
    return good


def test_a_journal_byte_flipped_between_hands_stops_deal_until_repaired_and_cleared(rig: TableRig) -> None:
    rig.start()
    rig.load(CARDS, cut_at=0)
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    hand(rig)
    journal = rig.folder / "state" / "journal.log"
    good = flip(journal, len(journal.read_bytes()) // 2)            # a record checked after the hand

    stopped(rig, "before hand 2", "journal.log")
    assert rig.pit.control({"cmd": "critical_memory_clear"})["ok"] is False     # a supervisor's only
    refused = clear(rig)
    assert refused["ok"] is False and "still fails its check" in refused["error"]

    assert rig.kill() == -9                                         # a power cut, say
    data = bytearray(journal.read_bytes())
    data[:len(good)] = good                                         # repaired: the byte put back
    journal.write_bytes(bytes(data))
    opened = rig.start()
    stopped(rig, "before hand 2", since=opened["seq"])              # still latched after the restart
    cleared(rig)
    hand(rig)


def test_a_checkpoint_copy_altered_while_running_is_found_before_the_next_hand(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    live = Rig(state, keep=KEEP)                    # the daemon's state folder, with checkpoints in it
    live.ready()
    play_hands(live, 4, random.Random(3))
    live.journal.close()
    rig = table(tmp_path, "T01")
    try:
        rig.start()
        path = state / "checkpoint.json"
        newest = checkpoint.load(path)
        assert newest is not None and checkpoint.copy_path(path, 3 - newest.copy).exists()
        older = checkpoint.copy_path(path, 3 - newest.copy)
        good = flip(older, 100)
        stopped(rig, "before hand", f"checkpoint copy {3 - newest.copy}")
        refused = clear(rig)
        assert refused["ok"] is False and "put a good copy back, or remove it" in refused["error"]
        older.write_bytes(good)                                     # repaired: a good copy put back
        cleared(rig)
        assert rig.pit.press("deal") == {"ok": True}

        assert rig.kill() == -9
        flip(checkpoint.copy_path(path, newest.copy), -10)          # torn or altered while stopped: the
        rig.start()                                                 # journal is read whole, no fault
        assert rig.pit.control({"cmd": "state"})["state"]["phase"] != "betting"     # the hand goes on
        assert "checksum mismatch" in rig.log_text()
        assert not (state / "critical_memory.fault").exists()
    finally:
        rig.close()


def test_a_torn_copy_falls_back_to_the_other_and_two_torn_ones_are_a_fault(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    live = Rig(state, keep=KEEP)
    live.ready()
    play_hands(live, 4, random.Random(5))
    live.journal.close()
    path = state / "checkpoint.json"
    newest = checkpoint.load(path)
    assert newest is not None
    torn = checkpoint.copy_path(path, newest.copy)
    torn.write_bytes(torn.read_bytes()[:300])                       # the write a power cut tore
    rig = table(tmp_path, "T01")
    try:
        rig.start()
        log = rig.log_text()
        assert "torn" in log and f"state from the checkpoint at seq {newest.seq}," not in log
        assert "state from the checkpoint at seq" in log             # the other copy's
        assert "critical memory" not in rig.pit.control({"cmd": "state"})["state"]["instruction"]
        assert not (state / "critical_memory.fault").exists()        # no fault
        rig.kill()

        other = checkpoint.copy_path(path, 3 - newest.copy)
        flip(other, 80)                                               # both damaged: not a crash's doing
        opened = rig.start()
        stopped(rig, "at start", "every copy of the checkpoint is damaged", since=opened["seq"])
        refused = clear(rig)
        assert refused["ok"] is False and "checkpoint" in refused["error"]
        torn.unlink()
        other.unlink()
        cleared(rig)
    finally:
        rig.close()


def test_the_mark_and_the_fault_file_damaged_hold_the_fault_across_kill_9(rig: TableRig) -> None:
    rig.start()
    rig.load(CARDS, cut_at=0)
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    mark = rig.folder / "state" / "published.mark"
    flip(mark, 30)                                                  # read back before the hand
    stopped(rig, "before hand 1", "published.mark")

    assert rig.kill() == -9
    fault = rig.folder / "state" / "critical_memory.fault"
    assert fault.exists()
    flip(fault, 20)                                                 # the fault file itself altered
    opened = rig.start()
    stopped(rig, "damaged", since=opened["seq"])
    assert rig.kill() == -9
    fault.write_bytes(fault.read_bytes()[:12])                      # or torn
    opened = rig.start()
    stopped(rig, "damaged", since=opened["seq"])
    cleared(rig)                                                    # the mark was written again since

    assert rig.kill() == -9
    mark.write_bytes(b"not a mark at all\n")                        # altered while stopped
    opened = rig.start()
    stopped(rig, "at start", "published.mark", since=opened["seq"])
    cleared(rig)
    hand(rig)


def test_a_state_folder_of_the_earlier_release_runs_on_and_is_checked(tmp_path: Path) -> None:
    state = tmp_path / "state"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "journal-v1", state)
    state.chmod(0o700)
    old = (state / "journal.log").read_bytes()
    rig = table(tmp_path)
    try:
        rig.start(wait_online=False)                                # its table.opened: the journal's first
        opened = rig.next("table.opened")                           # so the pit caught up from seq 1
        online = {rig.next("device.online")["data"]["device"] for _ in range(2)}
        assert online == {"shoe", "rfid"}
        assert (opened["seq"], opened["epoch"], opened["data"]["recovered"]) == (16, 1795000000, True)
        assert "state from the checkpoint at seq 15" in rig.log_text()     # the single file, read
        rig.load(CARDS, cut_at=0)
        rig.bet(1, "main", chip("a", 1))
        rig.next("bet.placed")
        hand(rig)                                                   # checked before and after: no fault
        assert rig.kill() == -9
        opened = rig.start()
        assert opened["epoch"] == 1795000000
        hand(rig)
    finally:
        rig.close()
    assert not (state / "critical_memory.fault").exists()
    journal = (state / "journal.log").read_bytes()
    assert journal.startswith(old)                                  # the old lines as they were
    assert b'"v":2' in journal[len(old):].splitlines()[0]          # new ones chained after them
