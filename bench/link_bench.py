"""Link benchmark: CARD frames from a simulated shoe to a real HostLink over a pty, in one asyncio loop.

Measures, over a real pseudo-terminal (no line time, like USB CDC-ACM):

* throughput: frames per second of a burst of CARD frames (default 20,000)
  from the board, through go-back-N (window 8), to the host's ``on_message``;
* latency under load: for each card of that burst, from the simulator
  first writing its frame (``SimulatedBoard.sent_log``) to its delivery on
  the host, both read from ``loop.time()`` of the same loop; p50 / p99 / max;
* latency on an idle link: cards drawn one at a time, each after the last was
  delivered (default 2,000).

Run: ``.venv/bin/python bench/link_bench.py [--frames N] [--paced N] [--json]``.
The figures are recorded in docs/benchmarks.md ("Link").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, Message
from firmware_bridge.simulator.board import SimulatedBoard


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered)) - 1))
    return ordered[rank]


class Bench:
    """A board and a host on one pty; records the loop time each CARD reached the host."""

    def __init__(self, directory: Path) -> None:
        self.loop = asyncio.get_running_loop()
        self.board = SimulatedBoard("shoe", link=directory / "shoe-bench", rng=random.Random(1))
        self.arrived: dict[int, float] = {}
        self.waiting: tuple[int, asyncio.Future[None]] | None = None
        self.online: asyncio.Future[None] = self.loop.create_future()
        self.host: HostLink | None = None

    async def start(self) -> None:
        path = await self.board.start()
        self.host = HostLink(path, on_message=self._on_message, on_online=self._on_online, on_offline=_ignore)
        await self.host.start()
        await asyncio.wait_for(self.online, 10)

    async def close(self) -> None:
        if self.host is not None:
            await self.host.close()
        await self.board.close()

    def _on_online(self, *_: Any) -> None:
        if not self.online.done():
            self.online.set_result(None)

    def _on_message(self, message: Message, *_: Any) -> None:
        if isinstance(message, Card):
            self.arrived.setdefault(message.index, self.loop.time())
            if self.waiting is not None and message.index >= self.waiting[0]:
                future = self.waiting[1]
                self.waiting = None
                if not future.done():
                    future.set_result(None)

    async def until_card(self, index: int) -> None:
        if index in self.arrived:
            return
        future = self.loop.create_future()
        self.waiting = (index, future)
        await asyncio.wait_for(future, 120)

    def latencies(self, first: int, last: int) -> list[float]:
        written = {m.index: t for t, m in self.board.sent_log if isinstance(m, Card)}
        return [self.arrived[i] - written[i] for i in range(first, last + 1)]


def _ignore(*_: Any) -> None:
    pass


async def run(frames: int, paced: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(Path(tmp))
        await bench.start()
        try:
            board = bench.board
            deck = [(rank, suit) for suit in range(4) for rank in range(1, 14)]
            board.load_shoe(1, [deck[i % 52] for i in range(frames + paced)], cut_at=0)
            await board.wait_idle()
            # Burst.
            started = bench.loop.time()
            board.draw(frames)
            await bench.until_card(frames)
            elapsed = bench.loop.time() - started
            burst = bench.latencies(1, frames)
            # Paced: one card at a time on an idle link.
            for index in range(frames + 1, frames + paced + 1):
                board.draw(1)
                await bench.until_card(index)
            idle = bench.latencies(frames + 1, frames + paced)
            assert bench.host is not None
            host_stats = bench.host.stats.snapshot()
        finally:
            await bench.close()
    return {
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "machine": platform.machine(),
        "frames": frames,
        "seconds": round(elapsed, 3),
        "frames_per_second": round(frames / elapsed),
        "burst_latency_ms": _summary(burst),
        "paced": paced,
        "idle_latency_ms": _summary(idle),
        "host_retransmissions": host_stats.get("retransmissions"),
        "board_retransmissions": board.stats.retransmissions,
    }


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    return {
        "p50": round(percentile(values, 0.50) * 1000, 3),
        "p99": round(percentile(values, 0.99) * 1000, 3),
        "max": round(max(values) * 1000, 3),
        "mean": round(statistics.fmean(values) * 1000, 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--frames", type=int, default=20_000, help="CARD frames in the burst")
    parser.add_argument("--paced", type=int, default=2_000, help="cards drawn one at a time")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = asyncio.run(run(args.frames, args.paced))
    if args.json:
        print(json.dumps(result))
        return 0
    burst, idle = result["burst_latency_ms"], result["idle_latency_ms"]
    print(f"Python {result['python']} on {result['cpus']} CPUs ({result['machine']})")
    print(
        f"throughput: {result['frames']} CARD frames in {result['seconds']} s"
        f" = {result['frames_per_second']} frames/s"
    )
    print(f"latency under load: p50 {burst['p50']} ms, p99 {burst['p99']} ms, max {burst['max']} ms")
    print(
        f"latency idle ({result['paced']} cards one by one):"
        f" p50 {idle['p50']} ms, p99 {idle['p99']} ms, max {idle['max']} ms"
    )
    print(
        f"retransmissions: board {result['board_retransmissions']}, host {result['host_retransmissions']}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
