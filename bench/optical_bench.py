"""The optical shoe measured: every deck design taught from one clean pass, then read on distorted draws.

For each of Debian's kdegames-card-data-kf5 designs (tests/optical/decks.sh fetches them): teach it from
the 52 clean frames of one pass, then deal ``--draws`` random cards, each in a frame with a fresh
:class:`drivers.optical.distort.Distortion` (seeded: the same run gives the same figures) and either way up,
and read each. Prints, per design and for the casino-style and the novelty designs apart: misreads (a card
read as another: the worst outcome; with --json, each by its draw's number), unreadable (the dealer is
asked; with --json, how many for each reason), and the milliseconds a read takes on this machine (the
frame's making is timed apart, it is the rig's, not the shoe's). A design's draws depend on ``--seed`` and
its place among the designs run.

    .venv/bin/python bench/optical_bench.py                 # --draws 10000, every design
    .venv/bin/python bench/optical_bench.py --draws 500 --designs standard dondorf --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter

import numpy as np

from drivers.optical.designs import CASINO_STYLE, deck, designs
from drivers.optical.distort import Distortion
from drivers.optical.frames import FrameMaker
from drivers.optical.read import Reader
from drivers.optical.render import RenderError
from drivers.optical.teach import TeachError, teach


def measure(name: str, maker: FrameMaker, draws: int, seed: int) -> dict[str, object]:
    """Teach the design, then read ``draws`` distorted frames; the figures as a dict."""
    try:
        reader = Reader(teach(name, ((card, maker.frame(card)) for card in deck())))
    except TeachError as error:
        return {"design": name, "taught": False, "why": str(error), "draws": 0}
    rng = np.random.default_rng(seed)
    cards = deck()
    misreads: list[str] = []
    unreadable = 0
    reasons: Counter[str] = Counter()
    read_s = frame_s = 0.0
    for number in range(draws):
        card = cards[int(rng.integers(len(cards)))]
        start = time.perf_counter()
        frame = maker.frame(card, Distortion.draw(rng), turned=bool(rng.integers(2)))
        made = time.perf_counter()
        reading = reader.read(frame)
        read_s += time.perf_counter() - made
        frame_s += made - start
        if reading.card is None:
            unreadable += 1
            reasons[re.sub(r"\d+(\.\d+)?", "#", str(reading.reason))] += 1
        elif reading.card != card:
            misreads.append(f"draw {number}: {card} read as {reading.card}")
    return {"design": name, "taught": True, "draws": draws, "misreads": len(misreads), "misread": misreads,
            "unreadable": unreadable, "why_unreadable": dict(reasons.most_common()),
            "read_ms": 1000 * read_s / draws, "frame_ms": 1000 * frame_s / draws}


def group(rows: list[dict[str, object]]) -> dict[str, object]:
    """The figures of several designs added up (the taught ones)."""
    taught = [row for row in rows if row["taught"]]
    draws = sum(int(str(row["draws"])) for row in taught)
    return {"designs": len(rows), "taught": len(taught), "draws": draws,
            "misreads": sum(int(str(row["misreads"])) for row in taught),
            "unreadable": sum(int(str(row["unreadable"])) for row in taught),
            "read_ms": (sum(float(str(row["read_ms"])) * int(str(row["draws"])) for row in taught) / draws
                        if draws else 0.0)}


def line(name: str, row: dict[str, object]) -> str:
    if not row.get("taught", True) or not row["draws"]:
        return f"| {name} | not taught: {row.get('why', 'no design taught')} | | | |"
    draws = int(str(row["draws"]))
    share = 100 * int(str(row["unreadable"])) / draws
    return (f"| {name} | {draws} | {row['misreads']} | {row['unreadable']} ({share:.2f} %) "
            f"| {float(str(row['read_ms'])):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=10_000, help="distorted draws per design")
    parser.add_argument("--designs", nargs="*", help="only these designs (default: every one)")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    options = parser.parse_args()
    found = [design for design in designs() if not options.designs or design.name in options.designs]
    if not found:
        print("no deck designs (kdegames-card-data-kf5 cannot be had: run sh tests/optical/decks.sh)")
        return
    rows = []
    for number, design in enumerate(found):
        try:
            rows.append(measure(design.name, FrameMaker(design), options.draws, options.seed + number))
        except RenderError as error:
            rows.append({"design": design.name, "taught": False, "why": str(error), "draws": 0})
        print(f"{design.name}: done", file=sys.stderr, flush=True)
    casino = [row for row in rows if row["design"] in CASINO_STYLE]
    novelty = [row for row in rows if row["design"] not in CASINO_STYLE]
    if options.json:
        print(json.dumps({"designs": rows, "casino_style": group(casino), "novelty": group(novelty)}))
        return
    print("| design | draws | misreads | unreadable | ms a read |\n|---|---|---|---|---|")
    for title, part in (("casino-style", casino), ("novelty", novelty)):
        for row in part:
            print(line(str(row["design"]), row))
        if part:
            print(line(f"**all {title}** ({group(part)['taught']} of {len(part)} taught)", group(part)))


if __name__ == "__main__":
    main()
