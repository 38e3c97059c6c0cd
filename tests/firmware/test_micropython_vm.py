"""The reference firmware on a real MicroPython (1.27, the WebAssembly port under Node), the host's real
HostLink on the other end of a pty: the handshake, a stack of 40 chips on a spot, a marked card through
the shoe, a power cut and reconnect; and the heap the reader needs against a Pico's (docs/boards.md,
"Memory"), a whole table's also on MicroPython's unix port in a fixed heap of the Pico's size. The fake
hardware in the VM is firmware_host's own machine_fake, pn5180_model and tags."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.firmware_host.flash import board_config
from firmware_bridge.firmware_host.shoe_world import card_code
from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, Chip, Hello, Inventory, Message, ShoeLoaded
from tests.firmware.vm.vm_board import PICO_HEAP, VmBoard, unavailable

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=str(unavailable()))
TIMEOUT = 20.0
RUNTIMES = [pytest.param("wasm", id="wasm"),
            pytest.param("unix", id="unix-fixed-heap", marks=pytest.mark.skipif(
                unavailable("unix") is not None, reason=str(unavailable("unix"))))]


def chips(count: int, seed: int = 34) -> list[tuple[str, int]]:
    """``count`` chips with distinct ICODE-like UIDs (hex) and values in cents."""
    rng = random.Random(seed)
    uids: set[int] = set()
    while len(uids) < count:
        uids.add(0xE004010000000000 | rng.getrandbits(40))
    return [(f"{uid:016x}", 100 * (i + 1)) for i, uid in enumerate(sorted(uids))]


class Host:
    """The host's HostLink on the board's pty, keeping what it delivers."""

    def __init__(self, path: str) -> None:
        self.messages: list[Message] = []
        self.hellos: list[Hello] = []
        self.changed = asyncio.Event()
        self.link = HostLink(path, on_message=self.got, on_online=self.online,
                             on_offline=lambda reason: self.changed.set(), reopen_interval=0.1)

    def got(self, message: Message) -> None:
        self.messages.append(message)
        self.changed.set()

    def online(self, hello: Hello) -> None:
        self.hellos.append(hello)
        self.changed.set()

    async def until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async def wait() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), timeout)

    def inventory(self, antenna: int) -> Inventory | None:
        found = [m for m in self.messages if isinstance(m, Inventory) and m.antenna == antenna]
        return found[-1] if found else None


async def running(config: dict[str, Any], tmp_path: Path, runtime: str = "wasm") -> tuple[VmBoard, Host]:
    board = VmBoard(config, tmp_path / "board", runtime=runtime)
    await board.start()
    host = Host(str(tmp_path / "board"))
    await host.link.start()
    return board, host


@pytest.fixture
async def reader(tmp_path: Path) -> AsyncIterator[tuple[VmBoard, Host]]:
    board, host = await running(board_config("rfid", "RF-VM", antennas=[1, 2, 3]), tmp_path)
    try:
        yield board, host
    finally:
        await host.link.close()
        await board.close()
    assert board.errors == []


async def test_the_link_handshake_with_the_firmware_on_micropython(reader: tuple[VmBoard, Host]) -> None:
    board, host = reader
    await host.until(lambda: bool(host.hellos))
    hello = host.hellos[0]
    assert (hello.kind, hello.protocol, hello.firmware, hello.serial) == (2, 1, "ref-rfid-1.0.0", "RF-VM")
    assert (await board.command("status"))["in_session"] is True


async def test_a_stack_of_40_chips_on_a_spot_is_its_inventory(reader: tuple[VmBoard, Host]) -> None:
    board, host = reader
    stack = chips(40)
    assert await board.command("place", antenna=2, chips=stack) == {"count": 40}
    expected = Inventory(2, tuple(Chip(uid, value) for uid, value in stack))
    await host.until(lambda: host.inventory(2) == expected)


async def test_a_power_cut_then_the_host_reconnects_and_the_spot_is_read_again(
        reader: tuple[VmBoard, Host]) -> None:
    board, host = reader
    stack = chips(5, seed=7)
    await board.command("place", antenna=1, chips=stack)
    expected = Inventory(1, tuple(Chip(uid, value) for uid, value in stack))
    await host.until(lambda: host.inventory(1) == expected)
    await board.power_cut()
    await host.until(lambda: not host.link.online)
    seen, sessions = len(host.messages), len(host.hellos)
    await board.power_on()
    await host.until(lambda: len(host.hellos) > sessions)
    await board.command("place", antenna=1, chips=stack)         # the tags are still on the spot
    await host.until(lambda: expected in host.messages[seen:])


async def test_a_marked_card_through_the_shoe(tmp_path: Path) -> None:
    board, host = await running(board_config("shoe", "SH-VM", decks=6), tmp_path)
    try:
        await host.until(lambda: host.link.online)
        await board.command("load")
        await host.until(lambda: any(isinstance(m, ShoeLoaded) for m in host.messages))
        (loaded,) = [m for m in host.messages if isinstance(m, ShoeLoaded)]
        assert loaded.decks == 6
        await board.command("draw", code=card_code("Qh", 3))
        await host.until(lambda: any(isinstance(m, Card) for m in host.messages))
        assert [m for m in host.messages if isinstance(m, Card)] == [Card(1, 12, 2)]
    finally:
        await host.link.close()
        await board.close()
    assert board.errors == []


async def test_the_readers_heap_after_a_boot_and_10000_polls_of_a_full_spot(tmp_path: Path) -> None:
    """The heap figures (docs/boards.md, "Memory"): allocated after the boot and after 10,000 polls with
    40 chips on a spot, and whether the heap stayed within the Pico's (it grows only when an allocation
    found no room after a collection: on a Pico, a MemoryError). The VM's heap grows on demand, so the
    check is the most held live (after a collection, every 100 polls) against the Pico's heap."""
    board = VmBoard(board_config("rfid", "RF-VM", antennas=[1, 2, 3]), tmp_path / "board")
    await board.start()
    try:
        await board.command("place", antenna=1, chips=chips(40))
        await board.command("polls", count=10_000)
        heap = await board.command("heap")
    finally:
        await board.close()
    print(f"heap: {heap}")
    assert heap["boot"]["size"] <= PICO_HEAP and heap["polls"] >= 10_000
    assert 0 < heap["boot"]["alloc"] < PICO_HEAP and 0 < heap["now"]["alloc"] < PICO_HEAP
    assert heap["live"] <= PICO_HEAP, f"the reader held more than a Pico's {PICO_HEAP} bytes live: {heap}"


@pytest.mark.parametrize("runtime", RUNTIMES)
async def test_a_whole_table_of_32_spots_of_50_chips_in_a_picos_heap(tmp_path: Path, runtime: str) -> None:
    """The reader of a whole table on a Pico's heap (docs/boards.md, "Memory"): 32 antennas (the most
    a board has) of 50 chips each, 1,600 chips, as many as 40 spots of 40, read and sent to the host
    (each INVENTORY 602 bytes), then read on for a while, and no poll ran out of memory. On the
    WebAssembly port, whose heap grows on demand, the most held live after a collection (every 100
    steps) stays under the Pico's heap with a tenth to spare, the fakes of the hardware and the harness
    in the same heap; on the unix port the heap is fixed (the Pico's in words), so a heap the reader
    fragmented would have raised MemoryError."""
    everyone = list(range(1, 33))
    board, host = await running(board_config("rfid", "RF-VM", antennas=everyone), tmp_path, runtime)
    try:
        stacks = {antenna: chips(50, seed=antenna) for antenna in everyone}
        for antenna, stack in stacks.items():
            assert await board.command("place", antenna=antenna, chips=stack) == {"count": 50}
        expected = {antenna: Inventory(antenna, tuple(Chip(uid, value) for uid, value in stack))
                    for antenna, stack in stacks.items()}
        await host.until(lambda: all(host.inventory(a) == expected[a] for a in everyone), timeout=240)
        seen = len(host.messages)
        await host.until(lambda: len(host.messages) > seen + 64, timeout=120)   # read on: repeats
        heap = await board.command("heap")
        status = await board.command("status")
    finally:
        await host.link.close()
        await board.close()
    print(f"{runtime} heap: {heap}, status: {status}")
    assert board.errors == []
    assert status["memory_errors"] == 0 and status["lost"] == 0 and status["flags"] == 0
    assert all(host.inventory(a) == expected[a] for a in everyone)
    if runtime == "wasm":
        assert 0 < heap["live"] <= 0.9 * PICO_HEAP, f"over 90% of a Pico's {PICO_HEAP} bytes live: {heap}"
    else:
        assert heap["boot"]["size"] == heap["now"]["size"] <= 2 * PICO_HEAP    # fixed: 190 KB of 32-bit words
        assert heap["live"] < heap["now"]["size"]
