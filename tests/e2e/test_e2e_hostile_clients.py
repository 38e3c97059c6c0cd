"""End to end: what a hostile or clumsy pit client sends gets an answer, never a traceback or a full disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.rigs.daemon_rig import TableRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_a_replay_from_past_any_integer_the_journal_can_hold_ends_at_the_last_seq(rig: TableRig) -> None:
    last = rig.pit.control({"cmd": "state"})["seq"]
    assert rig.pit.sync(b"replay", b"99999999999999999999") == [[b"end", str(last).encode()]]
    assert rig.pit.sync(b"replay", str(last + 1).encode()) == [[b"end", str(last).encode()]]
    assert "Traceback" not in rig.log_text()
