"""Critical memory on real files: the fault file, the checks around a hand, and the clear."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from controller.journal import checkpoint
from controller.journal.critical_memory import CriticalMemory, read_fault, write_fault
from controller.journal.high_water import HighWater
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.rigs.table_rig import Rig


def test_the_fault_file_reads_back_and_any_damage_to_it_is_a_fault(tmp_path: Path) -> None:
    path = tmp_path / "critical_memory.fault"
    assert read_fault(path) is None
    write_fault(path, "before hand 8: the journal changed", "2026-11-21T22:14:05.123Z")
    assert read_fault(path) == "before hand 8: the journal changed"
    assert path.stat().st_mode & 0o777 == 0o600
    good = path.read_bytes()
    for damaged in (good[:20], good[:-1], good.replace(b"hand 8", b"hand 9"), b""):
        path.write_bytes(damaged)
        reason = read_fault(path)
        assert reason is not None and "is damaged" in reason, damaged


def memory_of(rig: Rig) -> tuple[CriticalMemory, HighWater]:
    mark = HighWater.open(rig.folder / "published.mark")
    mark.record(1, rig.journal.last_seq)
    memory = CriticalMemory(rig.journal, mark, rig.folder / "checkpoint.json",
                            rig.folder / "critical_memory.fault")
    assert memory.at_start(checkpoint.load(rig.folder / "checkpoint.json")) is None
    return memory, mark


def test_the_check_reads_back_each_copy_and_the_mark_and_a_clear_waits_for_repair(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 2, random.Random(7))
    memory, mark = memory_of(rig)
    try:
        assert memory.check() is None and set(memory.copies) == {1, 2}
        copy = checkpoint.copy_path(tmp_path / "checkpoint.json", 1)
        good = copy.read_bytes()
        copy.write_bytes(good.replace(b'"seq":', b'"seq": ', 1))        # altered, its checksum not
        problem = memory.check()
        assert problem is not None and "checkpoint copy 1" in problem and "checksum mismatch" in problem
        memory.latch(problem, "2026-11-21T22:14:05.123Z")
        assert read_fault(memory.fault_path) == problem
        refused = asyncio.run(memory.clear())
        assert refused is not None and "still fails" in refused and memory.fault_path.exists()
        copy.write_bytes(good)                                           # put back
        assert asyncio.run(memory.clear()) is None and memory.fault is None and not memory.fault_path.exists()

        (tmp_path / "published.mark").write_bytes(b"x" * 51)
        problem = memory.check()
        assert problem is not None and "published.mark" in problem
        mark.record(1, rig.journal.last_seq)                              # the next event writes it again
        assert memory.check() is None
    finally:
        mark.close()


def test_a_newer_copy_that_the_start_did_not_use_is_not_read_back(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 2, random.Random(8))
    path = tmp_path / "checkpoint.json"
    found, _ = checkpoint.read(path)
    older = found[1]
    mark = HighWater.open(tmp_path / "published.mark")
    mark.record(1, rig.journal.last_seq)
    memory = CriticalMemory(rig.journal, mark, path, tmp_path / "critical_memory.fault")
    try:
        assert memory.at_start(older) is None and memory.copies == {older.copy: older.digest}
        assert memory.check() is None
        assert memory.at_start(None) is None and memory.copies == {}     # the whole journal was replayed
    finally:
        mark.close()
