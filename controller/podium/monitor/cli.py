"""The ``pit-monitor`` command: ``serve`` the floor page, ``record`` every event, ``report`` the ratings.

::

    pit-monitor serve  --table T07=tcp://10.1.0.7:5556 --table T08=tcp://10.1.0.8:5556 [--port 8080]
    pit-monitor record --db pit.sqlite --tables floor.toml
    pit-monitor report --db postgresql://pit@db/pit --from 2026-11-21 --to 2026-11-21 --format csv
    pit-monitor report --db pit.sqlite --by player --format json
    pit-monitor report --db pit.sqlite --by dealer --format csv
    pit-monitor report --db pit.sqlite --by shift --tables floor.toml
    pit-monitor report --db pit.sqlite --by protection --tables floor.toml --format json

Mistakes in the arguments stop the command at once with one line per mistake
on stderr and exit status 2. ``serve`` and ``record`` run until SIGTERM or
SIGINT. ``serve`` needs aiohttp, which the ``monitor`` extra brings
(``pip install 'table-controller[monitor]'``); without it ``serve`` says so and
stops (status 2), and ``record`` and ``report`` work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import gc
import logging
import signal
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path

import zmq
import zmq.asyncio

from controller.config.permissions import foreign_owner
from controller.follow.aio import SILENCE, Follower
from controller.follow.control import Control
from controller.follow.sources import TablesError, TableSource, load_sources
from controller.podium.monitor.apart.strategies import StrategiesApart
from controller.podium.monitor.collector import THRESHOLDS, freeze_when_settled
from controller.podium.monitor.models.actions import KEEP_DAYS, ActionBook, PitActions
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.kept import Keeper
from controller.podium.monitor.models.rated import NO_PIT, Rated
from controller.podium.monitor.reports import books as books_report
from controller.podium.monitor.reports import player as player_report
from controller.podium.monitor.reports import protection as protection_report
from controller.podium.monitor.reports import shift as shift_report
from controller.podium.monitor.reports.table import (
    TYPES,
    Counts,
    TableReport,
    as_csv,
    as_json,
    as_text,
    bound,
    rate,
)
from controller.podium.monitor.stores.events import Store, open_store
from controller.podium.monitor.stores.recorder import Recorder
from controller.podium.protection.settings import DEFAULT, Settings, SettingsError, read_protection
from controller.podium.protection.watch import Protection
from controller.podium.ratings.books import BOOKS_TYPES
from controller.podium.ratings.shift import Shifts, ShiftsError, read_floor
from controller.web.guard import server_names
from firmware_bridge.version import version_line

log = logging.getLogger("pit-monitor")


class UsageError(Exception):
    """The arguments cannot work; the message says why (one line per mistake)."""


def _days(text: str) -> int:
    """A number of days of at least 1 (``--actions-keep-days``)."""
    try:
        days = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of days: {text!r}") from None
    if days < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 day, not {days}")
    return days


def _table_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--table", action="append", default=[], metavar="NAME=tcp://HOST:PORT[,SYNC]",
                        help="a table's id and publish address (sync: the publish port + 1 unless given)")
    parser.add_argument("--tables", type=Path, metavar="FILE", help="tables (and CURVE keys) in a TOML file")
    parser.add_argument("--curve-client-key", type=Path, metavar="FILE",
                        help="this monitor's CURVE certificate (zmq.auth .key_secret)")
    parser.add_argument("--curve-server-key", type=Path, metavar="FILE",
                        help="the tables' public CURVE key (zmq.auth .key)")
    parser.add_argument("--silence", type=float, default=SILENCE, metavar="SECONDS",
                        help=f"a table is silent after this long without event or heartbeat ({SILENCE:g})")


def parser() -> argparse.ArgumentParser:
    """The command line."""
    top = argparse.ArgumentParser(
        prog="pit-monitor",
        description="The pit-monitor command: serve the floor page, record every event, report the ratings.")
    top.add_argument("--version", action="version", version=version_line("pit-monitor"))
    sub = top.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="follow the tables and serve the floor page")
    _table_options(serve)
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to serve on (loopback unless TLS and a password file)")
    serve.add_argument("--port", type=int, default=8080, help="port (0: any free port)")
    serve.add_argument("--server-name", action="append", default=[], metavar="NAME",
                       help="a name the page is reached by (its Host), beside the --host address, "
                            "localhost and this machine's host name; may be repeated")
    serve.add_argument("--tls-cert", type=Path, metavar="PEM", help="TLS certificate (chain)")
    serve.add_argument("--tls-key", type=Path, metavar="PEM", help="TLS private key")
    serve.add_argument("--password-file", type=Path, metavar="FILE",
                       help="name:hash lines (hash from table-controller hash-pin); sign-in required")
    serve.add_argument("--acks", type=Path, default=Path("pit-monitor-acks.jsonl"), metavar="FILE",
                       help="where acknowledgements are recorded (JSON lines; default %(default)s)")
    serve.add_argument("--actions", type=Path, default=Path("pit-monitor-actions.jsonl"), metavar="FILE",
                       help="where the pit's actions (close, open, limits, dealer messages) are recorded "
                            "(JSON lines; default %(default)s)")
    serve.add_argument("--actions-keep-days", type=_days, default=KEEP_DAYS, metavar="DAYS",
                       help="days a closed part of the action record is kept (default %(default)s)")
    serve.add_argument("--db", metavar="PATH|URL",
                       help="the recorder's database (SQLite file or postgresql:// URL): rated play and "
                            "shift figures (shift start times from the floor file's [shifts])")
    record = sub.add_parser("record", help="store every event of every table")
    record.add_argument("--db", required=True, metavar="PATH|URL", help="SQLite file or postgresql:// URL")
    _table_options(record)
    report = sub.add_parser("report", help="per table and seat (default), per rated player, per shift, "
                                           "game protection, or per dealer")
    report.add_argument("--db", required=True, metavar="PATH|URL", help="SQLite file or postgresql:// URL")
    report.add_argument("--by", choices=("table", "player", "shift", "protection", "dealer"), default="table",
                        help="table: hands, wagers, results and hold per table and seat (default); "
                             "player: each player's ratings and totals; shift: per shift, table and pit; "
                             "protection: bets against the count, wonging and play per player and seat")
    report.add_argument("--from", dest="since", metavar="DATE", help="from this date or time (UTC)")
    report.add_argument("--to", dest="until", metavar="DATE", help="to this date (inclusive) or time (UTC)")
    report.add_argument("--tables", type=Path, metavar="FILE",
                        help="--by shift: the floor file, for its [shifts] and each table's pit; "
                             "--by protection: for its [protection]")
    report.add_argument("--format", choices=("text", "csv", "json"), default="text")
    return top


def _sources(args: argparse.Namespace) -> list[TableSource]:
    try:
        return load_sources(args.table, args.tables, client_key=args.curve_client_key,
                            server_key=args.curve_server_key)
    except TablesError as exc:
        raise UsageError(str(exc)) from None


async def _until_stopped(work: Callable[[], Coroutine[object, None, None]]) -> None:
    """Run ``work`` until SIGTERM or SIGINT, then cancel it and let it finish."""
    loop = asyncio.get_running_loop()
    task = asyncio.create_task(work())
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    with contextlib.suppress(asyncio.CancelledError):
        await task


NEEDS_AIOHTTP = "needs aiohttp, which the monitor extra brings: pip install 'table-controller[monitor]'"


def _context(tables: int) -> zmq.asyncio.Context:
    """A ZeroMQ context with room for a SUB and a sync request or two per table."""
    context = zmq.asyncio.Context()
    context.set(zmq.MAX_SOCKETS, max(1023, 4 * tables + 64))
    return context


async def _rated(args: argparse.Namespace, sources: list[TableSource]) -> Rated:
    """The ratings and shift figures kept in ``--db``, with the shifts of the floor file, read back."""
    shifts = read_floor(args.tables)[0] if args.tables else Shifts()
    store = await asyncio.to_thread(open_store, args.db)
    rated = Rated(store, [s.name for s in sources], shifts, {s.name: s.pit or NO_PIT for s in sources})
    await rated.load()
    return rated


def _let_go(rated: Rated | None) -> None:
    """Close the ratings' store."""
    if rated is not None:
        rated.let_go()
        rated.store.close()


async def _serve(args: argparse.Namespace, sources: list[TableSource]) -> None:
    from aiohttp import web

    from controller.podium.monitor.pages.floor import load_passwords, make_app, make_runner, tls_context

    gc.set_threshold(*THRESHOLDS)
    users = load_passwords(args.password_file) if args.password_file else None
    tls = tls_context(args.tls_cert, args.tls_key) if args.tls_cert else None
    context = _context(len(sources))
    floor = Floor([s.name for s in sources], AlertBook(args.acks), {s.name: s.pit for s in sources})
    controls = {s.name: Control(s.control, context, s.curve) if s.control else None for s in sources}
    actions = PitActions(controls, ActionBook(args.actions, keep_days=args.actions_keep_days))
    rated = await _rated(args, sources) if args.db else None
    if rated is not None:
        floor.rate(rated)
    strategies = StrategiesApart()
    protection = _protection_settings(args.tables)
    if protection.enabled:
        floor.protect(Protection(protection, strategies=strategies))
    keeper = Keeper(rated, floor, protection.keep_hours) if rated is not None else None
    if keeper is not None:
        await keeper.load()
        floor.keep = keeper.heard
    runner = make_runner(make_app(floor, users, names=server_names(args.host, args.server_name),
                                  actions=actions))
    await runner.setup()
    followers = [Follower(s, floor, context=context, silence=args.silence, raw_data=True)
                 for s in sources]
    try:
        site = web.TCPSite(runner, args.host, args.port, ssl_context=tls)
        await site.start()
        host, port = runner.addresses[0][:2]
        scheme = "https" if tls else "http"
        shown = f"[{host}]" if ":" in host else host
        tables = f"{len(sources)} table{'' if len(sources) == 1 else 's'}"
        print(f"pit-monitor: serving {scheme}://{shown}:{port}/ for {tables}", flush=True)
        frozen = freeze_when_settled(floor)
        try:
            await asyncio.gather(*(f.run() for f in followers))
        finally:
            frozen.cancel()
    finally:
        await runner.cleanup()
        context.destroy(linger=0)
        if keeper is not None:
            await keeper.close()
        _let_go(rated)
        strategies.let_go()


async def _record(args: argparse.Namespace, sources: list[TableSource]) -> None:
    store = await asyncio.to_thread(open_store, args.db)
    context = _context(len(sources))
    recorder = Recorder(store, sources, context=context, silence=args.silence)
    print(f"pit-monitor: recording {len(sources)} tables into {args.db}", flush=True)
    try:
        await recorder.run()
    finally:
        context.destroy(linger=0)
        store.close()


def _report(args: argparse.Namespace) -> int:
    try:
        since = bound(args.since, end=False) if args.since else None
        until = bound(args.until, end=True) if args.until else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.tables is not None and args.by not in ("shift", "protection"):
        raise UsageError("--tables is for --by shift and --by protection")
    shifts, pits = Shifts(), dict[str, str]()
    settings = _protection_settings(args.tables if args.by == "protection" else None)
    if args.tables is not None and args.by == "shift":
        try:
            shifts, pits = read_floor(args.tables)
        except ShiftsError as exc:
            raise UsageError(str(exc)) from None
    if "://" not in args.db and not Path(args.db).exists():
        raise UsageError(f"no database at {args.db}")
    store = open_store(args.db)
    try:
        if args.by == "player":
            text = _players(store, args.format, since, until)
        elif args.by == "dealer":
            text = _dealers(store, args.format, since, until)
        elif args.by == "protection":
            text = _protection(store, args.format, since, until, settings)
        elif args.by == "shift":
            rows = store.rows(shift_report.TYPES, shift_report.rows_from(since), until)
            reports = shift_report.rate_shifts(rows, shifts, store.edges, pits, since)
            text = (shift_report.as_csv(reports, pits) if args.format == "csv" else
                    shift_report.as_json(reports, since, until, shifts, pits) if args.format == "json" else
                    shift_report.as_text(reports, since, until, shifts))
        else:
            stored = store.rows(books_report.TYPES, since, until)
            books, theo, _ = books_report.read_books(stored, store.edges)
            text = _tables(rate(store.rows(TYPES, since, until)), args.format, since, until,
                           books_report.table_counts(books, theo))
    finally:
        store.close()
    sys.stdout.write(text if args.format == "csv" else text + "\n")
    return 0


def _players(store: Store, form: str, since: str | None, until: str | None) -> str:
    """The report by player: the ratings opened in the period, worked out from the stored events."""
    ratings = store.ratings(since=since, until=until)
    first, last = player_report.events_needed(ratings)
    rows = store.rows(player_report.TYPES, first, last, tables=sorted({r.table for r in ratings}))
    now = datetime.datetime.now(datetime.UTC)
    players = player_report.rate_players(ratings, rows, now) if ratings else []
    if form == "csv":
        return player_report.as_csv(players)
    if form == "json":
        return player_report.as_json(players, since, until)
    return player_report.as_text(players, since, until)


def _protection_settings(floor: Path | None) -> Settings:
    """The floor file's ``[protection]`` (the defaults without a floor file); UsageError."""
    try:
        return read_protection(floor) if floor is not None else DEFAULT
    except SettingsError as exc:
        raise UsageError(str(exc)) from None


def _protection(store: Store, form: str, since: str | None, until: str | None, settings: Settings) -> str:
    """The report of game protection: the stored events of the period, the ratings naming who sat where."""
    ratings = store.ratings(until=until)
    protection, raised = protection_report.protect(store.rows(protection_report.TYPES, since, until), ratings,
                                                   settings)
    if form == "csv":
        return protection_report.as_csv(protection)
    if form == "json":
        return protection_report.as_json(protection, raised, since, until)
    return protection_report.as_text(protection, raised, since, until)


def _tables(reports: list[TableReport], form: str, since: str | None, until: str | None,
            counts: Counts) -> str:
    """The report by table and seat, with each table's counts."""
    known = {report.table for report in reports}
    reports += [TableReport(table) for table in sorted(set(counts) - known)]
    if form == "csv":
        return as_csv(reports, counts)
    if form == "json":
        return as_json(reports, since, until, counts)
    return as_text(reports, since, until, counts)


def _dealers(store: Store, form: str, since: str | None, until: str | None) -> str:
    """The report by dealer: each dealer's figures at each table in the period."""
    books, _, last = books_report.read_books(store.rows(BOOKS_TYPES, since, until))
    now = until if until is not None else last
    if form == "csv":
        return books_report.dealers_csv(books, now)
    if form == "json":
        return books_report.dealers_json(books, now, since, until)
    return books_report.dealers_text(books, now, since, until)


def main(argv: list[str] | None = None) -> int:
    """Run one ``pit-monitor`` command; the exit status."""
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        if args.command == "report":
            return _report(args)
        sources = _sources(args)
        if args.command == "serve":
            if bool(args.tls_cert) != bool(args.tls_key):
                raise UsageError("TLS needs both --tls-cert and --tls-key")
            try:
                from controller.podium.monitor.pages.floor import may_listen
            except ModuleNotFoundError as missing:
                if missing.name != "aiohttp":
                    raise
                raise UsageError(NEEDS_AIOHTTP) from None
            refusal = may_listen(args.host, bool(args.tls_cert), bool(args.password_file))
            if refusal:
                raise UsageError(refusal)
            owners = [*foreign_owner(args.password_file, "the password file"),
                      *foreign_owner(args.tls_key, "the TLS key")]
            if owners:
                raise UsageError("\n".join(owners))
            asyncio.run(_until_stopped(lambda: _serve(args, sources)))
        else:
            asyncio.run(_until_stopped(lambda: _record(args, sources)))
    except UsageError as exc:
        for line in str(exc).splitlines():
            print(f"pit-monitor: {line}", file=sys.stderr)
        return 2
    except (OSError, ValueError, RuntimeError) as exc:
        print(f"pit-monitor: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
