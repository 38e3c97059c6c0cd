"""The reference firmware's board core (firmware_bridge/firmware/board.py) with a scripted application,
a port in memory and the host's own HostSession on the other end (wire bytes only, a fake clock)."""

from __future__ import annotations

import itertools
import struct

from firmware_bridge.firmware import board
from firmware_bridge.link.messages import Fault, Inventory, Message, SpotLights, Status, pack
from firmware_bridge.link.session import Delivered, HostSession
from firmware_bridge.link.stats import LinkStats


class App:
    """An application that hands over what a test gives it and records what the core asks."""

    kind = 2
    snapshot_types = (0x30,)

    def __init__(self) -> None:
        self.out: list[tuple[int, bytes]] = []
        self.lights: list[int] = []
        self.polls = 0
        self.deadline: int | None = None
        self.flags = 0
        self.out_of_memory = 0
        """Polls still to run out of memory (as a Pico's heap does: ``MemoryError``)."""

    def poll(self, now_ms: int) -> None:
        self.polls += 1
        if self.out_of_memory:
            self.out_of_memory -= 1
            raise MemoryError("memory allocation failed, allocating 19568 bytes")

    def take_messages(self) -> list[tuple[int, bytes]]:
        out, self.out = self.out, []
        return out

    def snapshot(self) -> list[tuple[int, bytes]]:
        return [pack(Inventory(3, ()))]

    def status_flags(self) -> int:
        return self.flags

    def on_spot_lights(self, mask: int) -> None:
        self.lights.append(mask)

    def next_deadline_ms(self, now_ms: int) -> int | None:
        return self.deadline


class Port:
    def __init__(self) -> None:
        self.incoming = b""
        self.written = b""

    def read(self) -> bytes:
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data: bytes) -> None:
        self.written += data


class Watchdog:
    def __init__(self) -> None:
        self.feeds = 0

    def feed(self) -> None:
        self.feeds += 1


class Rig:
    def __init__(self) -> None:
        nonces = itertools.count(77)
        self.host = HostSession(stats=LinkStats(), nonce=lambda: next(nonces), rto=0.28)
        self.app = App()
        self.port = Port()
        self.wdt = Watchdog()
        self.ms = 1000
        self.core = board.Board(self.app, self.port, "fw", "SN", self.ms, self.wdt,
                                boot_faults=[(board.FAULT_WATCHDOG, "watchdog reset")])
        self.got: list[Message] = []

    def step(self, ms: int = 0, *, host_reads: bool = True) -> int | None:
        """``ms`` later: the core polls, the host reads (or not) and answers."""
        self.ms += ms
        deadline = self.core.poll(self.ms)
        out, self.port.written = self.port.written, b""
        if host_reads:
            events = self.host.receive(out, self.ms / 1000)
            self.got += [e.message for e in events if isinstance(e, Delivered)]
            self.port.incoming += self.host.take_output()
        return deadline

    def start(self) -> None:
        self.host.start(self.ms / 1000)
        for _ in range(3):
            self.step()
        assert self.host.in_session


def test_a_session_starts_with_the_held_fault_the_snapshot_and_status_then_a_heartbeat() -> None:
    rig = Rig()
    rig.start()
    assert rig.got == [Fault(5, "watchdog reset"), Inventory(3, ()), Status(0, 0)]
    rig.app.flags = 4
    deadline = rig.step()
    assert deadline == rig.ms + board.STATUS_INTERVAL_MS
    rig.step(board.STATUS_INTERVAL_MS)
    assert rig.got[-1] == Status(board.STATUS_INTERVAL_MS, 4)
    assert rig.wdt.feeds == rig.app.polls > 4


def test_the_apps_messages_go_out_in_order_and_spot_lights_come_in() -> None:
    rig = Rig()
    rig.start()
    rig.app.out = [pack(Inventory(n, ())) for n in range(1, 12)]
    rig.step()
    rig.step()
    assert [m.antenna for m in rig.got if isinstance(m, Inventory)][1:] == list(range(1, 12))
    rig.host.send(SpotLights(0b101), rig.ms / 1000)
    rig.port.incoming += rig.host.take_output()
    rig.step()
    assert rig.app.lights == [0b101]


def test_a_full_outbox_drops_events_and_says_how_many_once_there_is_room() -> None:
    rig = Rig()
    rig.start()
    rig.app.out = [(0x21, struct.pack("<IBB", n, 1, 0)) for n in range(1, 60)]
    rig.step(host_reads=False)                   # 8 on the line, 32 queued, 19 lost
    assert rig.core.lost == 19
    rig.step()
    for _ in range(12):
        rig.step(300)
    faults = [m for m in rig.got if isinstance(m, Fault)]
    assert faults[-1] == Fault(4, "19 events lost") and rig.core.lost == 0


def test_no_status_piles_up_while_the_host_acknowledges_nothing() -> None:
    rig = Rig()
    rig.start()
    rig.app.out = [(0x21, struct.pack("<IBB", n, 1, 0)) for n in range(1, 9)]
    for _ in range(5):
        rig.step(board.STATUS_INTERVAL_MS, host_reads=False)
    assert rig.core.link.pending == 8


def test_the_deadline_is_the_earliest_of_the_link_status_and_app() -> None:
    rig = Rig()
    rig.start()
    rig.app.deadline = rig.ms + 5
    assert rig.step() == rig.ms + 5
    rig.app.deadline = None
    assert rig.step() == rig.ms + board.STATUS_INTERVAL_MS


def test_outside_a_session_what_the_snapshot_says_again_is_not_queued_and_events_are() -> None:
    rig = Rig()
    rig.app.out = [pack(Inventory(n, ())) for n in range(1, 33)] + [(0x21, struct.pack("<IBB", 1, 1, 0))]
    rig.step(host_reads=False)                   # no session: 32 INVENTORY left to the snapshot
    rig.app.out = [pack(Inventory(n, ())) for n in range(1, 33)]
    rig.step(host_reads=False)
    assert rig.core.lost == 0
    rig.start()
    assert [type(m).__name__ for m in rig.got] == ["Fault", "Card", "Inventory", "Status"]


def test_resets_read_one_by_one_stack_no_stale_snapshots_and_lose_nothing() -> None:
    # A host RESETs every 250 ms until it reads the HELLO: a slow host's RESETs reach the board one
    # poll at a time, each starting a session and its snapshot. With 16 antennas, four snapshots
    # and their STATUS kept in the queue would be 68 messages for 40 places.
    rig = Rig()
    rig.app.snapshot = lambda: [pack(Inventory(n, ())) for n in range(1, 17)]  # type: ignore[method-assign]
    for reset in range(4):                                   # the host reads only the last HELLO
        rig.host.start(rig.ms / 1000)
        rig.port.incoming += rig.host.take_output()
        rig.step(host_reads=reset == 3)
    assert rig.core.lost == 0
    for _ in range(3):
        rig.step()
    for _ in range(12):
        rig.step(300)
    assert rig.host.in_session and rig.core.lost == 0
    assert not [m for m in rig.got if isinstance(m, Fault) and m.code == 4]
    inventories = [m.antenna for m in rig.got if isinstance(m, Inventory)]
    assert sorted(set(inventories)) == list(range(1, 17))
    assert inventories[-16:] == list(range(1, 17))           # the last session's snapshot, whole, last


def test_a_poll_out_of_memory_is_dropped_counted_in_status_and_the_board_goes_on() -> None:
    rig = Rig()
    rig.start()
    assert rig.got[-1] == Status(0, 0)                       # none yet: the 6-byte STATUS of before
    rig.app.out_of_memory = 3
    feeds = rig.wdt.feeds
    for _ in range(3):
        rig.step(10)                                         # no exception out of the board's poll
    assert rig.core.memory_errors == 3 and rig.wdt.feeds == feeds + 3
    rig.app.out = [pack(Inventory(4, ()))]
    rig.step(board.STATUS_INTERVAL_MS)
    assert rig.got[-2:] == [Inventory(4, ()), Status(board.STATUS_INTERVAL_MS + 30, 0, memory_errors=3)]
    rig.step(board.STATUS_INTERVAL_MS)
    assert rig.got[-1] == Status(2 * board.STATUS_INTERVAL_MS + 30, 0, memory_errors=3)
    assert rig.core.lost == 0 and rig.host.in_session
