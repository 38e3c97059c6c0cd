"""``table-controller``: run the daemon, recall hands, compute a game's house edge.

    table-controller run --config FILE
    table-controller recall --config FILE [N]
    table-controller math --config FILE [--json]
    table-controller progressive --config FILE [--json]
    table-controller hash-pin
    table-controller manifest --output FILE
    table-controller diagram

A configuration with mistakes stops every command at once with one line per
mistake on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import sys
from collections.abc import Sequence

from controller.config.loader import Config, ConfigError, load_config

EXIT_CONFIG = 2


def _load(path: str) -> Config:
    try:
        return load_config(path)
    except ConfigError as error:
        for line in error.problems:
            print(f"config: {line}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None


def _run(args: argparse.Namespace) -> int:
    from controller.daemon import Daemon
    from controller.journal.log import JournalCorrupt
    from drivers.chips import RegistryError

    config = _load(args.config)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    async def main() -> BaseException | None:
        daemon = Daemon(config)
        await daemon.run()
        return daemon.failure

    try:
        failure = asyncio.run(main())
    except (JournalCorrupt, RegistryError, OSError) as error:
        print(f"table-controller: {error}", file=sys.stderr)
        return 1
    if failure is not None:
        print(f"table-controller: stopped: the journal cannot be written: {failure}", file=sys.stderr)
        return 1
    return 0


def _recall(args: argparse.Namespace) -> int:
    from controller.daemon import JOURNAL_NAME
    from controller.journal.log import JournalCorrupt, read_records
    from controller.journal.recall import recall_hands

    config = _load(args.config)
    try:
        lines = recall_hands(read_records(config.state_dir / JOURNAL_NAME), args.count)
    except JournalCorrupt as error:
        print(f"table-controller: the journal is damaged: {error}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


def _math(args: argparse.Namespace) -> int:
    from controller.games.catalog import GAMES

    config = _load(args.config)
    figures = GAMES[config.game].math(config.rules)
    if args.json:
        print(json.dumps({"game": config.game, "wagers": figures}))
        return 0
    print(f"{config.game}: what each wager is worth to the house")
    for name, figure in figures.items():
        if "house_edge" in figure:
            line = f"{figure['house_edge'] * 100:8.4f} %"
            if "interval" in figure:
                low, high = figure["interval"]
                line += f"  (95% interval {low * 100:.4f} to {high * 100:.4f} %)"
        else:
            line = str(figure.get("value", ""))
        print(f"  {name:6} {line}  ({figure['method']})")
    return 0


def _progressive(args: argparse.Namespace) -> int:
    from controller.daemon import CHECKPOINT_NAME, JOURNAL_NAME
    from controller.journal.log import JournalCorrupt
    from controller.journal.progressive import read_progressive, report_data, report_lines

    config = _load(args.config)
    try:
        record = read_progressive(config.state_dir / JOURNAL_NAME, config.state_dir / CHECKPOINT_NAME)
    except JournalCorrupt as error:
        print(f"table-controller: the journal is damaged: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(report_data(record)))
    else:
        print("\n".join(report_lines(record)))
    return 0


def _hash_pin(args: argparse.Namespace) -> int:
    from controller.security.supervisor_pins import hash_pin

    pin = getpass.getpass("PIN: ") if sys.stdin.isatty() else sys.stdin.readline().strip()
    if not pin:
        print("table-controller: an empty PIN", file=sys.stderr)
        return 1
    print(hash_pin(pin))
    return 0


def _manifest(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.security.integrity import write_manifest

    count = write_manifest(Path(args.output))
    print(f"recorded the hashes of {count} files in {args.output}")
    return 0


def _diagram(args: argparse.Namespace) -> int:
    from controller.table.diagram import state_machine_markdown

    print(state_machine_markdown(), end="")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The console script."""
    parser = argparse.ArgumentParser(prog="table-controller", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the table daemon")
    run.add_argument("--config", required=True, help="the table's TOML configuration")
    run.set_defaults(handler=_run)
    recall = commands.add_parser("recall", help="print the last hands step by step")
    recall.add_argument("--config", required=True)
    recall.add_argument("count", nargs="?", type=int, default=10, help="how many hands (default 10)")
    recall.set_defaults(handler=_recall)
    math = commands.add_parser("math", help="house edge of each wager of the configured game")
    math.add_argument("--config", required=True)
    math.add_argument("--json", action="store_true", help="print JSON")
    math.set_defaults(handler=_math)
    progressive = commands.add_parser(
        "progressive", help="the progressive meters, jackpots waiting and the last hits confirmed")
    progressive.add_argument("--config", required=True)
    progressive.add_argument("--json", action="store_true", help="print JSON")
    progressive.set_defaults(handler=_progressive)
    commands.add_parser("hash-pin", help="hash a supervisor PIN for [supervisors]").set_defaults(
        handler=_hash_pin)
    manifest = commands.add_parser("manifest", help="record the hashes of the installed files")
    manifest.add_argument("--output", required=True, help="the manifest file to write")
    manifest.set_defaults(handler=_manifest)
    commands.add_parser("diagram", help="print the table state machine as Markdown").set_defaults(
        handler=_diagram)
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
