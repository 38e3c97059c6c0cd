"""A blocking pit client that never misses an event: the :class:`~controller.follow.core.Tracker`
with plain pyzmq sockets and timeouts.

:attr:`PitClient.events` holds every event from ``seq`` 1 in order, each once,
byte for byte as published (:attr:`PitClient.raw`), over epochs: when the
table's sequence was rewound (its journal lost events it had published), the
client goes on from where the table's sequence departs from its own, and
keeps both (docs/pit-events.md, "Epochs"). It syncs only when a message shows
that something is missing (a jump in ``seq``, a heartbeat or a picture naming
a ``seq`` not held, a new epoch), or when asked (:meth:`PitClient.catch_up`).
The last ``table.view`` is :attr:`PitClient.view`, its state in
:attr:`PitClient.picture`.

For tools, tests, the demo and benchmarks, not for the daemon's loop. With
CURVE on at the table, give it ``curve=(table public key, own public key, own
secret key)`` (Z85 bytes, as ``zmq.auth.load_certificate`` returns them).
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping

import zmq

from controller.commands.registry import LINK_MARGIN, Command, reply_wait
from controller.commands.table import Press
from controller.follow.control import unanswered
from controller.follow.core import Message, SyncError, Tracker
from controller.follow.picture import TablePicture
from firmware_bridge.kernel.json import JsonObject

DEFAULT_TIMEOUT = 10.0
"""Seconds :meth:`PitClient.next` and :meth:`PitClient.sync` wait unless told (a control request
waits as long as its command declares: :meth:`PitClient.control`)."""


class PitError(Exception):
    """Nothing came within the time allowed, or the table's answer made no sense; the message says
    what was awaited and what was seen."""


class PitClient(Tracker):
    """Subscribes to one table's events and keeps them complete and in order."""

    def __init__(self, table: str, publish: str, sync: str, control: str, *,
                 context: zmq.Context[zmq.Socket[bytes]] | None = None,
                 curve: tuple[bytes, bytes, bytes] | None = None,
                 link_margin: float = LINK_MARGIN) -> None:
        super().__init__(table, snapshots=False, eager=False)
        self.link_margin = link_margin
        """Seconds a control request waits beyond its command's ``reply_within`` (a test rig on a
        loaded machine, or a link slower than the pit's LAN, allows more)."""
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
        self.events: list[Message] = []
        """Every event so far, in ``seq`` order."""
        self.raw: list[tuple[bytes, bytes]] = []
        """``(topic, body)`` of each event in :attr:`events`, as published."""
        self.heartbeats = 0
        self.picture = TablePicture()
        """The table's picture: the state of the last ``table.view``."""
        self.sync_requests = 0
        """Sync requests made (snapshots and replays)."""
        self._cursor = 0

    @property
    def view(self) -> Message | None:
        """The last ``table.view`` message: the table's picture in ``data`` (None before the first)."""
        return self.picture.message

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

    # -- the tracker's hooks ----------------------------------------------------------

    def _event(self, message: Message, topic: bytes, body: bytes, live: bool) -> None:
        self.raw.append((topic, body))
        self.events.append(message)
        self.picture.event(message)

    def _picture(self, message: Message) -> None:
        self.picture.view(message)

    def _heartbeat(self, message: Message) -> None:
        self.heartbeats += 1

    # -- receiving ------------------------------------------------------------------

    def poll(self, timeout: float) -> bool:
        """Take what arrives within ``timeout`` seconds; True if anything arrived (an event, a
        picture or a heartbeat)."""
        if not self.sub.poll(int(max(timeout, 0) * 1000)):
            return False
        while True:
            topic, body = self.sub.recv_multipart()
            self.message(topic, body)
            if self.need is not None:
                self._sync()
            if not self.sub.poll(0):
                return True

    def catch_up(self) -> None:
        """Replay what the table holds after :attr:`last_seq` from the sync socket (and, if the table's
        sequence was rewound, go on from where the new epoch took over)."""
        self.need = self.need or "catch_up"
        self._sync()

    def _sync(self) -> None:
        try:
            while self.need is not None:
                self.answer(self.sync(*self.request()))
        except SyncError as exc:
            self.failed(exc)
            self.need = None
            raise PitError(f"the table's replay makes no sense: {exc}") from exc

    def next(self, kind: str | None = None, timeout: float = DEFAULT_TIMEOUT,
             **data: object) -> Message:
        """The next event not yet taken; with ``kind``, the next of that type whose data has
        these fields (events skipped on the way count as taken)."""
        deadline = time.monotonic() + timeout
        while True:
            while self._cursor < len(self.events):
                event = self.events[self._cursor]
                self._cursor += 1
                found = event.get("data")
                if kind is None or (event["type"] == kind and isinstance(found, dict) and all(
                        found.get(k) == v for k, v in data.items())):
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                seen = [(e["seq"], e["type"], e.get("data")) for e in self.events[-10:]]
                raise PitError(f"no {kind or 'event'} {data or ''} within {timeout} s; last: {seen}")
            self.poll(left)

    def taken(self) -> list[Message]:
        """Every event taken by :meth:`next` or :meth:`drain`, in order."""
        return self.events[: self._cursor]

    def drain(self, quiet: float = 0.3) -> list[Message]:
        """Take every event until nothing comes for ``quiet`` seconds."""
        while self.poll(quiet):
            pass
        out = self.events[self._cursor:]
        self._cursor = len(self.events)
        return out

    # -- asking ---------------------------------------------------------------------

    def control(self, request: Mapping[str, object], timeout: float | None = None) -> JsonObject:
        """One control request as it is (a test's malformed one too) and its reply, waited for as
        long as its command declares (``reply_within``) and the link's margin, or ``timeout``
        seconds when given (:func:`~controller.commands.registry.reply_wait`). Raises
        :class:`PitError` saying so when no reply came in that time: the table may still carry the
        command out (:func:`~controller.follow.control.unanswered`)."""
        wait = reply_wait(request, timeout, self.link_margin)
        req = self._socket(zmq.REQ)
        req.setsockopt(zmq.LINGER, 0)
        req.connect(self.control_endpoint)
        try:
            req.send_json(request)
            if not req.poll(int(wait * 1000)):
                raise PitError(unanswered(request, wait))
            reply = json.loads(req.recv())
            if not isinstance(reply, dict):
                raise PitError(f"a control reply that is no JSON object: {reply!r}")
            return reply
        finally:
            req.close()

    def command(self, order: Command, *, supervisor: str | None = None, pin: str | None = None,
                request_id: str | None = None, timeout: float | None = None) -> JsonObject:
        """One control command built from its record (:mod:`controller.commands`), and its reply
        (waited for as :meth:`control` waits)."""
        return self.control(order.to_request(supervisor=supervisor, pin=pin, request_id=request_id),
                            timeout)

    def press(self, button: str) -> JsonObject:
        """Press a dealer button through the control socket."""
        return self.command(Press(button))

    def sync(self, *frames: bytes, timeout: float = DEFAULT_TIMEOUT) -> list[list[bytes]]:
        """One sync request; every reply message up to ``snapshot``, ``end`` or ``error``."""
        self.sync_requests += 1
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
