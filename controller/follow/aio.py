"""Follow one table on the running asyncio loop: the sans-I/O :class:`~controller.follow.core.Tracker`,
with sockets.

For a process that follows many tables on one loop (the pit monitor, the
recorder, the dealer screen) and must survive tables that stop, restart or
start a new sequence. What each message means, and what to ask the table, is
the tracker's (docs/pit-events.md "Catching up"); here the SUB socket and one
DEALER socket (for sync requests, each with a time limit; a socket that missed
its reply is closed and a new one made) are read when their descriptors wake
the loop, so nothing blocks it. A failing sync request marks the link
``error`` and is tried again after ``RETRY`` seconds. No event and no
heartbeat for ``silence`` seconds (6 by default; a table sends a heartbeat
every 2 s when idle) marks the link ``silent``; the next message marks it
``live`` again. The SUB socket reconnects by itself when a table comes back.

What the follower finds goes to its :class:`Listener`: a snapshot at the start
(and after a new sequence), a newer snapshot after a gap was repaired, each
event in order, each picture (``table.view``), and changes of the link.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Protocol, cast

import zmq
import zmq.asyncio
import zmq.backend

from controller.follow.core import HISTORY, Message, Position, SyncError, Tracker
from controller.follow.sources import TableSource

log = logging.getLogger(__name__)

SILENCE = 6.0
"""Seconds without an event or a heartbeat before a table is shown silent."""

SYNC_TIMEOUT = 5.0
"""Seconds a sync request may take before the table counts as unreachable."""

RETRY = 2.0
"""Seconds before a failed sync request is tried again."""

DRAIN = 1000
"""At most this many messages are taken from the SUB socket before other tables get a turn."""


_EVENTS, _POLLIN = int(zmq.EVENTS), int(zmq.POLLIN)  # plain ints: no enum arithmetic per message
_NOBLOCK = int(zmq.NOBLOCK)
_get = cast(Callable[[zmq.Socket[bytes], int], int], zmq.backend.Socket.get)
"""``getsockopt`` as the backend answers it: a plain int (the sugar's makes an enum of it each time)."""


class Listener(Protocol):
    """What a follower tells: snapshots, each event in order, each picture, changes of the link."""

    def snapshot(self, follower: Follower, snapshot: Message) -> None:
        """A fresh picture of the table (``{"seq": S, "state": {...}}``); forget the old one."""

    def refreshed(self, follower: Follower, snapshot: Message) -> None:
        """A newer snapshot of the same sequence, taken after a gap in the stream was repaired (the
        pictures of the events missed were lost with them), or when asked for
        (:meth:`Follower.refresh`)."""

    def event(self, follower: Follower, message: Message, topic: bytes, body: bytes,
              live: bool) -> None:
        """The next event; ``live`` is False for events already in the last snapshot. Its ``data``
        is decoded, or for a follower made with ``raw_data`` may be JSON text in ``raw``
        (:func:`~controller.follow.core.data_of`)."""

    def picture(self, follower: Follower, message: Message) -> None:
        """The table's picture (a ``table.view`` message, its state in ``data``; for a follower made
        with ``raw_data``, as JSON text in ``raw``) as of the last event delivered."""

    def link(self, follower: Follower) -> None:
        """:attr:`Follower.link_state` or :attr:`Follower.reason` changed."""


class Follower(Tracker):
    """One table followed on the running loop; :meth:`run` until cancelled."""

    def __init__(self, source: TableSource, listener: Listener, *, context: zmq.asyncio.Context,
                 silence: float = SILENCE, snapshots: bool = True, position: Position | None = None,
                 history: int = HISTORY, sync_timeout: float = SYNC_TIMEOUT,
                 raw_data: bool = False) -> None:
        super().__init__(source.name, snapshots=snapshots, position=position, history=history,
                         raw_data=raw_data)
        self.source = source
        self.listener = listener
        self.context = context
        self.silence = silence
        self.sync_timeout = sync_timeout
        self._retry_at = 0.0
        self._heard = 0.0
        self._dealer: zmq.Socket[bytes] | None = None
        self._answer = asyncio.Event()
        """Set when the DEALER socket's descriptor wakes the loop."""
        self._needed = asyncio.Event()
        """Set when a message showed that the tracker needs a sync request."""

    def refresh(self) -> None:
        """Take a newer snapshot (:meth:`Tracker.refresh`), told to the listener's ``refreshed``."""
        super().refresh()
        if self.need is not None:
            self._needed.set()

    # ------------------------------------------------------------------ the tracker's hooks

    def _snapshot(self, snapshot: Message) -> None:
        self.listener.snapshot(self, snapshot)

    def _refreshed(self, snapshot: Message) -> None:
        self.listener.refreshed(self, snapshot)

    def _event(self, message: Message, topic: bytes, body: bytes, live: bool) -> None:
        self.listener.event(self, message, topic, body, live)

    def _picture(self, message: Message) -> None:
        self.listener.picture(self, message)

    def _link(self) -> None:
        self.listener.link(self)

    # ------------------------------------------------------------------ loop

    async def run(self) -> None:
        """Follow the table until cancelled.

        The SUB socket is read straight from the loop's callbacks: its ZeroMQ
        file descriptor wakes the loop (``add_reader``), and the messages there
        are taken at once, without a task switch (the descriptor is
        edge-triggered, so the socket is emptied, ``DRAIN`` messages at a
        time, before waiting again). This task only makes the sync requests
        the tracker needs, and notices silence.
        """
        loop = asyncio.get_running_loop()
        sub: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.SUB)
        self._configure(sub)
        sub.setsockopt(zmq.SUBSCRIBE, f"{self.name}/".encode())
        sub.setsockopt(zmq.RCVHWM, 100_000)
        sub.connect(self.source.publish)
        fd = cast(int, sub.getsockopt(zmq.FD))

        def readable() -> None:
            if self._drain(sub):
                loop.call_soon(readable)  # more is waiting: let the other tables have a turn first
            elif self.need is not None:
                self._needed.set()

        loop.add_reader(fd, readable)
        self._heard = loop.time()
        try:
            while True:
                if self.need is not None and loop.time() >= self._retry_at:
                    await self._sync()
                    readable()  # what came meanwhile
                    continue
                wake = self._heard + self.silence if self.link_state != "silent" else None
                if self.need is not None:
                    wake = self._retry_at if wake is None else min(wake, self._retry_at)
                self._needed.clear()
                try:
                    async with asyncio.timeout_at(wake):
                        await self._needed.wait()
                except TimeoutError:
                    if loop.time() >= self._heard + self.silence:
                        self.silent(self.silence)
        finally:
            loop.remove_reader(fd)
            sub.close(linger=0)
            self._close_dealer()

    def _configure(self, sock: zmq.Socket[bytes]) -> None:
        """Linger 0, quick reconnects, and the CURVE keys if the table needs them."""
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 2000)
        if self.source.curve is not None:
            server, public, secret = self.source.curve
            sock.setsockopt(zmq.CURVE_SERVERKEY, server)
            sock.setsockopt(zmq.CURVE_PUBLICKEY, public)
            sock.setsockopt(zmq.CURVE_SECRETKEY, secret)

    def _drain(self, sub: zmq.Socket[bytes]) -> bool:
        """Take up to ``DRAIN`` messages waiting; True if more may be waiting.

        Frame by frame (a frame says itself whether more follow), asking for
        ``EVENTS`` without pyzmq's conversion to an enum, and never running
        into ``zmq.Again``: with thousands of tables, what a message costs
        before it is read is most of what it costs."""
        recv = sub.recv
        heard = False
        try:
            for _ in range(DRAIN):
                if not _get(sub, _EVENTS) & _POLLIN:
                    return False
                topic = recv(_NOBLOCK, copy=False)
                body = recv(_NOBLOCK, copy=False) if topic.more else None
                if body is None or body.more:
                    last = body or topic
                    while last.more:
                        last = recv(_NOBLOCK, copy=False)
                    self.bad_messages += 1
                    continue
                heard = self.message(topic.bytes, body.bytes) or heard
            return True
        finally:
            if heard:
                self._heard = asyncio.get_running_loop().time()

    async def _sync(self) -> None:
        """Ask the table what the tracker needs, until it needs nothing more."""
        loop = asyncio.get_running_loop()
        try:
            while self.need is not None:
                self.answer(await self._request(*self.request()))
        except SyncError as exc:
            self._retry_at = loop.time() + RETRY
            self.failed(SyncError(f"{exc} ({self.source.sync})"))
            return
        self._heard = loop.time()  # the table answered: it is there

    async def _request(self, *frames: bytes) -> list[list[bytes]]:
        """One sync request; every reply up to ``snapshot`` or ``end``; SyncError on ``error``.

        The DEALER socket is kept from one request to the next and read, like
        the SUB socket, when its descriptor wakes the loop; one that did not
        get its whole answer is closed, so that no late reply is taken for the
        answer to the next request.
        """
        dealer = self._dealer if self._dealer is not None else self._open_dealer()
        answered = False
        try:
            try:
                dealer.send_multipart(list(frames), zmq.NOBLOCK)
            except zmq.Again:
                raise SyncError("the sync socket takes no request") from None
            replies: list[list[bytes]] = []
            while True:
                reply = await self._answer_part(dealer)
                replies.append(reply)
                if reply[0] == b"error":
                    answered = True
                    raise SyncError(f"sync error from the table: {reply[1:2]!r}")
                if reply[0] in (b"snapshot", b"end"):
                    answered = True
                    return replies
        finally:
            if not answered:
                self._close_dealer()

    async def _answer_part(self, dealer: zmq.Socket[bytes]) -> list[bytes]:
        """The next reply message; SyncError when none comes within ``sync_timeout``."""
        deadline = asyncio.get_running_loop().time() + self.sync_timeout
        while not cast(int, dealer.getsockopt(_EVENTS)) & _POLLIN:
            self._answer.clear()
            if cast(int, dealer.getsockopt(_EVENTS)) & _POLLIN:  # edge-triggered: look again
                break
            try:
                async with asyncio.timeout_at(deadline):
                    await self._answer.wait()
            except TimeoutError:
                raise SyncError(f"no sync reply within {self.sync_timeout:g} s") from None
        return dealer.recv_multipart(zmq.NOBLOCK)

    def _open_dealer(self) -> zmq.Socket[bytes]:
        dealer: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.DEALER)
        self._configure(dealer)
        dealer.connect(self.source.sync)
        asyncio.get_running_loop().add_reader(cast(int, dealer.getsockopt(zmq.FD)), self._answer.set)
        self._dealer = dealer
        return dealer

    def _close_dealer(self) -> None:
        if self._dealer is not None:
            asyncio.get_running_loop().remove_reader(cast(int, self._dealer.getsockopt(zmq.FD)))
            self._dealer.close(linger=0)
            self._dealer = None
