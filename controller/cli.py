"""``table-controller``: run the daemon, recall hands, compute a game's house edge.

    table-controller run --config FILE
    table-controller recall --config FILE [N]
    table-controller math --config FILE [--json]
    table-controller progressive --config FILE [--json]
    table-controller hash-pin
    table-controller manifest --output FILE
    table-controller verify [--manifest FILE]
    table-controller keys generate [--dir DIR] [--name NAME] [--owner USER] [--force]
    table-controller keys add-client KEY --name NAME [--dir DIR] [--force]
    table-controller diagram

A configuration with mistakes stops every command at once with one line per
mistake on stderr and exit status 2; ``run`` stops the same way, one line per
file, when its configuration, chip registry, keys or state directory are open to
others (:mod:`controller.security.permissions`).
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
KEYS_DIR = "/etc/table-controller/keys"


def _load(path: str) -> Config:
    try:
        return load_config(path)
    except ConfigError as error:
        for line in error.problems:
            print(f"config: {line}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None


def _refuse_unsafe(config: Config) -> None:
    from controller.security.permissions import make_state_dir, unsafe_permissions

    try:
        make_state_dir(config)
    except OSError as error:
        print(f"config: the state directory {config.state_dir} cannot be made: {error}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None
    problems = unsafe_permissions(config)
    for line in problems:
        print(f"unsafe permissions: {line}", file=sys.stderr)
    if problems:
        raise SystemExit(EXIT_CONFIG)


def _run(args: argparse.Namespace) -> int:
    from controller.daemon import Daemon
    from controller.journal.log import JournalCorrupt
    from drivers.chips import RegistryError

    config = _load(args.config)
    _refuse_unsafe(config)
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("transitions").setLevel(logging.WARNING)   # it logs every callback at INFO

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
    from controller.games.catalog import find_game

    config = _load(args.config)
    figures = find_game(config.game).math(config.rules)
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


def _verify(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.security.integrity import (
        MATCHES,
        ManifestUnreadable,
        compare,
        dependency_verdicts,
        digest,
        install_root,
        read_manifest,
        unknown_pth_files,
    )

    manifest = Path(args.manifest) if args.manifest else Path(sys.prefix).parent / "manifest.json"
    try:
        verdicts = compare(read_manifest(manifest))
    except ManifestUnreadable as error:
        print(f"table-controller: {error}", file=sys.stderr)
        return 1
    print(f"manifest {manifest} (sha256 {digest(manifest)})")
    print(f"installed files in {install_root()}")
    for name, verdict in verdicts:
        print(f"  {'ok  ' if verdict == MATCHES else 'FAIL'}  {name} {verdict}")
    failed = sum(verdict != MATCHES for _, verdict in verdicts)
    print(f"{len(verdicts)} files: {len(verdicts) - failed} match, {failed} do not")
    print("runtime dependencies, against the hashes in their RECORD")
    dependencies = dependency_verdicts()
    for name, verdict in dependencies:
        print(f"  {'ok  ' if verdict == MATCHES else 'FAIL'}  {name} {verdict}")
    strangers = unknown_pth_files()
    for path in strangers:
        print(f"  FAIL  {path} is a .pth file no installed distribution lists (Python runs it at start)")
    bad = sum(verdict != MATCHES for _, verdict in dependencies) + len(strangers)
    print(f"dependencies: {'all match' if not bad else f'{bad} problems'}")
    return 0 if failed == 0 and verdicts and not bad else 1


def _keys_generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.security.keys import KeyProblem, generate

    try:
        pair = generate(Path(args.dir), args.name, owner=args.owner, force=args.force)
    except (KeyProblem, PermissionError) as error:
        print(f"table-controller: {error}", file=sys.stderr)
        return 1
    print(f"secret key  {pair.secret_file}  (pit.curve_secret_key; mode 0600)")
    print(f"public key  {pair.public_file}  (give it to the pit)")
    print(f"clients     {Path(args.dir) / 'clients'}  (pit.curve_clients)")
    print(f"public-key = \"{pair.public_key}\"")
    return 0


def _keys_add_client(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.security.keys import KeyProblem, add_client

    try:
        target = add_client(Path(args.dir) / "clients", args.key, args.name, force=args.force)
    except (KeyProblem, PermissionError) as error:
        print(f"table-controller: {error}", file=sys.stderr)
        return 1
    print(f"authorised {args.name}: {target} (restart the daemon to admit it)")
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
    verify = commands.add_parser("verify", help="check the installed files against the manifest")
    verify.add_argument("--manifest", help="the manifest (default: manifest.json beside the venv)")
    verify.set_defaults(handler=_verify)
    keys = commands.add_parser("keys", help="CURVE keys of the table and its pit clients").add_subparsers(
        dest="keys_command", required=True)
    generate = keys.add_parser("generate", help="write the table's CURVE key pair")
    generate.add_argument("--dir", default=KEYS_DIR, help=f"where (default {KEYS_DIR})")
    generate.add_argument("--name", default="table", help="file name of the pair (default table)")
    generate.add_argument("--owner", help="the user who alone may read the secret key (needs root)")
    generate.add_argument("--force", action="store_true", help="replace an existing pair")
    generate.set_defaults(handler=_keys_generate)
    add_client = keys.add_parser("add-client", help="authorise a pit client's public key")
    add_client.add_argument("key", help="the client's public certificate file, or its Z85 public key")
    add_client.add_argument("--name", required=True, help="the client's name (file name of its key)")
    add_client.add_argument("--dir", default=KEYS_DIR, help=f"the keys folder (default {KEYS_DIR})")
    add_client.add_argument("--force", action="store_true", help="replace a key of the same name")
    add_client.set_defaults(handler=_keys_add_client)
    commands.add_parser("diagram", help="print the table state machine as Markdown").set_defaults(
        handler=_diagram)
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
