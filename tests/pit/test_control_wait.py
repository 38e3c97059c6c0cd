"""Tests of how long the pit's clients wait for a control reply (docs/control.md, "Replies"): as long
as the command declares in the registry (``reply_within``) and the link's margin, or as long as the
caller says; past it, they say plainly that the table may still carry the command out. Over real
ZeroMQ sockets on 127.0.0.1 and a real :class:`PitServer`, the blocking client in a thread.

The command ``hold`` is registered here with a ``reply_within`` of a quarter of a second, and held
in its handler until the test releases it: whatever the machine's speed, the table has not answered
when the client gives up, so no test measures time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest
import zmq
import zmq.asyncio

from controller.commands.registry import ANYONE, LINK_MARGIN, Command, command, unregister
from controller.follow.blocking import PitClient, PitError
from controller.follow.control import Control, unanswered
from controller.pit.server import PitServer
from tests.pit.test_control_concurrent import WAIT, Held, held_server

QUICK = 0.25
"""The ``reply_within`` of the test's ``hold``: what the clients must read from the registry."""

HOLD = {"cmd": "hold"}


@dataclass(frozen=True)
class Hold(Command):
    """A command the test's handler holds until released."""


@pytest.fixture
def registered_hold() -> Iterator[type[Command]]:
    command("hold", who=ANYONE, label="Hold", books=False, reply_within=QUICK)(Hold)
    try:
        yield Hold
    finally:
        unregister("hold")


@pytest.fixture
def held() -> Held:
    return Held()


@pytest.fixture
async def server(held: Held, registered_hold: type[Command]) -> AsyncIterator[PitServer]:
    async with held_server(held) as made:
        yield made


@pytest.fixture
async def control(server: PitServer) -> AsyncIterator[Control]:
    context = zmq.asyncio.Context()
    yield Control(server.endpoints["control"], context)
    context.destroy(linger=0)


@pytest.fixture
def pit(server: PitServer) -> Iterator[PitClient]:
    endpoints = server.endpoints
    client = PitClient("T07", endpoints["publish"], endpoints["sync"], endpoints["control"],
                       context=zmq.Context())
    yield client
    client.close()
    client.context.destroy(linger=0)


async def test_the_asyncio_client_waits_the_commands_reply_within_and_then_says_what_it_means(
        control: Control, held: Held) -> None:
    reply = await control.send(HOLD)
    wait = QUICK + LINK_MARGIN
    assert reply == {"ok": False, "error": unanswered(HOLD, wait)}
    assert reply["error"] == (f"the table did not answer hold within {wait:g} s: it may still carry "
                              "it out, or it is not running; check the table's state before sending it again")
    assert held.holding == 1                                  # the table has it still
    assert (await control.send({"cmd": "state"}))["ok"] is True


async def test_the_asyncio_clients_caller_may_wait_shorter_or_longer_than_the_command_declares(
        control: Control, held: Held) -> None:
    assert await control.send(HOLD, timeout=0.1) == {"ok": False, "error": unanswered(HOLD, 0.1)}
    longer = asyncio.create_task(control.send({**HOLD, "n": 2}, timeout=WAIT))
    declared = await control.send({**HOLD, "n": 3})           # given up after QUICK + LINK_MARGIN
    assert declared == {"ok": False, "error": unanswered(HOLD, QUICK + LINK_MARGIN)}
    assert not longer.done()                                  # the caller's longer wait goes on
    held.release.set()
    assert await longer == {"ok": True, "held": 2}


async def test_the_blocking_client_waits_the_commands_reply_within_and_then_says_what_it_means(
        pit: PitClient, held: Held, registered_hold: type[Command]) -> None:
    with pytest.raises(PitError) as raised:
        await asyncio.to_thread(pit.control, HOLD)
    assert str(raised.value) == unanswered(HOLD, QUICK + LINK_MARGIN)
    assert held.holding == 1                                  # the table has it still
    assert (await asyncio.to_thread(pit.control, {"cmd": "state"}))["ok"] is True


async def test_the_blocking_clients_caller_may_wait_shorter_or_longer_than_the_command_declares(
        pit: PitClient, held: Held, registered_hold: type[Command]) -> None:
    with pytest.raises(PitError) as raised:
        await asyncio.to_thread(pit.command, registered_hold(), timeout=0.1)
    assert str(raised.value) == unanswered(HOLD, 0.1)
    longer = asyncio.create_task(asyncio.to_thread(pit.control, {**HOLD, "n": 2}, WAIT))
    await held.until_holding(2)
    with pytest.raises(PitError):                             # given up after QUICK + LINK_MARGIN
        await asyncio.to_thread(pit.control, {**HOLD, "n": 3})
    assert not longer.done()                                  # the caller's longer wait goes on
    held.release.set()
    assert await longer == {"ok": True, "held": 2}
