"""The rating report from events whose results are known, stored in a real SQLite file.

The events are crafted with the real envelope encoder and known timestamps:
three hands twenty minutes apart, one voided hand, one hand the next day.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from controller.pit.events import encode_event
from controller.pit.monitor.cli import main
from controller.pit.monitor.report import as_csv, as_text, bound, rate
from controller.pit.monitor.store import Row, SqliteStore

DAY = "2026-11-21"


def row(table: str, seq: int, ts: str, type: str, hand: int | None, data: dict[str, object]) -> Row:
    topic, body = encode_event(table, seq, ts, type, hand, data)
    return Row(table, "", seq, ts, type, hand, topic.decode(), body.decode())


def result(seat: int, spot: str, wager: int, payout: int) -> dict[str, object]:
    outcome = "win" if payout > 0 else "lose" if payout < 0 else "push"
    return {"seat": seat, "spot": spot, "hand_index": 0, "outcome": outcome, "wager": wager,
            "payout": payout}


def floor_events() -> list[Row]:
    rows: list[Row] = []

    def add(table: str, ts: str, type: str, hand: int | None, data: dict[str, object]) -> None:
        seq = sum(1 for r in rows if r.table == table) + 1
        rows.append(row(table, seq, ts, type, hand, data))

    hands = [  # (start, end, results)
        ("10:00:00", "10:00:30", [result(1, "main", 1000, 1000), result(2, "main", 500, -500)]),
        ("10:20:00", "10:20:30", [result(1, "main", 2000, -2000), result(1, "side", 500, 1500)]),
        ("10:40:00", "10:40:30", [result(1, "main", 1000, 0), result(2, "main", 2500, 3750)]),
    ]
    for number, (start, end, results) in enumerate(hands, 1):
        bets = [{"seat": r["seat"], "spot": r["spot"], "amount": r["wager"]} for r in results]
        add("T01", f"{DAY}T{start}.000Z", "bets.closed", number, {"bets": bets})
        add("T01", f"{DAY}T{end}.000Z", "hand.settled", number, {"results": results})
    add("T01", f"{DAY}T10:50:00.000Z", "bets.closed", 4,
        {"bets": [{"seat": 3, "spot": "main", "amount": 9900}]})
    add("T01", f"{DAY}T10:50:05.000Z", "hand.voided", 4, {"reason": "voided by the dealer"})
    for n in range(2):
        add("T01", f"{DAY}T10:5{n}:10.000Z", "alert", None,
            {"code": "card_unreadable", "severity": "warning", "message": "unreadable", "index": n})
    add("T01", f"{DAY}T11:00:00.000Z", "alert", 5, {"code": "past_post", "severity": "critical",
                                                     "message": "late chips", "seat": 1, "spot": "main"})
    add("T01", f"{DAY}T11:00:01.000Z", "hand.settled", 6, {"results": [{"seat": "one", "wager": 5}]})
    add("T02", "2026-11-22T09:00:00.000Z", "bets.closed", 1,
        {"bets": [{"seat": 4, "spot": "main", "amount": 500}]})
    add("T02", "2026-11-22T09:00:40.000Z", "hand.settled", 1, {"results": [result(4, "main", 500, -500)]})
    return rows


def test_figures_per_table_and_seat_from_known_hands(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "pit.sqlite")
    events = floor_events()
    store.add(events)
    store.add(events[2:5])                        # stored again: nothing changes
    assert store.count() == len(events)
    reports = rate(store.rows(("bets.closed", "hand.settled", "alert"), bound(DAY, end=False),
                              bound(DAY, end=True)))
    assert [r.table for r in reports] == ["T01"]   # T02 played the next day
    t01 = reports[0]
    span = 40.5 / 60                               # 10:00:00 to 10:40:30
    assert (t01.total.hands, t01.total.wagered, t01.total.net) == (3, 7500, 3750)
    assert t01.total.hold == -50.0 and t01.total.hands_per_hour == round(3 / span, 1)
    seat1, seat2 = t01.seats[1], t01.seats[2]
    assert (seat1.hands, seat1.wagered, seat1.average_bet, seat1.net) == (3, 4500, 1500, 500)
    assert seat1.hold == round(-500 * 100 / 4500, 2) and seat1.hands_per_hour == round(3 / span, 1)
    assert (seat2.hands, seat2.wagered, seat2.average_bet, seat2.net) == (2, 3000, 1500, 3250)
    assert seat2.hold == round(-325000 / 3000, 2)
    assert seat2.hands_per_hour == round(2 / span, 1)   # its first hand at 10:00, its last ended 10:40:30
    assert 3 not in t01.seats                     # the voided hand counts for nothing
    assert dict(t01.alerts) == {"card_unreadable": 2, "past_post": 1}

    text = as_text(reports, None, None)
    assert "Table T01: 3 hands, wagered $75.00, player net $37.50, hold -50.0 %, 4.4 hands/h" in text
    assert "alerts: card_unreadable 2, past_post 1" in text
    table = list(csv.DictReader(io.StringIO(as_csv(reports))))
    assert table[0] == {"kind": "table", "table": "T01", "seat": "all", "hands": "3",
                        "wagered_cents": "7500", "average_bet_cents": "2500", "net_cents": "3750",
                        "hold_percent": "-50.0", "hands_per_hour": "4.4", "alert_code": "", "alerts": ""}
    assert [(r["kind"], r["seat"], r["alert_code"], r["alerts"]) for r in table[1:]] == [
        ("seat", "1", "", ""), ("seat", "2", "", ""), ("alert", "", "card_unreadable", "2"),
        ("alert", "", "past_post", "1")]
    store.close()


def test_the_report_command_takes_a_period_and_a_format(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pit.sqlite"
    store = SqliteStore(db)
    store.add(floor_events())
    store.close()
    assert main(["report", f"--db={db}", "--format=json", "--from=2026-11-22"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["from"] == "2026-11-22T00:00:00.000Z" and out["to"] is None
    assert [(t["table"], t["hands"], t["net"], t["hold_percent"]) for t in out["tables"]] == [
        ("T02", 1, -500, 100.0)]
    assert main(["report", f"--db={db}", "--to=2026-11-21T10:30"]) == 0
    text = capsys.readouterr().out
    assert "Table T01: 2 hands" in text and "T02" not in text
    assert main(["report", f"--db={db}", "--from=yesterday"]) == 2
    assert "not a date" in capsys.readouterr().err
    assert main(["report", f"--db={tmp_path / 'none.sqlite'}"]) == 2
    assert "no database at" in capsys.readouterr().err and not (tmp_path / "none.sqlite").exists()
