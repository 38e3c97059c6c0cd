"""Simulate Buster Blackjack X's base wager for the example rules, and store the results with the game.

The example rules are the defaults and the ``[game]`` of every ``deploy/*.toml``
that runs Buster Blackjack X. Rules with the same simulation (the same
:func:`~controller.games.buster_blackjack_x.math.fingerprint`) are simulated
once. The results go to ``controller/games/buster_blackjack_x/stored.py``,
where ``table-controller math`` (and a pit monitor's ratings) find them instead
of simulating for some 40 s; each keeps the rules it was run for.

Run it after any change of the game's totals, payouts, strategy or simulation
(a test fails when the stored fingerprints no longer match the rules they name);
``--check`` simulates again and says whether the stored results are still what
the simulation gives, to the last digit.

    .venv/bin/python bench/buster_figures.py              # rewrite stored.py (make buster-figures)
    .venv/bin/python bench/buster_figures.py --check      # compare, exit 1 if they differ
"""

from __future__ import annotations

import argparse
import pprint
import sys
import tomllib
from pathlib import Path

from controller.games.buster_blackjack_x import stored
from controller.games.buster_blackjack_x.math import PRECISION, SEED, fingerprint, simulate_base
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.simulate import build_tables
from controller.games.buster_blackjack_x.stored import Stored
from controller.games.catalog import rules_from_json, rules_json

ROOT = Path(__file__).resolve().parents[1]
GAME = "buster-blackjack-x"
STORED = Path(stored.__file__)


def example_rules() -> list[BusterRules]:
    """The defaults, then each deploy/*.toml's rules for this game, in file order."""
    found = [BusterRules()]
    for path in sorted((ROOT / "deploy").glob("*.toml")):
        data = tomllib.loads(path.read_text())
        if data.get("table", {}).get("game") == GAME:
            rules = rules_from_json(GAME, data.get("game", {}))
            assert isinstance(rules, BusterRules)
            found.append(rules)
    return found


def simulated(precision: float, workers: int) -> dict[str, Stored]:
    """Each distinct simulation of the example rules: fingerprint -> its figures and rules."""
    figures: dict[str, Stored] = {}
    for rules in example_rules():
        tables = build_tables(rules)
        key = fingerprint(tables, precision, SEED)
        if key not in figures:
            print(f"simulating {key[:12]} ...", file=sys.stderr)
            main = simulate_base(rules, precision, workers, SEED, tables=tables)
            figures[key] = {"house_edge": main["house_edge"], "interval": main["interval"],
                            "rounds": main["rounds"], "rules": []}
        if rules_json(rules) not in figures[key]["rules"]:
            figures[key]["rules"].append(rules_json(rules))
    return figures


def module_text(figures: dict[str, Stored]) -> str:
    """stored.py with these figures."""
    lines = [STORED.read_text().split("STORED: dict", 1)[0] + "STORED: dict[str, Stored] = {"]
    for key, figure in figures.items():
        lines += [f"    {key!r}: {{", f"        'house_edge': {figure['house_edge']!r},",
                  f"        'interval': {figure['interval']!r},", f"        'rounds': {figure['rounds']!r},",
                  "        'rules': ["]
        for rules in figure["rules"]:
            text = pprint.pformat(rules, width=96, sort_dicts=False)
            lines += ["            " + line for line in text.splitlines()]
            lines[-1] += ","
        lines += ["        ],", "    },"]
    return "\n".join([*lines, "}", ""])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with what is stored; write nothing")
    parser.add_argument("--precision", type=float, default=PRECISION * 100,
                        help="half-width of the 95%% interval, in percentage points (default: the math's)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--out", type=Path, default=STORED, help="the module to write (default stored.py)")
    args = parser.parse_args()
    figures = simulated(args.precision / 100, args.workers)
    if args.check:
        same = figures == stored.STORED
        print("the stored figures are what the simulation gives" if same else
              "the stored figures differ from the simulation's: run bench/buster_figures.py")
        return 0 if same else 1
    args.out.write_text(module_text(figures))
    for key, figure in figures.items():
        low, high = figure["interval"]
        print(f"{key[:12]}: {figure['house_edge'] * 100:.4f} % (95% {low * 100:.4f} to {high * 100:.4f}), "
              f"{figure['rounds']:,} rounds, {len(figure['rules'])} rule set(s) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
