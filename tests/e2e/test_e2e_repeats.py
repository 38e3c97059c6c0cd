"""End to end: an input a person can repeat cannot flood the journal (docs/control.md, "Inputs a person
can repeat"). A thousand floor calls through the control socket are one ``floor_called`` alert, one
journal record, and a count of a thousand in the state's ``floor_call``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.journal.segments import read_records
from tests.rigs.daemon_rig import TableRig

CALLS = 1000


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, floor_call_window=3600)     # every call of the test falls in one window
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_a_thousand_floor_calls_are_one_alert_one_record_and_a_count(rig: TableRig) -> None:
    journal = rig.folder / "state" / "journal.log"
    rig.pit.drain()
    before = [record.seq for record in read_records(journal)]
    size = journal.stat().st_size
    for _ in range(CALLS):
        assert rig.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}
    state = rig.pit.control({"cmd": "state"})
    events = rig.pit.drain()

    called = [e for e in events if e["type"] == "alert"]
    assert [e["data"]["code"] for e in called] == ["floor_called"]
    after = list(read_records(journal))
    assert [record.seq for record in after] == [*before, called[0]["seq"]]        # one record more
    assert journal.stat().st_size - size < 1024                                   # its bytes alone
    assert state["state"]["floor_call"] == {"seq": called[0]["seq"], "calls": CALLS}
    assert [a["code"] for a in state["state"]["alerts"]].count("floor_called") == 1


def test_a_floor_call_the_pit_answered_is_closed_and_the_next_call_raises_a_new_alert(rig: TableRig) -> None:
    rig.pit.drain()
    assert rig.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}
    first = rig.next("alert", code="floor_called")["seq"]
    assert rig.pit.control({"cmd": "floor_answered", "seq": first + 1}) == {
        "ok": False, "error": f"floor_answered: no floor call of seq {first + 1} is open"}
    assert rig.pit.control({"cmd": "floor_answered", "seq": 0})["error"] == (
        "floor_answered: seq must be an event's seq, a whole number from 1")
    assert rig.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}    # counted on it
    assert rig.pit.control({"cmd": "state"})["state"]["floor_call"] == {"seq": first, "calls": 2}
    assert rig.pit.control({"cmd": "floor_answered", "seq": first}) == {"ok": True}
    assert rig.pit.control({"cmd": "state"})["state"]["floor_call"] is None
    assert rig.pit.control({"cmd": "floor_answered", "seq": first})["ok"] is False   # answered once
    assert rig.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}    # a new call
    assert rig.next("alert", code="floor_called")["seq"] > first
