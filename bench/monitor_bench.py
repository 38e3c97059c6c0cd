"""The pit monitor's figures: events per second the recorder stores, and tables one monitor follows.

Simulated tables (``controller/devkit/pit_table.py``: the real PitServer on
127.0.0.1, events of plausible hands from ``controller/devkit/floor_sim.py``)
run in publisher processes of their own (``--publishers``, 2 by default: one
Python process cannot publish 2,000 tables' events and pictures);
``pit-monitor`` runs as it is deployed, as a subprocess; this process only
measures.

* **Recorder**: ``pit-monitor record`` follows the tables; once it has
  stored one event of each, every table publishes a burst of events as fast
  as it can. The figure is the events stored per second from the start of the
  burst to the last event stored (counted in the database), for SQLite and
  for PostgreSQL (a server started here, ``controller/devkit/postgres.py``).
* **Monitor**: ``pit-monitor serve`` follows N tables, each dealing ``--rate``
  events per second and publishing its picture (``table.view``) after each;
  a page's event stream (``/api/stream``, read here as the browser's
  EventSource reads it) receives the tiles of the tables that changed; the
  lag of an update is the time it arrives minus the ``ts`` of the newest
  event it shows (one clock: the same machine). N doubles until the 99th
  percentile of the lag passes one second. Also: how long after the dealing
  stopped the page showed every table's last event (``caught_up_s``), the
  monitor's CPU time per 1,000 events (with their pictures and the page's
  updates: a figure the load of other processes on the machine hardly moves),
  and the snapshots the tables served (none is asked for after the start).

    .venv/bin/python bench/monitor_bench.py        # --events 25000 --rate 5 --seconds 10
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import gc
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import zmq  # noqa: E402
import zmq.asyncio  # noqa: E402

from controller.devkit.floor_sim import Dealer, Step, game_view  # noqa: E402
from controller.devkit.pit_table import EnvelopeTable  # noqa: E402
from controller.devkit.postgres import PostgresUnavailable, postgres_server  # noqa: E402
from controller.events.envelope import encode_event, now_timestamp, utc_timestamp  # noqa: E402
from controller.podium.monitor.reports.table import parse_ts  # noqa: E402
from controller.podium.monitor.stores.events import Row, open_store  # noqa: E402
from controller.podium.monitor.stores.recorder import BATCH  # noqa: E402

# -- the publisher process ----------------------------------------------------------------


async def publisher(first: int, count: int, banked: bool = False, close_every: int = 0) -> None:
    """Tables ``first`` to ``first + count - 1`` on stdin's orders: ``{"prepare": n}`` then ``{"burst": 1}``
    (n events per table, encoded first), ``{"deal": rate, "seconds": s}``, ``{"history": n, "store":
    target, "since": t}`` (:func:`store_history`), ``{"quit": 1}``. ``banked``: every fourth table
    (the second, sixth, ...) is banked by a player, as on the simulated floor; ``close_every``: each
    table is closed by the pit and opened again after every that many hands."""
    context = zmq.asyncio.Context()
    context.set(zmq.MAX_SOCKETS, 4 * count + 64)
    simulated = [Dealer(random.Random(n), banker=banked and n % 4 == 1) for n in range(first, first + count)]
    tables = [EnvelopeTable(f"B{n:04d}", context=context, game=dealer.game, game_view=game_view)
              for n, dealer in zip(range(first, first + count), simulated, strict=True)]
    for table in tables:
        await table.start()
    print(json.dumps({"tables": [[t.table_id, t.publish_endpoint, t.sync_endpoint] for t in tables]}),
          flush=True)
    dealers = [closing(dealer.events(), close_every) if close_every else dealer.events()
               for dealer in simulated]
    ready: list[tuple[Any, bytes, bytes]] = []
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        order = json.loads(line)
        if "quit" in order:
            break
        if "prepare" in order:
            ready = prepare(tables, dealers, order["prepare"])
            print(json.dumps({"done": 0}), flush=True)
            continue
        if "history" in order:
            took = time.monotonic()
            store_history(tables, dealers, order["history"], order["store"], order["since"])
            print(json.dumps({"done": time.monotonic() - took}), flush=True)
            continue
        started = time.monotonic()
        served = sum(table.snapshots for table in tables)
        if "burst" in order:
            await burst(ready)
        else:
            await deal(tables, dealers, order["deal"], order["seconds"], order["start"])
        print(json.dumps({"done": time.monotonic() - started,
                          "snapshots": sum(table.snapshots for table in tables) - served,
                          "seqs": {table.table_id: len(table.history) for table in tables}}), flush=True)
    for table in tables:
        await table.close()
    context.destroy(linger=0)


def closing(events: Iterator[Step], every: int) -> Iterator[Step]:
    """A table's events with the pit closing the table and opening it again after every ``every``
    hands (``table.closed``, ``table.reopened``: the ratings open there end)."""
    hands = 0
    for step in events:
        yield step
        if step[0] == "hand.ended":
            hands += 1
            if hands % every == 0:
                yield "table.closed", None, {"supervisor": "S-7"}
                yield "table.reopened", None, {"supervisor": "S-7"}


def store_history(tables: list[EnvelopeTable], dealers: list[Any], count: int, target: str,
                  since: float) -> None:
    """``count`` events per table dealt before now, from ``since`` (a ``time.time()``) on, evenly
    spread: into each table's history and its state (not published: no one follows yet), and into
    the store at ``target`` as the recorder would have stored them (the shift so far: every table's
    events in the order of their ``ts``, in batches of the recorder's size)."""
    spacing = (time.time() - since) / max(count, 1)
    store = open_store(target)
    rows: list[Row] = []
    try:
        for k in range(count):
            for n, (table, dealer) in enumerate(zip(tables, dealers, strict=True)):
                kind, hand, data = next(dealer)
                seq = len(table.history) + 1
                when = since + (k + n / len(tables)) * spacing
                ts = utc_timestamp(datetime.datetime.fromtimestamp(when, datetime.UTC))
                topic, body = encode_event(table.table_id, seq, ts, kind, hand, data)
                table.history.append((topic, body))
                table.follow(seq, kind, hand, data)   # the table's own state moves on (its snapshot)
                rows.append(Row(table.table_id, "", seq, ts, kind, hand, topic.decode(), body.decode()))
                if len(rows) == BATCH:
                    store.add(rows)
                    rows = []
        if rows:
            store.add(rows)
    finally:
        store.close()


def prepare(tables: list[EnvelopeTable], dealers: list[Any], count: int) -> list[tuple[Any, bytes, bytes]]:
    """``count`` events per table, encoded, the tables taking turns (published later by :func:`burst`)."""
    ready = []
    for table, dealer in zip(tables, dealers, strict=True):
        for n in range(count):
            kind, hand, data = next(dealer)
            seq = len(table.history) + n + 1
            ready.append((seq, table, *encode_event(table.table_id, seq, now_timestamp(), kind, hand, data)))
    ready.sort(key=lambda item: item[0])
    return [(table, topic, body) for _, table, topic, body in ready]


async def burst(ready: list[tuple[Any, bytes, bytes]]) -> None:
    """Publish prepared events as fast as PUB takes them."""
    for n, (table, topic, body) in enumerate(ready):
        table.history.append((topic, body))
        table.server.publish(topic, body)
        if n % 1000 == 999:
            await asyncio.sleep(0)                              # let the sync sockets answer


async def deal(tables: list[EnvelopeTable], dealers: list[Any], rate: float, seconds: float,
               start: float) -> None:
    """Every table publishes ``rate`` events per second (each with the table's picture after it) for
    ``seconds`` from ``start`` (a ``time.time()``), the tables spread evenly. Every message is encoded
    first, its ``ts`` the moment it is due, so that what is measured is the monitor, not the
    simulated tables (encoding a picture costs them more than the monitor spends on it)."""
    planned = []
    for n, (table, dealer) in enumerate(zip(tables, dealers, strict=True)):
        for k in range(int(rate * seconds)):
            when = start + (k + n / len(tables)) / rate
            ts = utc_timestamp(datetime.datetime.fromtimestamp(when, datetime.UTC))
            kind, hand, data = next(dealer)
            planned.append((when, n, *table.prepare(kind, hand, data, ts)))
    planned.sort(key=lambda item: item[:2])
    gc.freeze()     # the history and the plan (millions of objects) out of the collector's way while dealing
    for when, n, event, picture in planned:
        if when > time.time():
            await asyncio.sleep(when - time.time())
        tables[n].send(event, picture)


# -- measuring ------------------------------------------------------------------------------


class Publisher:
    """The publisher processes: the tables shared out between them."""

    def __init__(self, count: int, processes: int = 1, options: Sequence[str] = ()) -> None:
        """``options``: the publisher processes' (``--banked``, ``--close-every N``)."""
        shares = [count // processes + (n < count % processes) for n in range(processes)]
        starts = [sum(shares[:n]) for n in range(processes)]
        self.procs = [subprocess.Popen([sys.executable, __file__, "--publisher", f"{start},{share}",
                                        *options],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
                      for start, share in zip(starts, shares, strict=True) if share]
        self.tables: list[list[str]] = []
        for proc in self.procs:
            assert proc.stdout is not None
            self.tables += json.loads(proc.stdout.readline())["tables"]
        self.snapshots = 0
        """Snapshots the tables served during the last order."""
        self.seqs: dict[str, int] = {}
        """Each table's last seq after the last order."""

    def order(self, **order: Any) -> None:
        for proc in self.procs:
            assert proc.stdin is not None
            proc.stdin.write(json.dumps(order) + "\n")
            proc.stdin.flush()

    def done(self) -> float:
        took, self.snapshots = 0.0, 0
        for proc in self.procs:
            assert proc.stdout is not None
            answer = json.loads(proc.stdout.readline())
            self.snapshots += answer.get("snapshots", 0)
            self.seqs.update(answer.get("seqs", {}))
            took = max(took, answer["done"])
        return took

    def cpu_seconds(self) -> float:
        return sum(cpu_seconds(proc.pid) for proc in self.procs)

    def close(self) -> None:
        self.order(quit=1)
        for proc in self.procs:
            proc.wait(60)

    def tables_file(self, folder: Path, head: str = "", pits: int = 0) -> Path:
        """The floor file: ``head`` (e.g. ``[shifts]``), then the tables, in pits of ``pits`` (0: none)."""
        path = folder / "tables.toml"
        entries = []
        for n, (name, pub, sync) in enumerate(self.tables):
            pit = f'pit = "Pit {n // pits + 1}"\n' if pits else ""
            entries.append(f'[tables.{name}]\npublish = "{pub}"\nsync = "{sync}"\n{pit}')
        path.write_text(head + "".join(entries))
        return path


def monitor(command: str, tables: Path, *options: str, log: Path,
            profile: Path | None = None) -> subprocess.Popen[str]:
    """``pit-monitor command`` as a subprocess (``profile``: under :func:`profiled_monitor`)."""
    how = [__file__, PROFILED, str(profile)] if profile else ["-m", "controller.podium.monitor.cli"]
    with open(log, "a") as err:
        proc = subprocess.Popen([sys.executable, *how, command, f"--tables={tables}", *options],
                                stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT)
    return proc


PROFILED = "--profiled-monitor"


def profiled_monitor(out: str, argv: list[str]) -> int:
    """``pit-monitor`` profiled by cProfile from SIGUSR1 to SIGUSR2 (the span measured: not the
    start), which writes the figures to ``out``."""
    import cProfile
    import signal

    from controller.podium.monitor.cli import main as pit_monitor

    profiler = cProfile.Profile()

    def done(*_: Any) -> None:
        profiler.disable()
        profiler.dump_stats(out)

    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGUSR2, done)
    return pit_monitor(argv)


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_count(target: str, count: int, limit: float = 300) -> float:
    """Seconds until the store holds ``count`` events (polled every 20 ms)."""
    store = open_store(target)
    start = time.monotonic()
    try:
        while store.count() < count:
            if time.monotonic() - start > limit:
                raise RuntimeError(f"only {store.count()} of {count} events stored after {limit} s")
            time.sleep(0.02)
        return time.monotonic() - start
    finally:
        store.close()


def recorder_rate(target: str, tables: int, events: int, folder: Path, options: Sequence[str] = (),
                  during: Callable[[], AbstractContextManager[Any]] = nullcontext) -> dict[str, Any]:
    """Events per second ``pit-monitor record`` stores from a burst of ``events`` per table
    (``options``: the publishers'; ``during``: what else goes on while the burst is stored)."""
    publisher = Publisher(tables, options=options)
    recorder = monitor("record", publisher.tables_file(folder), f"--db={target}", log=folder / "record.log")
    try:
        publisher.order(prepare=1)
        publisher.done()
        publisher.order(burst=1)
        publisher.done()
        wait_count(target, tables, 60)
        publisher.order(prepare=events)
        publisher.done()
        with during():
            publisher.order(burst=1)
            seconds = wait_count(target, tables * (events + 1))
            published = publisher.done()
    finally:
        stop(recorder)
        publisher.close()
    return {"events": tables * events, "seconds": round(seconds, 2),
            "events_per_s": round(tables * events / seconds), "publish_seconds": round(published, 2)}


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def read_stream(url: str, tables: int, lags: list[float], live: asyncio.Event,
                      measuring: asyncio.Event, shown: dict[str, int]) -> None:
    """A page's event stream: note each tile's lag while ``measuring``; ``live`` once every tile is live."""
    import aiohttp

    states: dict[str, str] = {}
    async with aiohttp.ClientSession() as session, session.get(url + "api/stream", timeout=None) as reply:
        buffer = b""
        async for chunk in reply.content.iter_any():    # a whole floor can be one long line
            buffer += chunk
            *messages, buffer = buffer.split(b"\n\n")
            for message in messages:
                event, data = "", None
                for line in message.decode().split("\n"):
                    if line.startswith("event: "):
                        event = line[7:]
                    elif line.startswith("data: "):
                        data = json.loads(line[6:])
                if data is None:
                    continue
                now = time.time()
                tiles = data["tables"] if event in ("floor", "tiles") else []
                for tile in tiles:
                    states[tile["table"]] = tile["link"]["state"]
                    shown[tile["table"]] = tile["seq"]
                    if measuring.is_set() and event == "tiles" and tile["ts"]:
                        lags.append(now - parse_ts(tile["ts"]).timestamp())
                if len(states) == tables and all(s == "live" for s in states.values()):
                    live.set()


async def read_details(url: str, table: str, lags: list[float], measuring: asyncio.Event,
                       seen: dict[str, Any]) -> None:
    """A table's page's event stream: note the lag of each ``detail`` while ``measuring`` (the floor's
    tiles, which the page gets too, are read but not decoded), and in ``seen`` the last detail's
    ratings open (``rated``), the hands they counted (``hands``) and the shift's (``shift_hands``)."""
    import aiohttp

    async with aiohttp.ClientSession() as session, \
            session.get(url + f"api/stream?table={table}", timeout=None) as reply:
        buffer = b""
        async for chunk in reply.content.iter_any():
            buffer += chunk
            *messages, buffer = buffer.split(b"\n\n")
            for message in messages:
                if not message.startswith(b"event: detail\n"):
                    continue
                now = time.time()
                detail = json.loads(message.split(b"\ndata: ", 1)[1])
                if measuring.is_set() and detail["ts"]:
                    lags.append(now - parse_ts(detail["ts"]).timestamp())
                seen.update(rated=detail.get("rated"),
                            hands=sum(r["figures"]["hands"] for r in detail.get("ratings") or []),
                            shift_hands=(detail.get("shift") or {}).get("hands"))


PROTECTION_PACE = 2.0
"""Seconds the game protection page waits after a change of the floor before it asks again
(``static/protection.js``)."""

PROTECTION_PAGE = "api/protection?limit=100&offset=0&sort=flagged&reverse=0&filter="
"""What the game protection page asks for, as ``static/protection.js`` asks at first: the first hundred
players and seats, the most suspicious first."""


async def read_protection(url: str, times: list[float], measuring: asyncio.Event,
                          seen: dict[str, Any]) -> None:
    """The game protection page as ``static/protection.js`` reads it: the floor's event stream, and
    :data:`PROTECTION_PACE` seconds after a change :data:`PROTECTION_PAGE` (without waiting for the one
    before); the time each answer took that came while ``measuring`` into ``times``, and in ``seen``
    what the last one showed (``bytes``; ``subjects``: the players and seats listed, ``flagged``,
    ``counted``: the tables of the page with a count)."""
    import aiohttp

    changed = asyncio.Event()
    asked: set[asyncio.Task[None]] = set()

    async def ask(session: aiohttp.ClientSession) -> None:
        began = time.monotonic()
        async with session.get(url + PROTECTION_PAGE) as answer:
            body = await answer.read()
        found = json.loads(body)
        if measuring.is_set():
            times.append(time.monotonic() - began)
        seen.update(bytes=len(body), subjects=found["listed"], flagged=found["flagged"],
                    counted=sum(c is not None for c in found["counts"].values()))

    async def asking(session: aiohttp.ClientSession) -> None:
        while True:
            await changed.wait()
            await asyncio.sleep(PROTECTION_PACE)
            changed.clear()
            task = asyncio.create_task(ask(session))
            asked.add(task)
            task.add_done_callback(asked.discard)

    async with aiohttp.ClientSession() as session, session.get(url + "api/stream", timeout=None) as reply:
        await ask(session)
        pacing = asyncio.create_task(asking(session))
        try:
            buffer = b""
            async for chunk in reply.content.iter_any():
                buffer += chunk
                *messages, buffer = buffer.split(b"\n\n")
                if any(m.startswith(b"event: tiles\n") for m in messages):
                    changed.set()
        finally:
            for task in (pacing, *asked):
                task.cancel()


def percentiles(name: str, lags: list[float]) -> dict[str, Any]:
    """``{name}_p50_ms``, ``_p99_ms``, ``_max_ms`` of ``lags`` (seconds; sorted here)."""
    lags.sort()
    return {f"{name}_p50_ms": round(lags[len(lags) // 2] * 1000, 1),
            f"{name}_p99_ms": round(lags[int(len(lags) * 0.99)] * 1000, 1),
            f"{name}_max_ms": round(lags[-1] * 1000, 1)}


async def monitor_lag(tables: int, rate: float, seconds: float, folder: Path, processes: int, *,
                      publisher: Publisher | None = None, floor: Path | None = None,
                      serve: Sequence[str] = (), detail: str | None = None,
                      seen: dict[str, Any] | None = None, profile: Path | None = None,
                      protection_pages: int = 0) -> dict[str, Any]:
    """Lag of the tile updates of one page over ``tables`` tables dealing ``rate`` events/s each.
    ``publisher``: tables started already (else started here); ``floor``: their floor file (else
    written here); ``serve``: more options of ``pit-monitor serve``; ``detail``: a table whose page
    is read as well (the lag of its details; what it showed last into ``seen``); ``profile``: the
    monitor runs under cProfile, which writes its figures there; ``protection_pages``: game
    protection pages open besides (:func:`read_protection`; what the last showed into ``seen``)."""
    publisher = publisher or Publisher(tables, processes)
    launched = time.monotonic()
    server = monitor("serve", floor or publisher.tables_file(folder), "--port=0", f"--acks={folder / 'acks'}",
                     *serve, log=folder / "serve.log", profile=profile)
    lags: list[float] = []
    detail_lags: list[float] = []
    protection_times: list[float] = []
    live, measuring = asyncio.Event(), asyncio.Event()
    try:
        assert server.stdout is not None
        line = await asyncio.to_thread(server.stdout.readline)
        if "serving " not in line:
            raise RuntimeError(f"pit-monitor serve did not start (see {folder / 'serve.log'})")
        url = line.split("serving ", 1)[1].split(" ", 1)[0]
        serving = time.monotonic() - launched
        shown: dict[str, int] = {}
        reading = [asyncio.create_task(read_stream(url, tables, lags, live, measuring, shown))]
        if detail is not None:
            reading.append(asyncio.create_task(read_details(url, detail, detail_lags, measuring,
                                                                seen if seen is not None else {})))
        protected: dict[str, Any] = {}
        reading += [asyncio.create_task(read_protection(url, protection_times, measuring, protected))
                    for _ in range(protection_pages)]
        await asyncio.wait_for(live.wait(), 300)
        all_live = time.monotonic() - launched
        before = dict(shown)
        start = time.time() + 5 + tables * rate * seconds * 400e-6 / len(publisher.procs)
        publisher.order(deal=rate, seconds=seconds, start=start)   # encoded first, then dealt from start
        await asyncio.sleep(start - time.time())
        cpu = cpu_seconds(server.pid)
        publishing, reading_cpu = publisher.cpu_seconds(), time.process_time()
        measuring.set()
        if profile:
            server.send_signal(signal.SIGUSR1)
        started = time.monotonic()
        await asyncio.to_thread(publisher.done)
        snapshots = publisher.snapshots
        dealt = time.monotonic()
        while any(shown.get(name, 0) < seq for name, seq in publisher.seqs.items()):
            if time.monotonic() - dealt > 120:       # the page never showed every table's last event
                break
            await asyncio.sleep(0.05)
        caught_up = time.monotonic() - dealt
        events = sum(publisher.seqs.values()) - sum(before.values())
        await asyncio.sleep(max(0.0, seconds + 1.5 - (time.monotonic() - started)))
        cpu = cpu_seconds(server.pid) - cpu
        if profile:
            server.send_signal(signal.SIGUSR2)
        publishing = publisher.cpu_seconds() - publishing
        reading_cpu = time.process_time() - reading_cpu
        memory = rss_mib(server.pid)
        for task in reading:
            task.cancel()
    finally:
        stop(server)
        publisher.close()
    if not lags:
        raise RuntimeError("no tile update arrived")
    figures = {"tables": tables, "events_per_s": round(tables * rate), "updates": len(lags),
               "snapshots_per_s": round(snapshots / seconds), **percentiles("lag", lags),
               "caught_up_s": round(caught_up, 2),
               "monitor_cpu_ms_per_1000_events": round(1e6 * cpu / events, 1),
               "monitor_cpu_percent": round(100 * cpu / (seconds + 1.5)), "monitor_rss_mib": memory,
               "publisher_cpu_percent": round(100 * publishing / (seconds + 1.5)),
               "page_reader_cpu_percent": round(100 * reading_cpu / (seconds + 1.5)),
               "serving_s": round(serving, 2), "all_live_s": round(all_live, 2)}
    if detail is not None:
        if not detail_lags:
            raise RuntimeError(f"no detail of {detail} arrived")
        figures.update(detail_updates=len(detail_lags), **percentiles("detail_lag", detail_lags))
    if protection_pages:         # none came while the floor dealt: the page waited all that time
        figures.update(protection_answers=len(protection_times),
                       **(percentiles("protection_answer", protection_times) if protection_times else {}),
                       **{f"protection_{key}": value for key, value in protected.items()})
    return figures


def record(args: argparse.Namespace, folder: Path, figures: dict[str, Any], say: Any) -> None:
    """The recorder's figures, into ``figures["recorder"]``."""
    say(f"recorder: {args.record_tables} tables, a burst of {args.events} events each")
    figures["recorder"]["sqlite"] = recorder_rate(str(folder / "bench.sqlite"), args.record_tables,
                                                  args.events, folder)
    say("  sqlite    ", figures["recorder"]["sqlite"])
    try:
        if args.sqlite_only:
            raise PostgresUnavailable("--sqlite-only")
        with postgres_server() as url:
            figures["recorder"]["postgresql"] = recorder_rate(url, args.record_tables, args.events,
                                                              folder)
            say("  postgresql", figures["recorder"]["postgresql"])
    except PostgresUnavailable as why:
        figures["recorder"]["postgresql"] = {"skipped": str(why)}
        say("  postgresql skipped:", why)


def main() -> None:
    if sys.argv[1:2] == [PROFILED]:
        raise SystemExit(profiled_monitor(sys.argv[2], sys.argv[3:]))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--publisher", help=argparse.SUPPRESS)
    parser.add_argument("--banked", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--close-every", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--events", type=int, default=25_000, help="burst per table for the recorder")
    parser.add_argument("--record-tables", type=int, default=4, help="0: the monitor only")
    parser.add_argument("--rate", type=float, default=5.0, help="events per second per table (monitor)")
    parser.add_argument("--seconds", type=float, default=10.0, help="dealing time per step (monitor)")
    parser.add_argument("--tables", type=int, nargs="*", default=[10, 20, 40, 80, 160, 320],
                        help="table counts to try (none: the recorder only)")
    parser.add_argument("--publishers", type=int, default=2,
                        help="processes the simulated tables are shared out between (monitor)")
    parser.add_argument("--sqlite-only", action="store_true", help="leave PostgreSQL out")
    parser.add_argument("--json", action="store_true", help="one JSON object, nothing else")
    args = parser.parse_args()
    if args.publisher:
        first, count = (int(n) for n in args.publisher.split(","))
        asyncio.run(publisher(first, count, args.banked, args.close_every))
        return
    say = (lambda *a: None) if args.json else print
    figures: dict[str, Any] = {"recorder": {}, "monitor": []}
    with tempfile.TemporaryDirectory(prefix="monitor-bench-") as name:
        folder = Path(name)
        if args.record_tables:
            record(args, folder, figures, say)
        say(f"monitor: tables dealing {args.rate:g} events/s each, one page, {args.seconds:g} s per step")
        for count in args.tables:
            step_figures = asyncio.run(monitor_lag(count, args.rate, args.seconds, folder,
                                                      args.publishers))
            figures["monitor"].append(step_figures)
            say("  ", step_figures)
            if step_figures["lag_p99_ms"] > 1000:
                break
    print(json.dumps(figures) if args.json else json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
