"""HostLink over real ptys, with the board simulator's shoe on the master end.

The host opens the pty slave through a symlink, exactly as the controller opens
``/dev/serial/by-id/...``; the simulator's ``unplug`` (the symlink and the pty
gone) is a USB board being unplugged, ``hang`` a board that falls silent and
``inject`` garbage on the line. Waiting is on events with a timeout, never sleeps.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import signal
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, Hello, Message, SpotLights, Status
from firmware_bridge.simulator.board import SimulatedBoard

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


def card(index: int) -> Card:
    return Card(index=index, rank=(index % 13) + 1, suit=index % 4)


async def plug_board(path: Path, waiter: Waiter, delivered: list[Message]) -> SimulatedBoard:
    """A simulated shoe board behind ``path``, powered on, its n-th draw ``card(n)``.

    What the host delivers to it goes to ``delivered``.
    """

    def on_message(message: Message) -> None:
        delivered.append(message)
        waiter.notify()

    board = SimulatedBoard(
        "shoe",
        link=path,
        rng=random.Random(1),
        firmware="fw-test",
        serial="SN-T",
        status_interval=0.1,
        on_message=on_message,
        on_session=waiter.notify,
    )
    await board.start()
    board.load_shoe(1, [(c.rank, c.suit) for c in map(card, range(1, 41))], cut_at=0)
    return board


@pytest.fixture
def waiter() -> Waiter:
    return Waiter()


@pytest.fixture
def delivered() -> list[Message]:
    """What the host delivered to the ``board`` fixture."""
    return []


@pytest.fixture
async def board(tmp_path: Path, waiter: Waiter, delivered: list[Message]) -> AsyncIterator[SimulatedBoard]:
    board = await plug_board(tmp_path / "shoe", waiter, delivered)
    yield board
    await board.close()


@pytest.fixture
async def host(tmp_path: Path, waiter: Waiter) -> AsyncIterator[Host]:
    host = Host(tmp_path / "shoe", waiter)
    yield host
    await host.link.close()


async def test_goes_online_and_messages_flow_both_ways(
    board: SimulatedBoard, host: Host, waiter: Waiter, delivered: list[Message]
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    assert [(h.kind, h.protocol, h.firmware, h.serial) for h in host.onlines] == [(1, 1, "fw-test", "SN-T")]
    assert host.link.hello == host.onlines[0]
    board.draw(20)
    await waiter.until(lambda: len(host.cards()) == 20)
    assert host.cards() == [card(i) for i in range(1, 21)]
    host.link.send(SpotLights(mask=5))
    await waiter.until(lambda: SpotLights(mask=5) in delivered)
    assert board.spot_lights == 5
    await waiter.until(lambda: any(isinstance(m, Status) for m in host.messages))
    assert host.offlines == []
    assert host.link.stats.framing_errors == 0 and host.link.stats.sessions == 1


async def test_silence_makes_the_board_offline_until_it_answers_again(
    board: SimulatedBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.hang()
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines == ["nothing valid received for 0.5 s"]
    assert not host.link.online
    board.resume()
    await waiter.until(lambda: len(host.onlines) == 2)
    assert len(host.offlines) == 1  # once per outage
    board.draw()
    await waiter.until(lambda: host.cards() == [card(1)])


async def test_unplugged_port_goes_offline_and_a_new_one_is_found_with_unacked_frames_resent(
    tmp_path: Path, board: SimulatedBoard, host: Host, waiter: Waiter, delivered: list[Message]
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.hang()
    host.link.send(SpotLights(mask=7))  # never acknowledged by this board
    board.unplug()
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines[0].startswith("port failed") or host.offlines[0] == "the port vanished"
    assert not host.link.is_open
    second_delivered: list[Message] = []
    second = await plug_board(tmp_path / "shoe", waiter, second_delivered)
    try:
        await waiter.until(lambda: len(host.onlines) == 2)
        await waiter.until(lambda: SpotLights(mask=7) in second_delivered)
        assert second_delivered.count(SpotLights(mask=7)) == 1
        assert SpotLights(mask=7) not in delivered
        assert len(host.offlines) == 1
    finally:
        await second.close()


async def test_missing_port_is_retried_until_it_appears(tmp_path: Path, waiter: Waiter) -> None:
    host = Host(tmp_path / "shoe", waiter)
    try:
        await host.link.start()  # nothing there yet: no exception
        assert not host.link.is_open and not host.link.online
        board = await plug_board(tmp_path / "shoe", waiter, [])
        try:
            await waiter.until(lambda: host.link.online)
            assert host.offlines == []
        finally:
            await board.close()
    finally:
        await host.link.close()
        await host.link.close()  # idempotent


async def test_board_restart_ends_the_session_and_a_new_one_starts(
    board: SimulatedBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.reboot()
    await waiter.until(lambda: len(host.onlines) == 2)
    assert host.offlines == ["board restarted"]
    board.draw()
    await waiter.until(lambda: host.cards() == [card(1)])


async def test_garbage_on_the_line_is_counted_and_does_not_stall(
    board: SimulatedBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    board.inject(b"\xff\xee\x12\x00" + b"\x05\x01\x02\x03\x00" + bytes(range(1, 200)) + b"\x00")
    board.draw()
    await waiter.until(lambda: host.cards() == [card(1)])
    assert host.link.stats.framing_errors >= 3
    # noise with no delimiter spoils the next frame; the board's retransmission brings it through
    board.inject(b"\x17\x42")
    board.draw()
    await waiter.until(lambda: host.cards() == [card(1), card(2)])
    assert host.link.stats.framing_errors >= 4
    assert host.link.online and host.offlines == []


async def test_stats_are_logged_periodically(
    board: SimulatedBoard, tmp_path: Path, waiter: Waiter, caplog: pytest.LogCaptureFixture
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
    logged = [r.getMessage() for r in caplog.records if "framing_errors=" in r.getMessage()]
    assert len(logged) >= 2 and all(re.search(r"sent=\d+ frames/\d+ B received=\d+ frames/\d+ B", line)
                                    for line in logged), logged


async def test_vanished_path_alone_is_noticed(
    tmp_path: Path, board: SimulatedBoard, host: Host, waiter: Waiter
) -> None:
    await host.link.start()
    await waiter.until(lambda: host.link.online)
    (tmp_path / "shoe").unlink()  # the pty still works, but the device path is gone
    await waiter.until(lambda: bool(host.offlines))
    assert host.offlines == ["the port vanished"]
    assert not host.link.is_open


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
async def test_connect_command_prints_json_lines_and_stops_cleanly_on_a_signal(
    tmp_path: Path, board: SimulatedBoard, signum: int
) -> None:
    assert board.shoe is not None
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "firmware_bridge.cli", "connect", str(tmp_path / "shoe"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    try:
        async with asyncio.timeout(TIMEOUT):
            first = json.loads(await proc.stdout.readline())
            assert first == {"link": "online", "kind": "shoe", "firmware": "fw-test", "serial": "SN-T"}
            board.draw()
            others = []
            while (line := json.loads(await proc.stdout.readline()))["type"] != "CARD":
                if line["type"] == "STATUS":
                    assert set(line) == {"type", "uptime_ms", "flags"}
                else:
                    others.append(line)
            assert others == [{"type": "SHOE_LOADED", "shoe_id": board.shoe.shoe_id, "decks": 1}]
            assert line == {"type": "CARD", "index": 1, "rank": 2, "suit": 1}
            proc.send_signal(signum)
            assert await proc.wait() == 0
        assert b"Traceback" not in await proc.stderr.read()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
