"""Tests of the control socket serving requests at once (docs/pit.md, "Control ROUTER"), over real
ZeroMQ sockets on 127.0.0.1 and REQ clients, as the dealer screen and the pit monitor are.

A command held in its handler (an :class:`asyncio.Event` the test sets) stands for one that awaits
long (a supervisor's ``critical_memory_clear``): whatever the machine's speed, the other clients'
requests are answered while it is held, so no test measures time. A DEALER socket stands for a
broken or hostile client that sends request after request without waiting for the replies.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import zmq
import zmq.asyncio
import zmq.auth

from controller.pit.server import (
    BUSY,
    BUSY_PEER,
    MAX_CONTROL_IN_FLIGHT,
    MAX_CONTROL_PER_PEER,
    CurveKeys,
    PitServer,
)
from tests.pit.test_pit import Store, client_keys, connect, recv, request, server_args

WAIT = 10.0
"""Seconds a test waits for what must come before it fails (never reached when all is well)."""


class Held:
    """The command handler: ``hold`` waits until released (``press`` and the rest answer at once);
    every request is kept with the client the socket told."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.holding = 0
        self.changed = asyncio.Event()
        self.clients: list[str | None] = []

    def snapshot(self) -> dict[str, Any]:
        return {"seq": 4, "state": {"phase": "betting"}}

    async def on_command(self, request: dict[str, Any], client: str | None) -> dict[str, Any]:
        self.clients.append(client)
        if request["cmd"] == "hold":
            self.holding += 1
            self.changed.set()
            await self.release.wait()
            return {"ok": True, "held": request.get("n")}
        return {"ok": True, "pressed": request.get("button")}

    async def until_holding(self, count: int) -> None:
        """Until ``count`` ``hold`` commands are in the handler."""
        async with asyncio.timeout(WAIT):
            while self.holding < count:
                self.changed.clear()
                await self.changed.wait()


@pytest.fixture
def held() -> Held:
    return Held()


@pytest.fixture
async def client_ctx() -> AsyncIterator[zmq.asyncio.Context]:
    ctx = zmq.asyncio.Context()
    yield ctx
    ctx.destroy(linger=0)


@contextlib.asynccontextmanager
async def held_server(held: Held) -> AsyncIterator[PitServer]:
    """A pit server on 127.0.0.1 whose commands ``held`` answers; what it holds is let go at the end."""
    made = PitServer("T07", **server_args(Store(), snapshot=held.snapshot, on_command=held.on_command,
                                          heartbeat_interval=60.0))
    await made.start()
    try:
        yield made
    finally:
        held.release.set()
        await made.close()


@pytest.fixture
async def server(held: Held) -> AsyncIterator[PitServer]:
    async with held_server(held) as made:
        yield made


async def test_a_held_command_does_not_delay_another_clients_state_or_press(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    slow = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    await slow.send(b'{"cmd": "hold", "n": 1}')
    await held.until_holding(1)
    other = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    assert await request(other, b'{"cmd": "state"}') == {"ok": True, "state": {"phase": "betting"}, "seq": 4}
    assert await request(other, b'{"cmd": "press", "button": "deal"}') == {"ok": True, "pressed": "deal"}
    assert await slow.poll(0) == 0                     # answered after the others, once released
    held.release.set()
    assert json.loads((await recv(slow, WAIT))[0]) == {"ok": True, "held": 1}


async def test_each_reply_goes_to_the_client_that_asked(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    clients = [connect(client_ctx, zmq.REQ, server.endpoints["control"]) for _ in range(5)]
    for n, client in enumerate(clients):
        await client.send(json.dumps({"cmd": "hold", "n": n}).encode())
    await held.until_holding(len(clients))
    held.release.set()
    for n, client in reversed(list(enumerate(clients))):
        assert json.loads((await recv(client, WAIT))[0]) == {"ok": True, "held": n}


async def test_beyond_the_bound_a_request_is_refused_busy_at_once_and_then_served_again(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    holding = [connect(client_ctx, zmq.REQ, server.endpoints["control"])
               for _ in range(MAX_CONTROL_IN_FLIGHT)]
    for client in holding:
        await client.send(b'{"cmd": "hold"}')
    await held.until_holding(MAX_CONTROL_IN_FLIGHT)
    late = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    assert await request(late, b'{"cmd": "state"}') == {"ok": False, "error": BUSY}
    assert BUSY.startswith("busy: ")
    assert not any([await client.poll(0) for client in holding])
    held.release.set()
    for client in holding:
        assert json.loads((await recv(client, WAIT))[0]) == {"ok": True, "held": None}
    assert (await request(late, b'{"cmd": "state"}'))["ok"] is True


async def test_one_peer_sending_without_waiting_holds_only_its_share_and_the_others_are_answered(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    flood = connect(client_ctx, zmq.DEALER, server.endpoints["control"])
    sent = MAX_CONTROL_IN_FLIGHT + 8
    for n in range(sent):
        await flood.send_multipart([b"", json.dumps({"cmd": "hold", "n": n}).encode()])
    await held.until_holding(MAX_CONTROL_PER_PEER)
    for _ in range(sent - MAX_CONTROL_PER_PEER):           # the rest refused at once, busy
        empty, body = await recv(flood, WAIT)
        assert empty == b"" and json.loads(body) == {"ok": False, "error": BUSY_PEER}
    assert BUSY_PEER.startswith("busy: ")
    other = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    assert await request(other, b'{"cmd": "state"}') == {"ok": True, "state": {"phase": "betting"}, "seq": 4}
    slow = connect(client_ctx, zmq.REQ, server.endpoints["control"])   # another's slow one is taken
    await slow.send(b'{"cmd": "hold", "n": "other"}')
    await held.until_holding(MAX_CONTROL_PER_PEER + 1)
    assert await request(other, b'{"cmd": "press", "button": "deal"}') == {"ok": True, "pressed": "deal"}
    assert held.holding == MAX_CONTROL_PER_PEER + 1
    assert await flood.poll(0) == 0
    held.release.set()
    answered = [json.loads((await recv(flood, WAIT))[1]) for _ in range(MAX_CONTROL_PER_PEER)]
    assert sorted(reply["held"] for reply in answered) == list(range(MAX_CONTROL_PER_PEER))
    assert json.loads((await recv(slow, WAIT))[0]) == {"ok": True, "held": "other"}
    await flood.send_multipart([b"", b'{"cmd": "press", "button": "next"}'])   # its places are free
    assert await recv(flood, WAIT) == [b"", b'{"ok":true,"pressed":"next"}']


async def test_a_peer_that_reconnects_under_the_same_routing_id_finds_its_requests_still_counted(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    first = connect(client_ctx, zmq.DEALER, server.endpoints["control"], ROUTING_ID=b"pit-x")
    for _ in range(MAX_CONTROL_PER_PEER):
        await first.send_multipart([b"", b'{"cmd": "hold"}'])
    await held.until_holding(MAX_CONTROL_PER_PEER)
    first.close(linger=0)
    async with asyncio.timeout(WAIT):
        while True:     # until the ROUTER has let the first connection go and takes the identity again
            again = connect(client_ctx, zmq.DEALER, server.endpoints["control"], ROUTING_ID=b"pit-x")
            await again.send_multipart([b"", b'{"cmd": "state"}'])
            answered = await again.poll(200)
            if answered:
                assert json.loads((await again.recv_multipart())[1]) == {"ok": False, "error": BUSY_PEER}
            again.close(linger=0)
            if answered:
                break
    other = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    assert (await request(other, b'{"cmd": "state"}'))["ok"] is True
    assert held.holding == MAX_CONTROL_PER_PEER


async def test_peers_together_still_meet_the_tables_bound(
        server: PitServer, held: Held, client_ctx: zmq.asyncio.Context) -> None:
    peers = [connect(client_ctx, zmq.DEALER, server.endpoints["control"])
             for _ in range(MAX_CONTROL_IN_FLIGHT // MAX_CONTROL_PER_PEER)]
    for peer in peers:
        for _ in range(MAX_CONTROL_PER_PEER):
            await peer.send_multipart([b"", b'{"cmd": "hold"}'])
    await held.until_holding(MAX_CONTROL_IN_FLIGHT)
    late = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    assert await request(late, b'{"cmd": "state"}') == {"ok": False, "error": BUSY}
    held.release.set()
    assert (await request(late, b'{"cmd": "state"}'))["ok"] is True


async def test_a_message_without_the_req_envelope_is_dropped_and_one_with_it_is_answered(
        server: PitServer, client_ctx: zmq.asyncio.Context, caplog: pytest.LogCaptureFixture) -> None:
    dealer = connect(client_ctx, zmq.DEALER, server.endpoints["control"])
    await dealer.send_multipart([b'{"cmd": "state"}'])           # no empty delimiter: not a REQ's
    await dealer.send_multipart([b"", b'{"cmd": "press", "button": "deal"}'])
    assert await recv(dealer, WAIT) == [b"", b'{"ok":true,"pressed":"deal"}']
    assert await dealer.poll(0) == 0
    assert "no REQ envelope" in caplog.text


async def test_with_curve_the_clients_key_and_address_reach_the_handler(
        held: Held, client_ctx: zmq.asyncio.Context, tmp_path: Path) -> None:
    for name in ("server", "pit", "clients"):
        (tmp_path / name).mkdir()
    zmq.auth.create_certificates(tmp_path / "server", "table")
    public_file, secret_file = zmq.auth.create_certificates(tmp_path / "pit", "pit")
    (tmp_path / "clients" / "pit.key").write_bytes(Path(public_file).read_bytes())
    server = PitServer("T07", **server_args(
        Store(), snapshot=held.snapshot, on_command=held.on_command, heartbeat_interval=60.0,
        curve=CurveKeys(tmp_path / "server" / "table.key_secret", tmp_path / "clients")))
    await server.start()
    try:
        keys = client_keys(Path(secret_file), tmp_path / "server" / "table.key")
        slow = connect(client_ctx, zmq.REQ, server.endpoints["control"], **keys)
        await slow.send(b'{"cmd": "hold"}')
        await held.until_holding(1)
        req = connect(client_ctx, zmq.REQ, server.endpoints["control"], **keys)
        assert await request(req, b'{"cmd": "press", "button": "deal"}') == {"ok": True, "pressed": "deal"}
        expected = f"{keys['CURVE_PUBLICKEY'].decode()}@127.0.0.1"
        assert held.clients == [expected, expected]
    finally:
        held.release.set()
        await server.close()
