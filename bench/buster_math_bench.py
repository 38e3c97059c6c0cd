"""How long ``table-controller math`` takes for Buster Blackjack X: the base wager simulated until
its 95% interval is ``--precision`` percentage points wide on each side.

Times the pieces separately: basic strategy and the simulation's tables, the
exact figures (bonus, insurance, Blazing 7's), and the simulation on
``--workers`` processes (its rounds per second, per process and in all). The
figures depend on the machine and on what else it runs: the simulation is
CPU-bound, one process per core.

    .venv/bin/python bench/buster_math_bench.py                 # --precision 0.05 --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import time

from controller.games.buster_blackjack_x.math import (
    bonus_edge,
    insurance_edge,
    progressive_edges,
    simulate_base,
)
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.simulate import build_tables
from controller.games.buster_blackjack_x.strategy import Strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", type=float, default=0.05,
                        help="half-width of the 95%% interval, in percentage points (default 0.05)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args()
    rules = BusterRules()

    started = time.perf_counter()
    strategy = Strategy(rules)
    tables = build_tables(rules, strategy)
    prepared = time.perf_counter()
    bonus_edge(rules), insurance_edge(rules), progressive_edges(rules)
    exact = time.perf_counter()
    cpu = time.process_time(), os.times()
    main_figure = simulate_base(rules, args.precision / 100, args.workers, tables=tables)
    done = time.perf_counter()
    children = os.times()
    rounds = main_figure["rounds"]
    simulated = done - exact
    figures = {
        "precision_pp": args.precision,
        "workers": args.workers,
        "cores": os.cpu_count(),
        "strategy_and_tables_s": round(prepared - started, 2),
        "exact_figures_s": round(exact - prepared, 2),
        "simulation_s": round(simulated, 2),
        "total_s": round(done - started, 2),
        "rounds": rounds,
        "rounds_per_s": round(rounds / simulated),
        "worker_cpu_s": round(children.children_user - cpu[1].children_user, 1),
        "house_edge_pct": round(main_figure["house_edge"] * 100, 4),
        "interval_pct": [round(x * 100, 4) for x in main_figure["interval"]],
    }
    if args.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:24} {value}")


if __name__ == "__main__":
    main()
