"""An event whose data holds a value of the wrong type, published on a table's real pit sockets, is
refused by the pit monitor that follows it: said in the log (the record, the field, what was found),
left out of the books and the floor's tournament, and the next event is taken as ever.

The table is :class:`~controller.devkit.pit_table.EnvelopeTable` (a real ``PitServer`` on 127.0.0.1,
publishing the data the test gives it); the monitor's side is the real follower
(:class:`~controller.follow.aio.Follower`) telling the real
:class:`~controller.podium.monitor.models.floor.Floor`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import pytest
import zmq.asyncio

from controller.devkit.pit_table import EnvelopeTable
from controller.follow.aio import Follower
from controller.follow.sources import TableSource
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor

WAIT = 10.0


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition`` (checked every few milliseconds), failing after :data:`WAIT` s."""
    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)
    try:
        await asyncio.wait_for(wait(), WAIT)
    except TimeoutError:
        raise AssertionError(f"not {what} within {WAIT} s") from None


async def test_a_wrongly_typed_event_is_refused_said_and_the_next_one_is_taken(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    context = zmq.asyncio.Context()
    table = EnvelopeTable("T1", context=context, heartbeat=0.2)
    await table.start()
    floor = Floor(["T1"], AlertBook())
    source = TableSource("T1", table.publish_endpoint, table.sync_endpoint)
    follower = Follower(source, floor, context=context)
    task = asyncio.create_task(follower.run())
    model = floor.tables["T1"]
    try:
        await until(lambda: model.link == "live", "live")

        table.emit("dealer.in", None, {"dealer": 42})                    # an int where a str is declared
        table.emit("player.eliminated", None, {"seat": True, "place": 2})  # a bool where an int is
        await until(lambda: model.seq == 2, "events 1 and 2 taken")
        assert floor.tile("T1")["books"]["dealer"] is None and floor.tile("T1")["tournament"] is None

        table.emit("dealer.in", None, {"dealer": "D7"})
        table.emit("player.eliminated", None, {"seat": 3, "place": 2})
        await until(lambda: model.seq == 4, "events 3 and 4 taken")
        tile = floor.tile("T1")
        assert tile["books"]["dealer"] == "D7"
        assert tile["tournament"] is not None and tile["tournament"]["places"] == [{"seat": 3, "place": 2}]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await table.close()
        context.destroy(linger=0)

    said = [record.getMessage() for record in caplog.records if record.name == "controller.follow.records"]
    assert said == [
        'T1/dealer.in seq 1: {"dealer": 42} is not a dealer.in: DealerIn.dealer must be str, found 42 (int)',
        'T1/player.eliminated seq 2: {"seat": true, "place": 2} is not a player.eliminated: '
        "PlayerEliminated.seat must be int, found True (bool)"]
    books = [line for line in (record.getMessage() for record in caplog.records)
             if "left out of the books" in line]
    assert len(books) == 1 and "DealerIn.dealer must be str, found 42 (int)" in books[0]
