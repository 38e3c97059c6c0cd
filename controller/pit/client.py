"""A pit client that never misses an event: subscribe, and replay any gap from the sync socket.

This is the client side of pit-events.md (the "Clone" pattern): events arrive
on the SUB socket; whenever an event's ``seq`` jumps, or a heartbeat names a
``seq`` not yet seen, the client asks the sync socket for a replay from the
first missing ``seq`` and merges it, so :attr:`PitClient.events` always holds
every event from ``seq`` 1 (or the first asked for) in order, each once, byte
for byte as published. A client that joins late catches up the same way.

It follows epochs (docs/pit-events.md, "Epochs"): an event is ``(epoch, seq)``, and epochs only
grow. When an event or a heartbeat carries a newer epoch, the table's sequence
was rewound (its journal lost events it had published); the client then
replays everything the table holds, finds the first event of an epoch newer
than its own, and goes on from there: the events it had from that ``seq`` on
were lost by the table, and the new ones with the same seqs are taken, never
discarded as duplicates. :attr:`PitClient.events` keeps both, in the order
they were published.

It is blocking (plain pyzmq with timeouts) and meant for tools, tests, the demo
and benchmarks, not for the daemon's loop. With CURVE on at the table, give it
``curve=(table public key, own public key, own secret key)`` (Z85 bytes, as
``zmq.auth.load_certificate`` returns them).
"""

from __future__ import annotations

import json
import time
from typing import Any

import zmq

from controller.pit.events import UNSEQUENCED, VIEW_TYPE

DEFAULT_TIMEOUT = 10.0


class PitError(AssertionError):
    """Nothing came within the time allowed; the message says what was awaited and what was seen."""


class PitClient:
    """Subscribes to one table's events and keeps them complete and in order."""

    def __init__(self, table: str, publish: str, sync: str, control: str, *,
                 context: zmq.Context[Any] | None = None, from_seq: int = 1,
                 curve: tuple[bytes, bytes, bytes] | None = None) -> None:
        self.context = context or zmq.Context.instance()
        self.table = table
        self.curve = curve
        self.sub = self._socket(zmq.SUB)
        self.sub.setsockopt(zmq.SUBSCRIBE, f"{table}/".encode())
        self.sub.setsockopt(zmq.RECONNECT_IVL, 20)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.connect(publish)
        self.sync_endpoint = sync
        self.control_endpoint = control
        self.events: list[dict[str, Any]] = []
        """Every event so far, in ``seq`` order."""
        self.raw: list[tuple[bytes, bytes]] = []
        """``(topic, body)`` of each event in :attr:`events`, as published."""
        self.heartbeats = 0
        self.view: dict[str, Any] | None = None
        """The last ``table.view`` message: the table's picture in ``data`` (None before the first)."""
        self.replays = 0
        """How many gaps were filled from the sync socket."""
        self.last_seq = from_seq - 1
        self.epoch: int | None = None
        """The epoch of the last event taken (0 for events without one; None before the first)."""
        self.rewinds = 0
        """How many times the table's sequence was found rewound (a newer epoch)."""
        self._cursor = 0

    def _socket(self, kind: int) -> zmq.Socket[bytes]:
        """A socket of ``kind``, a CURVE client of the table if :attr:`curve` is set."""
        sock: zmq.Socket[bytes] = self.context.socket(kind)
        if self.curve is not None:
            server, public, secret = self.curve
            sock.setsockopt(zmq.CURVE_SERVERKEY, server)
            sock.setsockopt(zmq.CURVE_PUBLICKEY, public)
            sock.setsockopt(zmq.CURVE_SECRETKEY, secret)
        return sock

    def close(self) -> None:
        """Close the subscription."""
        self.sub.close(linger=0)

    # -- receiving ------------------------------------------------------------------

    def poll(self, timeout: float) -> bool:
        """Take what arrives within ``timeout`` seconds; True if anything arrived (an event, a
        picture or a heartbeat)."""
        if not self.sub.poll(int(max(timeout, 0) * 1000)):
            return False
        while True:
            topic, body = self.sub.recv_multipart()
            self._accept(topic, body)
            if not self.sub.poll(0):
                return True

    def _newer(self, message: dict[str, Any]) -> bool:
        """Whether ``message`` comes from an epoch after the one of the last event taken."""
        return self.epoch is not None and message.get("epoch", 0) > self.epoch

    def _accept(self, topic: bytes, body: bytes) -> None:
        message = json.loads(body)
        seq = message["seq"]
        if message["type"] in UNSEQUENCED:
            if message["type"] == VIEW_TYPE:
                self.view = message
            else:
                self.heartbeats += 1
            if seq > self.last_seq or self._newer(message):
                self.catch_up()
            return
        if self._newer(message):
            self.catch_up()              # the event is journaled, so the replay brings it
            return
        if seq <= self.last_seq or (self.epoch is not None and message.get("epoch", 0) < self.epoch):
            return
        if seq > self.last_seq + 1:
            self.catch_up()
            if seq <= self.last_seq:
                return
        self._add(topic, body, message)

    def _add(self, topic: bytes, body: bytes, message: dict[str, Any]) -> None:
        self.raw.append((topic, body))
        self.events.append(message)
        self.last_seq = message["seq"]
        self.epoch = message.get("epoch", 0)

    def catch_up(self) -> None:
        """Replay everything after :attr:`last_seq` from the sync socket; if the table's sequence was
        rewound (a newer epoch), replay all it holds and go on from where the new epoch took over."""
        held = self._replay(self.last_seq + 1)
        rewound = bool(held) and self._newer(held[0][2]) and self.last_seq > 0
        if rewound or (not held and self.epoch is not None):
            held = self._replay(0)       # where the newer epoch begins is not in what came back
        for topic, body, message in held:
            if self._newer(message) and message["seq"] <= self.last_seq:
                self.last_seq = message["seq"] - 1     # the table lost our events from here on
                self.rewinds += 1
            if message["seq"] == self.last_seq + 1 and not (
                    self.epoch is not None and message.get("epoch", 0) < self.epoch):
                self._add(topic, body, message)

    def _replay(self, from_seq: int) -> list[tuple[bytes, bytes, dict[str, Any]]]:
        """The held events from ``from_seq`` on, as ``(topic, body, decoded body)``."""
        replies = self.sync(b"replay", str(from_seq).encode())
        self.replays += 1
        return [(reply[1], reply[2], json.loads(reply[2])) for reply in replies if reply[0] == b"event"]

    def next(self, kind: str | None = None, timeout: float = DEFAULT_TIMEOUT,
             **data: Any) -> dict[str, Any]:
        """The next event not yet taken; with ``kind``, the next of that type whose data has
        these fields (events skipped on the way count as taken)."""
        deadline = time.monotonic() + timeout
        while True:
            while self._cursor < len(self.events):
                event = self.events[self._cursor]
                self._cursor += 1
                if kind is None or (event["type"] == kind and all(
                        event["data"].get(k) == v for k, v in data.items())):
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                seen = [(e["seq"], e["type"], e["data"]) for e in self.events[-10:]]
                raise PitError(f"no {kind or 'event'} {data or ''} within {timeout} s; last: {seen}")
            self.poll(left)

    def taken(self) -> list[dict[str, Any]]:
        """Every event taken by :meth:`next` or :meth:`drain`, in order."""
        return self.events[: self._cursor]

    def drain(self, quiet: float = 0.3) -> list[dict[str, Any]]:
        """Take every event until nothing comes for ``quiet`` seconds."""
        while self.poll(quiet):
            pass
        out = self.events[self._cursor:]
        self._cursor = len(self.events)
        return out

    # -- asking ---------------------------------------------------------------------

    def control(self, request: dict[str, Any], timeout: float = DEFAULT_TIMEOUT) -> dict[str, Any]:
        """One control command and its reply."""
        req = self._socket(zmq.REQ)
        req.setsockopt(zmq.LINGER, 0)
        req.connect(self.control_endpoint)
        try:
            req.send_json(request)
            if not req.poll(int(timeout * 1000)):
                raise PitError(f"no control reply to {request} within {timeout} s")
            reply: dict[str, Any] = json.loads(req.recv())
            return reply
        finally:
            req.close()

    def press(self, button: str) -> dict[str, Any]:
        """Press a dealer button through the control socket."""
        return self.control({"cmd": "press", "button": button})

    def sync(self, *frames: bytes, timeout: float = DEFAULT_TIMEOUT) -> list[list[bytes]]:
        """One sync request; every reply message up to ``snapshot``, ``end`` or ``error``."""
        dealer = self._socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.connect(self.sync_endpoint)
        try:
            dealer.send_multipart(list(frames))
            replies = []
            while True:
                if not dealer.poll(int(timeout * 1000)):
                    raise PitError(f"no sync reply to {frames} within {timeout} s")
                reply = dealer.recv_multipart()
                replies.append(reply)
                if reply[0] in (b"snapshot", b"end", b"error"):
                    return replies
        finally:
            dealer.close()
