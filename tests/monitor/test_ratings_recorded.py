"""Rated play through the real daemon (Easy Jack) and two real recorders, one killed mid-rating.

Three ratings are opened in both stores before the first hand; two recorders follow the table, one
into SQLite that runs throughout, one (into PostgreSQL when a server is available, else another
SQLite file) that is SIGKILLed after the first hand and started again once the second hand is played
and the pit has closed the table. The ratings must then be closed in both stores by the table's
``table.closed`` (the killed recorder learns of it only on catching up), and ``pit-monitor report
--by player`` must give the same report from both: the figures of the known hands, theo the exact
edges times the wagers.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.events.envelope import utc_timestamp
from controller.podium.monitor.stores.events import open_store
from controller.podium.ratings.rating import TABLE_CLOSED
from controller.security.supervisor_pins import hash_pin
from tests.monitor.conftest import Monitor, sources_of
from tests.monitor.ratings_script import EASY_JACK, EJ_MAIN, EJ_SIDE
from tests.monitor.test_recorder import play_first_hand, play_second_hand, wait_rows
from tests.rigs.daemon_rig import TableRig

PIN = "60417293"


@pytest.fixture
def killed_target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The killed recorder's database: PostgreSQL if a server can run here, else SQLite."""
    try:
        url: str = request.getfixturevalue("pg_url")
    except pytest.skip.Exception:
        return str(tmp_path / "killed.sqlite")
    return url


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableRig]:
    (tmp_path / "table").mkdir()
    rig = TableRig(tmp_path / "table", payout_check=False, supervisors={"S101": hash_pin(PIN)})
    try:
        rig.start()
        yield rig
    finally:
        rig.close()


def report(target: str, form: str) -> str:
    done = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report", f"--db={target}",
                           "--by=player", f"--format={form}"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_recorder_killed_mid_rating_and_restarted_gives_the_same_report(
        table: TableRig, killed_target: str, tmp_path: Path) -> None:
    rig = table
    steady_target = str(tmp_path / "steady.sqlite")
    opened = utc_timestamp(datetime.datetime.now(datetime.UTC))
    for target in (steady_target, killed_target):
        store = open_store(target)
        for player, seat in (("P-1001", 3), ("P-2002", 2), ("P-1001", 1)):
            store.open_rating(player, "T07", seat, opened, "alice", EASY_JACK)
        store.close()
    steady = Monitor("record", sources_of(rig), f"--db={steady_target}", log=tmp_path / "steady.log")
    killed = Monitor("record", sources_of(rig), f"--db={killed_target}", log=tmp_path / "killed.log")
    store = open_store(killed_target)
    try:
        play_first_hand(rig)                      # seat 1 main -$10; seat 3 main +$25, side -$5
        rig.pit.drain()
        wait_rows(store, rig.pit.last_seq, killed)
        killed.kill()                             # mid-rating
        play_second_hand(rig)                     # seat 2 main +$5, side -$5
        for spot in ("main", "side"):
            rig.bet(2, spot)
        assert rig.pit.press("next")["ok"]
        rig.next("hand.ended")
        answer = rig.pit.control({"cmd": "close_table", "supervisor": "S101", "pin": PIN})
        assert answer == {"ok": True}, answer
        closing = rig.next("table.closed")
        rig.pit.drain()
        last = rig.pit.last_seq
        killed = Monitor("record", sources_of(rig), f"--db={killed_target}", log=tmp_path / "killed.log")
        wait_rows(store, last, killed)
        steady_store = open_store(steady_target)
        wait_rows(steady_store, last, steady)
        steady_store.close()
        assert killed.stop() == 0 and steady.stop() == 0
        ratings = store.ratings()
    finally:
        killed.stop()
        steady.stop()
        store.close()
    assert [(r.seat, r.closed, r.closed_by, r.reason) for r in ratings] == [
        (seat, closing["ts"], "S101", TABLE_CLOSED) for seat in (3, 2, 1)]

    reports = [report(target, "json") for target in (steady_target, killed_target)]
    assert reports[0] == reports[1]
    assert report(steady_target, "text") == report(killed_target, "text")
    assert report(steady_target, "csv") == report(killed_target, "csv")
    players: list[dict[str, Any]] = json.loads(reports[0])["players"]
    figures = {(p["player"], r["seat"]): r["figures"] for p in players for r in p["ratings"]}
    assert {key: (f["hands"], f["wagered"], f["actual"]) for key, f in figures.items()} == {
        ("P-1001", 3): (1, 3000, 2000), ("P-2002", 2): (1, 1000, 0), ("P-1001", 1): (1, 1000, -1000)}
    theo = {key: f["theo"]["cents"] for key, f in figures.items()}
    assert theo == {("P-1001", 3): round(2500 * EJ_MAIN + 500 * EJ_SIDE, 2),
                    ("P-2002", 2): round(500 * EJ_MAIN + 500 * EJ_SIDE, 2),
                    ("P-1001", 1): round(1000 * EJ_MAIN, 2)}
    total = next(p["total"] for p in players if p["player"] == "P-1001")
    assert (total["hands"], total["wagered"], total["actual"]) == (2, 4000, 1000)
    assert total["theo"]["cents"] == round(3500 * EJ_MAIN + 500 * EJ_SIDE, 2)
