"""The journal's rotation into closed segments, and their retention, on real files.

A rotation renames the live file to a closed segment and starts an empty live file whose first
record links to the segment's last line. Here: the chain across segments, reading across them
(a start from a checkpoint's window, recall, the progressive reader, the full check), a crash
(``SIGKILL`` of a real process) after each step of a rotation, a closed segment altered, the
deletion of old segments, and the refusal to rebuild the table once they are gone and no
checkpoint copy matches.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller.history.progressive import read_progressive
from controller.history.recall import recall_by_hand, recall_journal
from controller.journal import checkpoint
from controller.journal.lines import JournalCorrupt, Record, line_hash
from controller.journal.log import Journal
from controller.journal.segments import JournalIncomplete, read_records, segment_path, segments
from controller.table.views import public_state
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.rigs.table_rig import Rig, phase_of

DATA = Path(__file__).resolve().parents[1] / "data"


def rotating_rig(folder: Path, hands: int, seed: int = 1) -> Rig:
    """A table that played ``hands`` hands, its journal rotated after each (a checkpoint after each too)."""
    rig = Rig(folder, keep=KEEP)
    rig.ready()
    rng = random.Random(seed)
    for _ in range(hands):
        play_hands(rig, 1, rng)
        assert rig.journal.rotate() is not None
    return rig


def test_a_rotation_closes_the_live_file_and_the_chain_runs_on_into_the_next(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 2, random.Random(1))
    last = rig.journal.last_seq
    closed = rig.journal.rotate()
    assert closed is not None and (closed.first, closed.last) == (1, last)
    assert closed.path == segment_path(tmp_path / "journal.log", 1, last)
    assert closed.path.name == f"journal.00000000000000000001-{last:020d}.log"
    assert closed.path.stat().st_mode & 0o777 == 0o600
    assert (tmp_path / "journal.log").read_bytes() == b""
    assert rig.journal.rotate() is None                             # an empty live file is not closed
    assert rig.journal.verify() is None

    play_hands(rig, 1, random.Random(2))                            # check_recovery reads across both
    first = (tmp_path / "journal.log").read_bytes().splitlines(keepends=True)[0]
    segment_last = closed.path.read_bytes().splitlines(keepends=True)[-1]
    assert f'"seq":{last + 1},'.encode() in first
    assert f'"prev":"{line_hash(segment_last)}"'.encode() in first  # linked to the closed segment
    assert rig.journal.verify() is None and rig.journal.verify(whole=True) is None
    held = rig.journal.since(last - 5)
    assert [r.seq for r in held] == list(range(last - 5, rig.journal.last_seq + 1))   # across the two
    records = list(read_records(tmp_path / "journal.log"))
    assert [r.seq for r in records] == list(range(1, rig.journal.last_seq + 1))
    rig.journal.close()

    again = Journal.open(tmp_path / "journal.log", keep=KEEP)
    try:
        assert again.last_seq == rig.journal.last_seq and again.damage is None and again.archive is None
        assert list(again.records()) == records
        assert again.verify(whole=True) is None
    finally:
        again.close()


CRASH = """
import os, signal, sys
from pathlib import Path
from controller.journal import log
from controller.journal.lines import Record
from controller.journal.log import Journal

step = sys.argv[2]
real_rename, real_open = os.rename, log.open_private

def rename(source, target):
    real_rename(source, target)
    if step == "renamed":
        os.kill(os.getpid(), signal.SIGKILL)

def open_private(path, flags):
    fd = real_open(path, flags)
    if step == "created" and flags & os.O_EXCL:
        os.kill(os.getpid(), signal.SIGKILL)
    return fd

class Killed(Journal):
    def _rotated(self):
        if step == "locked":
            os.kill(os.getpid(), signal.SIGKILL)        # before the folder's fsync
        super()._rotated()

log.os.rename = rename
log.open_private = open_private
journal = Killed.open(Path(sys.argv[1]) / "journal.log")
journal.append(Record(journal.last_seq + 1, "T07/a", b'{"n":1}', {"more": True}),
               Record(journal.last_seq + 2, "T07/b", b'{"n":2}', {}))
journal.rotate()
journal.append(Record(journal.last_seq + 1, "T07/c", b'{"n":3}', {}))
"""


@pytest.mark.parametrize("step", ["renamed", "created", "locked", "none"])
def test_a_process_killed_at_each_step_of_a_rotation_leaves_a_journal_that_opens_and_goes_on(
        tmp_path: Path, step: str) -> None:
    done = subprocess.run([sys.executable, "-c", CRASH, str(tmp_path), step], capture_output=True,
                          cwd=Path(__file__).resolve().parents[2], check=False)
    assert done.returncode == (0 if step == "none" else -signal.SIGKILL), done.stderr
    assert segments(tmp_path / "journal.log") == [
        segments(tmp_path / "journal.log")[0]] and segments(tmp_path / "journal.log")[0].last == 2
    journal = Journal.open(tmp_path / "journal.log")
    try:
        assert journal.damage is None and journal.archive is None
        assert journal.last_seq == (3 if step == "none" else 2)
        journal.append(Record(journal.last_seq + 1, "T07/d", b'{"n":4}', {}))
        assert journal.verify() is None and journal.verify(whole=True) is None
    finally:
        journal.close()
    assert [r.topic for r in read_records(tmp_path / "journal.log")] == (
        ["T07/a", "T07/b", "T07/c", "T07/d"] if step == "none" else ["T07/a", "T07/b", "T07/d"])
    live = (tmp_path / "journal.log").read_bytes().splitlines(keepends=True)
    segment = segments(tmp_path / "journal.log")[0].path.read_bytes().splitlines(keepends=True)
    assert f'"prev":"{line_hash(segment[-1])}"'.encode() in live[0]


def test_a_start_from_a_checkpoint_reads_across_segments_and_resumes_exactly(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 6)
    rig.bet(1, "main", 2000)
    rig.press("deal")
    rig.card("5d")                                                  # a hand in play after the last rotation
    live = rig.journal.since(1)
    rig.journal.close()
    assert len(segments(tmp_path / "journal.log")) == 6

    path = tmp_path / "journal.log"
    journal, saved = checkpoint.open_journal(path, tmp_path / "checkpoint.json", keep=KEEP)
    try:
        assert saved is not None and journal.start[0] > 1           # the window, in a closed segment
        assert journal.start[0] < journal.last_seq - KEEP + 2       # the replay window is full
        assert [r.body for r in journal.since(journal.last_seq - KEEP + 1)] == [r.body for r in live[-KEEP:]]
        table = rig.rebuilt([])
        table.recover(journal.records(after=saved.seq), saved.state)
        assert phase_of(table) == phase_of(rig.table) == "dealing"
        assert public_state(table) == public_state(rig.table)
        assert journal.archive is None and journal.verify() is None and journal.verify(whole=True) is None
    finally:
        journal.close()


def test_old_segments_are_deleted_only_past_retention_and_when_not_needed(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 8, seed=3)
    path = tmp_path / "journal.log"
    everything = list(read_records(path))
    hands_before = recall_by_hand(everything, 3)
    progressive = read_progressive(path, tmp_path / "checkpoint.json")
    closed = segments(path)
    journal = rig.journal
    assert journal.prune(10**9, time.time() - 86400) == []          # all closed just now: kept
    for segment in closed:
        os.utime(segment.path, (time.time() - 40 * 86400,) * 2)     # closed 40 days ago
    copies, _ = checkpoint.read(tmp_path / "checkpoint.json")
    needed = min([journal.window[0], *(copy.window[0] for copy in copies)])
    deleted = journal.prune(needed, time.time() - 30 * 86400)
    assert deleted == [segment.path for segment in closed if segment.last < needed]
    assert deleted and len(deleted) < len(closed)                   # the window's segments stay
    assert not any(p.exists() for p in deleted)
    assert journal.verify() is None and journal.verify(whole=True) is None
    journal.close()

    kept = list(read_records(path))
    assert kept == everything[len(everything) - len(kept):] and kept[0].seq > 1
    assert recall_journal(path, 3) == hands_before                  # recall reaches the retained hands
    assert read_progressive(path, tmp_path / "checkpoint.json") == progressive
    again, saved = checkpoint.open_journal(path, tmp_path / "checkpoint.json", keep=KEEP)
    assert saved is not None and again.last_seq == everything[-1].seq
    again.close()

    for copy in checkpoint.COPIES:                                  # both copies damaged: no way to rebuild
        damaged = checkpoint.copy_path(tmp_path / "checkpoint.json", copy)
        damaged.write_bytes(damaged.read_bytes()[:100])
    with pytest.raises(JournalIncomplete, match=f"begins at seq {kept[0].seq}.*checkpoint"):
        checkpoint.open_journal(path, tmp_path / "checkpoint.json", keep=KEEP)
    with pytest.raises(JournalIncomplete):
        read_progressive(path, tmp_path / "checkpoint.json")
    assert Journal.open(path).last_seq == everything[-1].seq       # the journal itself still reads


def test_a_closed_segment_altered_is_found_at_start_or_by_the_full_check(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 10, seed=4)
    rig.journal.close()
    path = tmp_path / "journal.log"
    oldest = segments(path)[0].path
    good = oldest.read_bytes()

    def opened() -> Journal:
        journal, _ = checkpoint.open_journal(path, tmp_path / "checkpoint.json", keep=KEEP)
        assert journal.start[0] > segments(path)[1].last            # the oldest is not read at start
        return journal

    middle = bytearray(good)
    middle[len(good) // 2] ^= 0x10                                  # inside: found by the full check
    oldest.write_bytes(bytes(middle))
    journal = opened()
    assert journal.archive is None and journal.verify() is None
    problem = journal.verify(whole=True)
    assert problem is not None and oldest.name in problem
    journal.close()

    oldest.write_bytes(good[:-30] + good[-30:].replace(b'"', b"'", 1))   # its last line: its seal
    journal = opened()
    assert journal.archive is not None and oldest.name in journal.archive
    journal.close()

    oldest.write_bytes(good)
    segments(path)[1].path.unlink()                                 # one in the middle gone
    with pytest.raises(JournalCorrupt, match="do not follow each other"):
        Journal.open(path)
    journal = opened()
    assert journal.archive is not None and "missing" in journal.archive
    journal.close()


def test_a_bad_line_in_a_closed_segment_read_at_start_is_never_taken_for_a_torn_tail(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 2, seed=5)
    rig.journal.close()
    segment = segments(tmp_path / "journal.log")[-1].path
    segment.write_bytes(segment.read_bytes()[:-5])                  # its last line torn: not a crash's doing
    with pytest.raises(JournalCorrupt, match="closed segment"):
        Journal.open(tmp_path / "journal.log")
    with pytest.raises(JournalCorrupt, match="closed segment"):
        list(read_records(tmp_path / "journal.log"))


@pytest.mark.parametrize("release", ["journal-v1", "journal-v2"])
def test_a_journal_of_an_earlier_release_rotates_and_reads_on(tmp_path: Path, release: str) -> None:
    state = tmp_path / "state"
    shutil.copytree(DATA / release, state)
    state.chmod(0o700)
    old = list(read_records(state / "journal.log"))
    journal, saved = checkpoint.open_journal(state / "journal.log", state / "checkpoint.json", keep=KEEP)
    assert saved is not None and journal.last_seq == 15
    closed = journal.rotate()
    assert closed is not None and (closed.first, closed.last) == (1, 15)
    journal.append(Record(16, "T07/table.opened", b'{"seq":16}', {}))
    assert journal.verify() is None and journal.verify(whole=True) is None
    journal.close()
    assert list(read_records(state / "journal.log"))[:15] == old
    again, saved = checkpoint.open_journal(state / "journal.log", state / "checkpoint.json", keep=KEEP)
    try:
        assert saved is not None and saved.seq == 15 and again.last_seq == 16
        assert again.verify(whole=True) is None
    finally:
        again.close()
