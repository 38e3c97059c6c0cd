"""End to end: a supervisor's ``critical_memory_clear`` over a journal of many closed segments,
through the real daemon, goes on while the table does (docs/architecture.md, "Critical memory").

The clear's whole check reads the journal in a worker thread. To hold it in the middle, whatever
the machine's speed, one closed segment is swapped for a named pipe (a FIFO) while the daemon runs
(a daemon with a fault latched reads no closed segment otherwise): the check opens it and waits for
its bytes, which the test writes once it has seen what it came for. Meanwhile the loop serves the
table: a chip reading on the simulated RFID board is journaled and published, with its picture,
and systemd's watchdog (a test socket standing in for systemd's) keeps getting its pings, all
before the clear's reply. Fed the segment's own bytes the check passes and the fault goes; fed
altered ones it fails and the fault stays. Another client's ``state`` and ``act`` are answered while
the clear is held. And, with the daemon in process, a second clear while the first is held is
refused at once, and the dealer screen's client (``Control``) waits for the clear's reply as long
as the command declares, while other clients are answered; a client told to wait less (both the
screen's and the blocking one) says that the table may still carry the clear out, and the table's
state then shows that it did.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import zmq
import zmq.asyncio
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon.loop import Daemon
from controller.devkit.simulated import write_config
from controller.follow.blocking import PitClient, PitError
from controller.follow.control import Control, unanswered
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
    """While the check waits: another client's ``state`` and ``act`` answered, a watchdog ping, and a
    chip reading journaled and published with its picture; and still no reply to the clear."""
    assert rig.pit.control({"cmd": "state"})["ok"] is True
    acted = rig.pit.control({"cmd": "act", "action": "deal"})
    assert acted["ok"] is False and "critical memory fault" in acted["error"]
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


@asynccontextmanager
async def in_process(tmp_path: Path) -> AsyncIterator[Daemon]:
    """The daemon in this process, on a journal of 4 closed segments, a fault latched; started."""
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
    try:
        while daemon.pit is None or daemon.table.critical_fault is None:     # started, the fault raised
            await asyncio.sleep(0.01)
        yield daemon
    finally:
        daemon.stopping.set()
        await running
        for board in boards:
            await board.close()
        Device.pin_factory = previous


async def reached(held: Held) -> int:
    """:meth:`Held.reached` on the loop: the check opens the pipe off the loop."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            fd = os.open(held.segment, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            assert error.errno == errno.ENXIO and time.monotonic() < deadline, error
            await asyncio.sleep(0.01)
            continue
        os.set_blocking(fd, True)
        return fd


CLEAR = {"cmd": "critical_memory_clear", "supervisor": "S101", "pin": PIN}


async def test_a_second_clear_while_the_first_checks_is_refused_at_once(tmp_path: Path) -> None:
    async with in_process(tmp_path) as daemon:
        held = Held(sorted((tmp_path / "state").glob("journal.0*.log"))[2])
        first = asyncio.create_task(daemon.command(dict(CLEAR)))
        fd: int | None = await reached(held)
        try:
            second = await asyncio.wait_for(daemon.command(dict(CLEAR)), TIMEOUT)
            assert second["ok"] is False and "a critical memory clear is running already" in second["error"]
            assert not first.done()
            assert fd is not None
            held.feed(fd, held.good)
            fd = None
            assert await first == {"ok": True}
            assert daemon.memory.fault is None and not (tmp_path / "state" / FAULT_NAME).exists()
        finally:
            if fd is not None:
                os.close(fd)                    # failed while held: the check reads its end, and ends


async def test_the_screens_client_waits_for_the_clear_while_other_clients_are_answered(
        tmp_path: Path) -> None:
    """Through the control socket, as the dealer screen sends it: ``Control`` waits for the clear as
    long as the command declares, and meanwhile another client's ``state`` and ``act`` are answered."""
    async with in_process(tmp_path) as daemon:
        assert daemon.pit is not None
        context = zmq.asyncio.Context()
        endpoint = daemon.pit.endpoints["control"]
        held = Held(sorted((tmp_path / "state").glob("journal.0*.log"))[2])
        clear = asyncio.create_task(Control(endpoint, context).send(dict(CLEAR)))
        fd: int | None = await reached(held)
        try:
            other = Control(endpoint, context)
            state = await other.send({"cmd": "state"})
            assert state["ok"] is True and state["seq"] == daemon.table.state.seq
            acted = await other.send({"cmd": "act", "action": "deal"})
            assert acted["ok"] is False and "critical memory fault" in acted["error"]
            assert not clear.done()
            assert fd is not None
            held.feed(fd, held.good)
            fd = None
            assert await clear == {"ok": True}
            assert daemon.memory.fault is None
        finally:
            if fd is not None:
                os.close(fd)
            clear.cancel()
            await asyncio.gather(clear, return_exceptions=True)
            context.destroy(linger=0)


async def instruction(control: Control) -> str:
    """The dealer's instruction in the table's ``state`` (it names a critical memory fault)."""
    state = await control.send({"cmd": "state"})
    return str(state["state"]["instruction"])


async def test_a_client_that_waits_less_than_the_clear_says_it_may_still_be_carried_out(
        tmp_path: Path) -> None:
    """The blocking client, told to wait less than the clear declares, says so while the check is
    held, in words that tell the supervisor what it means; the clear goes on (a second one, from the
    screen's client, is refused: one runs already), and the table's ``state`` then shows the fault
    gone, as the words say to check."""
    async with in_process(tmp_path) as daemon:
        assert daemon.pit is not None
        context = zmq.asyncio.Context()
        endpoints = daemon.pit.endpoints
        pit = PitClient("T01", endpoints["publish"], endpoints["sync"], endpoints["control"],
                        context=zmq.Context())
        held = Held(sorted((tmp_path / "state").glob("journal.0*.log"))[2])
        control = Control(endpoints["control"], context)
        fd: int | None = None
        try:
            with pytest.raises(PitError) as raised:
                await asyncio.to_thread(pit.control, dict(CLEAR), 0.2)
            assert str(raised.value) == unanswered(CLEAR, 0.2)
            assert "may still carry it out" in str(raised.value)
            fd = await reached(held)                    # the clear is in its check, held
            again = await control.send(dict(CLEAR), timeout=TIMEOUT)
            assert again["ok"] is False and "a critical memory clear is running already" in again["error"]
            assert "critical memory fault" in await instruction(control)
            held.feed(fd, held.good)
            fd = None
            async with asyncio.timeout(TIMEOUT):        # the table's state says what came of it
                while "critical memory fault" in await instruction(control):
                    await asyncio.sleep(0.05)
            assert daemon.memory.fault is None
        finally:
            if fd is not None:
                os.close(fd)
            pit.close()
            pit.context.destroy(linger=0)
            context.destroy(linger=0)
