"""Inputs a person can repeat journal a bounded amount: floor calls counted on the open one, a pit
message or a shoe resync sent again refused (docs/control.md, "Inputs a person can repeat")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.commands.table import DealerMessage
from controller.events.codec import record_json
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal.log import Journal
from controller.journal.segments import read_records
from controller.table.machine import FloorCall, Table, TableSettings
from controller.table.views import table_picture
from drivers.inputs import ShoeLoaded


class Clocked:
    """A table on a real journal whose monotonic clock the test moves (``now``)."""

    def __init__(self, folder: Path, window: float = 60.0) -> None:
        self.now = 0.0
        self.journal = Journal.open(folder / "journal.log")
        self.published: list[dict[str, Any]] = []
        settings = TableSettings("T01", "easy-jack", 6, {"min_bet": 500, "max_bet": 50000},
                                 ("deal", "stand", "next", "void"), ("shoe", "rfid"),
                                 floor_call_window=window)
        self.table = Table(settings, EasyJack(EasyJackRules(), Limits(500, 50000)),
                           clock=lambda: "2026-11-27T00:00:00.000Z",
                           write=lambda records: self.journal.append(*records),
                           publish=lambda topic, body: self.published.append(json.loads(body)),
                           monotonic=lambda: self.now)
        self.table.open(recovered=False)

    def records(self) -> int:
        return len(list(read_records(self.journal.path)))

    def floor_alerts(self) -> list[dict[str, Any]]:
        return [e for e in self.published if e["type"] == "alert" and e["data"]["code"] == "floor_called"]


def test_a_thousand_floor_calls_are_one_alert_counting_them_all(tmp_path: Path) -> None:
    table = Clocked(tmp_path)
    assert table.table.press("call_floor") is None
    records, size = table.records(), table.journal.path.stat().st_size
    for _ in range(999):
        table.now += 0.01
        assert table.table.press("call_floor", physical=False) is None
    assert len(table.floor_alerts()) == 1
    assert (table.records(), table.journal.path.stat().st_size) == (records, size)   # nothing journaled
    seq = table.floor_alerts()[0]["seq"]
    assert table.table.floor_call == FloorCall(seq, 0.0, 1000)
    assert record_json(table_picture(table.table))["floor_call"] == {"seq": seq, "calls": 1000}


def test_a_call_once_the_window_is_over_is_a_new_alert(tmp_path: Path) -> None:
    table = Clocked(tmp_path, window=60.0)
    assert record_json(table_picture(table.table))["floor_call"] is None
    table.table.press("call_floor")
    table.now = 59.9
    table.table.press("call_floor")
    assert len(table.floor_alerts()) == 1
    table.now = 60.0
    table.table.press("call_floor")
    alerts = table.floor_alerts()
    assert len(alerts) == 2
    assert record_json(table_picture(table.table))["floor_call"] == {"seq": alerts[1]["seq"], "calls": 1}


def test_a_pit_message_shown_already_and_a_second_shoe_resync_are_refused_and_not_journaled(
        tmp_path: Path) -> None:
    table = Clocked(tmp_path)
    message = DealerMessage("Fill on the way")
    assert table.table.pit_command(message, "S101") is None
    records = table.records()
    assert table.table.pit_command(message, "S101") == (
        "dealer_message: that message is shown to the dealer already")
    assert table.table.pit_command(DealerMessage("  Fill on the way "), "S101") is not None
    assert table.records() == records
    assert table.table.pit_command(DealerMessage("Fill coming"), "S101") is None

    table.table.handle(ShoeLoaded(42, 6))
    assert table.table.resync_shoe("S101") is None
    records = table.records()
    assert table.table.resync_shoe("S101") == "shoe_resync: shoe 42's next card may come at any index already"
    assert table.records() == records
