"""The pit monitor and the recorder with rated play: a rating open on every seat of a big floor.

The simulated tables, the monitor and the page's stream are those of
``bench/monitor_bench.py`` (publisher processes of their own, ``pit-monitor``
as deployed, as a subprocess); every fourth table is banked by a player
(``banked-11 (sim)``, which publishes no rules), the others are Easy Jack
tables that publish its default rules. For SQLite and for PostgreSQL (a server
started here, ``controller/devkit/postgres.py``; left out if none can start):

* **Monitor**: the store holds the shift so far (``--stored-events`` per table,
  dealt over the last ``--stored-minutes``, as the recorder stores them; the
  shift began a little before, ``[shifts]`` of the floor file), the edges of
  Easy Jack's rules cached, and a rating open on every seat of every table,
  opened through the store's API (``open_rating``: with
  ``edges_of("easy-jack", EASY_JACK_RULES)`` at the house-banked tables, none at
  the player-banked ones). Then ``pit-monitor serve --db`` starts: the time
  until it serves (reading back the open ratings and the shift's events) and
  until every tile is live, then the tables deal ``--rate`` events a second as
  in monitor_bench: the floor page's lag (tiles against their events' ``ts``),
  the lag of the ``detail`` events of B0000's page (six ratings open, with
  their figures), the monitor's CPU per 1,000 events and its memory. With
  ``--plain``, the same again without ``--db`` (the tables' history alone).
  Game protection is kept as the floor file says (``--protection``: ``live``,
  the default, counts every hand as it is dealt; ``held`` waits for each shoe's
  cut card; ``off`` keeps none); the simulated tables load a new six-deck shoe
  after each cut card, so every shoe is counted, and with ``--db`` the monitor
  first reads back the stored events of the rated tables from the shoe in play.
  ``--protection-pages`` game protection pages (``/protection``) are open
  besides, each asking for its first page of the list (``/api/protection?limit=100``)
  two seconds after the floor changed, as the page does: the time its answers
  take, and what the last one showed (its bytes, the players followed, those
  flagged, the page's tables with a count).
* **Recorder**: ``pit-monitor record`` storing the burst of monitor_bench
  (``--record-tables``, ``--events`` each) into a fresh store, without ratings,
  then into one with a rating open on every seat of ``--rated-tables`` other
  tables and of the tables recorded; their events have the pit close the
  table and open it again every ``--close-every`` hands (``table.closed``: the
  recorder closes the ratings open there in the transaction that stores it),
  while the pit opens ratings at the recorded tables (``--openings`` a second,
  on a connection of its own, as the monitor would; dated just before the
  burst's events, so that the next ``table.closed`` stored closes them).

    .venv/bin/python bench/ratings_bench.py        # --tables 2000 --record-tables 4 --events 25000
    .venv/bin/python bench/ratings_bench.py --sqlite-only --record-tables 0   # the monitor alone
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import json
import os
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from monitor_bench import Publisher, monitor_lag, recorder_rate  # noqa: E402

from controller.devkit.floor_sim import EASY_JACK_RULES  # noqa: E402
from controller.devkit.postgres import PostgresUnavailable, postgres_server  # noqa: E402
from controller.events.envelope import utc_timestamp  # noqa: E402
from controller.podium.monitor.stores.events import open_store  # noqa: E402
from controller.podium.ratings.edges import Edges  # noqa: E402
from controller.podium.ratings.figures import edges_of  # noqa: E402
from controller.podium.ratings.rating import TABLE_CLOSED  # noqa: E402

SEATS = 6
DETAIL = "B0000"
"""The table whose page is read: house-banked, six ratings open."""


def banked(name: str) -> bool:
    """Whether the simulated table ``B<n>`` is banked by a player (every fourth: the second, sixth, ...)."""
    return int(name[1:]) % 4 == 1


def open_ratings(target: str, tables: list[str], edges: Edges) -> float:
    """Cache ``edges`` and open a rating on every seat of ``tables`` (the house-banked ones with
    ``edges``); the seconds the openings took."""
    store = open_store(target)
    try:
        store.put_edges(edges)
        at = utc_timestamp(datetime.datetime.now(datetime.UTC))
        started = time.monotonic()
        for table in tables:
            for seat in range(1, SEATS + 1):
                store.open_rating(f"P-{table}-{seat}", table, seat, at, "bench",
                                  None if table.startswith("B") and banked(table) else edges)
        return time.monotonic() - started
    finally:
        store.close()


def floor_head(minutes: float, protection: str) -> str:
    """A floor file's ``[shifts]``: one a day, begun a little more than ``minutes`` ago (UTC); and its
    ``[protection]``: ``figures`` live or held, or ``off`` (``enabled = false``)."""
    start = datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=minutes + 5)
    protect = "enabled = false" if protection == "off" else f'figures = "{protection}"'
    return f'[shifts]\nstarts = ["{start:%H:%M}"]\n[protection]\n{protect}\n'


async def rated_monitor(target: str, count: int, args: argparse.Namespace, folder: Path,
                        edges: Edges, rated: bool = True) -> dict[str, Any]:
    """The monitor over ``count`` tables, every seat rated, the shift so far in the store (``rated``
    False: the same floor, the same history, and the monitor without ``--db``)."""
    open_store(target).close()      # the tables created once, before the publishers write
    publisher = Publisher(count, args.publishers, ["--banked"])
    try:
        started = time.monotonic()
        publisher.order(history=args.stored_events, store=target,
                        since=time.time() - args.stored_minutes * 60)
        publisher.done()
        stored = time.monotonic() - started
        opening = open_ratings(target, [name for name, _, _ in publisher.tables], edges) if rated else 0.0
        floor = publisher.tables_file(folder, floor_head(args.stored_minutes, args.protection), pits=4)
    except BaseException:
        publisher.close()
        raise
    seen: dict[str, Any] = {}
    backend = "postgresql" if "://" in target else "sqlite"
    profile = args.profile / f"serve-{count}-{backend if rated else 'plain'}.prof" if args.profile else None
    figures = await monitor_lag(count, args.rate, args.seconds, folder, args.publishers, publisher=publisher,
                                floor=floor, serve=[f"--db={target}"] if rated else [], detail=DETAIL,
                                seen=seen, profile=profile,
                                protection_pages=args.protection_pages if args.protection != "off" else 0)
    return {"db": rated, "protection": args.protection, "stored_events": count * args.stored_events,
            "store_s": round(stored, 2),
            "ratings": count * SEATS if rated else 0, "open_ratings_s": round(opening, 2), **figures,
            "detail_rated": seen.get("rated"), "detail_rated_hands": seen.get("hands"),
            "detail_shift_hands": seen.get("shift_hands")}


def pit_opening(target: str, tables: list[str], per_second: float, edges: Edges,
                opened: list[int]) -> Callable[[], contextlib.AbstractContextManager[None]]:
    """What the pit does while the recorder stores the burst: open a rating at a random seat of
    ``tables``, ``per_second`` times a second, dated a minute ago (before the burst's events, so
    the next ``table.closed`` closes it); how many were opened is appended to ``opened``."""

    @contextlib.contextmanager
    def opening() -> Iterator[None]:
        stop = threading.Event()
        at = utc_timestamp(datetime.datetime.now(datetime.UTC) - datetime.timedelta(minutes=1))

        def run() -> None:
            store, rng, done = open_store(target), random.Random(7), 0
            try:
                while not stop.wait(1 / per_second):
                    store.open_rating(f"Q-{done}", rng.choice(tables), rng.randint(1, SEATS), at, "bench",
                                      edges)
                    done += 1
            finally:
                store.close()
                opened.append(done)

        thread = threading.Thread(target=run)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()

    return opening


def rated_recorder(target: str, args: argparse.Namespace, folder: Path, edges: Edges) -> dict[str, Any]:
    """The recorder's rate with ratings open, the tables closing now and then, the pit rating players."""
    recorded = [f"B{n:04d}" for n in range(args.record_tables)]
    others = [f"F{n:04d}" for n in range(args.rated_tables)]
    open_ratings(target, others + recorded, edges)
    opened: list[int] = []
    figures = recorder_rate(target, args.record_tables, args.events, folder,
                            ["--close-every", str(args.close_every)],
                            pit_opening(target, recorded, args.openings, edges, opened))
    store = open_store(target)
    try:
        closed = sum(r.reason == TABLE_CLOSED for table in recorded for r in store.ratings(table=table))
        closings = sum(1 for _ in store.rows(("table.closed",)))
        still_open = len(store.ratings(open_only=True))
    finally:
        store.close()
    return {**figures, "ratings_open_before": (len(others) + len(recorded)) * SEATS,
            "table_closed_events": closings, "opened_during": sum(opened),
            "closed_by_table_closed": closed, "open_after": still_open}


def run_backend(name: str, target: Callable[[str], contextlib.AbstractContextManager[str]],
                args: argparse.Namespace, folder: Path, edges: Edges, say: Any) -> dict[str, Any]:
    """Every figure for one backend; ``target(label)`` gives a fresh, empty store."""
    figures: dict[str, Any] = {"recorder": {}, "monitor": []}
    if args.record_tables:
        with target("plain") as store:
            figures["recorder"]["without_ratings"] = recorder_rate(store, args.record_tables, args.events,
                                                                   folder)
        say(f"  {name} recorder without ratings", figures["recorder"]["without_ratings"])
        with target("rated") as store:
            figures["recorder"]["with_ratings"] = rated_recorder(store, args, folder, edges)
        say(f"  {name} recorder with ratings   ", figures["recorder"]["with_ratings"])
    for count in args.tables:
        for rated in (True, False) if args.plain and name == "sqlite" else (True,):
            with target(f"floor{count}") as store:
                step = asyncio.run(rated_monitor(store, count, args, folder, edges, rated))
            step["load_average"] = [round(n, 2) for n in os.getloadavg()]
            figures["monitor"].append(step)
            say(f"  {name} monitor{'' if rated else ' without --db'}", step)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[2000],
                        help="floor sizes for the monitor (none: the recorder only)")
    parser.add_argument("--rate", type=float, default=5.0, help="events per second per table (monitor)")
    parser.add_argument("--seconds", type=float, default=10.0, help="dealing time (monitor)")
    parser.add_argument("--publishers", type=int, default=2,
                        help="processes the simulated tables are shared out between (monitor)")
    parser.add_argument("--stored-events", type=int, default=1800,
                        help="events per table in the store before the monitor starts (the shift so far)")
    parser.add_argument("--stored-minutes", type=float, default=30.0,
                        help="the time over which the stored events were dealt")
    parser.add_argument("--record-tables", type=int, default=4, help="tables recorded (0: the monitor only)")
    parser.add_argument("--events", type=int, default=25_000, help="burst per table for the recorder")
    parser.add_argument("--rated-tables", type=int, default=2000,
                        help="other tables with every seat rated in the recorder's store")
    parser.add_argument("--close-every", type=int, default=100,
                        help="hands between two closings of a recorded table")
    parser.add_argument("--openings", type=float, default=10.0,
                        help="ratings opened per second at the recorded tables during the burst")
    parser.add_argument("--plain", action="store_true",
                        help="also the monitor over the same floor without --db (no ratings, no shift)")
    parser.add_argument("--sqlite-only", action="store_true", help="leave PostgreSQL out")
    parser.add_argument("--protection", choices=("live", "held", "off"), default="live",
                        help="game protection in the floor file: live figures (the default), held until "
                             "each shoe's cut card, or off")
    parser.add_argument("--protection-pages", type=int, default=1,
                        help="game protection pages open while the floor deals, each asking for "
                             "a page of /api/protection 2 s after a change (1; 0: none)")
    parser.add_argument("--profile", type=Path, metavar="FOLDER",
                        help="run the monitor under cProfile, its figures written into FOLDER")
    parser.add_argument("--json", action="store_true", help="one JSON object, nothing else")
    args = parser.parse_args()
    say = (lambda *a: None) if args.json else print
    edges = edges_of("easy-jack", EASY_JACK_RULES)
    figures: dict[str, Any] = {"load_average_at_start": [round(n, 2) for n in os.getloadavg()]}
    with tempfile.TemporaryDirectory(prefix="ratings-bench-") as name:
        folder = Path(name)

        @contextlib.contextmanager
        def sqlite(label: str) -> Iterator[str]:
            path = folder / f"{label}.sqlite"
            yield str(path)
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)

        say(f"ratings bench: floors of {args.tables} tables, {SEATS} ratings each")
        figures["sqlite"] = run_backend("sqlite", sqlite, args, folder, edges, say)
        try:
            if args.sqlite_only:
                raise PostgresUnavailable("--sqlite-only")
            figures["postgresql"] = run_backend("postgresql", lambda label: postgres_server(), args, folder,
                                                edges, say)
        except PostgresUnavailable as why:
            figures["postgresql"] = {"skipped": str(why)}
            say("  postgresql skipped:", why)
    figures["load_average_at_end"] = [round(n, 2) for n in os.getloadavg()]
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
