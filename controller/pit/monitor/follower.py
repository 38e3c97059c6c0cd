"""Follow one table's event stream without ever holding a wrong picture: the Clone pattern on asyncio.

The same logic as :class:`controller.pit.client.PitClient` (subscribe, fill
every jump in ``seq`` from the sync socket), made for a monitor that follows
many tables on one asyncio loop and must survive tables that stop, restart or
start a new sequence:

* **Start.** A monitor (``snapshots=True``) takes a snapshot, then replays
  the events just before it (for the hands log) and after it. A recorder
  (``snapshots=False``) resumes from a :class:`Position` (the last event it
  stored) or replays from ``seq`` 1.
* **Gaps.** An event whose ``seq`` jumps, or a heartbeat naming a ``seq``
  other than the last one held, starts a catch-up: a replay from the last
  ``seq`` held. The replay's first event must be byte for byte the one held,
  which proves that the table still has the same sequence; then every later
  event is delivered in order, each once.
* **A new sequence.** When that proof fails (the table's ``seq`` went
  backwards, or it was restarted with a new journal), or when the envelope's
  ``epoch`` changes, a monitor takes a fresh snapshot and a recorder replays
  the new sequence from ``seq`` 1. Events are labelled with their
  ``epoch`` (as text; ``""`` when the envelope has none); a sequence that
  restarted without an epoch gets the label ``restart@<ts of its first event>``.
* **Silence.** No event and no heartbeat for ``silence`` seconds (6 by
  default; a table sends a heartbeat every 2 s when idle) marks the link
  ``silent``; the next message marks it ``live`` again. The SUB socket
  reconnects by itself when a table comes back.
* **Refreshes.** A monitor's listener may ask (:meth:`Follower.refresh`) for
  a newer snapshot, for what only the table can work out from an event (a
  hand's total, the game's phase). The follower takes it once the events
  already waiting are delivered, one request at a time: asked again
  meanwhile, it takes one more afterwards. The events up to the snapshot's
  ``seq`` that come after it are then delivered as already in it (not live).

Nothing here blocks the loop: the SUB socket and the follower's one DEALER
socket (for sync requests, each with a time limit; a socket that missed its
reply is closed and a new one made) are read when their descriptors wake the
loop. A failing sync request marks the link ``error`` and is tried
again after ``RETRY`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Protocol, cast

import zmq
import zmq.asyncio

from controller.pit.events import UNSEQUENCED, VIEW_TYPE, decode_body
from controller.pit.monitor.tables import TableSource

log = logging.getLogger(__name__)

SILENCE = 6.0
"""Seconds without an event or a heartbeat before a table is shown silent."""

SYNC_TIMEOUT = 5.0
"""Seconds a sync request may take before the table counts as unreachable."""

RETRY = 2.0
"""Seconds before a failed sync request is tried again."""

HISTORY = 400
"""A monitor replays this many events before its snapshot, for the last hands step by step."""

RECENT = 4096
"""Bodies of the last events held, to tell a duplicate from a different event with the same seq."""

DRAIN = 1000
"""At most this many messages are taken from the SUB socket before other tables get a turn."""


_EVENTS, _POLLIN = int(zmq.EVENTS), int(zmq.POLLIN)  # plain ints: no enum arithmetic per message


@dataclass(frozen=True)
class Position:
    """The last event a recorder holds of a table: where following resumes."""

    epoch: str
    seq: int
    body: bytes


class SyncError(Exception):
    """A sync request failed: no reply in time, an ``error`` reply, or a reply that makes no sense."""


class Listener(Protocol):
    """What a follower tells: a fresh snapshot, each event in order, changes of the link."""

    def snapshot(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        """A fresh picture of the table (``{"seq": S, "state": {...}}``); forget the old one."""

    def refreshed(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        """The newer snapshot asked for with :meth:`Follower.refresh`, of the same sequence, as of
        the last event delivered or later."""

    def event(self, follower: Follower, message: dict[str, Any], topic: bytes, body: bytes,
              live: bool) -> None:
        """The next event; ``live`` is False for events already in the last snapshot."""

    def picture(self, follower: Follower, message: dict[str, Any]) -> None:
        """The table's picture (a ``table.view`` message, its state in ``data``) as of the last
        event delivered."""

    def link(self, follower: Follower) -> None:
        """:attr:`Follower.link_state` or :attr:`Follower.reason` changed."""


def epoch_of(message: dict[str, Any]) -> str | None:
    """The envelope's ``epoch`` as text, or None when the envelope has none.

    >>> epoch_of({"seq": 1}), epoch_of({"epoch": 3}), epoch_of({"epoch": "b7"})
    (None, '3', 'b7')
    """
    return None if "epoch" not in message else str(message["epoch"])


class Follower:
    """One table followed on the running loop; :meth:`run` until cancelled."""

    def __init__(self, source: TableSource, listener: Listener, *, context: zmq.asyncio.Context,
                 silence: float = SILENCE, snapshots: bool = True, position: Position | None = None,
                 history: int = HISTORY, sync_timeout: float = SYNC_TIMEOUT) -> None:
        self.source = source
        self.name = source.name
        self.listener = listener
        self.context = context
        self.silence = silence
        self.snapshots = snapshots
        self.history = history
        self.sync_timeout = sync_timeout
        self.link_state = "connecting"
        """``connecting``, ``live``, ``silent`` or ``error``."""
        self.reason = ""
        self.epoch = ""
        self.last_seq = 0
        self.replays = 0
        """Catch-ups that delivered at least one missed event."""
        self.resyncs = 0
        """Fresh starts after the table's sequence changed under us."""
        self.refreshes = 0
        """Newer snapshots taken on the listener's request."""
        self.bad_messages = 0
        self._recent: OrderedDict[int, bytes] = OrderedDict()
        self._need: str | None = "resync" if snapshots or position is None else "catch_up"
        self._restarted = False
        self._retry_at = 0.0
        self._heard = 0.0
        self._known = 0
        """Events up to this seq are in the last snapshot taken: delivered as not live."""
        self._refresh = False
        self._refresh_at = 0.0
        self._dealer: zmq.Socket[bytes] | None = None
        self._answer = asyncio.Event()
        """Set when the DEALER socket's descriptor wakes the loop."""
        if position is not None:
            self.epoch, self.last_seq = position.epoch, position.seq
            self._remember(position.seq, position.body)

    def refresh(self) -> None:
        """Take a newer snapshot once the events waiting now are delivered (a monitor's only)."""
        if self.snapshots:
            self._refresh = True

    # ------------------------------------------------------------------ loop

    async def run(self) -> None:
        """Follow the table until cancelled.

        The SUB socket is read straight from the loop: its ZeroMQ file
        descriptor wakes the loop (``add_reader``), and every message there is
        then taken without waiting (the descriptor is edge-triggered, so the
        socket is emptied before waiting again).
        """
        loop = asyncio.get_running_loop()
        sub: zmq.Socket[bytes] = zmq.Socket(self.context, zmq.SUB)
        self._configure(sub)
        sub.setsockopt(zmq.SUBSCRIBE, f"{self.name}/".encode())
        sub.setsockopt(zmq.RCVHWM, 100_000)
        sub.connect(self.source.publish)
        readable = asyncio.Event()
        fd = cast(int, sub.getsockopt(zmq.FD))
        loop.add_reader(fd, readable.set)
        self._heard = loop.time()
        try:
            while True:
                if self._need is not None and loop.time() >= self._retry_at:
                    await self._sync()
                if self._drain(sub):
                    await asyncio.sleep(0)  # more is waiting: let the other tables have a turn
                    continue
                if self._refresh and self._need is None and loop.time() >= self._refresh_at:
                    await self._take_refresh()
                    continue
                wake = self._heard + self.silence if self.link_state != "silent" else None
                again = self._retry_at if self._need is not None else (
                    self._refresh_at if self._refresh else None)
                if again is not None:
                    wake = again if wake is None else min(wake, again)
                readable.clear()
                try:
                    async with asyncio.timeout_at(wake):
                        await readable.wait()
                except TimeoutError:
                    if self.link_state != "silent" and loop.time() >= self._heard + self.silence:
                        self._set_link("silent", f"no event or heartbeat for {self.silence:g} s")
        finally:
            loop.remove_reader(fd)
            sub.close(linger=0)
            self._close_dealer()

    def _configure(self, sock: zmq.Socket[Any]) -> None:
        """Linger 0, quick reconnects, and the CURVE keys if the table needs them."""
        sock.setsockopt(zmq.LINGER, 0)
        sock.setsockopt(zmq.RECONNECT_IVL, 100)
        sock.setsockopt(zmq.RECONNECT_IVL_MAX, 2000)
        if self.source.curve is not None:
            server, public, secret = self.source.curve
            sock.setsockopt(zmq.CURVE_SERVERKEY, server)
            sock.setsockopt(zmq.CURVE_PUBLICKEY, public)
            sock.setsockopt(zmq.CURVE_SECRETKEY, secret)

    def _set_link(self, state: str, reason: str = "") -> None:
        if (state, reason) != (self.link_state, self.reason):
            self.link_state, self.reason = state, reason
            self.listener.link(self)

    def _drain(self, sub: zmq.Socket[bytes]) -> bool:
        """Take up to ``DRAIN`` messages waiting; True if more may be waiting."""
        for _ in range(DRAIN):
            if not cast(int, sub.getsockopt(_EVENTS)) & _POLLIN:
                return False
            frames = sub.recv_multipart(zmq.NOBLOCK)
            if len(frames) == 2:
                self._on_message(frames[0], frames[1])
            else:
                self.bad_messages += 1
        return True

    # ------------------------------------------------------------------ messages

    def _on_message(self, topic: bytes, body: bytes) -> None:
        try:
            message = decode_body(body)
            seq, kind = message["seq"], message["type"]
            if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(kind, str):
                raise ValueError("seq or type of the wrong type")
        except (ValueError, KeyError) as exc:
            self.bad_messages += 1
            log.warning("table %s: a message that is not an event: %s", self.name, exc)
            return
        self._heard = asyncio.get_running_loop().time()
        if self._need is not None:
            return  # the pending sync reads everything from the table itself
        if self.link_state in ("silent", "connecting"):  # "error" waits for a refresh that works
            self._set_link("live")
        epoch = epoch_of(message)
        if epoch is not None and epoch != self.epoch and self.last_seq > 0:
            log.info("table %s: epoch %r -> %r", self.name, self.epoch, epoch)
            self._restarted = True
            self._need = "resync" if self.snapshots else "catch_up"
            return
        if kind in UNSEQUENCED:
            if seq != self.last_seq:
                self._need = "catch_up"
            elif kind == VIEW_TYPE and isinstance(message.get("data"), dict):
                self.listener.picture(self, message)
        elif seq == self.last_seq + 1:
            self._deliver(topic, body, message)
        elif seq > self.last_seq or self._recent.get(seq) != body:
            self._need = "catch_up"  # a jump, or a seq we hold with other bytes: the sequence changed?

    def _deliver(self, topic: bytes, body: bytes, message: dict[str, Any]) -> None:
        """The next event to the listener: live unless the last snapshot already holds it."""
        epoch = epoch_of(message)
        if epoch is not None:
            self.epoch = epoch
        self.last_seq = message["seq"]
        self._remember(self.last_seq, body)
        self.listener.event(self, message, topic, body, self.last_seq > self._known)

    def _remember(self, seq: int, body: bytes) -> None:
        self._recent[seq] = body
        if len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    # ------------------------------------------------------------------ sync

    async def _sync(self) -> None:
        need = self._need
        try:
            if need == "catch_up" and self.last_seq > 0:
                await self._catch_up()
            else:
                await self._sync_fresh()
        except SyncError as exc:
            self._retry_at = asyncio.get_running_loop().time() + RETRY
            if self.link_state != "silent":
                self._set_link("error", str(exc))
            return
        self._need = None
        self._restarted = False
        self._heard = asyncio.get_running_loop().time()  # the table answered: it is there
        self._set_link("live")

    async def _catch_up(self) -> None:
        """Replay from the last seq held; if that event is not the one held, start afresh."""
        held = self._recent.get(self.last_seq)
        events = await self._replay(self.last_seq)
        first = events[0] if events else None
        same = first is not None and first[2]["seq"] == self.last_seq and first[1] == held
        lost_window = (first is not None and first[2]["seq"] > self.last_seq
                       and epoch_of(first[2]) in (None, self.epoch))
        if not same and not (lost_window and not self.snapshots):
            self._start_afresh()
            await self._sync_fresh()
            return
        if lost_window:
            assert first is not None
            log.error("table %s: events %d..%d are no longer held by the table: lost", self.name,
                      self.last_seq + 1, first[2]["seq"] - 1)
            self.last_seq = first[2]["seq"] - 1
        else:
            events = events[1:]
        if events:
            self.replays += 1
        self._deliver_in_order(events)

    def _start_afresh(self) -> None:
        log.warning("table %s: its sequence changed (last seq held %d); starting afresh",
                    self.name, self.last_seq)
        self._restarted = True

    def _deliver_in_order(self, events: list[tuple[bytes, bytes, dict[str, Any]]]) -> None:
        """Deliver replayed events, which must follow the last seq held."""
        for topic, body, message in events:
            if message["seq"] != self.last_seq + 1:
                raise SyncError(f"replay skipped from {self.last_seq} to {message['seq']}")
            self._deliver(topic, body, message)

    async def _sync_fresh(self) -> None:
        """A monitor's snapshot, or a recorder's replay of everything held."""
        if self.snapshots:
            await self._fresh_snapshot()
        else:
            await self._replay_all()

    def _new_epoch(self, events: list[tuple[bytes, bytes, dict[str, Any]]]) -> str:
        """The label of the sequence these events (just replayed afresh) belong to."""
        if events and (epoch := epoch_of(events[-1][2])) is not None:
            return epoch
        if self._restarted and events:
            return f"restart@{events[0][2].get('ts')}"
        return self.epoch

    def _reset(self, epoch: str) -> None:
        if self._restarted:
            self.resyncs += 1
        self._restarted = False
        self.epoch = epoch
        self.last_seq = 0
        self._known = 0
        self._recent.clear()

    async def _snapshot(self) -> dict[str, Any]:
        """The table's snapshot ``{"seq": S, "state": {...}}`` (with its ``epoch`` if it has one)."""
        replies = await self._request(b"snapshot")
        try:
            snapshot: dict[str, Any] = json.loads(replies[-1][1])
            seq = snapshot["seq"]
            state = snapshot["state"]
            if not isinstance(seq, int) or seq < 0 or not isinstance(state, dict):
                raise ValueError("seq or state of the wrong type")
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise SyncError(f"a snapshot that cannot be read: {exc}") from exc
        if state.get("table", self.name) != self.name:
            raise SyncError(f"the table at {self.source.sync} is {state.get('table')!r}, not {self.name!r}")
        return snapshot

    async def _fresh_snapshot(self) -> None:
        """A snapshot, then the events just before it (history) and after it (live)."""
        snapshot = await self._snapshot()
        seq = snapshot["seq"]
        events = await self._replay(max(1, seq - self.history + 1)) if seq else []
        if seq and (not events or events[0][2]["seq"] > seq or events[-1][2]["seq"] < seq):
            raise SyncError(f"the replay does not hold seq {seq} of the snapshot")
        self._reset(str(snapshot["epoch"]) if "epoch" in snapshot else self._new_epoch(events))
        self._refresh = False  # nothing asked for before it can be newer than this snapshot
        self.listener.snapshot(self, snapshot)
        self.last_seq = events[0][2]["seq"] - 1 if events else 0
        self._known = seq
        self._deliver_in_order(events)

    async def _take_refresh(self) -> None:
        """The newer snapshot the listener asked for; a table found on another sequence is taken afresh."""
        self._refresh = False
        loop = asyncio.get_running_loop()
        try:
            snapshot = await self._snapshot()
        except SyncError as exc:
            log.warning("table %s: no newer snapshot: %s", self.name, exc)
            self._refresh, self._refresh_at = True, loop.time() + RETRY
            if self.link_state != "silent":
                self._set_link("error", f"the picture may be behind: {exc}")
            return
        epoch = str(snapshot["epoch"]) if "epoch" in snapshot else None
        if snapshot["seq"] < self.last_seq or epoch not in (None, self.epoch):
            log.info("table %s: a snapshot of another sequence (seq %d, epoch %s); starting afresh",
                     self.name, snapshot["seq"], epoch)
            self._restarted = True
            self._need = "resync"
            return
        self.refreshes += 1
        self._known = max(self._known, snapshot["seq"])
        self._heard = loop.time()
        self.listener.refreshed(self, snapshot)
        self._set_link("live")

    async def _replay_all(self) -> None:
        """Every event the table holds, from seq 1 (a recorder's fresh start)."""
        events = await self._replay(1)
        self._reset(self._new_epoch(events))
        if events and events[0][2]["seq"] > 1:
            log.error("table %s: events 1..%d are no longer held by the table: lost", self.name,
                      events[0][2]["seq"] - 1)
        self.last_seq = events[0][2]["seq"] - 1 if events else 0
        self._deliver_in_order(events)

    async def _replay(self, from_seq: int) -> list[tuple[bytes, bytes, dict[str, Any]]]:
        """The events the table holds from ``from_seq`` on, as ``(topic, body, message)``."""
        events = []
        for reply in await self._request(b"replay", str(from_seq).encode()):
            if reply[0] != b"event":
                continue
            if len(reply) != 3:
                raise SyncError("a replayed event without topic and body")
            try:
                message = decode_body(reply[2])
            except ValueError as exc:
                raise SyncError(f"a replayed event that cannot be read: {exc}") from exc
            events.append((reply[1], reply[2], message))
        return events

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
                raise SyncError(f"the sync socket {self.source.sync} takes no request") from None
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
                raise SyncError(f"no sync reply from {self.source.sync} within {self.sync_timeout:g} s") \
                    from None
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
