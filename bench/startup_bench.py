"""Start-up time of the daemon against the size of its journal.

Writes a journal of real hands (the real table and game, inputs from a
shuffled shoe; records written without fsync to save time), then starts
``table-controller run`` on it and times how long it takes to publish
``table.opened`` (from the event's own timestamp), i.e. to open, check and
replay the journal: once with no checkpoint (the whole journal is read; the
daemon then writes a checkpoint), and once more from that checkpoint. With
``--segment-bytes``, the journal is first cut into closed segments of about
that size, as the daemon's rotation leaves it, so that both starts read across
segments.

    .venv/bin/python bench/startup_bench.py --events 100000 200000
    .venv/bin/python bench/startup_bench.py --events 200000 --segment-bytes 16777216
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import zmq

from controller.devkit.simulated import ipc_endpoints, write_config
from controller.follow.blocking import PitClient
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal.lines import CHAIN_START, Record, encode_record, line_hash
from controller.journal.segments import segment_path
from controller.table.machine import Table, TableSettings
from drivers.inputs import CardDrawn, DeviceOnline, ShoeLoaded, SpotWager
from firmware_bridge.kernel.cards import Card

ROOT = Path(__file__).resolve().parent.parent


def write_journal(path: Path, events: int) -> None:
    """About ``events`` events of six-seat hands."""
    rng = random.Random(5)
    link = CHAIN_START

    def write(step: Sequence[Record]) -> None:
        nonlocal link
        for record in step:
            line = encode_record(record, link)
            out.write(line)
            link = line_hash(line)

    with open(path, "wb") as out:
        settings = TableSettings("BENCH", "easy-jack", 6, {"min_bet": 500, "max_bet": 50000},
                                 ("deal", "stand", "next"), ("shoe", "rfid"))
        table = Table(settings, EasyJack(EasyJackRules(), Limits(500, 50000)),
                      clock=lambda: "2026-11-21T00:00:00.000Z",
                      write=write)
        table.open(recovered=False)
        table.handle(DeviceOnline("shoe", "f", "s"))
        table.handle(DeviceOnline("rfid", "f", "s"))
        shoe: list[Card] = []
        shoe_id = 0
        while table.state.seq < events:
            if len(shoe) < 60:
                shoe_id += 1
                shoe = [Card(r, s) for r in range(1, 14) for s in range(4)] * 6
                rng.shuffle(shoe)
                table.handle(ShoeLoaded(shoe_id, 6))
            for seat in range(1, 7):
                table.handle(SpotWager(seat, "main", 2 * seat - 1, 500 * seat, (f"{seat:016x}",)))
                table.handle(SpotWager(seat, "side", 2 * seat, 500, (f"{seat + 6:016x}",)))
            assert table.press("deal") is None
            while table.phase != "settled":
                if table.phase == "players" and rng.random() < 0.4:
                    table.press("stand")
                    continue
                index = table.state.shoe.last_index + 1
                table.handle(CardDrawn(shoe_id, index, shoe.pop()))
            for seat in range(1, 7):
                table.handle(SpotWager(seat, "main", 2 * seat - 1, 0, ()))
                table.handle(SpotWager(seat, "side", 2 * seat, 0, ()))
            table.press("next")


def cut_into_segments(path: Path, size: int) -> int:
    """Cut the journal ``path`` into closed segments of about ``size`` bytes, each ending with a step,
    as rotations leave it (the live file keeps the rest); returns how many."""
    lines = path.read_bytes().splitlines(keepends=True)
    count, first, chunk = 0, 1, bytearray()
    for seq, line in enumerate(lines, start=1):
        chunk += line
        if len(chunk) >= size and not json.loads(line[9:])["private"].get("more"):
            segment_path(path, first, seq).write_bytes(chunk)
            count, first, chunk = count + 1, seq + 1, bytearray()
    path.write_bytes(chunk)
    return count


def start_up(folder: Path) -> float:
    """Seconds from starting the daemon to its ``table.opened``."""
    pit = PitClient("BENCH", *ipc_endpoints(folder), context=zmq.Context())
    started = time.time()
    daemon = subprocess.Popen(
        [sys.executable, "-m", "controller.cli", "run", "--config", str(write_config(folder, table="BENCH"))],
        env=dict(os.environ, GPIOZERO_PIN_FACTORY="mock"), cwd=ROOT,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        opened = pit.control({"cmd": "state"}, timeout=600)
        assert opened["ok"], opened
        event = pit.sync(b"replay", str(opened["seq"]).encode())[0]
        body = json.loads(event[2])
        assert body["type"] == "table.opened", body
        ts = datetime.datetime.fromisoformat(body["ts"].replace("Z", "+00:00")).timestamp()
        return ts - started
    finally:
        daemon.terminate()
        daemon.wait(30)
        pit.close()
        pit.context.destroy(linger=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[0, 100_000])
    parser.add_argument("--segment-bytes", type=int, help="cut the journal into closed segments of this size")
    args = parser.parse_args()
    for events in args.events:
        with tempfile.TemporaryDirectory(prefix="table-startup-") as name:
            folder = Path(name)
            begun = time.monotonic()
            (folder / "state").mkdir(mode=0o750)  # the daemon refuses a state folder open to others
            write_journal(folder / "state" / "journal.log", events)
            made = time.monotonic() - begun
            size = (folder / "state" / "journal.log").stat().st_size
            cut = 0
            if args.segment_bytes:
                cut = cut_into_segments(folder / "state" / "journal.log", args.segment_bytes)
            full = start_up(folder)
            again = start_up(folder)
            print(f"{events:>9} events ({size / 2**20:6.1f} MiB in {cut} closed segments and the live file, "
                  f"made in {made:5.1f} s): start-up {full:6.2f} s reading it all, {again:5.2f} s from a "
                  f"checkpoint", flush=True)


if __name__ == "__main__":
    main()
