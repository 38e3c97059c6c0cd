"""Tests of the simulated board over real ptys, seen from a host built on HostSession, and of its CLI."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import sys
import termios
import tty
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

import pytest

from firmware_bridge.link.frames import Frame, FrameError, FrameReader
from firmware_bridge.link.messages import (
    MAX_CHIPS,
    Card,
    CardUnreadable,
    Chip,
    CutCard,
    Fault,
    Hello,
    Inventory,
    Message,
    ShoeLoaded,
    SpotLights,
    Status,
    is_data,
    unpack,
)
from firmware_bridge.link.session import Delivered, HostSession, SessionEnded, SessionStarted
from firmware_bridge.link.stats import LinkStats
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.faults import FaultPlan, corrupt_frame, split_frames
from firmware_bridge.simulator.models import SHOE_EMPTY, TOO_MANY_CHIPS
from firmware_bridge.simulator.pty_port import MAX_BACKLOG

TIMEOUT = 5.0


class PtyHost:
    """A minimal host for tests: a HostSession on the pty slave, driven from the running loop.

    It records every raw frame (``frames``) and session event (``events``) and
    lets a test wait, without polling, until a condition on them holds.
    """

    def __init__(self, path: str, *, rto: float = 0.05, session: bool = True) -> None:
        self.loop = asyncio.get_running_loop()
        self.fd: int | None = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(self.fd, termios.TCSANOW)  # keep what the board wrote before we opened
        nonces = itertools.count(1)
        self.session = HostSession(stats=LinkStats(), nonce=lambda: next(nonces), rto=rto)
        self.use_session = session
        self.reader = FrameReader()
        self.frames: list[Frame | FrameError] = []
        self.events: list[Delivered | SessionStarted | SessionEnded] = []
        self.received = bytearray()
        self.hangup = False
        self._conditions: list[tuple[Callable[[], bool], asyncio.Future[None]]] = []
        self._timer: asyncio.TimerHandle | None = None
        self.loop.add_reader(self.fd, self._on_read)

    @property
    def delivered(self) -> list[Message]:
        return [e.message for e in self.events if isinstance(e, Delivered)]

    def start(self) -> None:
        self.session.start(self.loop.time())
        self._flush()

    def send(self, message: Message) -> None:
        self.session.send(message, self.loop.time())
        self._flush()

    def write_raw(self, data: bytes) -> None:
        assert self.fd is not None
        os.write(self.fd, data)

    def _on_read(self) -> None:
        assert self.fd is not None
        try:
            data = os.read(self.fd, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.hangup = True
            self.loop.remove_reader(self.fd)
        else:
            self.received += data
            self.frames += self.reader.feed(data)
            if self.use_session:
                self.events += self.session.receive(data, self.loop.time())
                self._flush()
        self._check()

    def _flush(self) -> None:
        out = self.session.take_output()
        if out and self.fd is not None and not self.hangup:
            os.write(self.fd, out)
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = self.session.next_deadline()
        if deadline is not None:
            self._timer = self.loop.call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self.events += self.session.poll(self.loop.time())
        self._flush()
        self._check()

    def _check(self) -> None:
        for condition, future in list(self._conditions):
            if not future.done() and condition():
                future.set_result(None)
                self._conditions.remove((condition, future))

    async def until(self, condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        """Return once ``condition()`` holds (checked after every read and timer)."""
        if condition():
            return
        future = self.loop.create_future()
        self._conditions.append((condition, future))
        try:
            await asyncio.wait_for(future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._conditions.remove((condition, future))

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.fd is not None:
            if not self.hangup:
                self.loop.remove_reader(self.fd)
            os.close(self.fd)
            self.fd = None


def messages_of(frames: Sequence[Frame | FrameError]) -> list[Message]:
    """Every frame that decodes to a message (control frames included)."""
    out: list[Message] = []
    for frame in frames:
        if isinstance(frame, Frame):
            with contextlib.suppress(Exception):
                out.append(unpack(frame.type, frame.payload))
    return out


def cards(messages: Sequence[Message]) -> list[int]:
    return [m.index for m in messages if isinstance(m, Card)]


@pytest.fixture
async def shoe(tmp_path: Path) -> AsyncIterator[SimulatedBoard]:
    board = SimulatedBoard("shoe", link=tmp_path / "shoe0", rng=random.Random(7), rto=0.05)
    yield board
    await board.close()


async def connect(board: SimulatedBoard, *, start: bool = True, session: bool = True) -> PtyHost:
    path = board.path if board.path is not None else await board.start()
    host = PtyHost(path, session=session)
    if start:
        host.start()
        await host.until(lambda: host.session.in_session)
    return host


async def test_boot_hello_then_silence_until_a_reset(shoe: SimulatedBoard, tmp_path: Path) -> None:
    path = await shoe.start()
    assert path == str(tmp_path / "shoe0")
    assert os.readlink(path) == shoe.slave_path
    shoe.load_shoe(1, [(1, 3), (13, 1)], cut_at=0)
    shoe.draw(2)
    host = await connect(shoe, start=False, session=False)
    try:
        await host.until(lambda: len(host.frames) >= 1)
        assert messages_of(host.frames) == [Hello(0, 1, 1, "sim-1.0.0", "SIM-SHOE-0001")]
        assert not shoe.in_session
        assert shoe.pending == 3
        # Now RESET by hand and read on: HELLO(nonce) comes first, then the data, from seq 0.
        host.session.start(host.loop.time())
        host.write_raw(host.session.take_output())
        await host.until(lambda: len(cards(messages_of(host.frames))) == 2)
        first = host.frames[1]
        assert isinstance(first, Frame)
        assert unpack(first.type, first.payload) == Hello(1, 1, 1, "sim-1.0.0", "SIM-SHOE-0001")
        data = [f for f in host.frames[2:] if isinstance(f, Frame) and is_data(f.type)]
        assert [f.seq for f in data] == list(range(len(data)))
        assert shoe.shoe is not None and shoe.shoe.shoe_id is not None
        assert messages_of(data)[:3] == [ShoeLoaded(shoe.shoe.shoe_id, 1), Card(1, 1, 3), Card(2, 13, 1)]
        assert shoe.in_session
    finally:
        host.close()


async def test_cards_are_delivered_in_order_and_acknowledged(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.load_shoe(2)
        shoe.arm_unreadable()
        shoe.draw(104)
        await shoe.wait_idle()
        delivered = host.delivered
        assert shoe.shoe is not None and shoe.shoe.shoe_id is not None
        assert [m for m in delivered if isinstance(m, ShoeLoaded)] == [ShoeLoaded(shoe.shoe.shoe_id, 2)]
        shoe_messages = [m for m in delivered if isinstance(m, Card | CardUnreadable | CutCard)]
        assert shoe_messages[0] == CardUnreadable(1)
        assert cards(shoe_messages) == list(range(2, 105))
        assert CutCard(78) in shoe_messages
        assert shoe_messages.index(CutCard(78)) == 78  # right after card 78
        assert shoe.pending == 0
        # Every data message is in the sent log once, in order, with its first write time.
        logged = [m for _, m in shoe.sent_log]
        assert [m for m in logged if not isinstance(m, Status)] == [
            m for m in delivered if not isinstance(m, Status)
        ]
        times = [t for t, _ in shoe.sent_log]
        assert times == sorted(times)
    finally:
        host.close()


async def test_status_heartbeat_in_a_session(tmp_path: Path) -> None:
    board = SimulatedBoard("shoe", rng=random.Random(1), status_interval=0.05, rto=0.05)
    await board.start()
    host = await connect(board)
    try:
        await host.until(lambda: sum(isinstance(m, Status) for m in host.delivered) >= 4)
        statuses = [m for m in host.delivered if isinstance(m, Status)]
        uptimes = [s.uptime_ms for s in statuses]
        assert uptimes == sorted(uptimes)
        assert all(s.flags == SHOE_EMPTY for s in statuses)
        assert board.path is not None and board.path == board.slave_path
    finally:
        host.close()
        await board.close()


async def test_rfid_inventories_spot_lights_and_the_85_chip_limit(tmp_path: Path) -> None:
    seen: list[Message] = []
    board = SimulatedBoard(
        "rfid", rng=random.Random(2), inventory_interval=0.1, status_interval=0.1, on_message=seen.append
    )
    await board.start()
    board.place(3, [("00000000000000aa", 500)])
    host = await connect(board)
    try:
        # The session starts with the complete set of every antenna in use.
        await host.until(lambda: Inventory(3, (Chip("00000000000000aa", 500),)) in host.delivered)
        board.place(5, [(f"{n:016x}", 100) for n in range(90)])
        await host.until(
            lambda: any(isinstance(m, Inventory) and m.antenna == 5 for m in host.delivered)
            and any(isinstance(m, Status) and m.flags & TOO_MANY_CHIPS for m in host.delivered)
        )
        five = [m for m in host.delivered if isinstance(m, Inventory) and m.antenna == 5]
        assert len(five[0].chips) == MAX_CHIPS
        # Periodic: both antennas again within a few intervals, unchanged.
        before = len(host.delivered)
        await host.until(
            lambda: {m.antenna for m in host.delivered[before:] if isinstance(m, Inventory)} == {3, 5}
        )
        board.clear(3)
        await host.until(lambda: Inventory(3, ()) in host.delivered)
        host.send(SpotLights(0b10100))
        await host.until(lambda: board.spot_lights == 0b10100)
        assert seen == [SpotLights(0b10100)]
    finally:
        host.close()
        await board.close()


async def test_corrupted_frames_fail_the_crc_and_dropped_ones_never_arrive(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.faults.corrupt_rate = 1.0
        shoe.fault(1, "sensor")
        await host.until(lambda: host.session.stats.crc_errors >= 3)
        assert not any(isinstance(m, Fault) for m in host.delivered)
        shoe.faults.corrupt_rate = 0.0
        await host.until(lambda: Fault(1, "sensor") in host.delivered)
        await shoe.wait_idle()  # the board has read the host's ACK too
        assert shoe.frames_corrupted >= 3
        shoe.faults.drop_rate = 1.0
        dropped = shoe.frames_dropped
        shoe.fault(3, "antenna")
        assert shoe.frames_dropped == dropped + 1
        assert shoe.pending == 1
        shoe.faults.clear()
        await host.until(lambda: Fault(3, "antenna") in host.delivered)
        assert host.delivered.count(Fault(3, "antenna")) == 1
    finally:
        host.close()


async def test_noise_costs_only_the_frames_it_touches(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.load_shoe(1, [(n % 13 + 1, n % 4) for n in range(40)], cut_at=0)
        for _ in range(10):
            shoe.noise(100)
            shoe.draw(4)
        await shoe.wait_idle()
        assert cards(host.delivered) == list(range(1, 41))
        assert host.session.stats.framing_errors >= 1
        assert shoe.noise_sent == 1000
    finally:
        host.close()


async def test_inject_writes_the_bytes_as_they_are(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.load_shoe(1, [(1, 0), (2, 0)], cut_at=0)
        shoe.draw()
        await shoe.wait_idle()
        errors = host.session.stats.framing_errors
        shoe.inject(b"\x05\x01\x02\x03\x00")  # a broken COBS frame (4 bytes announced, 3 given)
        shoe.draw()
        await shoe.wait_idle()
        assert b"\x00\x05\x01\x02\x03\x00" in host.received
        assert host.session.stats.framing_errors == errors + 1
        assert cards(host.delivered) == [1, 2] and shoe.noise_sent == 5
    finally:
        host.close()


async def test_a_hung_board_is_silent_until_it_resumes(tmp_path: Path) -> None:
    board = SimulatedBoard(
        "rfid", rng=random.Random(4), status_interval=0.05, inventory_interval=0.05, rto=0.05
    )
    await board.start()
    board.place(1, [("00000000000000aa", 100)])
    host = await connect(board)
    try:
        await board.wait_idle()
        board.hang()
        assert board.hung
        heard = len(host.received)
        board.place(2, [("00000000000000bb", 500)])
        host.send(SpotLights(3))
        # the host's own retransmission timer is the clock: many STATUS periods pass meanwhile
        retransmissions = host.session.stats.retransmissions
        await host.until(lambda: host.session.stats.retransmissions >= retransmissions + 3)
        assert len(host.received) == heard
        assert board.spot_lights == 0 and board.pending == 1
        with pytest.raises(RuntimeError, match="already hung"):
            board.hang()
        statuses = sum(isinstance(m, Status) for m in host.delivered)
        board.resume()
        assert not board.hung
        await host.until(lambda: Inventory(2, (Chip("00000000000000bb", 500),)) in host.delivered)
        await host.until(lambda: board.spot_lights == 3)
        await host.until(lambda: sum(isinstance(m, Status) for m in host.delivered) > statuses)
        with pytest.raises(RuntimeError, match="not hung"):
            board.resume()
    finally:
        host.close()
        await board.close()


async def test_a_reboot_ends_a_hang(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.hang()
        shoe.reboot()
        assert not shoe.hung
        await host.until(lambda: any(isinstance(e, SessionEnded) for e in host.events))
        await host.until(lambda: host.session.in_session and shoe.in_session)
        assert Hello(0, 1, 1, "sim-1.0.0", "SIM-SHOE-0001") in messages_of(host.frames)
    finally:
        host.close()


async def test_reboot_keeps_the_outbox_and_says_hello_again(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe)
    try:
        shoe.load_shoe(1, [(1, 0)] * 30, cut_at=0)
        await shoe.wait_idle()
        shoe.faults.drop_rate = 1.0  # nothing reaches the host: everything stays unacknowledged
        shoe.draw(30)
        host.send(SpotLights(1))
        await host.until(lambda: shoe.spot_lights == 1)
        assert shoe.pending == 30
        shoe.faults.drop_rate = 0.0
        sessions = shoe.stats.sessions
        shoe.reboot()
        assert shoe.spot_lights == 0
        assert not shoe.in_session
        await host.until(lambda: any(isinstance(e, SessionEnded) for e in host.events))
        await host.until(lambda: cards(host.delivered) == list(range(1, 31)))
        assert Hello(0, 1, 1, "sim-1.0.0", "SIM-SHOE-0001") in messages_of(host.frames)
        await shoe.wait_idle()
        assert shoe.stats.sessions == sessions + 1
    finally:
        host.close()


async def test_a_failing_callback_costs_the_board_nothing(shoe: SimulatedBoard) -> None:
    seen: list[Message] = []

    def on_message(message: Message) -> None:
        if message == SpotLights(1):
            raise RuntimeError("the test's callback fails")
        seen.append(message)

    shoe.on_message = on_message
    host = await connect(shoe)
    try:
        host.send(SpotLights(1))
        host.send(SpotLights(2))  # the board reads both at once
        await host.until(lambda: host.session.pending == 0)
        assert shoe.spot_lights == 2 and seen == [SpotLights(2)]
    finally:
        host.close()


async def test_unplug_and_replug_behind_the_same_link(shoe: SimulatedBoard) -> None:
    path = await shoe.start()
    host = await connect(shoe)
    try:
        shoe.load_shoe(1, [(2, 1)] * 10, cut_at=0)
        await shoe.wait_idle()
        shoe.unplug()
        assert not os.path.lexists(path)
        assert not shoe.plugged and shoe.path is None
        await host.until(lambda: host.hangup)
        shoe.draw(10)  # written to nowhere, kept in the outbox
        assert shoe.pending >= 10 and shoe.bytes_discarded > 0
        with pytest.raises(RuntimeError):
            shoe.unplug()
        host.close()
        assert await shoe.replug() == path
        assert os.readlink(path) == shoe.slave_path
        host = await connect(shoe, start=False)
        assert shoe.in_session  # powered through: no boot HELLO, the host must RESET
        host.start()
        await host.until(lambda: cards(host.delivered) == list(range(1, 11)))
        assert not any(isinstance(m, Hello) and m.nonce == 0 for m in messages_of(host.frames))
        await shoe.wait_idle()
    finally:
        host.close()


async def test_a_reader_that_does_not_read_is_buffered_not_lost(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe, start=False, session=False)
    try:
        shoe.noise(300_000)  # far more than the pty holds
        await host.until(lambda: len(host.received) == 300_000 + shoe.stats.bytes_sent)
        assert shoe.bytes_discarded == 0
    finally:
        host.close()


async def test_output_beyond_the_backlog_limit_is_discarded_and_counted(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe, start=False, session=False)
    try:
        kept, lost = MAX_BACKLOG * 3 // 4, MAX_BACKLOG // 2
        shoe.noise(kept)  # waits for the reader, far beyond what the pty holds
        shoe.noise(lost)  # would make more than MAX_BACKLOG wait: discarded whole
        assert shoe.bytes_discarded == lost and shoe.noise_sent == kept + lost
        await host.until(lambda: len(host.received) == kept + shoe.stats.bytes_sent)
        shoe.noise(lost)  # once the reader caught up there is room again
        await host.until(lambda: len(host.received) == kept + lost + shoe.stats.bytes_sent)
        assert shoe.bytes_discarded == lost
    finally:
        host.close()


async def test_unplugging_discards_what_waits_for_the_line(shoe: SimulatedBoard) -> None:
    await shoe.start()
    host = await connect(shoe, start=False, session=False)
    try:
        shoe.noise(300_000)  # far more than the pty holds: most of it waits in the board
        shoe.unplug()
        assert 0 < shoe.bytes_discarded <= 300_000
    finally:
        host.close()


async def test_close_removes_the_link_and_cancels_waiters(tmp_path: Path) -> None:
    link = tmp_path / "rfid0"
    link.symlink_to("/nonexistent")  # a stale link is replaced
    board = SimulatedBoard("rfid", link=link, rng=random.Random(3))
    await board.start()
    assert os.readlink(link) == board.slave_path
    board.place(1, [("0000000000000001", 100)])
    closing = asyncio.create_task(board.close())  # runs once wait_idle() below is waiting
    with pytest.raises(asyncio.CancelledError):
        await board.wait_idle()
    await closing
    assert not os.path.lexists(link)
    with pytest.raises(RuntimeError):
        board.place(1, [])
    await board.close()


def test_fault_helpers_and_the_plan() -> None:
    plan = FaultPlan()
    assert (plan.drop_rate, plan.corrupt_rate, plan.rx_drop_rate) == (0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        plan.corrupt_rate = -0.1
    rng = random.Random(5)
    from firmware_bridge.link.frames import encode_frame

    wire = b"".join(encode_frame(Frame(0x21, n, 255, bytes(6))) for n in range(50))
    frames = split_frames(wire)
    assert len(frames) == 50
    for frame in frames:
        bad = corrupt_frame(frame, rng)
        assert bad.count(0) == 1 and bad.endswith(b"\x00")
        assert FrameReader().feed(bad) == [FrameError("CRC mismatch")]
    with pytest.raises(ValueError):
        SimulatedBoard("dice")  # type: ignore[arg-type]


# --- the command-line simulator ---------------------------------------------------------------


class CliProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process

    async def line(self) -> dict[str, object]:
        assert self.process.stdout is not None
        raw = await asyncio.wait_for(self.process.stdout.readline(), TIMEOUT)
        assert raw, "the simulator closed stdout"
        answer = json.loads(raw)
        assert isinstance(answer, dict)
        return answer

    async def ask(self, command: str | dict[str, object]) -> dict[str, object]:
        assert self.process.stdin is not None
        text = command if isinstance(command, str) else json.dumps(command)
        self.process.stdin.write(text.encode() + b"\n")
        await self.process.stdin.drain()
        return await self.line()


async def start_cli(*args: str, stdin: int | None = asyncio.subprocess.PIPE) -> CliProcess:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "firmware_bridge.simulator.cli", *args,
        stdin=stdin, stdout=asyncio.subprocess.PIPE,
    )
    return CliProcess(process)


async def test_cli_drives_a_shoe_over_its_pty(tmp_path: Path) -> None:
    link = tmp_path / "shoe1"
    cli = await start_cli("shoe", "--link", str(link), "--seed", "11", "--decks", "2")
    host: PtyHost | None = None
    try:
        assert await cli.line() == {"pty": str(link)}
        host = PtyHost(str(link))
        host.start()
        await host.until(lambda: host is not None and host.session.in_session)
        answer = await cli.ask({"cmd": "load", "cards": ["As", "Kd", "Qh", "Tc"], "cut_at": 3, "id": "a1"})
        assert answer["ok"] is True and answer["id"] == "a1" and answer["cards"] == 4
        assert (await cli.ask("unreadable"))["ok"] is True
        assert (await cli.ask("draw 3")) == {"ok": True, "drawn": 3, "position": 3, "remaining": 1}
        assert (await cli.ask("skip"))["position"] == 4
        assert (await cli.ask("draw 1000000000"))["drawn"] == 0  # an empty shoe, at once
        assert (await cli.ask({"cmd": "wait_idle", "timeout": 5}))["ok"] is True
        shoe_messages = [m for m in host.delivered if isinstance(m, Card | CardUnreadable | CutCard)]
        assert shoe_messages == [CardUnreadable(1), Card(2, 13, 1), Card(3, 12, 2), CutCard(3)]
        assert (await cli.ask("fault 2 lid opened during draw"))["ok"] is True
        await host.until(lambda: host is not None and Fault(2, "lid opened during draw") in host.delivered)
        wild = {"type": "CARD", "index": 0xFFFFFFFF, "rank": 13, "suit": 3}   # past the shoe model
        assert (await cli.ask({"cmd": "send", "message": wild})) == {"ok": True}
        await host.until(lambda: host is not None and Card(0xFFFFFFFF, 13, 3) in host.delivered)
        for bad_message in [{"type": "CARD", "index": -1, "rank": 1, "suit": 0},
                            {"type": "RESET", "nonce": 1}, {"type": "CARD", "index": 1}, "CARD"]:
            answer = await cli.ask({"cmd": "send", "message": bad_message})
            assert answer["ok"] is False and str(answer["error"]).startswith("send"), bad_message
        # Bad commands are answered and the simulator goes on.
        for bad in ["bogus", "draw many", "{not json", '{"cmd": "place", "antenna": 1, "chips": []}',
                    "load Xx", "drop 2", '{"cmd": "noise"}', "[1, 2]"]:
            answer = await cli.ask(bad)
            assert answer["ok"] is False and isinstance(answer["error"], str), bad
        status = await cli.ask("status")
        assert status["ok"] is True and status["in_session"] is True and status["pending"] == 0
        shoe_state = status["shoe"]
        assert isinstance(shoe_state, dict)
        # a scripted shoe reports the --decks option
        assert (shoe_state["decks"], shoe_state["position"], shoe_state["remaining"]) == (2, 4, 0)
        assert (shoe_state["cut_at"], shoe_state["cut_card_out"]) == (3, True)
        assert (await cli.ask("load"))["cards"] == 104  # --decks 2
        assert (await cli.ask("noise 500"))["bytes"] == 500
        assert (await cli.ask("drop 0.5"))["rate"] == 0.5
        assert (await cli.ask("corrupt 0.25"))["rate"] == 0.25
        assert (await cli.ask("unplug"))["ok"] is True
        assert not link.exists()
        assert (await cli.ask("replug"))["pty"] == str(link)
        assert (await cli.ask("reboot"))["ok"] is True
        assert (await cli.ask({"cmd": "quit"}))["ok"] is True
        assert await asyncio.wait_for(cli.process.wait(), TIMEOUT) == 0
        assert not link.exists()
    finally:
        if host is not None:
            host.close()
        if cli.process.returncode is None:
            cli.process.kill()
            await cli.process.wait()


async def test_cli_rfid_commands_and_sigterm(tmp_path: Path) -> None:
    cli = await start_cli("rfid", "--seed", "1")
    try:
        pty_path = (await cli.line())["pty"]
        assert isinstance(pty_path, str) and pty_path.startswith("/dev/")
        host = PtyHost(pty_path)
        host.start()
        await host.until(lambda: host.session.in_session)
        chips = [["00000000000000aa", 500], {"uid": "00000000000000bb", "value": 100}]
        answer = await cli.ask({"cmd": "place", "antenna": 2, "chips": chips})
        assert answer == {"ok": True, "antenna": 2, "count": 2}
        assert (await cli.ask("remove 2 00000000000000aa")) == {"ok": True, "antenna": 2, "count": 1}
        assert (await cli.ask("place 4 00000000000000cc:2500"))["count"] == 1
        assert (await cli.ask("clear 4"))["count"] == 0
        assert (await cli.ask("draw"))["ok"] is False  # not a shoe
        host.send(SpotLights(5))
        await host.until(lambda: host.session.pending == 0)
        status = await cli.ask("status")
        assert status["spot_lights"] == 5
        assert status["rfid"] == {"antennas": {"2": [["00000000000000bb", 100]], "4": []}}
        host.close()
        cli.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(cli.process.wait(), TIMEOUT) == 0
    finally:
        if cli.process.returncode is None:
            cli.process.kill()
            await cli.process.wait()


async def test_cli_reads_commands_from_a_file_and_exits_at_eof(tmp_path: Path) -> None:
    script = tmp_path / "commands.txt"
    script.write_text("# a script\nload 1\n\ndraw 2\nstatus\n")
    with script.open("rb") as stdin:
        cli = await start_cli("shoe", "--seed", "3", stdin=stdin.fileno())
        answers = [await cli.line() for _ in range(4)]
        assert await asyncio.wait_for(cli.process.wait(), TIMEOUT) == 0
    assert [a.get("ok") for a in answers[1:]] == [True, True, True]
    shoe_state = answers[3]["shoe"]
    assert isinstance(shoe_state, dict) and shoe_state["position"] == 2
