"""Game protection through the real daemon (Easy Jack), a real recorder and the monitor as served.

Two players at T07: seat 1 bets $5 every hand, seat 2 (rated as P-2002) counts Hi-Lo and bets one to
eight $5 chips as its count rises, both playing Easy Jack's best play. The shoe is stacked so that
the count swings. The monitor (``serve``, with the floor file's ``[protection]`` and the recorder's
database) raises ``advantage_play_suspected`` for P-2002 alone and lists it first; ``pit-monitor
report --by protection`` from the recorder's events flags the same player, and its plot of bets
against the count holds, hand by hand, the true count of an independent count of the same shoe.
"""

from __future__ import annotations

import datetime
import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.events.envelope import utc_timestamp
from controller.games.easy_jack.math import EasyJackSolver
from controller.games.easy_jack.rules import EasyJackRules
from controller.podium.monitor.stores.events import open_store
from tests.monitor.conftest import Monitor, sources_of
from tests.monitor.test_recorder import wait_rows
from tests.rigs.daemon_rig import TableRig, chip

HI_LO = {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "T": -1, "J": -1, "Q": -1, "K": -1, "A": -1}

LOW, HIGH, MIDDLE = "23456", "TJQKA", "789"


def stacked_shoe() -> list[str]:
    """120 cards: 40 mostly low (the count climbs), 40 mostly high (it falls), 40 mostly low."""
    def run(ranks: str, others: str, n: int, start: int) -> list[str]:
        return [(ranks if i % 5 else others)[(start + i) % len(ranks if i % 5 else others)] + "cdhs"[i % 4]
                for i in range(n)]
    return run(LOW, MIDDLE, 40, 0) + run(HIGH, MIDDLE, 40, 1) + run(LOW, MIDDLE, 40, 2)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableRig]:
    (tmp_path / "table").mkdir()
    rig = TableRig(tmp_path / "table", payout_check=False)
    try:
        rig.start()
        yield rig
    finally:
        rig.close()


class Counting:
    """The players' side: the cards seen, Hi-Lo counted from them, the bets placed."""

    def __init__(self, rig: TableRig) -> None:
        self.rig = rig
        self.running = 0
        self.drawn = 0
        self.solver = EasyJackSolver(EasyJackRules())
        self.chips: dict[int, int] = {}
        self.true_at_bets: list[float] = []

    def see(self, event: dict[str, Any]) -> None:
        data = event["data"]
        if event["type"] == "card.dealt":
            self.drawn = max(self.drawn, data["index"])
        if event["type"] in ("card.dealt", "card.revealed") and data.get("card"):
            self.running += HI_LO.get(data["card"][0], 0)

    @property
    def true(self) -> float:
        return self.running / max(0.25, (6 * 52 - self.drawn) / 52)

    def bet(self, seat: int, chips: int) -> None:
        if self.chips.get(seat) != chips:
            first = 1 if seat == 1 else 10
            self.rig.bet(seat, "main", *(chip("a", first + n) for n in range(chips)))
            self.rig.next("bet.placed", seat=seat, spot="main", amount=500 * chips)   # not the clearing
            self.chips[seat] = chips

    def hand(self) -> None:
        true = self.true
        self.true_at_bets.append(true)
        self.bet(1, 1)
        self.bet(2, 1 if true < 2 else 2 if true < 3 else 4 if true < 4 else 8)
        assert self.rig.pit.press("deal") == {"ok": True}
        self.rig.next("bets.closed")
        held: dict[int, list[int]] = {}
        while True:
            state = self.rig.pit.control({"cmd": "state"})["state"]
            if state["phase"] == "settled":
                break
            turn = next((s for s in state["seats"] if s["in_turn"]), None)
            if turn is not None and not self.solver.should_hit(held[turn["seat"]]):
                assert self.rig.pit.press("stand") == {"ok": True}
                self.see_until("player.action")
                continue
            self.rig.shoe.cmd("draw")
            dealt = self.see_until("card.dealt")
            if dealt["data"]["to"] == "seat" and dealt["data"]["card"]:
                held.setdefault(dealt["data"]["seat"], []).append(min(10, "A23456789TJQK".index(
                    dealt["data"]["card"][0]) + 1))
        assert self.rig.pit.press("next") == {"ok": True}
        self.see_until("hand.ended")

    def see_until(self, kind: str) -> dict[str, Any]:
        """Every event up to the next of ``kind`` seen (counted); that event."""
        while True:
            event = self.rig.next()
            if event["type"] == "alert":       # a board slow to answer on a busy machine is no matter here
                assert str(event["data"].get("code", "")).startswith("device_"), event["data"]
            self.see(event)
            if event["type"] == kind:
                return event


def get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def test_the_counter_is_flagged_live_and_in_the_report_and_the_count_is_an_independent_one(
        table: TableRig, tmp_path: Path) -> None:
    rig = table
    target = str(tmp_path / "pit.sqlite")
    floor = tmp_path / "floor.toml"
    floor.write_text("[protection]\nmin_hands = 12\nmin_ramp = 0\nconfidence = 0.99\n")
    store = open_store(target)
    store.open_rating("P-2002", "T07", 2, utc_timestamp(datetime.datetime.now(datetime.UTC)), "alice", None)
    recorder = Monitor("record", sources_of(rig), f"--db={target}", log=tmp_path / "record.log")
    monitor = Monitor("serve", sources_of(rig), "--port=0", f"--db={target}", f"--tables={floor}",
                      log=tmp_path / "serve.log")
    try:
        counting = Counting(rig)
        rig.load(stacked_shoe())
        for _ in range(16):
            counting.hand()
        rig.pit.drain()
        wait_rows(store, rig.pit.last_seq, recorder)
        deadline = time.monotonic() + 20
        while True:
            listed = get(monitor.url + "api/protection")
            if (listed["subjects"] and listed["subjects"][0]["flagged"]) or time.monotonic() > deadline:
                break
            time.sleep(0.1)
        tile = next(t for t in get(monitor.url + "api/floor")["tables"] if t["table"] == "T07")
        with urllib.request.urlopen(monitor.url + "protection", timeout=10) as page:
            assert b"protection.js" in page.read()
    finally:
        recorder.stop()
        monitor.stop()
        store.close()
    first = listed["subjects"][0]
    assert first["subject"] == "player:P-2002" and first["figures"]["reasons"] == ["bets"], listed
    assert [s["flagged"] for s in listed["subjects"][1:]] == [False]
    assert listed["counts"]["T07"]["system"] == "hi-lo"
    alerts = [a for a in tile["alerts"] if a["code"] == "advantage_play_suspected"]
    assert len(alerts) == 1 and alerts[0]["about"] == {"seat": 2, "player": "P-2002"}
    assert alerts[0]["severity"] == "warning" and "P-2002" in alerts[0]["message"]

    done = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report", f"--db={target}",
                           "--by=protection", f"--tables={floor}", "--format=json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    subjects = {s["subject"]: s for s in report["subjects"]}
    counter = subjects["player:P-2002"]
    assert counter["figures"]["reasons"] == ["bets"] and counter["ratings"] == [1]
    assert [a["player"] for a in report["alerts"]] == ["P-2002"]
    assert [point[0] for point in counter["figures"]["plot"]] == pytest.approx(
        [round(true, 2) for true in counting.true_at_bets], abs=0.006)
    assert [point[1] for point in counter["figures"]["plot"]] == [
        500 * (1 if t < 2 else 2 if t < 3 else 4 if t < 4 else 8) for t in counting.true_at_bets]
    flat = next(s for s in report["subjects"] if s["subject"].startswith("seat:T07:1:"))
    assert flat["figures"]["reasons"] == [] and flat["figures"]["spread"] == 1.0
    for form in ("text", "csv"):
        shown = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report",
                                f"--db={target}", "--by=protection", f"--tables={floor}", f"--format={form}"],
                               capture_output=True, text=True, timeout=60)
        assert shown.returncode == 0 and "P-2002" in shown.stdout, shown.stderr
