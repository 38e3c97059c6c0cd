"""End to end: the journal's rotation and retention (``[journal]``) through the real daemon.

The daemon closes its live journal file into a segment between hands; it starts again across
segments after ``kill -9``, after a crash that left the segment and no live file, and from a
checkpoint once old segments were deleted; ``recall`` (the control command and
``table-controller recall``) reads across them; a journal written by an earlier release runs
on and rotates; and with old segments gone and no checkpoint copy that reads, the daemon
refuses to start and says why.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from controller.journal import checkpoint
from controller.journal.segments import read_records, segments
from controller.security.supervisor_pins import hash_pin
from tests.e2e.test_e2e_critical_memory import CARDS, PIN, hand
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.rigs.daemon_rig import TableRig, chip
from tests.rigs.table_rig import Rig

ROTATING = "\n[journal]\nsegment_bytes = 4096\nkeep_days = 0\n"


def table(folder: Path, name: str = "T07") -> TableRig:
    """The daemon, its journal closed into a segment after a hand once it holds 4 KiB."""
    rig = TableRig(folder, table=name, payout_check=False, supervisors={"S101": hash_pin(PIN)})
    rig.config.write_text(rig.config.read_text() + ROTATING)
    return rig


def recalled(rig: TableRig, hands: int) -> list[str]:
    """The lines of the supervisor's ``recall`` of the last ``hands`` hands."""
    reply = rig.pit.control({"cmd": "recall", "supervisor": "S101", "pin": PIN, "hands": hands})
    assert reply["ok"] is True, reply
    return [line for found in reply["hands"] for line in found["lines"]]


def cli_recall(rig: TableRig, hands: int) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "controller.cli", "recall", "--config", str(rig.config),
                           str(hands)], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_daemon_rotates_between_hands_and_runs_on_across_segments(tmp_path: Path) -> None:
    rig = table(tmp_path)
    journal = tmp_path / "state" / "journal.log"
    try:
        rig.start()
        rig.load(CARDS, cut_at=0)
        rig.bet(1, "main", chip("a", 1))
        rig.next("bet.placed")
        for _ in range(4):
            hand(rig)
        rig.pit.control({"cmd": "state"})                           # after the last hand's rotation
        closed = segments(journal)
        assert len(closed) >= 2 and closed[0].first == 1
        assert all(a.last + 1 == b.first for a, b in itertools.pairwise(closed))
        lines = recalled(rig, 4)
        assert sum(line.startswith("Hand ") for line in lines) == 4
        assert cli_recall(rig, 4) == lines                          # the command line reads across segments

        assert rig.kill() == -9
        before = max(r.seq for r in read_records(journal))
        opened = rig.start()
        assert opened["data"]["recovered"] is True and opened["seq"] == before + 1
        hand(rig)
        assert "critical memory" not in rig.pit.control({"cmd": "state"})["state"]["instruction"]
        assert [r.seq for r in read_records(journal)] == list(range(1, rig.pit.last_seq + 1))
    finally:
        rig.close()
    assert not (tmp_path / "state" / "critical_memory.fault").exists()


def rotated_state(tmp_path: Path, hands: int) -> Path:
    """A state folder of table T01 that played ``hands`` hands (a checkpoint and a rotation after each),
    its segments older than a month deleted where no checkpoint copy needs them."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    live = Rig(state, keep=KEEP)
    live.ready()
    rng = random.Random(11)
    for _ in range(hands):
        play_hands(live, 1, rng)
        live.journal.rotate()
    for segment in segments(state / "journal.log"):
        os.utime(segment.path, (time.time() - 40 * 86400,) * 2)
    copies, _ = checkpoint.read(state / "checkpoint.json")
    needed = min(copy.window[0] for copy in copies)
    assert live.journal.prune(needed, time.time() - 30 * 86400)
    live.journal.close()
    return state


def test_a_start_from_a_checkpoint_after_old_segments_were_deleted(tmp_path: Path) -> None:
    state = rotated_state(tmp_path, 8)
    journal = state / "journal.log"
    (journal).unlink()                                              # the crash between rename and new file
    kept = list(read_records(journal))
    assert kept[0].seq > 1
    rig = table(tmp_path, "T01")
    try:
        opened = rig.start()
        assert opened["seq"] == kept[-1].seq + 1 and opened["data"]["recovered"] is True
        assert "state from the checkpoint at seq" in rig.log_text()
        assert journal.exists()
        lines = recalled(rig, 2)
        assert sum(line.startswith("Hand ") for line in lines) == 2
        assert cli_recall(rig, 2) == lines
        assert rig.pit.press("deal")["ok"] is True                  # no fault: the table plays on
    finally:
        rig.close()


def test_without_a_checkpoint_copy_and_the_old_segments_gone_the_daemon_refuses_to_start(
        tmp_path: Path) -> None:
    state = rotated_state(tmp_path, 8)
    oldest = segments(state / "journal.log")[0].first
    for copy in checkpoint.COPIES:
        path = checkpoint.copy_path(state / "checkpoint.json", copy)
        path.write_bytes(path.read_bytes()[:200])                   # both torn
    rig = table(tmp_path, "T01")
    try:
        done = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(rig.config)],
                              capture_output=True, text=True, timeout=60, check=False,
                              env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    finally:
        rig.close()
    assert done.returncode == 1
    assert f"begins at seq {oldest}" in done.stderr and "put back a good checkpoint copy" in done.stderr


def test_a_journal_written_by_the_earlier_release_runs_on_and_rotates(tmp_path: Path) -> None:
    state = tmp_path / "state"
    shutil.copytree(Path(__file__).resolve().parents[1] / "data" / "journal-v2", state)
    state.chmod(0o700)
    old = (state / "journal.log").read_bytes()
    rig = table(tmp_path)
    try:
        rig.start(wait_online=False)
        opened = rig.next("table.opened")
        assert (opened["seq"], opened["epoch"]) == (16, 1795000000)
        rig.next("device.online")
        rig.next("device.online")
        rig.load(CARDS, cut_at=0)
        rig.bet(1, "main", chip("a", 1))
        rig.next("bet.placed")
        hand(rig)
        rig.pit.control({"cmd": "state"})
        closed = segments(state / "journal.log")
        assert closed and closed[0].first == 1 and closed[0].path.read_bytes().startswith(old)
        assert rig.kill() == -9
        assert rig.start()["epoch"] == 1795000000
        hand(rig)
    finally:
        rig.close()
    assert not (state / "critical_memory.fault").exists()
