"""End to end: a supervisor's ``critical_memory_clear`` over a journal of many closed segments,
through the real daemon, goes on while the table does (docs/architecture.md, "Critical memory").

The clear's whole check reads the journal in a worker thread. To hold it in the middle, whatever
the machine's speed, one closed segment is swapped for a named pipe (a FIFO) while the daemon runs
(a daemon with a fault latched reads no closed segment otherwise): the check opens it and waits for
its bytes, which the test writes once it has seen what it came for. Meanwhile the loop serves the
table: a chip reading on the simulated RFID board is journaled and published, with its picture,
and systemd's watchdog (a test socket standing in for systemd's) keeps getting its pings, all
before the clear's reply. Fed the segment's own bytes the check passes and the fault goes; fed
altered ones it fails and the fault stays. And, with the daemon in process (its commands called as
the control socket calls them), a second clear while the first is held is refused at once.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon import Daemon
from controller.devkit.simulated import write_config
from controller.journal.critical_memory import FAULT_NAME, read_fault, write_fault
from controller.security.supervisor_pins import hash_pin
from firmware_bridge.simulator.board import SimulatedBoard
from tests.e2e.test_e2e_critical_memory import PIN, cleared, table
from tests.journal.test_rotation import rotating_rig
from tests.rigs.daemon_rig import TIMEOUT, TableRig, chip
from tests.service.test_notify import FakeSystemd

SEGMENTS = 12
"""Closed segments of the journal (a hand each)."""

REASON = "test: a fault latched before this start"


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path, abstract=False)
    try:
        yield fake
    finally:
        fake.close()


@pytest.fixture
def rig(tmp_path: Path, systemd: FakeSystemd) -> Iterator[TableRig]:
    """The daemon on a journal of :data:`SEGMENTS` closed segments, a fault latched, its watchdog on."""
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    played = rotating_rig(state, SEGMENTS)
    played.journal.close()
    write_fault(state / FAULT_NAME, REASON, "2026-11-21T22:14:05.123Z")
    made = table(tmp_path, "T01")
    try:
        made.start(env={"NOTIFY_SOCKET": systemd.env, "WATCHDOG_USEC": "400000"})
        yield made
    finally:
        if made.daemon is not None:
            made.kill()                         # not SIGTERM: its check may wait on the pipe for ever
        made.close()


class Held:
    """A closed segment swapped for a FIFO: the check that reaches it waits for its bytes."""

    def __init__(self, segment: Path) -> None:
        self.segment = segment
        self.good = segment.read_bytes()
        self.aside = segment.with_name(segment.name + ".aside")
        segment.rename(self.aside)
        os.mkfifo(segment, 0o600)

    def reached(self) -> int:
        """The writing end of the FIFO, once the check has opened its reading end (it is then in
        the middle of the journal, waiting); fails after :data:`TIMEOUT` seconds without."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            try:
                fd = os.open(self.segment, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno != errno.ENXIO or time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
                continue
            os.set_blocking(fd, True)
            return fd

    def feed(self, fd: int, data: bytes) -> None:
        """Let the check go on, reading ``data`` as the segment's bytes; then the segment is back."""
        with os.fdopen(fd, "wb") as pipe:
            pipe.write(data)
        os.replace(self.aside, self.segment)


def send_clear(rig: TableRig) -> zmq.Socket[bytes]:
    """Send the supervisor's ``critical_memory_clear`` without waiting: the socket its reply comes to."""
    req: zmq.Socket[bytes] = rig.pit.context.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    req.connect(rig.endpoints[2])
    req.send_json({"cmd": "critical_memory_clear", "supervisor": "S101", "pin": PIN})
    return req


def reply(req: zmq.Socket[bytes]) -> dict[str, Any]:
    try:
        assert req.poll(int(TIMEOUT * 1000)), "no reply to critical_memory_clear"
        answer: dict[str, Any] = json.loads(req.recv())
        return answer
    finally:
        req.close()


def served_while_held(rig: TableRig, systemd: FakeSystemd, req: zmq.Socket[bytes]) -> None:
    """While the check waits: a watchdog ping, and a chip reading journaled and published with its
    picture; and still no reply to the clear."""
    systemd.drain()
    assert "WATCHDOG=1" in systemd.until("WATCHDOG=1")[-1].splitlines()
    rig.bet(1, "main", chip("a", 1))
    placed = rig.next("bet.placed", seat=1, spot="main", amount=500)
    deadline = time.monotonic() + TIMEOUT
    while rig.pit.view is None or rig.pit.view["seq"] < placed["seq"]:
        assert rig.pit.poll(deadline - time.monotonic()), "no picture of the reading"
    assert "WATCHDOG=1" in systemd.until("WATCHDOG=1")[-1].splitlines()
    assert req.poll(0) == 0                     # the check is still waiting: no answer yet


def test_the_table_goes_on_while_the_clear_reads_the_journal_and_then_the_fault_goes(
        rig: TableRig, systemd: FakeSystemd) -> None:
    state = rig.folder / "state"
    held = Held(sorted(state.glob("journal.0*.log"))[SEGMENTS // 2])
    req = send_clear(rig)
    fd = held.reached()
    served_while_held(rig, systemd, req)
    held.feed(fd, held.good)
    assert reply(req) == {"ok": True}
    alert = rig.next("alert", code="critical_memory")
    assert alert["data"]["severity"] == "info" and "S101" in alert["data"]["message"]
    assert not (state / FAULT_NAME).exists()
    assert rig.pit.press("deal") == {"ok": True}          # the wager placed during the check is dealt
    rig.next("hand.started")


def test_a_segment_that_reads_altered_under_the_check_keeps_the_fault(
        rig: TableRig, systemd: FakeSystemd) -> None:
    state = rig.folder / "state"
    held = Held(sorted(state.glob("journal.0*.log"))[SEGMENTS // 2])
    req = send_clear(rig)
    fd = held.reached()
    served_while_held(rig, systemd, req)
    altered = bytearray(held.good)
    altered[len(altered) // 2] ^= 0x01
    held.feed(fd, bytes(altered))
    refused = reply(req)
    assert refused["ok"] is False and "still fails its check" in refused["error"]
    assert held.segment.name in refused["error"]
    assert read_fault(state / FAULT_NAME) == REASON                  # the fault stays
    denied = rig.pit.press("deal")
    assert denied["ok"] is False and "critical memory fault" in denied["error"]
    cleared(rig)                                # the segment read back as it is, whole: cleared


async def test_a_second_clear_while_the_first_checks_is_refused_at_once(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    played = rotating_rig(state, 4)
    played.journal.close()
    write_fault(state / FAULT_NAME, REASON, "2026-11-21T22:14:05.123Z")
    previous = Device.pin_factory
    Device.pin_factory = MockFactory()
    boards = [SimulatedBoard(kind, link=tmp_path / kind) for kind in ("shoe", "rfid")]
    for board in boards:
        await board.start()
    daemon = Daemon(load_config(write_config(tmp_path, table="T01", supervisors={"S101": hash_pin(PIN)})))
    running = asyncio.create_task(daemon.run())
    fd = None
    try:
        while daemon.pit is None or daemon.table.critical_fault is None:     # started, the fault raised
            await asyncio.sleep(0.01)
        held = Held(sorted(state.glob("journal.0*.log"))[2])
        clear = {"cmd": "critical_memory_clear", "supervisor": "S101", "pin": PIN}
        first = asyncio.create_task(daemon.command(dict(clear)))
        deadline = time.monotonic() + TIMEOUT
        while True:                             # the first's check opens the pipe (off the loop)
            try:
                fd = os.open(held.segment, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as error:
                assert error.errno == errno.ENXIO and time.monotonic() < deadline, error
                await asyncio.sleep(0.01)
        second = await asyncio.wait_for(daemon.command(dict(clear)), TIMEOUT)
        assert second["ok"] is False and "a critical memory clear is running already" in second["error"]
        assert not first.done()
        os.set_blocking(fd, True)
        held.feed(fd, held.good)
        fd = None
        assert await first == {"ok": True}
        assert daemon.memory.fault is None and not (state / FAULT_NAME).exists()
    finally:
        if fd is not None:
            os.close(fd)                        # failed while held: the check reads its end, and ends
        daemon.stopping.set()
        await running
        for board in boards:
            await board.close()
        Device.pin_factory = previous
