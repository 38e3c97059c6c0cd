"""The dealer-mistake model run long (tests/model): hands dealt right and mistakes made, per game.

For each of the four games: ``--hands`` hands dealt right (false alarms counted, per 10,000),
and ``--mistakes`` tables per kind of mistake, each outcome counted (caught, missed, stale,
not made); prints a Markdown table and the model's hands per second (wall time, real journal).

    .venv/bin/python bench/mistake_bench.py [--hands 2000] [--mistakes 50] [--games easy-jack ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path
from tempfile import TemporaryDirectory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.model.catalogue import GAMES, KINDS
from tests.model.dealer import ModelError, deal, outcome_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--mistakes", type=int, default=50)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=GAMES)
    args = parser.parse_args()
    for game in args.games:
        clean, false_alarms, began = 0, 0, time.perf_counter()
        seed = 0
        while clean < args.hands:
            with TemporaryDirectory() as folder:
                try:
                    clean += len(list(deal(Path(folder), game, seed, None, before=5)))
                except ModelError:
                    false_alarms += 1
                    clean += 1
            seed += 1
        rate = clean / (time.perf_counter() - began)
        print(f"\n{game}: {clean} hands dealt right, {false_alarms} false alarms "
              f"({false_alarms * 10_000 / clean:.1f} per 10,000), {rate:.0f} hands/s\n")
        print("| mistake | made | caught | missed | stale |\n|---|---|---|---|---|")
        for kind in KINDS:
            counted: Counter[str] = Counter()
            for seed in range(args.mistakes):
                with TemporaryDirectory() as folder:
                    found = list(deal(Path(folder), game, seed, kind))[-1]
                counted[outcome_of(found) if found.injected else "not made"] += 1
            made = args.mistakes - counted["not made"]
            print(f"| {kind} | {made} | {counted['caught']} | {counted['missed']} | {counted['stale']} |")


if __name__ == "__main__":
    main()
