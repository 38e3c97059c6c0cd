"""Daemon figures: start-up time, CARD-to-``card.dealt`` latency, sustained events per second, memory.

The daemon runs as ``table-controller run`` in a subprocess (as in production,
with gpiozero mock pins); the shoe and RFID boards are simulated in this
process on ptys, so the moment a CARD frame is first written is known exactly
(``SimulatedBoard.sent_log``, loop time = ``time.monotonic()``). A pit
subscriber on its own thread stamps each event with ``time.monotonic()`` when
it arrives; both clocks are the same CLOCK_MONOTONIC.

    .venv/bin/python bench/daemon_bench.py [--hands 40] [--burst 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import zmq

from controller.devkit.simulated import antenna, ipc_endpoints, write_config
from controller.pit.follow.blocking import PitClient
from firmware_bridge.link import messages
from firmware_bridge.simulator.board import SimulatedBoard

ROOT = Path(__file__).resolve().parent.parent

class Stamped:
    """The pit subscriber thread: every event with its arrival time."""

    def __init__(self, pit: PitClient) -> None:
        self.pit = pit
        self.arrived: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        while not self.stop.is_set():
            if self.pit.poll(0.05):
                now = time.monotonic()
                self.arrived += [now] * (len(self.pit.events) - len(self.arrived))

    async def wait(self, count: int, timeout: float = 30.0) -> None:
        """Until ``count`` events have arrived (checked on the loop without blocking it)."""
        deadline = time.monotonic() + timeout
        while len(self.arrived) < count:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{len(self.arrived)} of {count} events")
            await asyncio.sleep(0.001)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def event_time(event: dict[str, Any]) -> float:
    """An event's ``ts`` as seconds since the epoch."""
    return datetime.datetime.fromisoformat(event["ts"].replace("Z", "+00:00")).timestamp()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def bench(folder: Path, hands: int, burst: int) -> dict[str, Any]:
    shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    config = write_config(folder, table="BENCH",
                          chips=[(f"{n:016x}", 500, "active") for n in range(1, 7)])
    pit = PitClient("BENCH", *ipc_endpoints(folder), context=zmq.Context())
    stamped = Stamped(pit)
    stamped.thread.start()
    started = time.time()
    daemon = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
        env=dict(os.environ, GPIOZERO_PIN_FACTORY="mock"), cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=open(folder / "daemon.log", "wb"))  # noqa: SIM115
    try:
        await stamped.wait(3)                           # table.opened, two device.online
        # Measured by the events' own timestamps: a subscriber that joins as the daemon binds
        # may only see the first events when it catches up (at the first heartbeat).
        opened, online = (event_time(pit.events[i]) - started for i in (0, 2))
        before = len(stamped.arrived)
        shoe.load_shoe(6)
        for seat in range(1, 7):
            rfid.place(antenna(seat, "main"), [(f"{seat:016x}", 500)])
        await stamped.wait(before + 7)                  # shoe.loaded, six bet.placed
        latencies: list[float] = []
        choices = random.Random(3)
        for _ in range(hands):
            if not (await asyncio.to_thread(pit.press, "deal"))["ok"]:   # the cut card came out
                count = len(pit.events)
                shoe.load_shoe(6)
                await stamped.wait(count + 1)
                reply = await asyncio.to_thread(pit.press, "deal")
                assert reply["ok"], reply
            while True:
                state = (await asyncio.to_thread(pit.control, {"cmd": "state"}))["state"]
                if state["phase"] in ("settled", "betting"):
                    break
                if "stand" in state["live_buttons"] and choices.random() < 0.5:
                    await asyncio.to_thread(pit.press, "stand")
                    continue
                count = len(pit.events)
                sent_before = len(shoe.sent_log)
                shoe.draw()
                await stamped.wait(count + 1)
                cards = [t for t, m in shoe.sent_log[sent_before:] if isinstance(m, messages.Card)]
                if cards and pit.events[count]["type"] == "card.dealt":
                    latencies.append(stamped.arrived[count] - cards[0])
            await asyncio.to_thread(pit.press, "next")
        # Sustained rate: bursts of cards drawn while betting is open, 300 from each new shoe.
        # Each card is an alert event, journaled (fsync) and published like any other.
        count = len(pit.events)
        first = time.monotonic()
        shoes = max(1, burst // 300)
        for _ in range(shoes):
            shoe.load_shoe(6, cut_at=0)
            shoe.draw(300)
            await shoe.wait_idle()
        total = shoes * 301
        await stamped.wait(count + total, timeout=120)
        rate = total / (stamped.arrived[count + total - 1] - first)
        rss = rss_kib(daemon.pid)
    finally:
        daemon.terminate()
        daemon.wait(10)
        stamped.stop.set()
        stamped.thread.join()
        pit.close()
        await shoe.close()
        await rfid.close()
    return {
        "startup_to_table_opened_s": round(opened, 3),
        "startup_to_boards_online_s": round(online, 3),
        "card_to_event_samples": len(latencies),
        "card_to_event_p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "card_to_event_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "card_to_event_mean_ms": round(statistics.fmean(latencies) * 1000, 2),
        "sustained_events_per_s": round(rate),
        "rss_mib": round(rss / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--burst", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="table-bench-") as folder:
        figures = asyncio.run(bench(Path(folder), args.hands, args.burst))
    print(f"daemon bench on {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
