"""``pit-monitor report --by dealer`` and the counts of ``--by table``, from crafted events with
hand-worked figures, stored in a real SQLite file and read by the real command.

Table T01: D1 signs in at 20:00 and signs the opener ($1,000.00); three hands end and one is voided,
one payout_mismatch; D2 signs in at 20:45 (D1 signed out by the rotation), one hand ends; a fill of
$200.00 and a credit of $50.00; D2 signs the closer ($1,100.00) at 21:15, D2 signs out at 21:15; the
drop is $500.00. Win = 110000 - 100000 + 5000 - 20000 + 50000 = 45000; hold = 45000 / 50000 = 90 %.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from controller.events.envelope import encode_event
from controller.podium.monitor.cli import main
from controller.podium.monitor.stores.events import Row, SqliteStore

DAY = "2026-11-21"


def floor_events() -> list[Row]:
    rows: list[Row] = []

    def add(clock: str, kind: str, hand: int | None, data: dict[str, object]) -> None:
        seq = len(rows) + 1
        ts = f"{DAY}T{clock}.000Z"
        topic, body = encode_event("T01", seq, ts, kind, hand, data)
        rows.append(Row("T01", "", seq, ts, kind, hand, topic.decode(), body.decode()))

    add("20:00:00", "dealer.in", None, {"dealer": "D1"})
    add("20:00:30", "table.opener", None, {"amount": 100000, "dealer": "D1"})
    add("20:01:00", "table.slip_signed", None, {"slip": "opener", "amount": 100000, "supervisor": "S101"})
    for number, clock in enumerate(("20:10:00", "20:20:00", "20:30:00"), 1):
        add(clock, "hand.ended", number, {"hand": number})
    add("20:35:00", "hand.voided", 4, {"reason": "voided by the dealer"})
    add("20:36:00", "alert", 5, {"code": "payout_mismatch", "severity": "warning", "message": "short",
                                 "seat": 1, "spot": "main", "expected": 2000, "read": 1500})
    add("20:45:00", "dealer.out", None, {"dealer": "D1", "reason": "rotation"})
    add("20:45:00", "dealer.in", None, {"dealer": "D2"})
    add("20:50:00", "hand.ended", 5, {"hand": 5})
    add("20:55:00", "tray.fill", None, {"amount": 20000, "supervisor": "S101", "reading": 90000,
                                        "expected": 110000})
    add("21:00:00", "tray.credit", None, {"amount": 5000, "supervisor": "S101", "reading": 115000,
                                          "expected": 110000})
    add("21:15:00", "table.closer", None, {"amount": 110000, "dealer": "D2"})
    add("21:15:00", "dealer.out", None, {"dealer": "D2", "reason": "signed_out"})
    add("21:16:00", "table.slip_signed", None, {"slip": "closer", "amount": 110000, "supervisor": "S102"})
    add("21:20:00", "table.drop", None, {"amount": 50000, "supervisor": "S102"})
    return rows


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "pit.sqlite"
    store = SqliteStore(path)
    store.add(floor_events())
    store.close()
    return path


def test_the_report_by_dealer_in_every_format(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", f"--db={db}", "--by=dealer", "--format=json"]) == 0
    dealers = json.loads(capsys.readouterr().out)["dealers"]
    assert [(d["dealer"], d["table"], d["hands"], d["voids"], d["payout_mismatches"], d["seconds"],
             d["hands_per_hour"], d["signed_in"]) for d in dealers] == [
        ("D1", "T01", 3, 1, 1, 45 * 60, 4.0, False),        # 3 hands in 0.75 h
        ("D2", "T01", 1, 0, 0, 30 * 60, 2.0, False)]        # 1 hand in 0.5 h
    assert main(["report", f"--db={db}", "--by=dealer", "--format=csv"]) == 0
    table = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert table[0] == {"dealer": "D1", "table": "T01", "hands": "3", "voids": "1", "payout_mismatches": "1",
                        "seconds": "2700", "hands_per_hour": "4.0", "signed_in": "False",
                        "first": f"{DAY}T20:00:00.000Z", "last": f"{DAY}T20:45:00.000Z"}
    assert main(["report", f"--db={db}", "--by=dealer"]) == 0
    text = capsys.readouterr().out
    assert "  D1          T01             3      1           1        0:45:00      4.0" in text
    assert "  D2          T01             1      0           0        0:30:00      2.0" in text


def test_a_dealer_still_signed_in_is_counted_to_the_end_of_the_period(
        db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", f"--db={db}", "--by=dealer", "--format=json", "--to=2026-11-21T20:40"]) == 0
    [d1] = json.loads(capsys.readouterr().out)["dealers"]
    assert (d1["dealer"], d1["hands"], d1["seconds"], d1["signed_in"]) == ("D1", 3, 40 * 60, True)


def test_the_report_by_table_gives_each_count_s_win_and_hold(db: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", f"--db={db}", "--format=json"]) == 0
    [t01] = json.loads(capsys.readouterr().out)["tables"]
    [count] = t01["counts"]
    assert {key: count[key] for key in ("opener", "fills", "credits", "closer", "drop", "win", "hold_percent",
                                        "opener_signed_by", "closer_signed_by", "drop_by", "theo")} == {
        "opener": 100000, "fills": 20000, "credits": 5000, "closer": 110000, "drop": 50000, "win": 45000,
        "hold_percent": 90.0, "opener_signed_by": "S101", "closer_signed_by": "S102", "drop_by": "S102",
        "theo": None}
    assert main(["report", f"--db={db}", "--format=csv"]) == 0
    rows = [r for r in csv.DictReader(io.StringIO(capsys.readouterr().out)) if r["kind"] == "count"]
    assert [(r["table"], r["opener_cents"], r["fills_cents"], r["credits_cents"], r["closer_cents"],
             r["drop_cents"], r["win_cents"], r["count_hold_percent"]) for r in rows] == [
        ("T01", "100000", "20000", "5000", "110000", "50000", "45000", "90.0")]
    assert main(["report", f"--db={db}"]) == 0
    text = capsys.readouterr().out
    assert ("  count: opener $1,000.00 at 2026-11-21T20:00:30.000Z by D1 (signed S101); fills $200.00; "
            "credits $50.00; closer $1,100.00 at 2026-11-21T21:15:00.000Z by D2 (signed S102); "
            "drop $500.00; win $450.00, hold 90.0 %; theo unknown (no hand settled)") in text


def test_a_count_without_its_drop_has_no_win_yet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pit.sqlite"
    store = SqliteStore(path)
    store.add(floor_events()[:-1])
    store.close()
    assert main(["report", f"--db={path}", "--format=json"]) == 0
    [count] = json.loads(capsys.readouterr().out)["tables"][0]["counts"]
    assert (count["closer"], count["drop"], count["win"], count["hold_percent"]) == (110000, None, None, None)
