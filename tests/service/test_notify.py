"""The systemd notify protocol against a real AF_UNIX datagram socket standing in for systemd.

The socket is bound by the test, at a path or in the abstract namespace, exactly as
systemd binds its own; the daemon is told of it in ``NOTIFY_SOCKET`` (and of a watchdog
in ``WATCHDOG_USEC``) and every datagram it sends is read back.
"""

from __future__ import annotations

import asyncio
import itertools
import select
import signal
import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon.loop import Daemon
from controller.daemon.service import Notifier, Watchdog
from controller.devkit.simulated import write_config
from tests.rigs.daemon_rig import TableRig

WAIT = 10.0


class FakeSystemd:
    """A datagram socket where systemd's would be; ``env`` points a daemon at it."""

    def __init__(self, folder: Path, abstract: bool) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = f"table-controller-test-{uuid.uuid4().hex}"
            self.sock.bind("\0" + name)
            self.env = f"@{name}"
        else:
            self.sock.bind(str(folder / "notify"))
            self.env = str(folder / "notify")

    def receive(self, timeout: float = WAIT) -> str:
        """The next message; fails after ``timeout`` seconds without one."""
        ready, _, _ = select.select([self.sock], [], [], timeout)
        assert ready, f"no notify message within {timeout} s"
        return self.sock.recv(4096).decode()

    def until(self, wanted: str, timeout: float = WAIT) -> list[str]:
        """Messages up to and including the first one holding the line ``wanted``."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while not seen or wanted not in seen[-1].splitlines():
            seen.append(self.receive(max(deadline - time.monotonic(), 0)))
        return seen

    def silent_for(self, seconds: float) -> bool:
        """Whether nothing at all arrives for ``seconds`` (blocks the caller meanwhile)."""
        ready, _, _ = select.select([self.sock], [], [], seconds)
        return not ready

    def drain(self) -> list[str]:
        """Whatever has arrived so far, without waiting."""
        found = []
        while not self.silent_for(0):
            found.append(self.sock.recv(4096).decode())
        return found

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(params=[False, True], ids=["path", "abstract"])
def systemd(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path, abstract=request.param)
    try:
        yield fake
    finally:
        fake.close()


def test_each_message_is_one_datagram_of_assignments(systemd: FakeSystemd) -> None:
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": systemd.env})
    assert notifier.ready("T07 betting")
    assert notifier.status("two\nlines")
    assert notifier.watchdog()
    assert notifier.stopping("T07 stopping")
    notifier.close()
    assert [systemd.receive() for _ in range(4)] == [
        "READY=1\nSTATUS=T07 betting", "STATUS=two lines", "WATCHDOG=1", "STOPPING=1\nSTATUS=T07 stopping"]


def test_a_missing_supervisor_loses_messages_without_failing(tmp_path: Path) -> None:
    notifier = Notifier.from_environment({"NOTIFY_SOCKET": str(tmp_path / "nobody-listens")})
    assert notifier.enabled
    assert notifier.ready("T07 betting") is False
    assert Notifier.from_environment({}).ready("T07 betting") is False


async def test_pings_come_from_the_loop_and_stop_while_it_is_blocked(systemd: FakeSystemd) -> None:
    interval = 0.05
    watchdog = Watchdog(Notifier.from_environment({"NOTIFY_SOCKET": systemd.env}), interval)
    loop = asyncio.get_running_loop()
    watchdog.start(loop)
    try:
        await asyncio.wait_for(loop.run_in_executor(None, systemd.until, "WATCHDOG=1"), WAIT)
        await asyncio.wait_for(loop.run_in_executor(None, systemd.until, "WATCHDOG=1"), WAIT)
        systemd.drain()
        # A callback that never returns to the loop, as a deadlock would: ten intervals of silence.
        assert systemd.silent_for(10 * interval)
        # The loop turns again: the pings come back.
        assert await asyncio.wait_for(loop.run_in_executor(None, systemd.receive), WAIT) == "WATCHDOG=1"
    finally:
        watchdog.stop()
    systemd.drain()
    assert systemd.silent_for(10 * interval)                     # stopped: no more pings


def test_the_daemon_says_ready_keeps_its_status_pings_and_says_stopping(
        systemd: FakeSystemd, tmp_path: Path) -> None:
    rig = TableRig(tmp_path)
    try:
        rig.start(env={"NOTIFY_SOCKET": systemd.env, "WATCHDOG_USEC": "400000"})
        before_ready = systemd.until("READY=1")
        assert before_ready[0] == "STATUS=T07 starting: recovering the journal"
        ready = before_ready[-1].splitlines()
        assert ready[0] == "READY=1" and ready[1].startswith("STATUS=T07 betting, next hand 1; boards ")
        statuses = systemd.until("STATUS=T07 betting, next hand 1; boards online: rfid, shoe")
        assert "WATCHDOG=1" in systemd.until("WATCHDOG=1")
        assert "WATCHDOG=1" in systemd.until("WATCHDOG=1")      # again: they go on
        lines = [ready[1], *(s for s in statuses if s.startswith("STATUS="))]
        assert all(a != b for a, b in itertools.pairwise(lines))  # sent only when it changes
        rig.kill(signal.SIGTERM)
        stopping = systemd.until("STOPPING=1")[-1]
        assert stopping == "STOPPING=1\nSTATUS=T07 stopping"
    finally:
        rig.close()


async def test_a_deadlocked_callback_in_the_daemon_stops_its_pings(
        systemd: FakeSystemd, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", systemd.env)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")                 # a ping every 0.1 s
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    previous, Device.pin_factory = Device.pin_factory, MockFactory()
    loop = asyncio.get_running_loop()
    daemon = Daemon(load_config(write_config(tmp_path)))          # no boards: their links keep trying
    running = asyncio.create_task(daemon.run())
    try:
        await asyncio.wait_for(loop.run_in_executor(None, systemd.until, "READY=1"), WAIT)
        await asyncio.wait_for(loop.run_in_executor(None, systemd.until, "WATCHDOG=1"), WAIT)
        silent: asyncio.Future[bool] = loop.create_future()

        def deadlocked() -> None:                                 # runs on the daemon's loop
            systemd.drain()
            silent.set_result(systemd.silent_for(1.0))            # ten ping intervals

        loop.call_soon(deadlocked)
        assert await silent
        assert await asyncio.wait_for(loop.run_in_executor(None, systemd.until, "WATCHDOG=1"), WAIT)
    finally:
        daemon.stopping.set()
        await running
        Device.pin_factory = previous
