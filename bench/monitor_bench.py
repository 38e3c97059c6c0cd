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
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import zmq  # noqa: E402
import zmq.asyncio  # noqa: E402

from controller.devkit.floor_sim import Dealer, game_view  # noqa: E402
from controller.devkit.pit_table import EnvelopeTable  # noqa: E402
from controller.devkit.postgres import PostgresUnavailable, postgres_server  # noqa: E402
from controller.pit.events import encode_event, now_timestamp, utc_timestamp  # noqa: E402
from controller.pit.monitor.report import parse_ts  # noqa: E402
from controller.pit.monitor.store import open_store  # noqa: E402

# -- the publisher process ----------------------------------------------------------------


async def publisher(first: int, count: int) -> None:
    """Tables ``first`` to ``first + count - 1`` on stdin's orders: ``{"prepare": n}`` then ``{"burst": 1}``
    (n events per table, encoded first), ``{"deal": rate, "seconds": s}``, ``{"quit": 1}``."""
    context = zmq.asyncio.Context()
    context.set(zmq.MAX_SOCKETS, 4 * count + 64)
    tables = [EnvelopeTable(f"B{n:04d}", context=context, game_view=game_view)
              for n in range(first, first + count)]
    for table in tables:
        await table.start()
    print(json.dumps({"tables": [[t.table_id, t.publish_endpoint, t.sync_endpoint] for t in tables]}),
          flush=True)
    dealers = [Dealer(random.Random(n)).events() for n in range(first, first + count)]
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
    for when, n, event, picture in planned:
        if when > time.time():
            await asyncio.sleep(when - time.time())
        tables[n].send(event, picture)


# -- measuring ------------------------------------------------------------------------------


class Publisher:
    """The publisher processes: the tables shared out between them."""

    def __init__(self, count: int, processes: int = 1) -> None:
        shares = [count // processes + (n < count % processes) for n in range(processes)]
        starts = [sum(shares[:n]) for n in range(processes)]
        self.procs = [subprocess.Popen([sys.executable, __file__, "--publisher", f"{start},{share}"],
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

    def tables_file(self, folder: Path) -> Path:
        path = folder / "tables.toml"
        path.write_text("".join(f'[tables.{name}]\npublish = "{pub}"\nsync = "{sync}"\n'
                                for name, pub, sync in self.tables))
        return path


def monitor(command: str, tables: Path, *options: str, log: Path) -> subprocess.Popen[str]:
    with open(log, "a") as err:
        proc = subprocess.Popen([sys.executable, "-m", "controller.pit.monitor.cli", command,
                                 f"--tables={tables}", *options], stdout=subprocess.PIPE, stderr=err,
                                text=True, cwd=ROOT)
    return proc


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


def recorder_rate(target: str, tables: int, events: int, folder: Path) -> dict[str, Any]:
    """Events per second ``pit-monitor record`` stores from a burst of ``events`` per table."""
    publisher = Publisher(tables)
    recorder = monitor("record", publisher.tables_file(folder), f"--db={target}", log=folder / "record.log")
    try:
        publisher.order(prepare=1)
        publisher.done()
        publisher.order(burst=1)
        publisher.done()
        wait_count(target, tables, 60)
        publisher.order(prepare=events)
        publisher.done()
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


async def monitor_lag(tables: int, rate: float, seconds: float, folder: Path,
                      processes: int) -> dict[str, Any]:
    """Lag of the tile updates of one page over ``tables`` tables dealing ``rate`` events/s each."""
    publisher = Publisher(tables, processes)
    server = monitor("serve", publisher.tables_file(folder), "--port=0", f"--acks={folder / 'acks'}",
                     log=folder / "serve.log")
    lags: list[float] = []
    live, measuring = asyncio.Event(), asyncio.Event()
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split("serving ", 1)[1].split(" ", 1)[0]
        shown: dict[str, int] = {}
        reading = asyncio.create_task(read_stream(url, tables, lags, live, measuring, shown))
        await asyncio.wait_for(live.wait(), 300)
        before = dict(shown)
        start = time.time() + 5 + tables * rate * seconds * 400e-6 / len(publisher.procs)
        publisher.order(deal=rate, seconds=seconds, start=start)   # encoded first, then dealt from start
        await asyncio.sleep(start - time.time())
        cpu = cpu_seconds(server.pid)
        publishing, reading_cpu = publisher.cpu_seconds(), time.process_time()
        measuring.set()
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
        publishing = publisher.cpu_seconds() - publishing
        reading_cpu = time.process_time() - reading_cpu
        memory = rss_mib(server.pid)
        reading.cancel()
    finally:
        stop(server)
        publisher.close()
    lags.sort()
    if not lags:
        raise RuntimeError("no tile update arrived")
    return {"tables": tables, "events_per_s": round(tables * rate), "updates": len(lags),
            "snapshots_per_s": round(snapshots / seconds),
            "lag_p50_ms": round(lags[len(lags) // 2] * 1000, 1),
            "lag_p99_ms": round(lags[int(len(lags) * 0.99)] * 1000, 1),
            "lag_max_ms": round(lags[-1] * 1000, 1), "caught_up_s": round(caught_up, 2),
            "monitor_cpu_ms_per_1000_events": round(1e6 * cpu / events, 1),
            "monitor_cpu_percent": round(100 * cpu / (seconds + 1.5)), "monitor_rss_mib": memory,
            "publisher_cpu_percent": round(100 * publishing / (seconds + 1.5)),
            "page_reader_cpu_percent": round(100 * reading_cpu / (seconds + 1.5))}


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--publisher", help=argparse.SUPPRESS)
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
        asyncio.run(publisher(first, count))
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
