"""What reading pit JSON into typed records costs: the codec's generated decoders, per event and picture.

The events are those a real Easy Jack table core publishes while simulated
players play (``controller/devkit/protection_sim.py``: ``--hands`` hands, six
flat bettors), each event's ``data`` read into its registered record as the
monitor reads it (:func:`controller.events.codec.decode_public`); the pictures
and checkpoints are the golden ones of the tests (``tests/data/pictures.jsonl.gz``,
``tests/data/checkpoints.jsonl.gz``: every game through its phases), each read
as a whole :class:`~controller.events.picture.Picture`, as a floor tile's
:class:`~controller.podium.monitor.models.tile_view.TileView`, and as the checkpoint's
:class:`~controller.table.saved.Saved`. The JSON is parsed beforehand: only the
records are timed. Best of ``--repeat`` rounds, CPU time.

    .venv/bin/python bench/decode_bench.py            # --hands 300 --repeat 5
    .venv/bin/python bench/decode_bench.py --json
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import controller.events.books
import controller.events.floor
import controller.events.table
import controller.events.tray
import controller.games.interface  # noqa: F401 - with the above, registers the events decode_public reads
from controller.devkit.protection_sim import FlatBettor, SimTable
from controller.events.codec import decode_public, from_json
from controller.events.picture import Picture
from controller.podium.monitor.models.tile_view import TileView
from controller.table.saved import Saved
from firmware_bridge.kernel.json import JsonObject

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def events(hands: int) -> list[tuple[str, JsonObject]]:
    """The ``(type, data)`` of every event a table publishes over ``hands`` hands of six flat bettors."""
    table = SimTable({seat: FlatBettor() for seat in range(1, 7)}, seed=7)
    for _ in range(hands):
        table.hand()
    return [(str(event["type"]), event["data"]) for event in table.published  # type: ignore[misc]
            if isinstance(event["data"], dict)]


def golden(name: str) -> list[JsonObject]:
    """The JSON objects of a golden file's lines (a picture's line: its picture; a checkpoint's: it)."""
    with gzip.open(DATA / name, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return [json.loads(row[2] if row[2] else row[1]) for row in rows]


def best_us(read: Callable[[Any], object], values: Sequence[Any], repeat: int) -> float:
    """The best of ``repeat`` rounds of reading every value, in microseconds a value (CPU time)."""
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        for value in values:
            read(value)
        best = min(best, time.process_time() - started)
    return round(best / len(values) * 1e6, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=300, help="hands the simulated table deals (300)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds, the best one reported (5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    published = events(args.hands)
    pictures, checkpoints = golden("pictures.jsonl.gz"), golden("checkpoints.jsonl.gz")
    by_type: dict[str, list[JsonObject]] = {}
    for kind, data in published:
        by_type.setdefault(kind, []).append(data)
    figures = {
        "events": len(published),
        "us_per_event": best_us(lambda event: decode_public(*event), published, args.repeat),
        "us_per_event_by_type": {kind: best_us(lambda data, kind=kind: decode_public(kind, data), datas,
                                               args.repeat) for kind, datas in sorted(by_type.items())},
        "pictures": len(pictures),
        "us_per_picture": best_us(lambda state: from_json(Picture, state), pictures, args.repeat),
        "us_per_tile_view": best_us(lambda state: from_json(TileView, state), pictures, args.repeat),
        "checkpoints": len(checkpoints),
        "us_per_checkpoint": best_us(lambda data: from_json(Saved, data), checkpoints, args.repeat),
    }
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    print(f"{figures['events']} events: {figures['us_per_event']} us an event into its record")
    for kind, us in figures["us_per_event_by_type"].items():  # type: ignore[union-attr]
        print(f"  {kind:>20}: {us} us ({len(by_type[kind])})")
    print(f"{figures['pictures']} pictures: {figures['us_per_picture']} us a Picture, "
          f"{figures['us_per_tile_view']} us a TileView")
    print(f"{figures['checkpoints']} checkpoints: {figures['us_per_checkpoint']} us a Saved")


if __name__ == "__main__":
    main()
