"""``table-controller``: run the daemon, recall hands, compute a game's house edge.

    table-controller run --config FILE
    table-controller screen --config FILE [--port N]
    table-controller recall --config FILE [N]
    table-controller math --config FILE [--json]
    table-controller progressive --config FILE [--json]
    table-controller hash-pin            (the PIN twice; at least 4 characters)
    table-controller manifest --output FILE [--extra NAME ...]
    table-controller verify [--manifest FILE]
    table-controller keys generate [--dir DIR] [--name NAME] [--owner USER] [--force]
    table-controller keys add-client KEY --name NAME [--dir DIR] [--force]
    table-controller teach --config FILE --name NAME [--output FILE]
    table-controller teach --config FILE --design DESIGN [--name NAME] [--output FILE]
    table-controller diagram

A configuration with mistakes stops every command at once with one line per
mistake on stderr and exit status 2; ``run`` stops the same way, one line per
file, when its configuration, chip registry, keys or state directory are open to
others (:mod:`controller.config.permissions`), and with one line when gpiozero
finds no pin factory for the buttons (before the journal is opened).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import json
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from controller.config.loader import Config, ConfigError, load_config
from firmware_bridge.version import version_line

EXIT_CONFIG = 2
MIN_PIN = 4
"""The fewest characters ``hash-pin`` takes for a PIN."""
KEYS_DIR = "/etc/table-controller/keys"


def _load(path: str) -> Config:
    try:
        return load_config(path)
    except ConfigError as error:
        for line in error.problems:
            print(f"config: {line}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None


def _refuse_unsafe(config: Config) -> None:
    from controller.config.permissions import make_state_dir, unsafe_permissions

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
    from controller.daemon.loop import Daemon
    from controller.journal.lines import JournalCorrupt
    from drivers.buttons import pin_factory_problem
    from drivers.chips import RegistryError

    config = _load(args.config)
    _refuse_unsafe(config)
    problem = pin_factory_problem()        # before the journal is opened, so nothing is written
    if problem is not None:
        print(f"table-controller: {problem}", file=sys.stderr)
        return EXIT_CONFIG
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
    from controller.daemon.loop import JOURNAL_NAME
    from controller.history.recall import recall_journal
    from controller.journal.lines import JournalCorrupt
    from controller.journal.segments import segments

    config = _load(args.config)
    journal = config.state_dir / JOURNAL_NAME
    if not journal.exists() and not segments(journal):
        print(f"no journal at {journal}: no hand was played at this table yet")
        return 0
    try:
        lines = [line for _, hand in recall_journal(journal, args.count) for line in hand]
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
    from controller.daemon.loop import CHECKPOINT_NAME, JOURNAL_NAME
    from controller.games.catalog import find_game
    from controller.history.progressive import read_progressive, report_data, report_lines
    from controller.journal.lines import JournalCorrupt

    config = _load(args.config)
    if "progressive" not in find_game(config.game).game_type.spots:
        print(f"table-controller: {config.game} has no progressive jackpot", file=sys.stderr)
        return 1
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

    def ask(prompt: str) -> str:
        return getpass.getpass(prompt) if sys.stdin.isatty() else sys.stdin.readline().strip()

    pin = ask("PIN: ")
    if len(pin) < MIN_PIN:
        print(f"table-controller: a PIN of {len(pin)} characters: a PIN has at least {MIN_PIN}",
              file=sys.stderr)
        return 1
    if ask("the same PIN again: ") != pin:
        print("table-controller: the two PINs differ: nothing was hashed", file=sys.stderr)
        return 1
    print(hash_pin(pin))
    return 0


def _manifest(args: argparse.Namespace) -> int:
    from pathlib import Path

    from controller.security.integrity import write_manifest

    count = write_manifest(Path(args.output), args.extra)
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
        passes,
        read_extras,
        read_manifest,
        unknown_pth_files,
    )

    manifest = Path(args.manifest) if args.manifest else Path(sys.prefix).parent / "manifest.json"
    try:
        verdicts = compare(read_manifest(manifest))
        extras = read_extras(manifest)
    except ManifestUnreadable as error:
        print(f"table-controller: {error}", file=sys.stderr)
        return 1
    print(f"manifest {manifest} (sha256 {digest(manifest)})")
    print(f"installed files in {install_root()}")
    for name, verdict in verdicts:
        print(f"  {'ok  ' if verdict == MATCHES else 'FAIL'}  {name} {verdict}")
    failed = sum(verdict != MATCHES for _, verdict in verdicts)
    print(f"{len(verdicts)} files: {len(verdicts) - failed} match, {failed} do not")
    print("runtime dependencies" + (f" with the extras {', '.join(extras)}" if extras else "")
          + ", against the hashes in their RECORD")
    dependencies = dependency_verdicts(extras=extras)
    for name, verdict in dependencies:
        mark = "ok  " if verdict == MATCHES else "skip" if passes(verdict) else "FAIL"
        print(f"  {mark}  {name} {verdict}")
    strangers = unknown_pth_files()
    for path in strangers:
        print(f"  FAIL  {path} is a .pth file no installed distribution lists (Python runs it at start)")
    bad = sum(not passes(verdict) for _, verdict in dependencies) + len(strangers)
    skipped = sum(passes(verdict) and verdict != MATCHES for _, verdict in dependencies)
    print(f"dependencies: {'all match' if not bad else f'{bad} problems'}"
          + (f", {skipped} not checked (installed by the system)" if skipped else ""))
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


def _screen(args: argparse.Namespace) -> int:
    from controller.screen.cli import main as screen_main

    return screen_main(args)


TAUGHT_NAME = r"[A-Za-z0-9_-]{1,64}"
"""A taught design's name: its file's name beside the configuration, less ``.npz``."""


def _teach(args: argparse.Namespace) -> int:
    """A taught design from one pass of a deck in the teach order, through the optical shoe of
    ``--config`` (its board's beam and its camera), or in simulation from the frames rendered of one of
    Debian's designs (``--design``); written as ``<name>.npz`` beside the configuration."""
    import re

    from controller.config.loader import board_options
    from drivers.optical.designs import deck
    from drivers.optical.lesson import LessonError, rendered_pass, shoe_pass
    from drivers.optical.render import RenderError
    from drivers.optical.shoe import OpticalShoeDriver, capture_for
    from drivers.optical.teach import TeachError, teach

    name = args.name or args.design
    if name is None or not re.fullmatch(TAUGHT_NAME, name):
        print(f"teach: --name must be 1 to 64 letters, digits, - or _, not {name!r}", file=sys.stderr)
        return EXIT_CONFIG
    folder = Path(args.config).absolute().parent
    try:
        if args.design is not None:
            frames = rendered_pass(args.design)
        else:
            try:
                shoe = board_options(args.config, "shoe")
            except ConfigError as error:
                for line in error.problems:
                    print(f"config: {line}", file=sys.stderr)
                return EXIT_CONFIG
            if not isinstance(shoe.options, OpticalShoeDriver.Options):
                print(f"config: devices.shoe.driver: teach needs the optical shoe (driver = \"optical\"), "
                      f"not {shoe.driver!r}", file=sys.stderr)
                return EXIT_CONFIG
            options = OpticalShoeDriver.placed(shoe.options, folder)
            frames = asyncio.run(shoe_pass(options.port, capture_for(options.camera, options.window), deck(),
                                           lambda words: print(words, flush=True)))
        taught = teach(name, frames)
    except (LookupError, RenderError, LessonError, TeachError) as error:
        print(f"teach: {error}", file=sys.stderr)
        return 1
    output = Path(args.output) if args.output else folder / f"{name}.npz"
    taught.save(output)
    print(f"taught {name} from {len(frames)} cards: {output} (name it in [devices.shoe] designs)")
    return 0


def _diagram(args: argparse.Namespace) -> int:
    from controller.table.diagram import state_machine_markdown

    print(state_machine_markdown(), end="")
    return 0


CONFIG_HELP = "the table's TOML configuration (docs/configuration.md)"


def build_parser() -> argparse.ArgumentParser:
    """The command line: every command, its arguments and their help."""
    parser = argparse.ArgumentParser(
        prog="table-controller",
        description="table-controller: run the daemon, recall hands, compute a game's house edge.")
    parser.add_argument("--version", action="version", version=version_line("table-controller"))
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run the table daemon")
    run.add_argument("--config", required=True, help=CONFIG_HELP)
    run.set_defaults(handler=_run)
    screen = commands.add_parser("screen", help="serve the dealer's touch screen (a web page on 127.0.0.1)")
    screen.add_argument("--config", required=True, help="the table's TOML configuration")
    screen.add_argument("--port", type=int, help="port ([screen] port, else 8070; 0: any free port)")
    screen.add_argument("--curve-client-key", type=Path, metavar="FILE",
                        help="the screen's CURVE certificate (.key_secret), when the table uses CURVE")
    screen.add_argument("--curve-server-key", type=Path, metavar="FILE",
                        help="the table's public CURVE key (.key), when the table uses CURVE")
    screen.add_argument("--version", action="version", version=version_line("table-controller screen"))
    screen.set_defaults(handler=_screen)
    recall = commands.add_parser("recall", help="print the last hands step by step")
    recall.add_argument("--config", required=True, help=CONFIG_HELP)
    recall.add_argument("count", nargs="?", type=int, default=10, help="how many hands (default 10)")
    recall.set_defaults(handler=_recall)
    math = commands.add_parser("math", help="house edge of each wager of the configured game")
    math.add_argument("--config", required=True, help=CONFIG_HELP)
    math.add_argument("--json", action="store_true", help="print JSON")
    math.set_defaults(handler=_math)
    progressive = commands.add_parser(
        "progressive", help="the progressive meters, jackpots waiting and the last hits confirmed")
    progressive.add_argument("--config", required=True, help=CONFIG_HELP)
    progressive.add_argument("--json", action="store_true", help="print JSON")
    progressive.set_defaults(handler=_progressive)
    commands.add_parser("hash-pin", help="hash a supervisor PIN for [supervisors] (asked twice, at "
                        f"least {MIN_PIN} characters)").set_defaults(handler=_hash_pin)
    manifest = commands.add_parser("manifest", help="record the hashes of the installed files")
    manifest.add_argument("--output", required=True, help="the manifest file to write")
    manifest.add_argument("--extra", action="append", default=[], metavar="NAME",
                          help="an extra of the package installed with it (e.g. optical), whose "
                               "requirements verify checks too; again for each")
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
    teach = commands.add_parser(
        "teach", help="teach the optical shoe a deck design from one pass of a deck in the teach order "
                      "(clubs, diamonds, hearts, spades, each Ace to King)")
    teach.add_argument("--config", required=True, help=CONFIG_HELP + "; its [devices.shoe] is the shoe")
    teach.add_argument("--name", help="the design's name: its file is <name>.npz beside the configuration")
    teach.add_argument("--design", help="simulation: teach from the frames rendered of this Debian deck "
                                        "design (sh tests/optical/decks.sh), with no shoe")
    teach.add_argument("--output", help="write the taught design here instead")
    teach.set_defaults(handler=_teach)
    commands.add_parser("diagram", help="print the table state machine as Markdown").set_defaults(
        handler=_diagram)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """The console script."""
    args = build_parser().parse_args(argv)
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    raise SystemExit(main())
