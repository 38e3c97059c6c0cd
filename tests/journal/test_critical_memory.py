"""Critical memory on real files: the fault file, the checks around a hand, and the clear."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from controller.journal import checkpoint
from controller.journal.critical_memory import CriticalMemory, read_fault, write_fault
from controller.journal.high_water import HighWater
from tests.journal.test_checkpoint import KEEP, play_hands
from tests.journal.test_rotation import rotating_rig
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


def latched(rig: Rig) -> tuple[CriticalMemory, HighWater]:
    """The critical memory of ``rig``'s folder with a fault latched."""
    memory, mark = memory_of(rig)
    memory.latch("test: a fault to clear", "2026-11-21T22:14:05.123Z")
    return memory, mark


def test_the_whole_check_reads_what_was_there_when_it_began_and_the_rest_after(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 4)
    journal = rig.journal
    check = journal.whole_check()
    assert len(check.closed) == 4 and check.size == 0          # just rotated: the live file is empty
    rig.bet(3, "main", 1500)                    # written while the check reads (as the loop would)
    assert check.read() is None and check.reached is None
    assert journal.finish_whole(check) is None  # the lines written since, read on the "loop"

    check = journal.whole_check()
    rig.bet(3, "main", 2000)
    assert check.read() is None and check.reached is not None and check.reached[1] < journal.last_seq
    assert journal.finish_whole(check) is None

    check = journal.whole_check()
    rig.bet(3, "main", 2500)
    live = tmp_path / "journal.log"
    flip_last_line(live)                        # a line written after it began: found after it
    assert check.read() is None
    problem = journal.finish_whole(check)
    assert problem is not None and f"record {journal.last_seq}" in problem


def flip_last_line(path: Path) -> None:
    """Alter one character inside the last line of ``path`` (its crc then fails)."""
    data = bytearray(path.read_bytes())
    data[-20] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_segment_changed_or_gone_under_the_check_fails_it_and_a_rotation_meanwhile_too(
        tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 3)
    journal = rig.journal
    check = journal.whole_check()
    middle = check.closed[1].path
    good = middle.read_bytes()
    flip_last_line(middle)
    problem = check.read()
    assert problem is not None and middle.name in problem and not check.passed
    assert journal.finish_whole(check) is not None          # not read to its end: never passes
    middle.write_bytes(good)

    check = journal.whole_check()
    middle.rename(tmp_path / "aside")
    problem = check.read()
    assert problem is not None and "is gone" in problem
    (tmp_path / "aside").rename(middle)

    check = journal.whole_check()
    assert check.read() is None
    rig.bet(3, "main", 1500)
    assert journal.rotate() is not None
    problem = journal.finish_whole(check)
    assert problem is not None and "rotated" in problem
    assert journal.verify(whole=True) is None               # checked again: whole


def test_a_check_told_to_stop_gives_up_and_passes_nothing(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 2)
    check = rig.journal.whole_check()
    check.stop()
    problem = check.read()
    assert problem is not None and "stopped" in problem and not check.passed


def test_a_second_clear_while_one_checks_is_refused_and_the_first_clears(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 3)
    memory, mark = latched(rig)

    async def two_clears() -> tuple[str | None, str | None]:
        first = asyncio.create_task(memory.clear())
        await asyncio.sleep(0)                  # the first has begun: its thread reads the journal
        assert memory.clearing
        second = await memory.clear()
        return await first, second

    try:
        first, second = asyncio.run(two_clears())
        assert first is None and memory.fault is None and not memory.clearing
        assert second is not None and "running already" in second
        assert asyncio.run(memory.clear()) == "there is no critical memory fault to clear"
    finally:
        mark.close()


def test_a_clear_whose_check_fails_keeps_the_fault(tmp_path: Path) -> None:
    rig = rotating_rig(tmp_path, 3)
    memory, mark = latched(rig)
    segment = rig.journal.whole_check().closed[0].path
    try:
        good = segment.read_bytes()
        flip_last_line(segment)
        refused = asyncio.run(memory.clear())
        assert refused is not None and "still fails its check" in refused and segment.name in refused
        assert memory.fault is not None and read_fault(memory.fault_path) == "test: a fault to clear"
        segment.write_bytes(good)
        assert asyncio.run(memory.clear()) is None and not memory.fault_path.exists()
    finally:
        mark.close()
