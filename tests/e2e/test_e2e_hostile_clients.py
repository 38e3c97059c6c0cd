"""End to end: what a hostile or clumsy pit client sends gets an answer, never a traceback or a full disk."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.pit.client import PitError
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


def test_a_request_over_the_size_limit_gets_an_error_that_says_so(rig: TableRig) -> None:
    big = "x" * (2 << 20)                                     # 2 MiB: over the 64 KiB limit
    reply = rig.pit.control({"cmd": "press", "button": big}, timeout=5)
    assert reply["ok"] is False
    assert reply["error"].startswith("request of ") and "over the limit of 65536 bytes" in reply["error"]
    assert rig.pit.sync(b"replay", big.encode(), timeout=5) == [
        [b"error", f"request of {6 + len(big)} bytes is over the limit of 65536 bytes".encode()]]
    with pytest.raises(PitError):                             # over 8 MiB: cut by ZeroMQ, as documented
        rig.pit.control({"cmd": "state", "pad": "x" * (9 << 20)}, timeout=1)
    assert rig.pit.control({"cmd": "state"})["ok"] is True    # and the socket serves the next client
    assert rig.pit.control({"cmd": "press", "button": "x" * 60_000})["error"].startswith("there is no")
