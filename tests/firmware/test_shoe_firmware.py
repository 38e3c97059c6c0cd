"""The reference shoe firmware run as the board (FirmwareRunner on a real pty) with the host's own HostLink
on the other end: what it reports for each thing that happens to the physical shoe, good and bad."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from firmware_bridge.firmware import cardcode, shoe
from firmware_bridge.firmware_host.flash import board_config
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.link.host import HostLink
from firmware_bridge.link.messages import Card, CardUnreadable, CutCard, Fault, Message, ShoeLoaded, Status

TIMEOUT = 10.0


class Table:
    """A FirmwareRunner shoe and a HostLink recording what it delivers."""

    def __init__(self, runner: FirmwareRunner) -> None:
        self.runner = runner
        self.world = runner.world
        self.messages: list[Message] = []
        self.changed = asyncio.Event()
        self.link: HostLink | None = None

    def got(self, message: Message) -> None:
        self.messages.append(message)
        self.changed.set()

    async def until(self, predicate: Callable[[], bool]) -> None:
        async def wait() -> None:
            while not predicate():
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(wait(), TIMEOUT)

    def reports(self) -> list[Message]:
        """What the shoe said, without its heartbeat."""
        return [m for m in self.messages if not isinstance(m, Status)]

    async def settled(self, count: int) -> list[Message]:
        """The first ``count`` reports, once they are in (and acknowledged)."""
        await self.until(lambda: len(self.reports()) >= count)
        await self.runner.wait_idle()
        return self.reports()


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    runner = FirmwareRunner(board_config("shoe", "SH-T", 6), tmp_path, link=tmp_path / "shoe",
                            rng=random.Random(5))
    await runner.start()
    table = Table(runner)
    table.link = HostLink(str(tmp_path / "shoe"), on_message=table.got, on_online=lambda hello: None,
                          on_offline=lambda reason: None)
    await table.link.start()
    try:
        yield table
    finally:
        await table.link.close()
        await runner.close()


async def load(table: Table, cards: list[str], cut_at: int = 0) -> int:
    await table.runner.play(table.world.load(6, cards, cut_at))
    loaded = (await table.settled(1))[0]
    assert isinstance(loaded, ShoeLoaded) and loaded.decks == 6
    return loaded.shoe_id


async def test_cards_drawn_are_reported_in_order_and_the_cut_card_names_the_last_index(table: Table) -> None:
    shoe_id = await load(table, ["As", "Kd", "Qh"], cut_at=2)
    await table.runner.play(table.world.draw(3))
    assert await table.settled(5) == [ShoeLoaded(shoe_id, 6), Card(1, 1, 3), Card(2, 13, 1), CutCard(2),
                                      Card(3, 12, 2)]


async def test_an_unread_card_or_garbage_is_unreadable_and_garbage_alone_is_nothing(table: Table) -> None:
    await load(table, ["As", "Kd", "Qh"])
    await table.runner.play(table.world.scanner_line(b"TC1AS?"))     # garbage, no card left: nothing
    table.world.smudge()
    await table.runner.play(table.world.scanner_line(b"\x07\xfe~~~") + table.world.draw(1))
    await table.runner.play(table.world.draw(1))
    assert (await table.settled(3))[1:] == [CardUnreadable(1), Card(2, 13, 1)]
    assert table.runner.core.app.garbage == 2


async def test_a_card_read_twice_is_one_card_and_a_code_drawn_before_is_unreadable(table: Table) -> None:
    await load(table, ["As", "Kd", "Qh"])
    table.world.read_twice()
    await table.runner.play(table.world.draw(1))
    again = (cardcode.code(1, 1, 3) + "\r\n").encode()
    table.world.smudge()
    await table.runner.play(table.world.scanner_line(again) + table.world.draw(1))
    assert (await table.settled(3))[1:] == [Card(1, 1, 3), CardUnreadable(2)]


async def test_a_card_read_but_not_drawn_is_never_reported(table: Table) -> None:
    await load(table, ["As", "Kd"])
    await table.runner.play(table.world.peek())
    await table.until(lambda: table.runner.core.app.unused_reads == 1)
    await table.runner.play(table.world.draw(1))
    assert (await table.settled(2))[1:] == [Card(1, 1, 3)]


async def test_a_stuck_card_is_a_sensor_fault_until_it_is_pulled_out(table: Table) -> None:
    await load(table, ["As", "Kd"])
    await table.runner.play(table.world.stick())
    await table.until(lambda: any(isinstance(m, Fault) for m in table.messages))
    fault = next(m for m in table.messages if isinstance(m, Fault))
    assert fault.code == 1
    await table.until(lambda: any(isinstance(m, Status) and m.flags & 4 for m in table.messages))
    with pytest.raises(ValueError, match="stuck"):
        table.world.draw(1)
    await table.runner.play(table.world.unstick())
    assert (await table.settled(3))[2:] == [Card(1, 1, 3)]
    seen = len(table.messages)
    await table.until(lambda: any(isinstance(m, Status) and not m.flags & 4 for m in table.messages[seen:]))


async def test_a_card_drawn_before_load_is_a_fault_not_a_card(table: Table) -> None:
    table.world.stack = [cardcode.code(1, 5, 2)]
    await table.runner.play(table.world.draw(1))
    reports = await table.settled(1)
    assert [(type(m), getattr(m, "code", None)) for m in reports] == [(Fault, 6)]


async def test_a_watchdog_reset_keeps_the_shoe_and_a_new_load_takes_a_new_id(table: Table) -> None:
    shoe_id = await load(table, ["As", "Kd", "Qh"])
    await table.runner.play(table.world.draw(1))
    await table.settled(2)
    table.runner.reboot()
    await table.runner.play(table.world.draw(1))
    reports = await table.settled(4)
    assert [m for m in reports[2:] if not isinstance(m, Fault)] == [Card(2, 13, 1)]
    assert [m.code for m in reports[2:] if isinstance(m, Fault)] == [5]
    await table.runner.play(table.world.load(6, ["2c"], 0))
    loaded = (await table.settled(5))[4]
    assert isinstance(loaded, ShoeLoaded) and loaded.shoe_id == shoe_id + 1


async def test_a_power_cut_forgets_the_shoe_but_never_reuses_a_shoe_id(table: Table) -> None:
    shoe_id = await load(table, ["As", "Kd", "Qh"])
    table.runner.power_cycle()
    await table.runner.play(table.world.draw(1))
    reports = await table.settled(2)
    assert isinstance(reports[1], Fault) and reports[1].code == 6
    await table.runner.play(table.world.load(6, ["2c"], 0))
    await table.runner.play(table.world.draw(1))
    assert (await table.settled(4))[2:] == [ShoeLoaded(shoe_id + 1, 6), Card(1, 2, 0)]


async def test_a_scanner_repeating_itself_while_a_card_is_stuck_keeps_little_and_reads_one_card(
        table: Table) -> None:
    await load(table, ["Qh", "Kd"])
    await table.runner.play(table.world.stick())
    code = (cardcode.code(1, 12, 2) + "\r\n").encode()
    for number in range(60):
        garbage = b"#%?" + bytes([65 + number % 26])
        await table.runner.play(table.world.scanner_line(code if number % 2 else garbage))
    assert len(table.runner.core.app._reads) <= shoe.MAX_READS
    await table.runner.play(table.world.unstick())
    await table.until(lambda: any(isinstance(m, Card) for m in table.messages))
    await table.runner.wait_idle()
    assert [m for m in table.reports()[1:] if not isinstance(m, Fault)] == [Card(1, 12, 2)]  # FAULT 1: slow
