"""The monitor's action record stays bounded: closed into parts by size, parts deleted past their age.

On real files: records appended (fsynced), the file closed into a part once it holds
``part_bytes``, a part closed longer ago than ``keep_days`` deleted at start and when a part is
closed, and the newest records read back across the parts after a restart.
"""

from __future__ import annotations

import json
from pathlib import Path

from controller.commands.table import DealerMessage
from controller.podium.monitor.models.actions import ActionBook, Order, part_path, parts


def order(n: int) -> Order:
    return Order(DealerMessage(text=f"message {n}"), "S101", "4417093826")


def test_the_record_closes_into_parts_and_reads_back_across_them(tmp_path: Path) -> None:
    path = tmp_path / "actions.jsonl"
    book = ActionBook(path, keep_days=30, part_bytes=1000)
    written = [book.record("anna", "T07", order(n), {"ok": n % 2 == 0, "error": "no"}) for n in range(20)]
    closed = parts(path)
    assert len(closed) >= 3 and all(part.stat().st_size >= 1000 for _, part in closed)
    on_disk = [json.loads(line) for _, part in closed for line in part.read_text().splitlines()]
    if path.exists():
        on_disk += [json.loads(line) for line in path.read_text().splitlines()]
    assert on_disk == written                                         # every record, once, in order
    for _, part in closed:                                           # named for its last record's time
        assert part == part_path(path, json.loads(part.read_text().splitlines()[-1])["at"])
    assert "4417093826" not in "".join(p.read_text() for p in tmp_path.iterdir())   # no PIN in any part
    again = ActionBook(path, keep_days=30, part_bytes=1000)
    assert again.records() == list(reversed(written))                 # newest first, across the parts
    assert again.records("T08") == []


def test_parts_older_than_the_retention_are_deleted_at_start_and_when_a_part_closes(tmp_path: Path) -> None:
    path = tmp_path / "actions.jsonl"
    line = json.dumps({"at": "2025-01-02T03:04:05.678Z", "who": "anna", "table": "T07", "cmd": "close_table",
                       "supervisor": "S101", "fields": {}, "ok": True, "error": None, "request_id": None})
    old = part_path(path, "2025-01-02T03:04:05.678Z")               # closed long ago
    old.write_text(line + "\n")
    recent = part_path(path, "2099-01-01T00:00:00.000Z")            # not old (a clock set ahead, say)
    recent.write_text(line.replace("T07", "T08") + "\n")
    book = ActionBook(path, keep_days=30, part_bytes=1000)
    assert not old.exists() and recent.exists()
    assert [r["table"] for r in book.records()] == ["T08"]

    old.write_text(line + "\n")                                     # put back while running
    for n in range(8):
        book.record("anna", "T07", order(n), {"ok": True})
    assert not old.exists()                                          # deleted when a part closed
    assert recent.exists() and len(parts(path)) >= 2
    kept = ActionBook(path, keep_days=400, part_bytes=1000)
    assert len(kept.records()) == 9


def test_a_part_closed_after_a_crash_before_the_new_file_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "actions.jsonl"
    book = ActionBook(path, keep_days=30, part_bytes=10**6)
    first = book.record("anna", "T07", order(1), {"ok": True})
    path.rename(part_path(path, first["at"]))                       # closed; no new file yet
    again = ActionBook(path, keep_days=30, part_bytes=10**6)
    second = again.record("anna", "T07", order(2), {"ok": True})
    assert ActionBook(path).records() == [second, first]
