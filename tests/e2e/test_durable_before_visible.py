"""Durable before visible, seen from outside: no event reaches the pit before its step is on the disk.

The daemon runs in process on a real journal file, with its boards simulated on real ptys
and a real ZeroMQ subscriber on its publish socket. The journal is opened as
:class:`WatchedJournal`, which, each time its real ``fsync`` returns, reads the file back
from the disk and notes the last seq it holds; the publisher the table was given is
wrapped so that each event it is handed is checked against that note before it is sent
on for real. A step published before it is journaled, a step written without an fsync, or
a step synced twice fails here. A journal that can be written but not synced (its
descriptor swapped for a pipe, which takes a write and refuses ``fsync``) proves the
other side: nothing of the step reaches a subscriber.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import zmq
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon.loop import REPLAY_WINDOW, Daemon
from controller.devkit.simulated import write_config
from controller.journal.lines import Record
from controller.journal.log import Journal
from drivers.inputs import SpotWager
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card
from tests.rigs.table_rig import phase_of

CHIP = ("00000000000001f4", 500)


class WatchedJournal(Journal):
    """A journal that notes, as each real fsync returns, the last seq on the disk, and counts
    the fsyncs of each append (a step)."""

    durable = 0
    """The seq of the last whole line in the file when the last fsync returned."""
    syncs_per_step: list[int]

    def _fsync(self, fd: int) -> None:
        super()._fsync(fd)
        self._syncs += 1
        lines = self.path.read_bytes().splitlines(keepends=True)
        whole = [line for line in lines if line.endswith(b"\n")]
        self.durable = json.loads(whole[-1][9:])["seq"] if whole else 0

    def append(self, *records: Record) -> None:
        self._syncs = 0
        try:
            super().append(*records)
        finally:
            self.syncs_per_step.append(self._syncs)


class Rig:
    """The daemon in process, its boards, and a real subscriber on its publish socket."""

    def __init__(self, daemon: Daemon, shoe: SimulatedBoard, rfid: SimulatedBoard) -> None:
        self.daemon = daemon
        self.shoe = shoe
        self.rfid = rfid
        self.changed = asyncio.Event()
        self.context = zmq.Context()
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.connect(daemon.config.pit.publish)

    async def until(self, condition: Callable[[], bool], timeout: float = 10.0) -> None:
        async with asyncio.timeout(timeout):
            while not condition():
                self.changed.clear()
                await self.changed.wait()

    def received_until(self, barrier: bytes) -> list[dict[str, Any]]:
        """Every event the subscriber took up to ``barrier`` (a topic published last, through the same
        socket, so that everything sent before it has arrived); blocks the loop meanwhile."""
        events = []
        while True:
            assert self.sub.poll(10_000), "the barrier never came"
            topic, body = self.sub.recv_multipart()
            if topic == barrier:
                return events
            events.append(json.loads(body))

    def join(self) -> None:
        """Return once the subscriber takes what is published (a subscription takes a moment to
        reach the publisher, and until it does the publisher drops what it sends)."""
        assert self.daemon.pit is not None
        for _ in range(100):
            self.daemon.pit.publish(b"joined", b"{}")
            while self.sub.poll(100):
                if self.sub.recv_multipart()[0] == b"joined":     # none was sent after it
                    return
        raise AssertionError("the subscriber never took anything")

    def close(self) -> None:
        self.sub.close(linger=0)
        self.context.term()


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    factory = MockFactory()
    previous = Device.pin_factory
    Device.pin_factory = factory
    config = write_config(tmp_path, chips=[(CHIP[0], CHIP[1], "active")])
    shoe = SimulatedBoard("shoe", link=tmp_path / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=tmp_path / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    daemon = Daemon(load_config(config))
    daemon.journal.close()                        # the same file, opened as a journal that is watched
    daemon.journal = WatchedJournal.open(daemon.journal.path, keep=REPLAY_WINDOW)
    daemon.journal.syncs_per_step = []
    daemon.memory.journal = daemon.journal
    made = Rig(daemon, shoe, rfid)
    refresh = daemon.refresh

    def refresh_and_notify() -> None:
        refresh()
        made.changed.set()

    daemon.refresh = refresh_and_notify  # type: ignore[method-assign]
    rfid.on_message = lambda *args: made.changed.set()
    running = asyncio.create_task(daemon.run())
    try:
        await made.until(lambda: all(d.online for d in daemon.table.state.devices.values()))
        made.join()
        yield made
    finally:
        daemon.stopping.set()
        await running
        await shoe.close()
        await rfid.close()
        made.close()
        Device.pin_factory = previous


async def test_every_event_is_on_the_disk_before_it_is_published_and_each_step_syncs_once(rig: Rig) -> None:
    daemon = rig.daemon
    journal = daemon.journal
    assert isinstance(journal, WatchedJournal) and daemon.pit is not None
    published: list[tuple[int, int]] = []           # (seq of the event published, seq on the disk then)
    send = daemon.pit.publish

    def watched(topic: bytes, body: bytes) -> None:
        published.append((json.loads(body)["seq"], journal.durable))
        send(topic, body)

    daemon.table.set_publisher(watched)
    daemon.pit.publish = watched  # type: ignore[method-assign]   # the table's picture goes here too
    before = daemon.table.state.seq
    steps_before = len(journal.syncs_per_step)

    rig.shoe.load_shoe(6, cards=[parse_card(c) for c in ("5h", "9d", "2c", "Kd")], cut_at=0)
    rig.rfid.place(1, [CHIP])
    await rig.until(lambda: not daemon.table.deal_problems())
    assert daemon.press("deal") is None
    rig.shoe.draw(2)
    await rig.until(lambda: phase_of(daemon.table) == "players")
    assert daemon.press("stand") is None
    await rig.until(lambda: phase_of(daemon.table) == "settled")
    assert daemon.press("next") is None
    last = daemon.table.state.seq
    send(b"barrier", b"{}")
    received = rig.received_until(b"barrier")

    events = [seq for seq, _ in published if seq > before]
    assert len(set(events)) > 8                                  # a whole hand went by
    late = [(seq, durable) for seq, durable in published if seq > durable]
    assert late == [], "published before its step's fsync returned (seq, seq on the disk)"
    assert journal.syncs_per_step[steps_before:] and set(journal.syncs_per_step[steps_before:]) == {1}
    assert {e["seq"] for e in received if e["type"] != "table.view"} == set(range(before + 1, last + 1))
    assert all(e["seq"] <= journal.durable for e in received)


async def test_a_step_that_cannot_be_synced_reaches_no_subscriber(rig: Rig) -> None:
    daemon = rig.daemon
    assert daemon.pit is not None
    fd = daemon.journal._fd
    assert fd is not None
    read_end, write_end = os.pipe()                  # takes a write, refuses fsync (EINVAL)
    os.close(fd)
    daemon.journal._fd = write_end
    before = daemon.table.state.seq
    try:
        daemon.dispatch(SpotWager(1, "main", 1, 500, (CHIP[0],), ()))  # a wager: one step to journal
        daemon.pit.publish(b"barrier", b"{}")
        received = rig.received_until(b"barrier")
        assert os.read(read_end, 65536).count(b"\n") == 1       # the step was written, not synced
    finally:
        os.close(read_end)
    assert isinstance(daemon.failure, OSError) and daemon.stopping.is_set()
    assert daemon.table.state.seq == before                      # nothing applied
    assert [e for e in received if e["seq"] > before or e["type"] != "table.view"] == []
