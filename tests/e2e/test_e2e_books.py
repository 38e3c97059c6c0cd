"""End to end: the table's books through the daemon (issue 27 items 4 and 5, the table's side).

One Easy Jack table with a tray on antenna 32, dealers D1 and D2 and supervisor S101 per test. The
dealers sign in and rotate; the opener and the closer are the tray's readings, signed by the dealer
with the PIN and by the supervisor with the PIN; the drop is entered after the closer. The hand is
test_e2e_floor's: seat 1 main $10 loses, seat 3 main $25 wins, seat 3 side $5 loses.
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.events.envelope import compact_json
from controller.follow.core import HISTORY
from controller.journal.lines import Record
from controller.journal.log import Journal
from controller.journal.segments import read_records
from controller.podium.monitor.cli import main as pit_monitor
from controller.podium.monitor.stores.events import Row, SqliteStore
from controller.security.supervisor_pins import hash_pin
from tests.e2e.test_e2e_floor import SHOE, play, settle
from tests.monitor.conftest import Monitor, sources_of
from tests.rigs.daemon_rig import TableRig, chip

TRAY = 32
PIN = "60417293"
DEALER_PINS = {"D1": "1111-kept-from-the-journal", "D2": "2222"}
D1 = DEALER_PINS["D1"]


@pytest.fixture
def books(tmp_path: Path) -> Iterator[TableRig]:
    rig = TableRig(tmp_path, tray=TRAY, supervisors={"S101": hash_pin(PIN)},
                   dealers={name: hash_pin(pin) for name, pin in DEALER_PINS.items()})
    try:
        yield rig
    finally:
        rig.close()


def control(rig: TableRig, cmd: str, **fields: Any) -> dict[str, Any]:
    answer: dict[str, Any] = rig.pit.control({"cmd": cmd, **fields})
    return answer


def pit(rig: TableRig, cmd: str, pin: str = PIN, **fields: Any) -> dict[str, Any]:
    """A supervisor's command as S101."""
    return control(rig, cmd, supervisor="S101", pin=pin, **fields)


def books_state(rig: TableRig) -> dict[str, Any]:
    answer: dict[str, Any] = control(rig, "state")["state"]["books"]
    return answer


def test_dealers_sign_in_rotate_and_sign_out_with_their_pins(books: TableRig) -> None:
    rig = books
    rig.start()
    assert control(rig, "dealer_in", dealer="D1", dealer_pin="9999") == {
        "ok": False, "error": "wrong dealer id or PIN"}
    assert control(rig, "dealer_in", dealer="D9", dealer_pin=D1) == {
        "ok": False, "error": "wrong dealer id or PIN"}
    assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1) == {"ok": True}
    assert rig.next("dealer.in")["data"] == {"dealer": "D1"}
    assert books_state(rig)["dealer"] == "D1"
    assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1)["error"] == (
        "dealer_in: dealer D1 is signed in already")
    assert control(rig, "dealer_in", dealer="D2", dealer_pin="2222") == {"ok": True}   # the rotation
    assert rig.next("dealer.out")["data"] == {"dealer": "D1", "reason": "rotation"}
    assert rig.next("dealer.in")["data"] == {"dealer": "D2"}
    assert control(rig, "dealer_out") == {"ok": True}
    assert rig.next("dealer.out")["data"] == {"dealer": "D2", "reason": "signed_out"}
    assert control(rig, "dealer_out")["error"] == "dealer_out: no dealer is signed in"
    assert books_state(rig)["dealer"] is None
    assert D1 not in (rig.folder / "state" / "journal.log").read_text(errors="replace")


def test_the_opener_and_closer_are_signed_by_the_dealer_and_the_supervisor(
        books: TableRig, capsys: pytest.CaptureFixture[str]) -> None:
    rig = books
    rig.start()
    assert control(rig, "opener", dealer_pin=D1)["error"] == (
        "opener: no dealer is signed in: the dealer signs in first")
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    assert rig.next("tray.counted")["data"] == {"amount": 10000, "chips": {"2500": 4}}
    assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1) == {"ok": True}
    assert control(rig, "closer", dealer_pin=D1)["error"] == "closer: no opener: the shift is opened first"
    assert control(rig, "opener", dealer_pin="2222") == {"ok": False, "error": "wrong dealer id or PIN"}
    assert control(rig, "opener", dealer_pin=D1) == {"ok": True}
    assert rig.next("table.opener")["data"] == {"amount": 10000, "dealer": "D1", "chips": {"2500": 4}}
    assert books_state(rig)["unsigned"] == {"opener": 10000}
    assert pit(rig, "sign_slip", pin="0000", slip="opener") == {
        "ok": False, "error": "wrong supervisor id or PIN"}
    assert pit(rig, "sign_slip", slip="opener") == {"ok": True}
    assert rig.next("table.slip_signed")["data"] == {"slip": "opener", "amount": 10000, "supervisor": "S101"}
    assert pit(rig, "sign_slip", slip="opener")["error"] == (
        "sign_slip: no opener waits for a supervisor's signature")
    assert pit(rig, "enter_drop", amount=4000)["error"] == (
        "enter_drop: the drop is entered once per shift, after its closer")

    rig.load(SHOE)
    play(rig, 1)
    settle(rig, 1, paid_from_tray=[10])                     # +$15.00 collected, -$25.00 paid
    assert control(rig, "act", action="next") == {"ok": True}
    rig.next("hand.ended")
    assert control(rig, "dealer_in", dealer="D2", dealer_pin="2222") == {"ok": True}
    assert pit(rig, "tray_fill", amount=5000) == {"ok": True}
    assert control(rig, "closer", dealer_pin="2222")["error"] == (
        "closer: a fill or credit still waits: move its chips first")
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", 20), chip("b", 21)])
    rig.next("tray.counted", amount=14000)
    assert pit(rig, "tray_credit", amount=2500) == {"ok": True}
    rig.rfid.cmd("remove", antenna=TRAY, uids=[chip("b", 20)[0]])
    rig.next("tray.counted", amount=11500)
    assert control(rig, "closer", dealer_pin="2222") == {"ok": True}
    # the closer by denomination: a1-a3 collected (3 x $5), b10 paid out, b20 filled and credited
    # back, b11-b13 and b21 left: 3 x $5 + 4 x $25 = $15.00 + $100.00 = $115.00
    assert rig.next("table.closer")["data"] == {"amount": 11500, "dealer": "D2",
                                                "chips": {"500": 3, "2500": 4}}
    assert pit(rig, "sign_slip", slip="closer") == {"ok": True}
    assert pit(rig, "enter_drop", amount=4000) == {"ok": True}
    assert rig.next("table.drop")["data"] == {"amount": 4000, "supervisor": "S101"}
    assert books_state(rig) == {"dealer": "D2", "shift_open": False, "unsigned": {}, "drop_due": False}

    # the count room's formula on what the table published, as the pit monitor's report reads it:
    # win = closer - opener + credits - fills + drop = 11500 - 10000 + 2500 - 5000 + 4000 = 3000
    db = rig.folder / "pit.sqlite"
    store = SqliteStore(db)
    store.add([stored(topic, body) for topic, body in rig.pit.raw])
    store.close()
    assert pit_monitor(["report", f"--db={db}", "--format=json"]) == 0
    [table] = json.loads(capsys.readouterr().out)["tables"]
    [count] = table["counts"]
    assert {key: count[key] for key in ("opener", "fills", "credits", "closer", "drop", "win",
                                        "hold_percent", "opener_dealer", "closer_dealer",
                                        "opener_signed_by", "closer_signed_by")} == {
        "opener": 10000, "fills": 5000, "credits": 2500, "closer": 11500, "drop": 4000, "win": 3000,
        "hold_percent": 75.0, "opener_dealer": "D1", "closer_dealer": "D2", "opener_signed_by": "S101",
        "closer_signed_by": "S101"}
    assert count["opener_chips"] == [{"value": 2500, "count": 4, "amount": 10000}]
    assert count["closer_chips"] == [{"value": 500, "count": 3, "amount": 1500},
                                     {"value": 2500, "count": 4, "amount": 10000}]
    assert pit_monitor(["report", f"--db={db}", "--format=csv"]) == 0
    [row] = [r for r in csv.DictReader(io.StringIO(capsys.readouterr().out)) if r["kind"] == "count"]
    assert (row["opener_cents"], row["opener_chips"], row["closer_cents"], row["closer_chips"]) == (
        "10000", "2500:4", "11500", "500:3 2500:4")
    assert pit_monitor(["report", f"--db={db}"]) == 0
    [line] = [line for line in capsys.readouterr().out.splitlines() if "count:" in line]
    assert "opener $100.00 [4 x $25.00 = $100.00] at " in line
    assert "closer $115.00 [4 x $25.00 = $100.00, 3 x $5.00 = $15.00] at " in line
    assert pit_monitor(["report", f"--db={db}", "--by=dealer", "--format=json"]) == 0
    dealers = {d["dealer"]: d for d in json.loads(capsys.readouterr().out)["dealers"]}
    assert {name: (d["table"], d["hands"], d["voids"], d["signed_in"]) for name, d in dealers.items()} == {
        "D1": ("T07", 1, 0, False), "D2": ("T07", 0, 0, True)}


def stored(topic: bytes, body: bytes) -> Row:
    """A published event as the pit monitor's recorder stores it."""
    message = json.loads(body)
    return Row(message["table"], message.get("epoch", ""), message["seq"], message["ts"], message["type"],
               message.get("hand"), topic.decode(), body.decode())


def test_the_books_survive_a_crash(books: TableRig) -> None:
    rig = books
    rig.start()
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    rig.next("tray.counted", amount=10000)
    assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1) == {"ok": True}
    assert control(rig, "opener", dealer_pin=D1) == {"ok": True}
    rig.next("table.opener")
    assert rig.kill() == -9
    rig.start()
    assert books_state(rig) == {"dealer": "D1", "shift_open": True, "unsigned": {"opener": 10000},
                                "drop_due": False}
    assert control(rig, "opener", dealer_pin=D1)["error"] == (
        "opener: the shift is open: its closer comes before another opener")


def test_a_journal_from_before_the_chips_by_denomination_still_replays(books: TableRig) -> None:
    """A journal whose ``tray.counted`` and opener carry the value only (as before ``chips``) replays:
    the restarted table has the shift open with its opener, the tray's chips by denomination unknown
    until the antenna reads it again, and the closer then lists them."""
    rig = books
    rig.start()
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    rig.next("tray.counted", amount=10000)
    assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1) == {"ok": True}
    assert control(rig, "opener", dealer_pin=D1) == {"ok": True}
    rig.next("table.opener")
    assert rig.kill() == -9
    state = rig.folder / "state"
    old = [Record(r.seq, r.topic, compact_json(_without_chips(json.loads(r.body))), r.private)
           for r in read_records(state / "journal.log")]
    slips = [json.loads(r.body)["data"] for r in old if r.topic.endswith(("/tray.counted", "/table.opener"))]
    assert slips == [{"amount": 10000}, {"amount": 10000, "dealer": "D1"}]
    for path in state.iterdir():                  # the journal as the earlier release wrote it, alone
        if path.name.startswith(("journal", "checkpoint")):
            path.unlink()
    journal = Journal.open(state / "journal.log")
    journal.append(*old)
    journal.close()

    rig.start()
    assert books_state(rig) == {"dealer": "D1", "shift_open": True, "unsigned": {"opener": 10000},
                                "drop_due": False}
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("a", 1), chip("a", 2)])
    assert rig.next("tray.counted", amount=11000)["data"]["chips"] == {"500": 2, "2500": 4}
    assert control(rig, "state")["state"]["tray"]["chips"] == {"500": 2, "2500": 4}
    assert control(rig, "closer", dealer_pin=D1) == {"ok": True}
    assert rig.next("table.closer")["data"] == {"amount": 11000, "dealer": "D1",
                                                "chips": {"500": 2, "2500": 4}}


def _without_chips(body: dict[str, Any]) -> dict[str, Any]:
    """A published body as the earlier release wrote it: no ``chips`` in its data."""
    data = {key: value for key, value in body["data"].items() if key != "chips"}
    return {**body, "data": data}


def test_a_monitor_killed_and_started_again_shows_the_books_the_table_no_longer_sends(
        books: TableRig) -> None:
    """``pit-monitor serve --db`` SIGKILLed once the opener is signed; the table then publishes more than
    a follower replays before its snapshot (:data:`~controller.follow.core.HISTORY`), so the monitor
    started again on its database hears none of the books' events again: it shows them as kept."""
    rig = books
    rig.start()
    db = rig.folder / "pit.sqlite"
    rig.rfid.cmd("place", antenna=TRAY, chips=[*(chip("b", n) for n in range(10, 14)), chip("c", 1)])
    rig.next("tray.counted", amount=20000)
    monitor = serve(rig, db)
    try:
        assert control(rig, "dealer_in", dealer="D1", dealer_pin=D1) == {"ok": True}
        assert control(rig, "opener", dealer_pin=D1) == {"ok": True}
        assert pit(rig, "sign_slip", slip="opener") == {"ok": True}
        signed = until(monitor, lambda books: (books["count"] or {}).get("opener_signed_by") == "S101")
        assert signed["dealer"] == "D1" and signed["count"]["opener_chips"] == [
            {"value": 2500, "count": 4, "amount": 10000}, {"value": 10000, "count": 1, "amount": 10000}]
        until_kept(db, lambda kept: [c["opener_signed_by"] for c in kept["counts"]] == ["S101"])
        monitor.kill()
        for n in range(HISTORY + 1):                      # the books' events out of a follower's replay
            assert pit(rig, "dealer_message", text=f"message {n}") == {"ok": True}
        monitor = serve(rig, db)
        again = until(monitor, lambda books: books["dealer"] == "D1")
        assert again["count"] == signed["count"]
        assert [d["dealer"] for d in again["dealers"]] == ["D1"]
        assert control(rig, "closer", dealer_pin=D1) == {"ok": True}      # and the shift goes on
        closed = until(monitor, lambda books: books["count"]["closer"] is not None)
        assert (closed["count"]["opener"], closed["count"]["closer"], closed["count"]["closer_dealer"]) == (
            20000, 20000, "D1")
    finally:
        monitor.stop()


def serve(rig: TableRig, db: Path) -> Monitor:
    """``pit-monitor serve --db`` over the table, listening."""
    return Monitor("serve", sources_of(rig), "--port=0", f"--db={db}", "--silence=3",
                   f"--acks={rig.folder / 'acks.jsonl'}", f"--actions={rig.folder / 'actions.jsonl'}",
                   log=rig.folder / "monitor.log")


def until(monitor: Monitor, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The table's books on the monitor (its detail's JSON) once ``done`` says so."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(monitor.url + "api/tables/T07", timeout=5) as reply:
                books: dict[str, Any] = json.load(reply)["books"]
            if done(books):
                return books
        except (OSError, KeyError, TypeError):
            books = {}
        assert time.monotonic() < deadline, f"the monitor never showed it: {books}\n{monitor.log_text()}"
        time.sleep(0.1)


def until_kept(db: Path, done: Callable[[dict[str, Any]], bool]) -> None:
    """Wait until the books the monitor kept of T07 in ``db`` are as ``done`` says."""
    deadline = time.monotonic() + 30
    while True:
        with sqlite3.connect(db) as reader:
            found = reader.execute("SELECT body FROM kept_books WHERE table_id = 'T07'").fetchone()
        if found is not None and done(json.loads(found[0])):
            return
        assert time.monotonic() < deadline, f"the monitor never kept it: {found}"
        time.sleep(0.1)
