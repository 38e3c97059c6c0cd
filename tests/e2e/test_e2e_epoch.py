"""End to end: a journal cut at its tail never makes a seq mean two things.

The probe: 42 events published, the daemon stopped, its journal cut back to 21 whole lines (or 21
lines and half a line), the daemon started again. It published from seq 22 again, and a pit client
connected across the restart discarded every new event as a duplicate (table.opened, the critical
journal_corrupt alert, new bets); a cut on a line boundary raised no alert at all. Now the daemon
remembers the highest seq it published (published.mark), raises journal_corrupt, and begins a new
epoch, which the project's pit client follows.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
import zmq

from tests.rigs.daemon_rig import TableRig, chip


def publish_until(rig: TableRig, seq: int) -> int:
    """Move a chip on and off seat 1 until the table has published at least ``seq`` events."""
    on = False
    while rig.pit.last_seq < seq:
        on = not on
        if on:
            rig.bet(1, "main", chip("a", 1))
        else:
            rig.bet(1, "main")
        rig.next("bet.placed", amount=500 if on else 0)
    rig.pit.drain()
    return rig.pit.last_seq


def cut(journal: Path, lines: int, half_line: bool) -> None:
    kept = journal.read_bytes().splitlines(keepends=True)
    tail = kept[lines][: len(kept[lines]) // 2] if half_line else b""
    journal.write_bytes(b"".join(kept[:lines]) + tail)


@pytest.mark.parametrize("half_line", [False, True], ids=["on a line boundary", "in the middle of a line"])
def test_a_client_across_a_restart_takes_every_event_of_the_new_epoch(rig: TableRig, half_line: bool) -> None:
    first = rig.start()
    epoch = first["epoch"]
    assert isinstance(epoch, int) and epoch > 0
    last = publish_until(rig, 42)
    assert rig.kill(signal.SIGTERM) == 0
    cut(rig.folder / "state" / "journal.log", 21, half_line)

    opened = rig.start()                                      # the same pit client, connected throughout
    assert (opened["seq"], opened["data"]["recovered"]) == (22, True)
    assert opened["epoch"] > epoch
    corrupt = next(e for e in rig.pit.taken() if e["data"].get("code") == "journal_corrupt")
    assert corrupt["seq"] == 23
    assert corrupt["data"]["severity"] == "critical" and corrupt["epoch"] == opened["epoch"]
    assert f"events 22 to {last} were published but the journal no longer holds them" in (
        corrupt["data"]["message"])
    assert ("journal tail cut at byte" in corrupt["data"]["message"]) is half_line
    rig.bet(2, "main", chip("a", 2))
    placed = rig.next("bet.placed", seat=2)                   # new bets are taken, not discarded
    assert placed["epoch"] == opened["epoch"] and placed["seq"] > 22
    assert rig.pit.rewinds == 1 and rig.pit.epoch == str(opened["epoch"])
    new = [e for e in rig.pit.events if e.get("epoch") == opened["epoch"]]
    assert [e["seq"] for e in new] == list(range(22, 22 + len(new)))

    snapshot = json.loads(rig.pit.sync(b"snapshot")[0][1])
    assert (snapshot["epoch"], snapshot["seq"]) == (opened["epoch"], placed["seq"])
    state = rig.pit.control({"cmd": "state"})
    assert (state["epoch"], state["seq"]) == (opened["epoch"], placed["seq"])
    heartbeat = wait_heartbeat(rig)
    assert (heartbeat["epoch"], heartbeat["seq"]) == (opened["epoch"], placed["seq"])
    mark = rig.folder / "state" / "published.mark"
    assert mark.stat().st_mode & 0o777 == 0o600

    assert rig.kill(signal.SIGTERM) == 0                       # a restart with nothing lost
    again = rig.start()
    assert (again["epoch"], again["seq"]) == (opened["epoch"], placed["seq"] + 1)
    assert not [e for e in rig.pit.drain() if e["data"].get("code") == "journal_corrupt"]


def test_a_journal_cut_after_kill_9_is_found_from_the_mark_never_synced(rig: TableRig) -> None:
    # The mark is written before each step is published and synced only after it: a daemon killed
    # before that sync has left it with the kernel, which keeps it for the next start.
    epoch = rig.start()["epoch"]
    last = publish_until(rig, 42)
    mark = (rig.folder / "state" / "published.mark").read_text().split()
    assert (int(mark[0]), int(mark[1])) == (epoch, last)       # every step heard is in the mark
    assert rig.kill() == -9
    cut(rig.folder / "state" / "journal.log", 21, half_line=False)

    opened = rig.start()
    assert opened["seq"] == 22 and opened["epoch"] > epoch
    corrupt = next(e for e in rig.pit.taken() if e["data"].get("code") == "journal_corrupt")
    assert f"events 22 to {last} were published but the journal no longer holds them" in (
        corrupt["data"]["message"])


def wait_heartbeat(rig: TableRig) -> dict[str, Any]:
    """The next heartbeat the table publishes (one comes 2 s after the last event)."""
    sub = rig.pit.context.socket(zmq.SUB)
    sub.setsockopt(zmq.SUBSCRIBE, b"T07/heartbeat")
    sub.connect(rig.endpoints[0])
    try:
        assert sub.poll(10_000), "no heartbeat within 10 s"
        _, body = sub.recv_multipart()
        beat: dict[str, Any] = json.loads(body)
        return beat
    finally:
        sub.close(linger=0)
