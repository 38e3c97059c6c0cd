"""The pit sockets: publish with heartbeat, sync (snapshot, replay) and control.

One :class:`PitServer` per table, on the daemon's single asyncio loop
(``zmq.asyncio``), implementing pit-events.md sections 1, 2 and 4:

* **PUB** (``publish``): every event as ``[topic, body]``, published the moment
  :meth:`PitServer.publish` is called; after ``heartbeat_interval`` seconds
  without an event a heartbeat carrying the last seq, then one every interval.
  The heartbeat runs on a loop timer (``loop.call_later``) that every publish
  restarts: no polling.
* **ROUTER** (``sync``): ``[b"snapshot"]`` and ``[b"replay", b"<from_seq>"]``
  from DEALER clients; anything else gets ``[b"error", b"<why>"]``.
* **ROUTER** (``control``), for REQ clients: one JSON object in, one JSON
  object out, each request answered in its own task, so a command that awaits
  (a supervisor's PIN, a ``critical_memory_clear``) holds up no other; at most
  :data:`MAX_CONTROL_IN_FLIGHT` at once, one more is refused at once with
  :data:`BUSY`, and at most :data:`MAX_CONTROL_PER_PEER` of one peer (the
  identity ROUTER gives its connection), one more of its own refused at once with
  :data:`BUSY_PEER`. ``state`` is answered here, every other command goes to the
  ``on_command`` callback with the client it came from (:func:`control_client`).
  Bad input never stops the loop: it is answered ``{"ok": false, "error": ...}``.

A malformed request on sync or control is answered and logged (a control message
without a REQ's envelope cannot be answered: it is dropped, as a REP socket drops
it, and logged); the log takes each kind of mistake once and then counts its repeats
(:class:`~firmware_bridge.kernel.repeat_log.RepeatLog`), so a flood cannot fill the disk.

With :class:`CurveKeys` all three sockets are CURVE servers and a ZAP
authenticator on the same loop admits only the client public keys found in
``clients_dir``. Without CURVE the control socket must be bound to loopback
(or ``ipc://`` / ``inproc://``); anything else is refused at construction.

The server never decides what an event is: it publishes the bytes it is given
and reads the journal's view of the world through the ``snapshot``,
``history`` and ``last_seq`` callables.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import zmq
import zmq.asyncio
import zmq.auth
from zmq.auth.asyncio import AsyncioAuthenticator

from controller.events.envelope import compact_json, encode_heartbeat, now_timestamp
from firmware_bridge.kernel.repeat_log import RepeatLog

__all__ = ["CurveKeys", "PitServer", "control_client", "is_local_endpoint", "load_secret_key"]

log = logging.getLogger(__name__)

PUB_SNDHWM = 100_000
"""Messages queued per subscriber before PUB drops (a slow subscriber loses, the table never waits)."""

SYNC_SNDHWM = 100_000
"""Messages queued per sync client; comfortably more than the 10,000 events a replay must cover."""

SYNC_SNDTIMEO_MS = 10_000
"""How long one replay message may wait for a stalled sync client before that replay is dropped."""

MAX_REQUEST_BYTES = 64 * 1024
"""Largest request (all its frames) served on the sync and control sockets; a bigger one is answered
with an error that says so."""

CUT_REQUEST_BYTES = 8 << 20
"""Largest message read at all on the sync and control sockets (ZMQ_MAXMSGSIZE): a peer that sends
more is disconnected by ZeroMQ before the message is read, so it gets no reply."""

REQUEST_RCVHWM = 8
"""Requests queued per peer on the sync and control sockets (bounds what a flooding peer can make the
daemon hold: REQUEST_RCVHWM * CUT_REQUEST_BYTES)."""

MAX_CONTROL_IN_FLIGHT = 32
"""Control requests served at once (received, not yet answered); one more is answered :data:`BUSY`
at once."""

BUSY = (f"busy: the table is serving {MAX_CONTROL_IN_FLIGHT} control requests already; "
        "send it again in a moment")
"""The error of a control request refused because :data:`MAX_CONTROL_IN_FLIGHT` are being served."""

MAX_CONTROL_PER_PEER = 4
"""Control requests of one peer served at once; one more from it is answered :data:`BUSY_PEER` at
once, so that one peer (a broken or hostile client sending from a DEALER socket without waiting for
replies) cannot take every place of :data:`MAX_CONTROL_IN_FLIGHT` and lock out the dealer's screen
and the pit. A peer is the routing identity the ROUTER gives its connection (the first frame of the
envelope): a REQ socket has one request out at a time, so only a DEALER (or a proxy's, for every
client behind it) can reach the limit. ZeroMQ draws a fresh identity for each connection unless the
peer sets ``ROUTING_ID``; a peer that opens many sockets is many peers (the bound of
:data:`MAX_CONTROL_IN_FLIGHT` still holds). The count is kept by identity until each request is
answered, so a peer that reconnects under the same ``ROUTING_ID`` finds it where it was, and the
socket is not ``ROUTER_HANDOVER``: a second connection cannot take an identity in use."""

BUSY_PEER = (f"busy: this client has {MAX_CONTROL_PER_PEER} control requests being served already; "
             "wait for their replies before sending more")
"""The error of a control request refused because its peer has :data:`MAX_CONTROL_PER_PEER` being
served."""


@dataclass(frozen=True)
class CurveKeys:
    """Where the CURVE keys live, in ``zmq.auth.create_certificates`` format.

    ``secret_key_file`` is the table's ``*.key_secret`` certificate (it holds
    both the public and the secret key); ``clients_dir`` holds one ``*.key``
    public certificate per pit client allowed to connect.
    """

    secret_key_file: Path
    clients_dir: Path


def is_local_endpoint(endpoint: str) -> bool:
    """Whether binding ``endpoint`` only accepts connections from this machine.

    True for ``ipc://``, ``inproc://`` and ``tcp://`` on ``localhost`` or a
    loopback address (``127.0.0.0/8``, ``[::1]``); any port, including ``*``.

    >>> [is_local_endpoint(e) for e in ("tcp://127.0.0.1:5558", "tcp://localhost:*",
    ...                                 "tcp://[::1]:5558", "ipc:///run/tc.sock")]
    [True, True, True, True]
    >>> [is_local_endpoint(e) for e in ("tcp://*:5558", "tcp://0.0.0.0:5558",
    ...                                 "tcp://10.1.2.3:5558", "tcp://eth0:5558", "udp://x")]
    [False, False, False, False, False]
    """
    scheme, sep, address = endpoint.partition("://")
    if not sep:
        return False
    if scheme in ("ipc", "inproc"):
        return bool(address)
    if scheme != "tcp" or ";" in address:
        return False
    host, colon, _port = address.rpartition(":")
    if not colon:
        return False
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # "*", an interface name or a host name
        return False


def load_secret_key(path: Path) -> tuple[bytes, bytes]:
    """The public and secret key of the ``zmq.auth`` certificate at ``path``.

    Raises ``ValueError`` naming the file and what is wrong with it (missing, unreadable, not a
    certificate, or a public certificate without the secret key).
    """
    if not path.is_file():
        raise ValueError(f"{path}: {'not a file' if path.exists() else 'no such file'}")
    try:
        public, secret = zmq.auth.load_certificate(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: not a certificate ({exc})") from exc
    if secret is None:
        raise ValueError(f"{path}: holds no secret key (give the *.key_secret file)")
    return public, secret


def control_client(frame: zmq.Frame) -> str | None:
    """Who sent a control request (``frame``: one it received from the peer), as far as the socket
    can tell clients apart: with CURVE the client's public key (Z85, the ZAP user id) and its peer
    address, ``"<key>@<address>"``; without CURVE None, since the control socket is then on
    loopback or ipc, where every client has the same address (and the identity a ROUTER gives a
    REQ peer is only its connection's, new for every socket)."""
    try:
        user = frame.get("User-Id")
    except zmq.ZMQError:  # no ZAP authentication: no user id
        return None
    try:
        address = frame.get("Peer-Address")
    except zmq.ZMQError:
        address = ""
    return f"{user}@{address}"


def _too_large(size: int) -> str:
    """The error for a request over :data:`MAX_REQUEST_BYTES`.

    >>> _too_large(70000)
    'request of 70000 bytes is over the limit of 65536 bytes'
    """
    return f"request of {size} bytes is over the limit of {MAX_REQUEST_BYTES} bytes"


def _envelope_end(frames: Sequence[zmq.Frame]) -> int | None:
    """Where a control request's body starts: after the envelope, the routing frames up to the
    first empty one (a REQ peer's request arrives as ``[identity, b"", body]``); None without one
    (the peer is no REQ socket, and a REP socket drops such a message too)."""
    for index in range(1, len(frames)):
        if not frames[index].bytes:
            return index + 1
    return None


def _error_text(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class PitServer:
    """The PUB, sync ROUTER and control ROUTER sockets of one table.

    ``snapshot()`` returns ``{"seq": S, "state": {...}}`` as of the last
    event; ``history(from_seq)`` yields the ``(topic, body)`` of every held
    event with ``seq >= from_seq`` in order; ``last_seq()`` is the seq of the
    last event (0 before the first); ``on_command(request, client)`` answers every
    control command except ``state`` (``client``: :func:`control_client`). If
    ``context`` is not given the server makes its own and destroys it on :meth:`close`. With ``curve`` the
    context must not already run a ZAP authenticator. ``epoch``, if given, is
    carried by every heartbeat (the table's current epoch: see docs/pit-events.md, "Epochs").

    Raises ``ValueError`` for a non-positive heartbeat interval, a non-local
    control endpoint without CURVE, or unusable CURVE key files.
    """

    def __init__(
        self,
        table_id: str,
        *,
        publish: str,
        sync: str,
        control: str,
        snapshot: Callable[[], Mapping[str, object]],
        history: Callable[[int], Iterable[tuple[bytes, bytes]]],
        last_seq: Callable[[], int],
        on_command: Callable[[dict[str, object], str | None], Awaitable[dict[str, object]]],
        heartbeat_interval: float = 2.0,
        curve: CurveKeys | None = None,
        context: zmq.asyncio.Context | None = None,
        epoch: int | None = None,
    ) -> None:
        if not heartbeat_interval > 0:
            raise ValueError(f"heartbeat_interval must be > 0, got {heartbeat_interval!r}")
        if curve is None and not is_local_endpoint(control):
            raise ValueError(
                f"pit control endpoint {control!r} is not loopback; "
                "bind it to tcp://127.0.0.1, tcp://localhost, tcp://[::1] or ipc://, "
                "or turn CURVE on"
            )
        encode_heartbeat(table_id, 0, now_timestamp())  # refuses a table id unfit for a topic
        self._table_id = table_id
        self._epoch = epoch
        self._bind = {"publish": publish, "sync": sync, "control": control}
        self._snapshot = snapshot
        self._history = history
        self._last_seq = last_seq
        self._on_command = on_command
        self._interval = float(heartbeat_interval)
        self._curve_keys: tuple[bytes, bytes] | None = None
        self._curve_clients: Path | None = None
        if curve is not None:
            self._curve_keys = self._load_server_keys(curve.secret_key_file)
            if not curve.clients_dir.is_dir():
                raise ValueError(f"CURVE clients directory {curve.clients_dir} does not exist")
            self._curve_clients = curve.clients_dir
        self._context = context
        self._own_context = context is None
        self._auth: AsyncioAuthenticator | None = None
        self._pub: zmq.Socket[bytes] | None = None
        self._router: zmq.asyncio.Socket | None = None
        self._control: zmq.asyncio.Socket | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()      # control requests being answered
        self._peers: dict[bytes, int] = {}                  # how many of them, by peer identity
        self._replies: asyncio.Queue[list[bytes]] = asyncio.Queue()
        self._heartbeat: asyncio.TimerHandle | None = None
        self._endpoints: dict[str, str] = {}
        self._state = "new"  # new -> started -> closed
        self._repeats = RepeatLog(log)
        self.served = {"snapshots": 0, "replays": 0}
        """Sync requests answered since the start, by kind (the control socket's ``links`` says them)."""

    @staticmethod
    def _load_server_keys(path: Path) -> tuple[bytes, bytes]:
        try:
            return load_secret_key(path)
        except ValueError as exc:
            raise ValueError(f"CURVE secret key file {exc}") from exc

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Bind PUB and the two ROUTERs (sync, control), start serving them and the heartbeat.

        With CURVE the authenticator is running before anything is bound, so
        no connection is ever accepted unchecked. If a bind fails (address in
        use, bad endpoint) everything already opened is closed again and the
        ``zmq.ZMQError`` propagates. Calling ``start`` twice is an error.
        """
        if self._state != "new":
            raise RuntimeError(f"PitServer.start() on a {self._state} server")
        self._state = "started"
        try:
            self._open()
        except BaseException:
            await self.close()
            raise
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._serve_sync(), name=f"pit-sync-{self._table_id}"),
            loop.create_task(self._serve_control(), name=f"pit-control-{self._table_id}"),
            loop.create_task(self._write_control(), name=f"pit-control-replies-{self._table_id}"),
        ]
        for task in self._tasks:
            task.add_done_callback(self._task_done)
        self._restart_heartbeat()

    def _open(self) -> None:
        """Start the authenticator (with CURVE), then make, configure and bind the three sockets."""
        if self._context is None:
            self._context = zmq.asyncio.Context()
        ctx = self._context
        if self._curve_clients is not None:
            self._auth = AsyncioAuthenticator(ctx)
            self._auth.start()
            self._auth.configure_curve(domain="*", location=str(self._curve_clients))
        # PUB never needs awaiting (it drops instead of blocking): a plain socket.
        pub: zmq.Socket[bytes] = zmq.Socket(ctx, zmq.PUB)
        self._pub = pub
        pub.setsockopt(zmq.SNDHWM, PUB_SNDHWM)
        self._router = ctx.socket(zmq.ROUTER)
        self._router.setsockopt(zmq.SNDHWM, SYNC_SNDHWM)
        self._router.setsockopt(zmq.ROUTER_MANDATORY, 1)
        self._router.setsockopt(zmq.SNDTIMEO, SYNC_SNDTIMEO_MS)
        # Not ROUTER_MANDATORY: a reply to a client gone meanwhile is dropped, as a REP socket does.
        self._control = ctx.socket(zmq.ROUTER)
        for served in (self._router, self._control):
            served.setsockopt(zmq.MAXMSGSIZE, CUT_REQUEST_BYTES)
            served.setsockopt(zmq.RCVHWM, REQUEST_RCVHWM)
        for name, sock in (("publish", pub), ("sync", self._router), ("control", self._control)):
            endpoint = self._bind[name]
            sock.setsockopt(zmq.LINGER, 0)
            if endpoint.startswith("tcp://["):
                sock.setsockopt(zmq.IPV6, 1)
            if self._curve_keys is not None:
                public, secret = self._curve_keys
                sock.setsockopt(zmq.CURVE_PUBLICKEY, public)
                sock.setsockopt(zmq.CURVE_SECRETKEY, secret)
                sock.setsockopt(zmq.CURVE_SERVER, 1)
            sock.bind(endpoint)
            self._endpoints[name] = sock.getsockopt_string(zmq.LAST_ENDPOINT)

    async def close(self) -> None:
        """Stop the heartbeat, the serving tasks and the control requests being answered, close the
        sockets (linger 0).

        Idempotent; safe on a server that was never started or failed to start.
        """
        if self._state == "closed":
            return
        self._state = "closed"
        self._repeats.flush()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
        tasks = [*self._tasks, *self._serving]
        self._tasks = []
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        for sock in (self._pub, self._router, self._control):
            if sock is not None:
                sock.close(linger=0)
        self._pub = self._router = self._control = None
        if self._auth is not None:
            self._auth.stop()
            self._auth = None
        if self._own_context and self._context is not None:
            self._context.destroy(linger=0)
            self._context = None

    @property
    def endpoints(self) -> dict[str, str]:
        """The actually bound addresses by role (``publish``, ``sync``, ``control``).

        Taken from ``ZMQ_LAST_ENDPOINT`` at bind time, so ``tcp://127.0.0.1:*``
        shows the port the system chose. Empty before :meth:`start`.
        """
        return dict(self._endpoints)

    # ------------------------------------------------------------------ publish

    def publish(self, topic: bytes, body: bytes) -> None:
        """Send ``[topic, body]`` on the PUB socket now and restart the heartbeat timer.

        Never blocks and never fails because of a slow or absent subscriber:
        PUB drops for a subscriber whose queue is full. Call it on the
        server's event loop (it touches the loop's timer). Raises
        ``RuntimeError`` if the server is not started (or already closed).
        """
        pub = self._pub
        if pub is None or self._state != "started":
            raise RuntimeError("PitServer.publish() before start() or after close()")
        self._send_pub(pub, topic, body)
        self._restart_heartbeat()

    @staticmethod
    def _send_pub(pub: zmq.Socket[bytes], topic: bytes, body: bytes) -> None:
        try:
            pub.send_multipart([topic, body], flags=zmq.NOBLOCK)
        except zmq.Again:  # PUB drops rather than blocks; kept for safety
            log.warning("pit publish dropped %r: send queue full", topic)

    def _restart_heartbeat(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        loop = asyncio.get_running_loop()
        self._heartbeat = loop.call_later(self._interval, self._beat)

    def _beat(self) -> None:
        self._heartbeat = None
        pub = self._pub
        if pub is None or self._state != "started":
            return
        self._restart_heartbeat()
        try:
            topic, body = encode_heartbeat(self._table_id, self._last_seq(), now_timestamp(),
                                           epoch=self._epoch)
        except Exception:
            log.exception("pit heartbeat skipped: last_seq() failed")
            return
        self._send_pub(pub, topic, body)

    # ------------------------------------------------------------------ sync

    async def _serve_sync(self) -> None:
        router = self._router
        assert router is not None
        while True:
            frames: list[bytes] = await router.recv_multipart()
            identity, request = frames[0], frames[1:]  # ROUTER prepends the peer identity
            try:
                for reply in self._sync_replies(request):
                    await router.send_multipart([identity, *reply])
            except zmq.ZMQError as exc:  # peer gone (EHOSTUNREACH) or stalled (EAGAIN)
                self._repeats.note("sync abandoned", logging.WARNING, f"pit sync reply abandoned: {exc}")

    def _sync_replies(self, request: list[bytes]) -> list[list[bytes]]:
        """Every reply message for one sync request, computed at one instant."""
        size = sum(len(frame) for frame in request)
        if size > MAX_REQUEST_BYTES:
            return self._sync_error("too large", _too_large(size))
        verb = request[0] if request else b""
        args = request[1:]
        if verb == b"snapshot":
            if args:
                return self._sync_error("snapshot arguments", "snapshot takes no arguments")
            self.served["snapshots"] += 1
            try:
                return [[b"snapshot", compact_json(self._snapshot())]]
            except Exception as exc:
                self._repeats.note("snapshot failed", logging.ERROR, "pit snapshot failed", exc_info=True)
                return [[b"error", f"snapshot failed: {_error_text(exc)}".encode()]]
        if verb == b"replay":
            if len(args) != 1:
                return self._sync_error("replay arguments", "replay takes exactly one argument: from_seq")
            raw = args[0]
            if not (raw.isdigit() and len(raw) <= 20):
                shown = raw[:40].decode("ascii", "replace")
                return self._sync_error("from_seq", f"from_seq is not a non-negative integer: {shown!r}")
            self.served["replays"] += 1
            try:
                # Materialised now, with last_seq, so that events published while
                # the replay is being sent cannot tear it.
                held = list(self._history(int(raw)))
                last = self._last_seq()
            except Exception as exc:
                self._repeats.note("replay failed", logging.ERROR, "pit replay failed", exc_info=True)
                return [[b"error", f"replay failed: {_error_text(exc)}".encode()]]
            replies = [[b"event", topic, body] for topic, body in held]
            replies.append([b"end", str(last).encode()])
            return replies
        shown = verb[:40].decode("ascii", "replace")
        return self._sync_error("unknown", f"unknown request {shown!r}; expected snapshot or replay")

    def _sync_error(self, kind: str, why: str) -> list[list[bytes]]:
        """The ``error`` reply to a malformed sync request, which is logged (once per kind, then
        counted: see :class:`~firmware_bridge.kernel.repeat_log.RepeatLog`)."""
        self._repeats.note(("sync", kind), logging.WARNING, f"pit sync: malformed request: {why}")
        return [[b"error", why.encode()]]

    # ------------------------------------------------------------------ control

    async def _serve_control(self) -> None:
        """Take each control request as it comes and answer it in its own task (:meth:`_answer`), or
        at once :data:`BUSY` while :data:`MAX_CONTROL_IN_FLIGHT` are being answered, or
        :data:`BUSY_PEER` while :data:`MAX_CONTROL_PER_PEER` of its peer's are."""
        control = self._control
        assert control is not None
        loop = asyncio.get_running_loop()
        while True:
            received: list[zmq.Frame] = await control.recv_multipart(copy=False)
            start = _envelope_end(received)
            if start is None:
                self._repeats.note(("control", "envelope"), logging.WARNING,
                                   "pit control: malformed request: no REQ envelope (an empty frame "
                                   "after the routing frames): dropped unanswered")
                await asyncio.sleep(0)
                continue
            envelope = [frame.bytes for frame in received[:start]]
            peer = envelope[0]                  # the identity ROUTER gave the peer's connection
            if len(self._serving) >= MAX_CONTROL_IN_FLIGHT:
                self._repeats.note(("control", "busy"), logging.WARNING, f"pit control: {BUSY}")
                self._reply(envelope, {"ok": False, "error": BUSY})
            elif self._peers.get(peer, 0) >= MAX_CONTROL_PER_PEER:
                self._repeats.note(("control", "busy peer"), logging.WARNING,
                                   f"pit control: a peer's request refused: {BUSY_PEER}")
                self._reply(envelope, {"ok": False, "error": BUSY_PEER})
            else:
                task = loop.create_task(self._answer(
                    envelope, [frame.bytes for frame in received[start:]], control_client(received[-1])))
                self._serving.add(task)
                self._peers[peer] = self._peers.get(peer, 0) + 1
                task.add_done_callback(functools.partial(self._answered, peer))
            await asyncio.sleep(0)      # a flood of requests leaves the loop its other work

    async def _answer(self, envelope: list[bytes], frames: list[bytes], client: str | None) -> None:
        """Answer one control request (``frames``) to the peer its ``envelope`` routes to."""
        self._reply(envelope, await self._control_reply(frames, client))

    def _answered(self, peer: bytes, task: asyncio.Task[None]) -> None:
        """``task``, answering one request of ``peer``, is done: its places are free again."""
        self._serving.discard(task)
        left = self._peers.pop(peer, 1) - 1
        if left:
            self._peers[peer] = left
        self._task_done(task)

    def _reply(self, envelope: list[bytes], reply: dict[str, object]) -> None:
        """Queue ``reply`` for the peer ``envelope`` routes to; :meth:`_write_control` sends it."""
        try:
            frame = compact_json(reply)
        except (TypeError, ValueError) as exc:
            self._repeats.note("reply not JSON", logging.ERROR, f"pit control reply is not JSON: {exc}")
            frame = compact_json({"ok": False, "error": f"reply not JSON: {exc}"})
        self._replies.put_nowait([*envelope, frame])

    async def _write_control(self) -> None:
        """The one writer of the control socket: sends the queued replies one whole message at a
        time, in the order they were queued (a ZeroMQ socket is never written by two at once)."""
        control = self._control
        assert control is not None
        while True:
            message = await self._replies.get()
            try:
                await control.send_multipart(message)
            except zmq.ZMQError as exc:
                self._repeats.note("control reply", logging.WARNING, f"pit control reply not sent: {exc}")

    async def _control_reply(self, frames: list[bytes], client: str | None) -> dict[str, object]:
        """The reply to one control request; never raises (except cancellation)."""
        size = sum(len(frame) for frame in frames)
        if size > MAX_REQUEST_BYTES:
            return self._control_error("too large", _too_large(size))
        if len(frames) != 1:
            return self._control_error("frames", f"expected one JSON frame, got {len(frames)}")
        try:
            request = json.loads(frames[0].decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            return self._control_error("not JSON", f"request is not UTF-8 JSON: {exc}")
        if not isinstance(request, dict):
            return self._control_error("not an object", "request must be a JSON object")
        cmd = request.get("cmd")
        if not isinstance(cmd, str):
            return self._control_error("no cmd", 'request needs a string "cmd"')
        try:
            if cmd == "state":
                snap = self._snapshot()
                state = {"ok": True, "state": snap["state"], "seq": snap["seq"]}
                if "epoch" in snap:
                    state["epoch"] = snap["epoch"]
                return state
            reply = await self._on_command(request, client)
        except Exception as exc:
            self._repeats.note(("failed", cmd[:40]), logging.ERROR,
                               f"pit control command {cmd[:40]!r} failed", exc_info=True)
            return {"ok": False, "error": f"{cmd} failed: {_error_text(exc)}"}
        if not isinstance(reply, dict):
            self._repeats.note(("no object", cmd[:40]), logging.ERROR,
                               f"pit control handler returned {type(reply).__name__} for {cmd[:40]!r}")
            return {"ok": False, "error": f"{cmd} failed: handler returned no object"}
        return reply

    def _control_error(self, kind: str, why: str) -> dict[str, object]:
        """The ``ok: false`` reply to a malformed control request, which is logged (once per kind,
        then counted: see :class:`~firmware_bridge.kernel.repeat_log.RepeatLog`)."""
        self._repeats.note(("control", kind), logging.WARNING, f"pit control: malformed request: {why}")
        return {"ok": False, "error": why}

    def _task_done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("pit task %s stopped", task.get_name(), exc_info=exc)
