"""The host's own cost of one RFID reading, in process: the link's decode and ACK, then the driver's wager.

A simulated reader (``BoardSession``, the simulator's board side) sends INVENTORY frames of seat 1's
spot, a chip put on and taken off in turn (the readings of ``daemon_bench.py --back-to-back``), with
six seats' chips on their spots; each frame's bytes go through the host's ``HostSession`` (COBS,
CRC, go-back-N, the payload unpacked, the ACK made) and its message through ``LinkDriver`` and the
``SpotReader`` role (the chip registry's checks, the crosstalk map, the ``SpotWager``), as
``HostLink`` hands it on. No port, no loop, no table: what is timed is CPU work only, per reading,
split into the link's part and the driver's. The median of each of ``--runs`` runs is printed.

    .venv/bin/python bench/host_reading_bench.py [--readings 20000] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from drivers.board import BoardDriver
from drivers.chips import ChipRegistry, RegisteredChip
from drivers.inputs import DriverInput, SpotWager
from drivers.link_driver import LinkDriver
from drivers.rfid import SpotReader
from firmware_bridge.link.messages import KIND_RFID, Chip, Hello, Inventory
from firmware_bridge.link.session import BoardSession, Delivered, HostSession
from firmware_bridge.link.stats import LinkStats

SEATS = 6
SPOTS = ("main", "side")


class Reading:
    """A reader board and the host's link and driver, in session, the six seats' chips on their spots."""

    def __init__(self) -> None:
        antennas = {len(SPOTS) * (seat - 1) + n + 1: (seat, spot)
                    for seat in range(1, SEATS + 1) for n, spot in enumerate(SPOTS)}
        registry = ChipRegistry([RegisteredChip(f"{n:016x}", 500, "active") for n in range(1, SEATS + 2)])
        self.inputs: list[DriverInput] = []
        self.driver = LinkDriver(BoardDriver.Options("unused"), SpotReader(
            self.inputs.append, antennas=antennas, registry=registry))
        self.board = BoardSession(stats=LinkStats(), kind=KIND_RFID, firmware="bench", serial="BENCH",
                                  rto=1e9)
        self.host = HostSession(stats=LinkStats(), nonce=lambda: 1, rto=1e9)
        self.board.boot(0.0)
        self.host.start(0.0)
        for _ in range(3):  # RESET, HELLO: in session
            self.board.receive(self.host.take_output(), 0.0)
            self.host.receive(self.board.take_output(), 0.0)
        # What HostLink does when the session starts: the driver hears the HELLO (a reader: accepted).
        self.driver._on_online(Hello(1, KIND_RFID, 1, "bench", "BENCH"))
        for seat in range(1, SEATS + 1):
            self.send(Inventory(len(SPOTS) * (seat - 1) + 1, (Chip(f"{seat:016x}", 500),)))
        self.on = False

    def send(self, inventory: Inventory) -> tuple[int, int]:
        """One INVENTORY from the board through the host; the link's and the driver's ns."""
        self.board.send(inventory, 0.0)
        wire = self.board.take_output()
        start = time.perf_counter_ns()
        events = self.host.receive(wire, 0.0)
        ack = self.host.take_output()
        linked = time.perf_counter_ns()
        for event in events:
            if isinstance(event, Delivered):
                self.driver._on_message(event.message)  # as HostLink calls it
        done = time.perf_counter_ns()
        self.board.receive(ack, 0.0)
        return linked - start, done - linked

    def next(self) -> tuple[int, int]:
        """Seat 1's spot: the extra chip put on, or taken off."""
        chips = (Chip(f"{1:016x}", 500), *((Chip(f"{SEATS + 1:016x}", 500),) if not self.on else ()))
        self.on = not self.on
        return self.send(Inventory(1, chips))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--readings", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON line")
    args = parser.parse_args()
    reading = Reading()
    for _ in range(min(2000, args.readings)):  # warm up
        reading.next()
    runs = []
    for _ in range(args.runs):
        times = [reading.next() for _ in range(args.readings)]
        link = statistics.median(t[0] for t in times) / 1000
        driver = statistics.median(t[1] for t in times) / 1000
        total = statistics.median(t[0] + t[1] for t in times) / 1000
        runs.append({"total_us": round(total, 2), "link_us": round(link, 2), "driver_us": round(driver, 2)})
    if args.json:
        wagers = sum(isinstance(told, SpotWager) for told in reading.inputs)
        print(json.dumps({"readings": args.readings, "wagers": wagers, "runs": runs}))
        return
    print(f"{args.readings} readings a run, median per reading (link + driver):")
    for run in runs:
        print(f"  {run['total_us']:.1f} us  (link {run['link_us']:.1f} us, driver {run['driver_us']:.1f} us)")


if __name__ == "__main__":
    main()
