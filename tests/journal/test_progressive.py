"""``table-controller progressive``'s reader: the session's meters and hits from the journal, with
and without a checkpoint, a step still being written left out."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.interface import Limits, Progressive
from controller.history.progressive import read_progressive, report_data, report_lines
from controller.journal import checkpoint
from controller.journal.lines import Record
from tests.rigs.table_rig import Rig

BUTTONS = ("deal", "stand", "next", "void")


def jackpot_table(folder: Path) -> Rig:
    """A table whose first hand won a jackpot (three suited 7s on a meter of $1,000.05)."""
    rig = Rig(folder, game=BusterBlackjackX(BusterRules(banker="house"), Limits(500, 50000)), buttons=BUTTONS)
    rig.ready()
    rig.table.tick()
    rig.bet(1, "main", 1000)
    rig.bet(1, "progressive", 100)
    rig.press("deal")
    for text in ("7h", "7h", "7h", "Td"):
        rig.card(text)
    rig.press("stand")
    rig.press("next")
    return rig


def test_the_record_without_a_checkpoint(tmp_path: Path) -> None:
    rig = jackpot_table(tmp_path)
    missing = tmp_path / "checkpoint.json"
    waiting = read_progressive(rig.journal.path, missing)
    assert waiting.session[Progressive].meters == {"blazing_7s": 100_000}
    unpaid = waiting.session[Progressive].unpaid
    assert [(h.seat, h.prize, h.amount) for h in unpaid] == [(1, "three suited 7s", 100_005)]
    lines = report_lines(waiting)
    assert lines[:2] == ["blazing_7s meter: $1,000.00", "waiting for a supervisor: 1"]
    assert lines[2].startswith("  seat 1 $1,000.05 (three suited 7s) [hand 1, 2026-11-21 00:00:00Z]")
    assert rig.table.command("confirm_progressive", {"seat": 1, "supervisor": "S3"}) is None
    data = report_data(read_progressive(rig.journal.path, missing))
    assert data["unpaid"] == [] and data["seq"] == rig.table.state.seq
    hits = [(h["seat"], h["amount"], h["supervisor"], h["prize"], h["won"]["hand"]) for h in data["hits"]]
    assert hits == [(1, 100_005, "S3", "three suited 7s", 1)]


def test_the_record_from_a_checkpoint_and_a_step_still_being_written(tmp_path: Path) -> None:
    rig = jackpot_table(tmp_path)
    path = tmp_path / "checkpoint.json"
    checkpoint.save(path, rig.journal, rig.table.state.checkpoint())
    assert rig.table.command("confirm_progressive", {"seat": 1, "supervisor": "S3"}) is None
    seq = rig.table.state.seq
    half = json.dumps({"v": 1, "table": "T01", "seq": seq + 1, "type": "meter", "hand": None,
                       "ts": "2026-11-21T00:00:01.000Z", "data": {"name": "blazing_7s", "value": 7}})
    rig.journal.append(Record(seq + 1, "T01/meter", half.encode(), {"more": True}))
    record = read_progressive(rig.journal.path, path)
    assert record.session[Progressive].meters == {"blazing_7s": 100_000} and record.last_seq == seq
    hits = record.session[Progressive].hits
    assert [(h.seat, h.amount, h.supervisor) for h in hits] == [(1, 100_005, "S3")]
    assert "confirmed by S3" in report_lines(record)[-1]
    copy = checkpoint.copy_path(path, 1)
    wrong = json.loads(copy.read_bytes()[65:])
    wrong["body_crc"] += 1                                       # a checkpoint of another journal
    text = json.dumps(wrong).encode()
    copy.write_bytes(hashlib.sha256(text).hexdigest().encode() + b" " + text + b"\n")
    again = read_progressive(rig.journal.path, path)
    assert again.session[Progressive].hits == record.session[Progressive].hits
    assert again.session[Progressive].unpaid == ()
