"""Blackjack Extreme's bank simulation: its speed, and its figures for the rule sets that matter.

For each rule set (one or two decks, heads-up draws on or off) it runs
:func:`controller.games.blackjack_extreme.math.simulate` with the seed that
``table-controller math`` uses, and prints the bank's expectation per player
and unit of blind with its 95 % interval, and the CPU time per hand.

    .venv/bin/python bench/bjx_math_bench.py                 # --hands 60000, --json for one JSON line
"""

from __future__ import annotations

import argparse
import json
import random
import time

from controller.games.blackjack_extreme.math import HANDS, SEED, simulate
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules

RULE_SETS = {
    "2 decks (default)": BlackjackExtremeRules(),
    "1 deck": BlackjackExtremeRules(decks=1),
    "2 decks, no heads-up draws": BlackjackExtremeRules(heads_up_draw=False),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    figures = {}
    for name, rules in RULE_SETS.items():
        started = time.process_time()
        result = simulate(rules, random.Random(SEED), args.hands)
        spent = time.process_time() - started
        low, high = result.interval()
        figures[name] = {"edge": result.edge(), "interval": [low, high], "hands": result.hands,
                         "cpu_s": spent, "us_per_hand": spent / result.hands * 1e6}
    if args.json:
        print(json.dumps(figures))
        return
    print(f"bank expectation per player and unit of blind, {args.hands:,} hands of 5 players, seed {SEED}")
    for name, figure in figures.items():
        low, high = figure["interval"]
        print(f"  {name:28} {figure['edge'] * 100:6.2f} %  (95% {low * 100:.2f} to {high * 100:.2f} %)"
              f"  {figure['cpu_s']:.2f} s CPU, {figure['us_per_hand']:.0f} us/hand")


if __name__ == "__main__":
    main()
