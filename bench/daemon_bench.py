"""Daemon figures: start-up time, CARD-to-``card.dealt`` latency against its floor, sustained events
per second, memory.

The daemon runs as ``table-controller run`` in a subprocess (as in production,
with gpiozero mock pins); the shoe and RFID boards are simulated in this
process on ptys, so the moment a CARD frame is first written is known exactly
(``SimulatedBoard.sent_log``, loop time = ``time.monotonic()``). A bare SUB
socket on its own thread (:class:`Arrivals`) stamps each event with
``time.monotonic()`` as it is received; both clocks are the same CLOCK_MONOTONIC.

In the same run, the raw pipeline floor (``bench/pipeline_floor.py``: a process
with the same pty link, a journal append with its fsync and a ZeroMQ publish, no
table) runs beside the daemon, fed by a shoe of its own: before each card the
daemon is dealt, one card goes through the floor, timed the same way, so the two
share whatever else the machine is doing at that moment. The daemon's p50 is
given as a multiple of the floor's.

Back to back (``--back-to-back N``, 0 to skip): the same two pipelines with no
idle gap, fed the same RFID changes (a chip put on or taken off an antenna: the
same INVENTORY frames), each the moment the previous one's event arrived (for
the daemon, seat 1's spot while betting is open: each a ``bet.placed``), so the table
starts each input while the picture (``table.view``) of the last step is still
being sent. They run in alternating blocks, so both see the same machine; each
latency is from the frame's first write to its event's arrival.

    .venv/bin/python bench/daemon_bench.py [--hands 40] [--burst 2000] [--back-to-back 600] [--dir /dev/shm]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from controller.follow.blocking import PitClient
from firmware_bridge.link import messages
from firmware_bridge.simulator.board import SimulatedBoard

ROOT = Path(__file__).resolve().parent.parent
PROFILE = ["-m", "cProfile", "-o", os.environ["BENCH_PROFILE"]] if os.environ.get("BENCH_PROFILE") else []

class Arrivals:
    """A bare SUB socket on its own thread: the arrival time of every event, stamped on receipt,
    before anything else is done with it (the same for the daemon and the floor)."""

    def __init__(self, context: zmq.Context[Any], endpoint: str, table: str) -> None:
        self.sub = context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, f"{table}/".encode())
        self.sub.setsockopt(zmq.RECONNECT_IVL, 20)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.connect(endpoint)
        self.seen: dict[int, float] = {}
        """When the event of each seq arrived (heartbeats left out)."""
        self.kinds: dict[int, str] = {}
        """The type of the first event of each seq (``table.view`` repeats the seq it reflects)."""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.arrived = asyncio.Event()
        """Set on the loop as soon as anything arrives (a waiter reacts at once, no polling)."""
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.is_set():
            if self.sub.poll(50):
                topic, body = self.sub.recv_multipart()
                now = time.monotonic()
                if not topic.endswith(b"/heartbeat"):
                    event = json.loads(body)
                    if event["seq"] not in self.seen:
                        self.seen[event["seq"]] = now
                        self.kinds[event["seq"]] = event["type"]
                    if self.loop is not None:
                        self.loop.call_soon_threadsafe(self.arrived.set)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        self.sub.close()

    async def wait(self, seq: int | None, timeout: float) -> bool:
        """Whether the event ``seq`` (None: any event) has arrived within ``timeout`` seconds (the
        loop is woken by the receiving thread the moment anything arrives)."""
        self.loop = asyncio.get_running_loop()
        deadline = time.monotonic() + timeout
        while (seq not in self.seen) if seq is not None else not self.seen:
            self.arrived.clear()
            if (seq in self.seen) if seq is not None else self.seen:
                break
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.arrived.wait(), min(left, 0.05))
        return True


class Stamped:
    """The pit subscriber thread: every event with its arrival time."""

    def __init__(self, pit: PitClient) -> None:
        self.pit = pit
        self.arrived: list[float] = []
        self.stop = threading.Event()
        self.paused = threading.Event()
        """Set while the back-to-back blocks run: the floor has no such thread beside it, so the
        daemon's must not take the bench's interpreter from the sending loop either."""
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        while not self.stop.is_set():
            if self.paused.is_set():
                time.sleep(0.01)
            elif self.pit.poll(0.05):
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


def first_card(shoe: SimulatedBoard, sent_before: int) -> float | None:
    """When the first CARD frame after ``sent_before`` frames was written, if one was."""
    return next((t for t, m in shoe.sent_log[sent_before:] if isinstance(m, messages.Card)), None)


def first_inventory(rfid: SimulatedBoard, sent_before: int) -> float | None:
    """When the first INVENTORY frame after ``sent_before`` frames was written, if one was."""
    return next((t for t, m in rfid.sent_log[sent_before:] if isinstance(m, messages.Inventory)), None)


async def back_to_back(floor: Floor, rfid: SimulatedBoard, arrivals: Arrivals, stamped: Stamped,
                       count: int, block: int = 50) -> tuple[list[float], list[float]]:
    """``count`` inputs through each pipeline, each sent the moment the previous one's event
    arrived, in alternating blocks of ``block``: the floor's and then the daemon's
    RFID-change-to-event latencies (the same INVENTORY frames: a chip put on and taken off an
    antenna; for the daemon, seat 1's spot while betting is open, each a ``bet.placed``).
    The pit client's thread is paused meanwhile (the floor has none), then catches up."""
    floors: list[float] = []
    tables: list[float] = []
    spot = antenna(1, "main")
    extra = f"{7:016x}"           # a registered chip no seat holds
    on = False
    seq = stamped.pit.events[-1]["seq"]
    stamped.paused.set()
    while len(tables) < count:
        for _ in range(min(block, count - len(floors))):
            floors.append(await floor.reading())
        for _ in range(min(block, count - len(tables))):
            seq += 1
            sent_before = len(rfid.sent_log)
            if on:
                rfid.remove(spot, [extra])
            else:
                rfid.place(spot, [(extra, 500)])
            on = not on
            if not await arrivals.wait(seq, 30):
                raise TimeoutError(f"the daemon did not publish seq {seq}")
            assert arrivals.kinds[seq] == "bet.placed", arrivals.kinds[seq]
            sent = first_inventory(rfid, sent_before)
            assert sent is not None
            tables.append(arrivals.seen[seq] - sent)
    stamped.paused.clear()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (stamped.pit.events and stamped.pit.events[-1]["seq"] >= seq):
        await asyncio.sleep(0.01)                  # the pit client catches up (the hands wait from there)
    return floors, tables


class Floor:
    """The raw pipeline floor (``bench/pipeline_floor.py``) in a process of its own, with its own
    simulated shoe on its own pty and its own :class:`Arrivals`."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir()
        self.folder = folder
        self.shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(4))
        self.rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(5))
        self.on = False
        self.endpoint = f"ipc://{folder}/pub"
        self.arrivals = Arrivals(zmq.Context.instance(), self.endpoint, "BENCH")
        self.process: subprocess.Popen[bytes] | None = None
        self.drawn = 0

    async def start(self) -> None:
        """Start the floor and draw until a card comes through (link up, SUB connected)."""
        await self.shoe.start()
        await self.rfid.start()
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "pipeline_floor.py"), "--link", str(self.folder / "shoe"),
             "--rfid", str(self.folder / "rfid"), "--state", str(self.folder / "state"),
             "--publish", self.endpoint], cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=open(self.folder / "floor.log", "wb"))  # noqa: SIM115
        while not self.arrivals.seen:
            self.draw()
            await self.arrivals.wait(None, 0.5)

    def draw(self) -> None:
        if self.drawn % 312 == 0:
            self.shoe.load_shoe(6, cut_at=0)
        self.shoe.draw()
        self.drawn += 1

    async def card(self) -> float:
        """One card through the floor, after the last one came through: its latency (s)."""
        seq = max(self.arrivals.seen) + 1
        sent_before = len(self.shoe.sent_log)
        self.draw()
        if not await self.arrivals.wait(seq, 30):
            raise TimeoutError(f"the floor did not publish seq {seq}")
        sent = first_card(self.shoe, sent_before)
        assert sent is not None
        return self.arrivals.seen[seq] - sent

    async def reading(self) -> float:
        """One RFID change through the floor (a chip put on or taken off an antenna), after the
        last event came through: its latency (s)."""
        seq = max(self.arrivals.seen) + 1
        sent_before = len(self.rfid.sent_log)
        if self.on:
            self.rfid.remove(1, [f"{7:016x}"])
        else:
            self.rfid.place(1, [(f"{7:016x}", 500)])
        self.on = not self.on
        if not await self.arrivals.wait(seq, 30):
            raise TimeoutError(f"the floor did not publish seq {seq}")
        sent = first_inventory(self.rfid, sent_before)
        assert sent is not None
        return self.arrivals.seen[seq] - sent

    async def close(self) -> int:
        """Stop the floor; its resident memory (KiB) before it stopped."""
        rss = 0
        if self.process is not None:
            rss = rss_kib(self.process.pid)
            self.process.terminate()
            self.process.wait(10)
        self.arrivals.close()
        await self.shoe.close()
        await self.rfid.close()
        return rss


async def bench(folder: Path, hands: int, burst: int, b2b: int) -> dict[str, Any]:
    floor = Floor(folder / "floor")
    await floor.start()
    floors: list[float] = []
    shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    config = write_config(folder, table="BENCH",
                          chips=[(f"{n:016x}", 500, "active") for n in range(1, 8)])
    pit = PitClient("BENCH", *ipc_endpoints(folder), context=zmq.Context())
    arrivals = Arrivals(pit.context, ipc_endpoints(folder)[0], "BENCH")
    stamped = Stamped(pit)
    stamped.thread.start()
    started = time.time()
    daemon = subprocess.Popen(
        [sys.executable, *PROFILE, "-m", "controller.cli", "run", "--config", str(config)],
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
        b2b_floors, b2b_tables = await back_to_back(floor, rfid, arrivals, stamped, b2b)
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
                floors.append(await floor.card())     # the floor's card, then the daemon's
                count = len(pit.events)
                sent_before = len(shoe.sent_log)
                shoe.draw()
                await stamped.wait(count + 1)
                sent, event = first_card(shoe, sent_before), pit.events[count]
                if sent is not None and event["type"] == "card.dealt" and event["seq"] in arrivals.seen:
                    latencies.append(arrivals.seen[event["seq"]] - sent)
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
        arrivals.close()
        pit.close()
        await shoe.close()
        await rfid.close()
        floor_rss = await floor.close()
    return {
        "startup_to_table_opened_s": round(opened, 3),
        "startup_to_boards_online_s": round(online, 3),
        "card_to_event_samples": len(latencies),
        "card_to_event_p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "card_to_event_p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "card_to_event_mean_ms": round(statistics.fmean(latencies) * 1000, 2),
        "floor_samples": len(floors),
        "floor_p50_ms": round(percentile(floors, 0.50) * 1000, 3),
        "floor_p99_ms": round(percentile(floors, 0.99) * 1000, 3),
        "p50_over_floor": round(percentile(latencies, 0.50) / percentile(floors, 0.50), 2),
        **(back_to_back_figures(b2b_floors, b2b_tables) if b2b else {}),
        "sustained_events_per_s": round(rate),
        "rss_mib": round(rss / 1024, 1),
        "floor_rss_mib": round(floor_rss / 1024, 1),
    }


def back_to_back_figures(floors: list[float], tables: list[float]) -> dict[str, Any]:
    """The back-to-back figures, floor and table side by side."""
    return {
        "b2b_samples": len(tables),
        "b2b_floor_p50_ms": round(percentile(floors, 0.50) * 1000, 3),
        "b2b_table_p50_ms": round(percentile(tables, 0.50) * 1000, 3),
        "b2b_floor_p99_ms": round(percentile(floors, 0.99) * 1000, 3),
        "b2b_table_p99_ms": round(percentile(tables, 0.99) * 1000, 3),
        "b2b_p50_over_floor": round(percentile(tables, 0.50) / percentile(floors, 0.50), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--burst", type=int, default=2000)
    parser.add_argument("--back-to-back", type=int, default=600,
                        help="inputs sent back to back through each pipeline (0: none)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="where the run's files go, journals included (default: the temporary folder); "
                             "/dev/shm takes the disk out, leaving the table's own cost against the floor")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="table-bench-", dir=args.dir) as folder:
        figures = asyncio.run(bench(Path(folder), args.hands, args.burst, args.back_to_back))
    print(f"daemon bench on {platform.machine()}, {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, files in {args.dir or tempfile.gettempdir()}, "
          f"load average {' '.join(f'{x:.2f}' for x in load_before)} before, "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after")
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
