"""docs/pit-events.md's state object (section 2) against a real table: the example snapshot is the state a
real Easy Jack table on a real journal sends at that point of a hand, every key in the order sent, and the
tables of keys name them all in that order (issue 26 item 16)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from controller.events.codec import record_json
from controller.table.machine import Table, TableSettings
from controller.table.views import table_picture
from tests.rigs.table_rig import Rig

DOC = Path(__file__).parents[2] / "docs" / "pit-events.md"
EXAMPLE = "A snapshot during an Easy Jack hand on a three-seat table"


class ThreeSeats(Rig):
    """The rig's Easy Jack table as T07 with three seats and the chips $5 and $25 in its registry."""

    def _table(self, write: Any) -> Table:
        settings = TableSettings("T07", "easy-jack", 3, {"min_bet": 500, "max_bet": 50000}, self.buttons,
                                 ("shoe", "rfid"), chips=(500, 2500), payout_check=self.payout_check)
        ticks = iter(range(10**9))
        return Table(settings, self.game, clock=lambda: f"2026-11-21T00:00:00.{next(ticks) % 1000:03d}Z",
                     write=write)


def real_snapshot(folder: Path) -> dict[str, Any]:
    """The snapshot of the example: seat 1 ($10 main) in turn on 9h 2d, seat 3 ($25 main, $5 side) on
    a natural, the dealer's hole card face down (as :meth:`controller.daemon.loop.Daemon.snapshot` builds
    it, less the epoch, which is the time the table's journal began)."""
    rig = ThreeSeats(folder)
    rig.ready(s1_main=1000, s3_main=2500, s3_side=500)
    rig.press("deal")
    for card in ("9h", "As", "7c", "2d"):
        rig.card(card)
    return {"seq": rig.table.state.seq, "state": record_json(table_picture(rig.table))}


def documented_example() -> dict[str, Any]:
    text = DOC.read_text()
    block = text[text.index(EXAMPLE):].split("```json\n", 1)[1].split("```", 1)[0]
    example: dict[str, Any] = json.loads(block)
    return example


def keys_of_tables(heading: str) -> list[str]:
    """The keys the tables after ``heading`` name, in order (each row's first cell, ``a``, ``b`` split),
    up to the first paragraph that is no table or the text between two tables."""
    text = DOC.read_text()
    section = text[text.index(heading):].split("\nEach entry of `seats`:", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [key for row in rows for key in re.findall(r"`([^`]+)`", row.split("|")[1])]


def test_the_example_snapshot_is_a_real_table_s_with_every_key_in_order(tmp_path: Path) -> None:
    real = real_snapshot(tmp_path)
    example = documented_example()
    assert example.pop("epoch") > 0
    assert example == real                                      # every value
    assert list(example["state"]) == list(real["state"])       # every key, in the order sent
    for shown, sent in zip(example["state"]["seats"], real["state"]["seats"], strict=True):
        assert list(shown) == list(sent)


def test_the_tables_of_keys_name_every_key_of_the_state_in_the_order_sent(tmp_path: Path) -> None:
    state = real_snapshot(tmp_path)["state"]
    assert keys_of_tables("### The state object") == list(state)
