"""Tests of the pit sockets over real ZeroMQ TCP sockets on 127.0.0.1.

Every server binds ``tcp://127.0.0.1:*`` (the system picks a free port) and
clients connect to ``PitServer.endpoints``. Waiting is always a poll with a
timeout on a real socket; the only sleeps pace a burst of publishes.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
import zmq
import zmq.asyncio
import zmq.auth

from controller.events.envelope import decode_body, encode_event
from controller.pit.server import CurveKeys, PitServer

TS = "2026-11-21T22:14:05.123Z"
ANY_PORT = "tcp://127.0.0.1:*"


class Store:
    """A stand-in for the journal: held events, a snapshot and a command log."""

    def __init__(self) -> None:
        self.events: list[tuple[bytes, bytes]] = []
        self.commands: list[dict[str, Any]] = []
        self.fail_snapshot = False

    def add(self, type_: str, data: dict[str, Any], hand: int | None = None) -> tuple[bytes, bytes]:
        event = encode_event("T07", len(self.events) + 1, TS, type_, hand, data)
        self.events.append(event)
        return event

    def snapshot(self) -> dict[str, Any]:
        if self.fail_snapshot:
            raise RuntimeError("journal unavailable")
        return {"seq": self.last_seq(), "state": {"phase": "betting", "seats": {"3": {"bet": 500}}}}

    def history(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        return self.events[max(from_seq, 1) - 1 :]

    def last_seq(self) -> int:
        return len(self.events)

    async def on_command(self, request: dict[str, Any], client: str | None) -> dict[str, Any]:
        self.commands.append(request)
        await asyncio.sleep(0)  # a real handler awaits the table
        if request["cmd"] == "press":
            return {"ok": True, "pressed": request.get("button")}
        if request["cmd"] == "boom":
            raise RuntimeError("boom in handler")
        if request["cmd"] == "unserialisable":
            return {"ok": True, "value": object()}
        return {"ok": False, "error": f"unknown command {request['cmd']!r}"}


ServerFactory = Callable[..., Awaitable[PitServer]]


def server_args(store: Store, **overrides: Any) -> dict[str, Any]:
    """PitServer's arguments: every socket on a free loopback port, ``store`` behind the callbacks."""
    return {
        "publish": ANY_PORT,
        "sync": ANY_PORT,
        "control": ANY_PORT,
        "snapshot": store.snapshot,
        "history": store.history,
        "last_seq": store.last_seq,
        "on_command": store.on_command,
        **overrides,
    }


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.fixture
async def client_ctx() -> AsyncIterator[zmq.asyncio.Context]:
    ctx = zmq.asyncio.Context()
    yield ctx
    ctx.destroy(linger=0)


@pytest.fixture
async def make_server(store: Store) -> AsyncIterator[ServerFactory]:
    servers: list[PitServer] = []

    async def make(**overrides: Any) -> PitServer:
        server = PitServer("T07", **server_args(store, **{"heartbeat_interval": 60.0, **overrides}))
        servers.append(server)
        await server.start()
        return server

    yield make
    for server in servers:
        await server.close()


def connect(ctx: zmq.asyncio.Context, kind: int, endpoint: str, **curve: bytes) -> zmq.asyncio.Socket:
    sock = ctx.socket(kind)
    sock.setsockopt(zmq.LINGER, 0)
    for option, value in curve.items():
        sock.setsockopt(getattr(zmq, option), value)
    sock.connect(endpoint)
    return sock


async def recv(sock: zmq.asyncio.Socket, timeout: float = 3.0) -> list[bytes]:
    if not await sock.poll(timeout * 1000):
        raise AssertionError(f"nothing received within {timeout} s")
    frames: list[bytes] = await sock.recv_multipart()
    return frames


async def request(sock: zmq.asyncio.Socket, payload: bytes | list[bytes]) -> dict[str, Any]:
    if isinstance(payload, bytes):
        payload = [payload]
    await sock.send_multipart(payload)
    frames = await recv(sock)
    assert len(frames) == 1
    reply: dict[str, Any] = json.loads(frames[0])
    return reply


async def wait_subscribed(server: PitServer, subs: list[zmq.asyncio.Socket], topic: bytes) -> None:
    """Publish probes on ``topic`` until every SUB got one, then drain the rest of them."""
    ready: set[int] = set()
    for _ in range(200):
        server.publish(topic, b"probe")
        for i, sub in enumerate(subs):
            if i not in ready and await sub.poll(20):
                ready.add(i)
        if len(ready) == len(subs):
            break
    else:
        raise AssertionError("subscription never became active")
    server.publish(topic, b"probe-end")
    for sub in subs:
        while (await recv(sub))[1] != b"probe-end":
            pass


# ---------------------------------------------------------------- publish


async def test_publish_reaches_subscribers_with_prefix_filter(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    server = await make_server()
    alerts = connect(client_ctx, zmq.SUB, server.endpoints["publish"])
    alerts.subscribe(b"T07/alert")
    everything = connect(client_ctx, zmq.SUB, server.endpoints["publish"])
    everything.subscribe(b"T07/")
    await wait_subscribed(server, [alerts, everything], b"T07/alert")

    dealt = store.add("card.dealt", {"index": 1, "to": "seat", "seat": 3, "card": "Qh"}, 57)
    alert = store.add("alert", {"code": "card_gap", "severity": "warning", "index": 2})
    server.publish(*dealt)
    server.publish(*alert)

    assert await recv(alerts) == list(alert)  # card.dealt filtered out
    assert await recv(everything) == list(dealt)
    assert await recv(everything) == list(alert)
    assert not await alerts.poll(50)


async def test_publish_before_start_and_after_close_is_refused(
    make_server: ServerFactory, store: Store
) -> None:
    idle = PitServer("T07", **server_args(store))
    assert idle.endpoints == {}
    with pytest.raises(RuntimeError):
        idle.publish(b"T07/meter", b"{}")
    await idle.close()  # closing a server that never started is fine

    server = await make_server()
    assert set(server.endpoints) == {"publish", "sync", "control"}
    assert all(e.startswith("tcp://127.0.0.1:") for e in server.endpoints.values())
    await server.close()
    await server.close()  # idempotent
    with pytest.raises(RuntimeError):
        server.publish(b"T07/meter", b"{}")


async def test_bind_conflict_raises_and_cleans_up(make_server: ServerFactory, store: Store) -> None:
    first = await make_server()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    publish = f"tcp://127.0.0.1:{port}"
    with pytest.raises(zmq.ZMQError):
        await make_server(publish=publish, sync=first.endpoints["sync"])
    again = await make_server(publish=publish)      # the failed server let go of its publish port
    assert again.endpoints["publish"] == publish


# ---------------------------------------------------------------- heartbeat


async def test_heartbeat_after_silence_and_restarted_by_publishes(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    interval = 0.3
    for n in range(3):
        store.add("meter", {"name": "progressive", "value": 100 * n})
    server = await make_server(heartbeat_interval=interval)
    loop = asyncio.get_running_loop()
    sub = connect(client_ctx, zmq.SUB, server.endpoints["publish"])
    sub.subscribe(b"T07/heartbeat")

    first = await recv(sub)  # silence since start: heartbeats flow
    assert first[0] == b"T07/heartbeat"
    body = decode_body(first[1])
    assert body == {"v": 1, "table": "T07", "seq": 3, "ts": body["ts"], "type": "heartbeat"}
    await recv(sub)
    t_prev = loop.time()
    await recv(sub)
    assert loop.time() - t_prev >= interval * 0.8  # one per interval, not faster

    # A burst of events, one every interval/6: no heartbeat may fire meanwhile.
    for _ in range(10):
        server.publish(*store.add("meter", {"name": "progressive", "value": 1}))
        await asyncio.sleep(interval / 6)
    t_last = loop.time() - interval / 6
    while await sub.poll(0):
        stale = decode_body((await sub.recv_multipart())[1])
        assert stale["seq"] == 3, "a heartbeat fired during the burst"

    after = decode_body((await recv(sub))[1])
    assert loop.time() - t_last >= interval * 0.8
    assert after["seq"] == 13  # the last seq, and no seq of its own
    assert store.last_seq() == 13


# ---------------------------------------------------------------- sync


async def test_snapshot_over_dealer(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    store.add("table.opened", {"game": "easy-jack", "recovered": False})
    server = await make_server()
    dealer = connect(client_ctx, zmq.DEALER, server.endpoints["sync"])
    await dealer.send_multipart([b"snapshot"])
    verb, payload = await recv(dealer)
    assert verb == b"snapshot"
    assert json.loads(payload) == store.snapshot()
    assert json.loads(payload)["seq"] == 1


async def test_replay_is_byte_identical_then_end(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    for n in range(5):
        store.add("bet.placed", {"seat": n + 1, "spot": "main", "amount": 500, "who": "Zoë"}, 9)
    server = await make_server()
    dealer = connect(client_ctx, zmq.DEALER, server.endpoints["sync"])

    await dealer.send_multipart([b"replay", b"3"])
    for topic, body in store.events[2:]:
        assert await recv(dealer) == [b"event", topic, body]
    assert await recv(dealer) == [b"end", b"5"]

    await dealer.send_multipart([b"replay", b"99"])  # nothing newer: just the end
    assert await recv(dealer) == [b"end", b"5"]


@pytest.mark.parametrize(
    "garbage",
    [
        [b"replay", b"abc"],
        [b"replay", b"-1"],
        [b"replay", b" 3"],
        [b"replay"],
        [b"replay", b"1", b"2"],
        [b"snapshot", b"extra"],
        [b"bogus"],
        [b""],
        [b"\xff\xfe"],
    ],
)
async def test_sync_garbage_gets_error_and_server_goes_on(
    make_server: ServerFactory,
    store: Store,
    client_ctx: zmq.asyncio.Context,
    garbage: list[bytes],
) -> None:
    store.add("table.opened", {"recovered": False})
    server = await make_server()
    dealer = connect(client_ctx, zmq.DEALER, server.endpoints["sync"])
    await dealer.send_multipart(garbage)
    verb, why = await recv(dealer)
    assert verb == b"error"
    assert why
    await dealer.send_multipart([b"replay", b"1"])
    assert await recv(dealer) == [b"event", *store.events[0]]
    assert await recv(dealer) == [b"end", b"1"]


async def test_sync_snapshot_failure_is_an_error_reply(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    server = await make_server()
    dealer = connect(client_ctx, zmq.DEALER, server.endpoints["sync"])
    store.fail_snapshot = True
    await dealer.send_multipart([b"snapshot"])
    verb, why = await recv(dealer)
    assert (verb, b"journal unavailable" in why) == (b"error", True)
    store.fail_snapshot = False
    await dealer.send_multipart([b"snapshot"])
    assert (await recv(dealer))[0] == b"snapshot"


# ---------------------------------------------------------------- control


async def test_control_state_and_commands(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    store.add("table.opened", {"recovered": False})
    store.add("hand.started", {"seats": [3]}, 1)
    server = await make_server()
    req = connect(client_ctx, zmq.REQ, server.endpoints["control"])

    state = await request(req, b'{"cmd": "state"}')
    assert state == {"ok": True, "state": store.snapshot()["state"], "seq": 2}
    assert store.commands == []  # state is answered by the pit server itself

    pressed = await request(req, b'{"cmd": "press", "button": "deal"}')
    assert pressed == {"ok": True, "pressed": "deal"}
    assert store.commands == [{"cmd": "press", "button": "deal"}]

    unknown = await request(req, b'{"cmd": "dance"}')
    assert unknown == {"ok": False, "error": "unknown command 'dance'"}


@pytest.mark.parametrize(
    ("payload", "fragment"),
    [
        (b"not json", "not UTF-8 JSON"),
        (b"\xff\xfe{}", "not UTF-8 JSON"),
        (b"[" * 60_000, "not UTF-8 JSON"),
        (b"[" * 100_000, "over the limit of 65536 bytes"),
        (b"[1, 2]", "JSON object"),
        (b'"state"', "JSON object"),
        (b'{"button": "deal"}', '"cmd"'),
        (b'{"cmd": 7}', '"cmd"'),
        ([b'{"cmd": "state"}', b"{}"], "one JSON frame"),
        (b'{"cmd": "boom"}', "boom in handler"),
        (b'{"cmd": "unserialisable"}', "not JSON"),
    ],
)
async def test_control_bad_input_gets_ok_false_and_server_goes_on(
    make_server: ServerFactory,
    store: Store,
    client_ctx: zmq.asyncio.Context,
    payload: bytes | list[bytes],
    fragment: str,
) -> None:
    server = await make_server()
    req = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    reply = await request(req, payload)
    assert reply["ok"] is False
    assert fragment in reply["error"]
    assert (await request(req, b'{"cmd": "state"}'))["ok"] is True


async def test_control_state_failure_is_ok_false(
    make_server: ServerFactory, store: Store, client_ctx: zmq.asyncio.Context
) -> None:
    server = await make_server()
    req = connect(client_ctx, zmq.REQ, server.endpoints["control"])
    store.fail_snapshot = True
    reply = await request(req, b'{"cmd": "state"}')
    assert reply["ok"] is False
    assert "journal unavailable" in reply["error"]


@pytest.mark.parametrize(
    "control", ["tcp://*:5558", "tcp://0.0.0.0:5558", "tcp://192.168.1.20:5558", "tcp://eth0:5558"]
)
def test_non_loopback_control_without_curve_is_refused(store: Store, control: str) -> None:
    with pytest.raises(ValueError, match="not loopback"):
        PitServer("T07", **server_args(store, control=control))


@pytest.mark.parametrize("control", ["tcp://127.0.0.1:*", "tcp://localhost:*", "tcp://[::1]:*", "ipc"])
async def test_loopback_control_without_curve_is_accepted(
        make_server: ServerFactory, client_ctx: zmq.asyncio.Context, store: Store, tmp_path: Path,
        control: str) -> None:
    """Accepted: the server binds it and answers a command sent there."""
    if control == "ipc":
        control = f"ipc://{tmp_path}/control.sock"
    server = await make_server(control=control)
    bound = server.endpoints["control"]
    assert bound.startswith(control.removesuffix("*").replace("localhost", "127.0.0.1"))
    req = client_ctx.socket(zmq.REQ)
    req.setsockopt(zmq.IPV6, 1)
    req.setsockopt(zmq.LINGER, 0)
    req.connect(bound)
    try:
        assert await request(req, b'{"cmd": "press", "button": "deal"}') == {"ok": True, "pressed": "deal"}
    finally:
        req.close()
    assert store.commands == [{"cmd": "press", "button": "deal"}]


# ---------------------------------------------------------------- CURVE


@pytest.fixture
def curve_files(tmp_path: Path) -> dict[str, Path]:
    """Server keys, an allowed client's keys (its public key in clients/), a rogue's keys."""
    for name in ("server", "allowed", "rogue", "clients"):
        (tmp_path / name).mkdir()
    zmq.auth.create_certificates(tmp_path / "server", "table")
    zmq.auth.create_certificates(tmp_path / "allowed", "pit")
    zmq.auth.create_certificates(tmp_path / "rogue", "rogue")
    shutil.copy(tmp_path / "allowed" / "pit.key", tmp_path / "clients" / "pit.key")
    return {
        "server_secret": tmp_path / "server" / "table.key_secret",
        "server_public": tmp_path / "server" / "table.key",
        "allowed": tmp_path / "allowed" / "pit.key_secret",
        "rogue": tmp_path / "rogue" / "rogue.key_secret",
        "clients": tmp_path / "clients",
    }


def client_keys(secret_file: Path, server_public: Path) -> dict[str, bytes]:
    public, secret = zmq.auth.load_certificate(secret_file)
    server_key, _ = zmq.auth.load_certificate(server_public)
    assert secret is not None
    return {"CURVE_PUBLICKEY": public, "CURVE_SECRETKEY": secret, "CURVE_SERVERKEY": server_key}


async def test_curve_allows_only_known_client_keys(
    make_server: ServerFactory,
    store: Store,
    client_ctx: zmq.asyncio.Context,
    curve_files: dict[str, Path],
) -> None:
    store.add("table.opened", {"recovered": False})
    curve = CurveKeys(curve_files["server_secret"], curve_files["clients"])
    server = await make_server(curve=curve, heartbeat_interval=0.1)
    ends = server.endpoints
    good = client_keys(curve_files["allowed"], curve_files["server_public"])
    bad = client_keys(curve_files["rogue"], curve_files["server_public"])

    req = connect(client_ctx, zmq.REQ, ends["control"], **good)
    assert await request(req, b'{"cmd": "state"}') == {
        "ok": True,
        "state": store.snapshot()["state"],
        "seq": 1,
    }
    dealer = connect(client_ctx, zmq.DEALER, ends["sync"], **good)
    await dealer.send_multipart([b"snapshot"])
    assert (await recv(dealer))[0] == b"snapshot"
    sub = connect(client_ctx, zmq.SUB, ends["publish"], **good)
    sub.subscribe(b"T07/")
    assert (await recv(sub))[0] == b"T07/heartbeat"

    rogue_req = connect(client_ctx, zmq.REQ, ends["control"], **bad)
    plain_req = connect(client_ctx, zmq.REQ, ends["control"])
    rogue_dealer = connect(client_ctx, zmq.DEALER, ends["sync"], **bad)
    rogue_sub = connect(client_ctx, zmq.SUB, ends["publish"], **bad)
    rogue_sub.subscribe(b"")
    for sock in (rogue_req, plain_req):
        await sock.send(b'{"cmd": "state"}')
    await rogue_dealer.send_multipart([b"snapshot"])
    # Several heartbeat intervals pass while every unauthorised peer waits in vain.
    unauthorised = (rogue_req, plain_req, rogue_dealer, rogue_sub)
    answered = await asyncio.gather(*(sock.poll(400) for sock in unauthorised))
    assert not any(answered)
    assert await request(req, b'{"cmd": "press", "button": "deal"}') == {
        "ok": True,
        "pressed": "deal",
    }


def test_curve_configuration_errors(store: Store, curve_files: dict[str, Path], tmp_path: Path) -> None:
    def curve_server(secret: Path, clients: Path, control: str = ANY_PORT) -> PitServer:
        return PitServer("T07", **server_args(store, control=control, curve=CurveKeys(secret, clients)))

    # With CURVE on, control may listen beyond loopback (nothing is bound here).
    curve_server(curve_files["server_secret"], curve_files["clients"], control="tcp://0.0.0.0:5558")
    with pytest.raises(ValueError, match="no secret key"):
        curve_server(curve_files["server_public"], curve_files["clients"])
    with pytest.raises(ValueError, match="does not exist"):
        curve_server(curve_files["server_secret"], tmp_path / "missing")
    with pytest.raises(ValueError):
        curve_server(tmp_path / "missing.key_secret", curve_files["clients"])
