"""HostLink over real ptys: the test plays the board on the master end with a BoardSession.

The host opens the pty slave through a symlink, exactly as the controller opens
``/dev/serial/by-id/...``; removing the symlink and closing the master is a
USB board being unplugged. Waiting is on events with a timeout, never sleeps.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import tty
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, Hello, Message, SpotLights, Status
from firmware_bridge.link.session import BoardSession, Delivered, default_rto
from firmware_bridge.link.stats import LinkStats

TIMEOUT = 5.0


class Waiter:
    """Wakes the test whenever anything happened on either end."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        self._event.set()

    async def until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async with asyncio.timeout(timeout):
            while not predicate():
                self._event.clear()
                await self._event.wait()


class PtyBoard:
    """A board on the master end of a new pty, reachable at ``path`` (a symlink to the slave)."""

    def __init__(self, path: Path, waiter: Waiter, *, heartbeat: float = 0.1) -> None:
        self.loop = asyncio.get_running_loop()
        self.waiter = waiter
        self.heartbeat = heartbeat
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # before anything is written
        os.set_blocking(self.master, False)
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        path.symlink_to(os.ttyname(self.slave))
        self.path = path
        self.stats = LinkStats()
        self.session = self._new_session()
        self.delivered: list[Message] = []
        self.sessions = 0
        self.deaf = False
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._beat: asyncio.TimerHandle | None = None

    def _new_session(self) -> BoardSession:
        return BoardSession(
            stats=self.stats, kind=1, firmware="fw-test", serial="SN-T", rto=default_rto(115200)
        )

    def boot(self) -> None:
        self.loop.add_reader(self.master, self._readable)
        self.session.boot(self.loop.time())
        self._flush()
        self._beat = self.loop.call_later(self.heartbeat, self._heartbeat)

    def reboot(self) -> None:
        self.session = self._new_session()
        self.session.boot(self.loop.time())
        self._flush()

    def send(self, message: Message) -> None:
        self.session.send(message, self.loop.time())
        self._flush()

    def write_raw(self, data: bytes) -> None:
        os.write(self.master, data)

    def go_deaf(self) -> None:
        """Stop reading and writing (the board hangs); bytes from the host wait in the pty."""
        self.deaf = True
        self.loop.remove_reader(self.master)

    def wake(self) -> None:
        self.deaf = False
        self.loop.add_reader(self.master, self._readable)

    def unplug(self) -> None:
        """The USB cable is pulled: the symlink goes and the pty with it."""
        self.path.unlink()
        self.close()

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for handle in (self._timer, self._beat):
            if handle is not None:
                handle.cancel()
        self.loop.remove_reader(self.master)
        os.close(self.master)
        os.close(self.slave)

    def _readable(self) -> None:
        try:
            data = os.read(self.master, 4096)
        except BlockingIOError:
            return
        for event in self.session.receive(data, self.loop.time()):
            if isinstance(event, Delivered):
                self.delivered.append(event.message)
            else:
                self.sessions += 1
        self._flush()
        self.waiter.notify()

    def _heartbeat(self) -> None:
        now = self.loop.time()
        if self.session.in_session and not self.deaf and self.session.pending < 8:
            self.session.send(Status(uptime_ms=int(now * 1000) & 0xFFFFFFFF, flags=0), now)
            self._flush()
        self._beat = self.loop.call_later(self.heartbeat, self._heartbeat)

    def _poll(self) -> None:
        self._timer = None
        self.session.poll(self.loop.time())
        self._flush()

    def _flush(self) -> None:
        data = self.session.take_output()
        if data and not self.deaf and not self.closed:
            os.write(self.master, data)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.session.next_deadline()
        if deadline is not None and not self.closed:
            self._timer = self.loop.call_at(deadline, self._poll)


class Host:
    """A HostLink with its callbacks recorded."""

    def __init__(self, port: Path, waiter: Waiter, *, stats_interval: float | None = None) -> None:
        self.waiter = waiter
        self.messages: list[Message] = []
        self.onlines: list[Hello] = []
        self.offlines: list[str] = []
        self.link = HostLink(
            str(port),
            on_message=self._message,
            on_online=self._online,
            on_offline=self._offline,
            offline_after=0.5,
            reopen_interval=0.1,
            stats_interval=stats_interval,
        )

    def _message(self, message: Message) -> None:
        self.messages.append(message)
        self.waiter.notify()

    def _online(self, hello: Hello) -> None:
        self.onlines.append(hello)
        self.waiter.notify()

    def _offline(self, reason: str) -> None:
        self.offlines.append(reason)
        self.waiter.notify()

    def cards(self) -> list[Card]:
        return [m for m in self.messages if isinstance(m, Card)]


@pytest.fixture
def waiter() -> Waiter:
    return Waiter()


@pytest.fixture
async def board(tmp_path: Path, waiter: Waiter) -> AsyncIterator[PtyBoard]:
    board = PtyBoard(tmp_path / "shoe", waiter)
    board.boot()
    yield board
    board.close()


@pytest.fixture
async def host(tmp_path: Path, waiter: Waiter) -> AsyncIterator[Host]:
    host = Host(tmp_path / "shoe", waiter)
    yield host
    await host.link.close()


def card(index: int) -> Card:
    return Card(index=index, rank=(index % 13) + 1, suit=index % 4)


async def test_goes_online_and_messages_flow_both_ways(board: PtyBoard, host: Host, waiter: Waiter) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    assert [(h.kind, h.protocol, h.firmware, h.serial) for h in host.onlines] == [(1, 1, "fw-test", "SN-T")]
    assert host.link.hello == host.onlines[0]
    for i in range(1, 21):
        board.send(card(i))
    await waiter.until(lambda: len(host.cards()) == 20)
    assert host.cards() == [card(i) for i in range(1, 21)]
    host.link.send(SpotLights(mask=5))
    await waiter.until(lambda: SpotLights(mask=5) in board.delivered)
    await waiter.until(lambda: any(isinstance(m, Status) for m in host.messages))
    assert host.offlines == []
    assert host.link.stats.framing_errors == 0 and host.link.stats.sessions == 1


async def test_silence_makes_the_board_offline_until_it_answers_again(
    board: PtyBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.go_deaf()
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines == ["nothing valid received for 0.5 s"]
    assert not host.link.online
    board.wake()
    await waiter.until(lambda: len(host.onlines) == 2)
    assert len(host.offlines) == 1  # once per outage
    board.send(card(1))
    await waiter.until(lambda: host.cards() == [card(1)])


async def test_unplugged_port_goes_offline_and_a_new_one_is_found_with_unacked_frames_resent(
    tmp_path: Path, board: PtyBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.go_deaf()
    host.link.send(SpotLights(mask=7))  # never acknowledged by this board
    board.unplug()
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines[0].startswith("port failed") or host.offlines[0] == "the port vanished"
    assert not host.link.is_open
    second = PtyBoard(tmp_path / "shoe", waiter)
    try:
        second.boot()
        await waiter.until(lambda: len(host.onlines) == 2)
        await waiter.until(lambda: SpotLights(mask=7) in second.delivered)
        assert second.delivered.count(SpotLights(mask=7)) == 1
        assert SpotLights(mask=7) not in board.delivered
        assert len(host.offlines) == 1
    finally:
        second.close()


async def test_missing_port_is_retried_until_it_appears(tmp_path: Path, waiter: Waiter) -> None:
    host = Host(tmp_path / "shoe", waiter)
    try:
        await host.link.start()  # nothing there yet: no exception
        assert not host.link.is_open and not host.link.online
        board = PtyBoard(tmp_path / "shoe", waiter)
        try:
            board.boot()
            await waiter.until(lambda: host.link.online)
            assert host.offlines == []
        finally:
            board.close()
    finally:
        await host.link.close()
        await host.link.close()  # idempotent


async def test_board_restart_ends_the_session_and_a_new_one_starts(
    board: PtyBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.reboot()
    await waiter.until(lambda: len(host.onlines) == 2)
    assert host.offlines == ["board restarted"]
    board.send(card(3))
    await waiter.until(lambda: host.cards() == [card(3)])


async def test_garbage_on_the_line_is_counted_and_does_not_stall(
    board: PtyBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.write_raw(b"\xff\xee\x12\x00" + b"\x05\x01\x02\x03\x00" + bytes(range(1, 200)) + b"\x00")
    board.send(card(1))
    await waiter.until(lambda: host.cards() == [card(1)])
    assert host.link.stats.framing_errors >= 3
    # noise with no delimiter spoils the next frame; the board's retransmission brings it through
    board.write_raw(b"\x17\x42")
    board.send(card(2))
    await waiter.until(lambda: host.cards() == [card(1), card(2)])
    assert host.link.stats.framing_errors >= 4
    assert host.link.online and host.offlines == []


async def test_stats_are_logged_periodically(
    board: PtyBoard, tmp_path: Path, waiter: Waiter, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="firmware_bridge.link.host")

    class Notify(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            waiter.notify()

    handler = Notify()
    logging.getLogger("firmware_bridge.link.host").addHandler(handler)
    host = Host(tmp_path / "shoe", waiter, stats_interval=0.05)
    try:
        await host.link.start()
        await waiter.until(lambda: sum("framing_errors=" in r.getMessage() for r in caplog.records) >= 2)
    finally:
        logging.getLogger("firmware_bridge.link.host").removeHandler(handler)
        await host.link.close()


async def test_vanished_path_alone_is_noticed(board: PtyBoard, host: Host, waiter: Waiter) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.path.unlink()  # the pty still works, but the device path is gone
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines == ["the port vanished"]
    assert not host.link.is_open


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_connect_command_prints_json_lines_and_stops_cleanly_on_a_signal(
    board: PtyBoard, signum: int
) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "firmware_bridge.cli", "connect", str(board.path),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        async with asyncio.timeout(TIMEOUT):
            first = json.loads(await proc.stdout.readline())
            assert first == {"link": "online", "kind": "shoe", "firmware": "fw-test", "serial": "SN-T"}
            board.send(card(1))
            while (line := json.loads(await proc.stdout.readline())).get("type") == "STATUS":
                assert set(line) == {"type", "uptime_ms", "flags"}
            assert line == {"type": "CARD", "index": 1, "rank": 2, "suit": 1}
            proc.send_signal(signum)
            assert await proc.wait() == 0
        assert b"Traceback" not in await proc.stderr.read()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
