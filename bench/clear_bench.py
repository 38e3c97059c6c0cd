"""The supervisor's ``critical_memory_clear``: how fast its whole check reads the journal, and how long
the loop stalls while it runs.

Writes a journal of about ``--mib`` MiB of event lines (the format the daemon writes, bodies the size
of a bet's) cut into closed segments of ``--segment-mib`` MiB as the daemon's rotation leaves them,
latches a critical memory fault, and clears it with :meth:`CriticalMemory.clear` on an asyncio loop,
as the daemon does (the journal's files read in a worker thread). Beside it a timer on the loop
wakes every millisecond; the longest it woke late is the loop's longest stall during the clear (what
a reading, the picture or a watchdog ping would have waited at most). For comparison the same check
is then run on the loop itself (:meth:`Journal.verify` with ``whole``), which stalls the loop for
all of its length; and the timer alone, the loop idle as long as the clear took, gives the stalls
the machine itself causes (other processes on its cores).

    .venv/bin/python bench/clear_bench.py [--mib 64] [--segment-mib 8] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import tempfile
import time
from pathlib import Path

from controller.journal.critical_memory import CriticalMemory
from controller.journal.high_water import HighWater
from controller.journal.lines import CHAIN_START, Record, encode_record, line_hash
from controller.journal.log import Journal
from controller.journal.segments import segment_path

TICK = 0.001
"""Seconds between two wakes of the loop's timer."""


def write_journal(folder: Path, size: int, segment: int) -> tuple[int, int]:
    """About ``size`` bytes of chained event lines in ``folder``/journal.log, cut into closed segments of
    about ``segment`` bytes; returns the bytes and the segments written."""
    path = folder / "journal.log"
    link, seq, written, segments = CHAIN_START, 0, 0, 0
    while written < size:
        first, chunk = seq + 1, bytearray()
        while len(chunk) < min(segment, size - written):
            seq += 1
            body = json.dumps({"v": 1, "table": "BENCH", "epoch": 1795000000, "seq": seq,
                               "ts": "2026-11-21T22:14:05.123Z", "type": "bet.placed", "hand": seq // 50,
                               "data": {"seat": seq % 6 + 1, "spot": "main", "amount": 1500,
                                        "chips": [f"{seq % 97:016x}", f"{seq % 89:016x}"]}},
                              separators=(",", ":")).encode()
            line = encode_record(Record(seq, "BENCH/bet.placed", body, {}), link)
            link = line_hash(line)
            chunk += line
        written += len(chunk)
        last_segment = written >= size
        target = path if last_segment else segment_path(path, first, seq)
        target.write_bytes(chunk)
        target.chmod(0o600)
        segments += not last_segment
    return written, segments


class Stalls:
    """A timer on the loop every :data:`TICK` seconds; :attr:`longest` is the most it woke late."""

    def __init__(self) -> None:
        self.longest = 0.0
        self.ticks = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(TICK)
            self.longest = max(self.longest, loop.time() - before - TICK)
            self.ticks += 1

    async def stop(self) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def clear(memory: CriticalMemory) -> tuple[float, Stalls]:
    """Seconds the clear took, and the loop's stalls meanwhile."""
    stalls = Stalls()
    stalls.start()
    await asyncio.sleep(TICK * 3)                     # the timer is running
    begun = time.perf_counter()
    refused = await memory.clear()
    took = time.perf_counter() - begun
    await stalls.stop()
    assert refused is None, refused
    return took, stalls


async def idle(seconds: float) -> Stalls:
    """The loop's stalls over ``seconds`` with nothing else to do (the machine's own share)."""
    stalls = Stalls()
    stalls.start()
    await asyncio.sleep(seconds)
    await stalls.stop()
    return stalls


async def on_the_loop(journal: Journal) -> tuple[float, Stalls]:
    """The same journal check run on the loop itself: seconds, and the loop's stalls meanwhile."""
    stalls = Stalls()
    stalls.start()
    await asyncio.sleep(TICK * 3)
    begun = time.perf_counter()
    problem = journal.verify(whole=True)
    took = time.perf_counter() - begun
    await asyncio.sleep(TICK * 3)                     # the timer wakes, late
    await stalls.stop()
    assert problem is None, problem
    return took, stalls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=64.0, help="the journal's size")
    parser.add_argument("--segment-mib", type=float, default=8.0, help="the closed segments' size")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="table-clear-") as name:
        folder = Path(name)
        folder.chmod(0o700)
        size, segments = write_journal(folder, int(args.mib * 2**20), int(args.segment_mib * 2**20))
        journal = Journal.open(folder / "journal.log", keep=10_000)
        mark = HighWater.open(folder / "published.mark")
        try:
            mark.record(1, journal.last_seq)
            memory = CriticalMemory(journal, mark, folder / "checkpoint.json",
                                    folder / "critical_memory.fault")
            memory.latch("bench: a fault to clear", "2026-11-21T22:14:05.123Z")
            took, stalls = asyncio.run(clear(memory))
            quiet = asyncio.run(idle(took))
            loop_took, loop_stalls = asyncio.run(on_the_loop(journal))
        finally:
            journal.close()
            mark.close()
    mib = size / 2**20
    figures = {
        "journal_mib": round(mib, 1), "closed_segments": segments,
        "clear_s": round(took, 3), "clear_mib_per_s": round(mib / took, 1),
        "clear_longest_stall_ms": round(stalls.longest * 1000, 2), "clear_ticks": stalls.ticks,
        "idle_longest_stall_ms": round(quiet.longest * 1000, 2),
        "on_loop_s": round(loop_took, 3), "on_loop_mib_per_s": round(mib / loop_took, 1),
        "on_loop_longest_stall_ms": round(loop_stalls.longest * 1000, 2),
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{mib:.1f} MiB in {segments} closed segments and the live file")
    print(f"clear (check in a worker thread): {took:.2f} s, {mib / took:.1f} MiB/s; the loop's longest "
          f"stall {stalls.longest * 1000:.1f} ms over {stalls.ticks} ticks")
    print(f"the loop idle as long:             the loop's longest stall {quiet.longest * 1000:.1f} ms "
          f"over {quiet.ticks} ticks (the machine's own share)")
    print(f"the same check on the loop:        {loop_took:.2f} s, {mib / loop_took:.1f} MiB/s; the loop's "
          f"longest stall {loop_stalls.longest * 1000:.1f} ms")


if __name__ == "__main__":
    main()
