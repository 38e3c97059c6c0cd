"""``pit-monitor record`` against the real daemon, killed with SIGKILL and restarted; then the report.

Two hands whose results are known are played through the daemon with
simulated boards, with a burst of bet changes and a counterfeit chip between
them. The recorder is killed in the middle of the burst and started again
after the second hand: the store must then hold every event the table
published, each once and byte for byte, in SQLite and in a real PostgreSQL
server; and ``pit-monitor report`` must give the figures of those hands.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.podium.monitor.reports.table import parse_ts
from controller.podium.monitor.stores.events import Store, open_store
from tests.monitor.conftest import Monitor, sources_of
from tests.rigs.daemon_rig import TableRig, chip

SHOE = ["5h", "4c", "9d", "3s", "6d", "Ks", "2d", "3c", "4c", "2c", "7s"]


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "pit.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableRig]:
    (tmp_path / "table").mkdir()
    rig = TableRig(tmp_path / "table", payout_check=False)    # its hands pay and collect no chips
    try:
        rig.start()
        yield rig
    finally:
        rig.close()


def wait_rows(store: Store, count: int, recorder: Monitor) -> None:
    """Until the store holds ``count`` events (the recorder writes from another process)."""
    deadline = time.monotonic() + 20
    while store.count() < count:
        if time.monotonic() > deadline or recorder.proc.poll() is not None:
            raise AssertionError(f"{store.count()} of {count} events stored; log:\n{recorder.log_text()}")
        time.sleep(0.05)


def play_first_hand(rig: TableRig) -> None:
    """Seat 1 loses $10, seat 3 wins $25 on main and loses $5 on the side wager."""
    rig.load(SHOE)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.bet(3, "side", chip("a", 3))
    rig.next("bet.placed", seat=3, spot="side")
    assert rig.pit.press("deal")["ok"]
    for _ in range(4):                                     # 5h 4c 9d(hole) 3s
        rig.draw()
    rig.pit.press("stand")
    rig.draw()                                             # 6d to seat 3
    rig.pit.press("stand")
    settled = rig.next("hand.settled")
    assert [r["payout"] for r in settled["data"]["results"]] == [-1000, 2500, -500]
    for seat, spot in ((1, "main"), (3, "main"), (3, "side")):
        rig.bet(seat, spot)
    assert rig.pit.press("next")["ok"]
    rig.next("hand.ended")


def play_second_hand(rig: TableRig) -> None:
    """Seat 2 wins $5 on main and loses $5 on the side wager."""
    rig.bet(2, "main", chip("a", 4))
    rig.bet(2, "side", chip("a", 5))
    rig.next("bet.placed", seat=2, spot="side")
    assert rig.pit.press("deal")["ok"]
    rig.draw()                                             # Ks
    rig.draw()                                             # 2d (hole)
    rig.pit.press("stand")
    rig.draw()                                             # 3c
    rig.draw()                                             # 4c: the dealer stands on 9
    settled = rig.next("hand.settled")
    assert [r["payout"] for r in settled["data"]["results"]] == [500, -500]


def test_a_recorder_killed_and_restarted_loses_nothing_and_duplicates_nothing(
        table: TableRig, target: str, tmp_path: Path) -> None:
    rig = table
    store = open_store(target)
    recorder = Monitor("record", sources_of(rig), f"--db={target}", log=tmp_path / "recorder.log")
    try:
        play_first_hand(rig)
        rig.pit.drain()
        wait_rows(store, rig.pit.last_seq, recorder)
        for n in range(40):                                # a burst of bet changes ...
            if n % 2 == 0:
                rig.bet(4, "main", chip("a", 10))
            else:
                rig.bet(4, "main")
            if n == 15:
                recorder.kill()                            # ... and the recorder dies in the middle
        rig.bet(5, "main", ["ffffffffffffffff", 500])      # a counterfeit chip
        rig.next("alert", code="counterfeit_chip")
        rig.bet(5, "main")
        play_second_hand(rig)
        rig.pit.drain()
        last = rig.pit.last_seq
        recorder.stop()
        recorder = Monitor("record", sources_of(rig), f"--db={target}", log=tmp_path / "recorder.log")
        wait_rows(store, last, recorder)
        assert recorder.stop() == 0                        # SIGTERM: stops cleanly
        rows = list(store.rows())
    finally:
        recorder.stop()
        store.close()
    assert [r.seq for r in rows] == list(range(1, last + 1))          # each once, in order
    assert [(r.topic.encode(), r.body.encode()) for r in rows] == rig.pit.raw[:last]  # byte for byte
    epochs = {str(json.loads(body)["epoch"]) for _, body in rig.pit.raw[:last]}
    assert {r.table for r in rows} == {"T07"} and {r.epoch for r in rows} == epochs   # the table's epoch
    assert len(epochs) == 1 and epochs != {""}

    report = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report",
                             f"--db={target}", "--format=json"], capture_output=True, text=True, timeout=60)
    assert report.returncode == 0, report.stderr
    figures = json.loads(report.stdout)["tables"][0]
    closed = {r.hand: r.ts for r in rows if r.type == "bets.closed"}
    settled = {r.hand: r.ts for r in rows if r.type == "hand.settled"}
    hours = {h: (parse_ts(settled[h]) - parse_ts(closed[h])).total_seconds() / 3600 for h in settled}
    assert (figures["table"], figures["hands"], figures["wagered"], figures["net"]) == ("T07", 2, 5000, 1000)
    assert figures["hold_percent"] == -20.0 and figures["alerts"] == {"counterfeit_chip": 1}
    seats = {s["seat"]: s for s in figures["seats"]}
    assert {n: (s["hands"], s["wagered"], s["average_bet"], s["net"], s["hold_percent"])
            for n, s in seats.items()} == {1: (1, 1000, 1000, -1000, 100.0), 2: (1, 1000, 1000, 0, 0.0),
                                           3: (1, 3000, 3000, 2000, -66.67)}
    assert seats[1]["hands_per_hour"] == round(1 / hours[1], 1)
    assert seats[2]["hands_per_hour"] == round(1 / hours[2], 1)
    span = (parse_ts(settled[2]) - parse_ts(closed[1])).total_seconds() / 3600
    assert figures["hands_per_hour"] == round(2 / span, 1)

    text = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report", f"--db={target}"],
                          capture_output=True, text=True, timeout=60).stdout
    assert "Table T07: 2 hands, wagered $50.00, player net $10.00, hold -20.0 %" in text
    assert "alerts: counterfeit_chip 1" in text
    table_csv = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report",
                                f"--db={target}", "--format=csv", "--from=2000-01-01", "--to=2000-01-02"],
                               capture_output=True, text=True, timeout=60).stdout
    assert list(csv.reader(io.StringIO(table_csv)))[1:] == []  # nothing in that period
