"""Following one table's stream, without I/O: what each message means and what to ask the table next.

The Clone pattern of docs/pit-events.md ("Catching up"), as a state machine
fed the messages of the SUB socket (:meth:`Tracker.message`) and the replies
of the sync socket (:meth:`Tracker.answer`); it says which sync request to
make next (:meth:`Tracker.request`, while :attr:`Tracker.need` is set) and
tells what it found through hooks the flavours implement (:meth:`~Tracker._snapshot`,
:meth:`~Tracker._event`, :meth:`~Tracker._picture`, ...). The asyncio flavour
(:mod:`controller.follow.aio`) and the blocking one
(:mod:`controller.follow.blocking`) only move bytes and keep time.

* **Start.** A follower of pictures (``snapshots=True``: the monitor, a
  screen) takes a snapshot, then replays the events just before it (for a
  hands log) and after it. A follower of events (``snapshots=False``: the
  recorder, the blocking client) replays from seq 1, or resumes from a
  :class:`Position` (the last event it stored).
* **Pictures.** A ``table.view`` that carries the seq of the last event held
  is the table's picture as of that event (:meth:`~Tracker._picture`). No snapshot is
  taken in the normal flow.
* **Gaps.** An event whose ``seq`` jumps, or a heartbeat or picture naming a
  ``seq`` other than the last one held, starts a catch-up: a replay from the
  last ``seq`` held. The replay's first event must be byte for byte the one
  held, which proves that the table still has the same sequence; every later
  event is then delivered in order, each once. A follower of pictures then
  takes a snapshot for the picture (:meth:`~Tracker._refreshed`): the pictures of the
  events it missed were lost with them.
* **A new sequence.** When that proof fails (the table's ``seq`` went
  backwards, or it was restarted with a new journal), or the envelope's
  ``epoch`` changes, a follower of pictures starts afresh from a snapshot. A
  follower of events replays all the table holds and walks it against the
  events it holds: where the table's first differs from its own, the table
  rewound its sequence (it lost events it had published, docs/pit-events.md
  "Epochs"), and the follower goes on from there (:attr:`Tracker.rewinds`); if
  the table holds none of its events, it is a new sequence from its first
  event. Events are labelled with their ``epoch`` (as text; ``""`` when the
  envelope has none); a sequence that restarted without an epoch gets the
  label ``restart@<ts of its first event>``.
* **Link.** ``connecting``, ``live``, ``silent`` or ``error``
  (:attr:`Tracker.link_state`, :attr:`Tracker.reason`); a flavour says when
  the table has been silent too long (:meth:`~Tracker.silent`) or a request failed
  (:meth:`~Tracker.failed`).
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from controller.events.codec import integer
from controller.events.envelope import HEARTBEAT_TYPE, VIEW_TYPE, decode_body, parse_json
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)

HISTORY = 400
"""A follower of pictures replays this many events before its snapshot, for the last hands step by step."""

RECENT = 4096
"""Bodies of the last events held, to tell a duplicate from a different event with the same seq and to
find where a rewound sequence departs from the one held."""

Message = dict[str, object]
"""A message as the tracker hands it on: its envelope decoded (``seq`` an int and ``type`` a str,
checked), with its ``data``, or the JSON text of it in ``raw`` (bytes) for a follower made with
``raw_data``. :class:`controller.follow.records.FollowedEvent` is the same as a typed record."""

Replayed = tuple[bytes, bytes, Message]
"""A replayed event: ``(topic, body, decoded body)``."""


@dataclass(frozen=True)
class Position:
    """The last event a recorder holds of a table: where following resumes."""

    epoch: str
    seq: int
    body: bytes


class SyncError(Exception):
    """A sync request failed: no reply in time, an ``error`` reply, or a reply that makes no sense."""


def _seq(message: Mapping[str, object]) -> int:
    """The ``seq`` of a message whose envelope was checked."""
    return integer(message["seq"])


def _raw(message: Mapping[str, object]) -> bytes:
    """The JSON text of a message's ``data`` (``raw_data``), or nothing."""
    raw = message.get("raw", b"")
    return raw if isinstance(raw, bytes) else b""


def epoch_of(message: Mapping[str, object]) -> str | None:
    """The envelope's ``epoch`` as text, or None when the envelope has none.

    >>> epoch_of({"seq": 1}), epoch_of({"epoch": 3}), epoch_of({"epoch": "b7"})
    (None, '3', 'b7')
    """
    return None if "epoch" not in message else str(message["epoch"])


class Tracker:
    """One table's sequence as followed so far, and the sync request it needs next (if any)."""

    def __init__(self, name: str, *, snapshots: bool, position: Position | None = None,
                 history: int = HISTORY, eager: bool = True, raw_data: bool = False) -> None:
        """``eager``: sync at once (else at the first message that shows something is missing);
        ``raw_data``: the ``data`` of the messages is handed on undecoded (see :meth:`message`)."""
        self.name = name
        self.snapshots = snapshots
        self.raw_data = raw_data
        self.history = history
        self.link_state = "connecting"
        """``connecting``, ``live``, ``silent`` or ``error``."""
        self.reason = ""
        self.epoch = ""
        """The label of the sequence followed (the epoch of its last event, as text)."""
        self.last_seq = 0
        self.replays = 0
        """Catch-ups that delivered at least one missed event."""
        self.resyncs = 0
        """Fresh starts after the table's sequence changed under us."""
        self.rewinds = 0
        """Times a follower of events found the table's sequence rewound and went on from there."""
        self.bad_messages = 0
        self.need: str | None = ("fresh" if snapshots or position is None else "catch_up") if eager else None
        """What is to be asked of the sync socket: ``fresh``, ``catch_up``, ``refresh`` or None."""
        self._step: str | None = None
        self._recent: OrderedDict[int, bytes] = OrderedDict()
        self._restarted = False
        self._known = 0
        """Events up to this seq are in the last snapshot taken: delivered as not live."""
        self._snapshot_seq = 0
        self._fresh: Message = {}
        """The snapshot taken, until the events around it are replayed."""
        if position is not None:
            self.epoch, self.last_seq = position.epoch, position.seq
            self._remember(position.seq, position.body)

    # ------------------------------------------------------------------ hooks

    def _snapshot(self, snapshot: Message) -> None:
        """A fresh picture of the table (``{"seq": S, "state": {...}}``); forget the old one."""

    def _refreshed(self, snapshot: Message) -> None:
        """A newer snapshot of the same sequence, taken after a gap was repaired."""

    def _event(self, message: Message, topic: bytes, body: bytes, live: bool) -> None:
        """The next event; ``live`` is False for events already in the last snapshot."""

    def _picture(self, message: Message) -> None:
        """The table's picture (a ``table.view`` message) as of the last event delivered."""

    def _heartbeat(self, message: Message) -> None:
        """A heartbeat naming the last event held."""

    def _link(self) -> None:
        """:attr:`link_state` or :attr:`reason` changed."""

    # ------------------------------------------------------------------ link

    def set_link(self, state: str, reason: str = "") -> None:
        """Set the link's state, telling :meth:`_link` if it changed."""
        if (state, reason) != (self.link_state, self.reason):
            self.link_state, self.reason = state, reason
            self._link()

    def silent(self, seconds: float) -> None:
        """Nothing was heard from the table for ``seconds``."""
        if self.link_state != "silent":
            self.set_link("silent", f"no event or heartbeat for {seconds:g} s")

    def failed(self, error: SyncError) -> None:
        """A sync request failed: the need stays, to be tried again from its start."""
        self._step = None
        if self.link_state != "silent":
            self.set_link("error", str(error))

    def refresh(self) -> None:
        """Take a newer snapshot, handed to :meth:`_refreshed` (a follower of pictures whose picture
        stays behind its events: a ``table.view`` lost on the way). Not needed in the normal flow."""
        if self.snapshots and self.need is None:
            self.need = "refresh"

    # ------------------------------------------------------------------ messages

    def message(self, topic: bytes, body: bytes) -> bool:
        """One message of the SUB socket; False if it is not a readable envelope (counted, logged).

        With :attr:`raw_data`, only the envelope of an event or a picture is decoded (the table
        writes its keys before ``data``: ``encode_event``): the message handed on has the JSON text
        of its ``data`` in ``raw`` instead, for a consumer that decodes only what it uses, when it
        uses it (a monitor of thousands of tables draws a table's picture at its page's pace, and
        needs the data of a few kinds of events only: :func:`data_of`). A body laid out otherwise
        is decoded whole.
        """
        if self.raw_data:
            head = _head(body)
            if head is not None:
                return self._message(topic, body, head)
        try:
            message: Message = dict(decode_body(body))
            seq, kind = _seq(message), message["type"]
            if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(kind, str):
                raise ValueError("seq or type of the wrong type")
        except (ValueError, KeyError) as exc:
            self.bad_messages += 1
            log.warning("table %s: a message that is not an event: %s", self.name, exc)
            return False
        return self._message(topic, body, message)

    def _message(self, topic: bytes, body: bytes, message: Message) -> bool:
        seq, kind = _seq(message), message["type"]
        if self.need is not None:
            return True  # the pending sync reads everything from the table itself
        if self.link_state in ("silent", "connecting"):  # "error" waits for a sync that works
            self.set_link("live")
        epoch = epoch_of(message)
        if epoch is not None and epoch != self.epoch and self.last_seq > 0:
            log.info("table %s: epoch %r -> %r", self.name, self.epoch, epoch)
            self._restarted = True
            self.need = "fresh" if self.snapshots else "catch_up"
            return True
        if kind in (VIEW_TYPE, HEARTBEAT_TYPE):
            if seq != self.last_seq:
                self.need = "catch_up"
            elif kind == HEARTBEAT_TYPE:
                self._heartbeat(message)
            elif isinstance(message.get("data"), dict) or _raw(message)[:1] == b"{":
                self._picture(message)
        elif seq == self.last_seq + 1:
            self._deliver(topic, body, message)
        elif seq > self.last_seq or self._recent.get(seq) != body:
            self.need = "catch_up"  # a jump, or a seq we hold with other bytes: the sequence changed?
        return True

    def _deliver(self, topic: bytes, body: bytes, message: Message) -> None:
        """The next event: live unless the last snapshot already holds it."""
        epoch = epoch_of(message)
        if epoch is not None:
            self.epoch = epoch
        self.last_seq = _seq(message)
        self._remember(self.last_seq, body)
        self._event(message, topic, body, self.last_seq > self._known)

    def _remember(self, seq: int, body: bytes) -> None:
        self._recent[seq] = body
        if len(self._recent) > RECENT:
            self._recent.popitem(last=False)

    # ------------------------------------------------------------------ sync

    def request(self) -> tuple[bytes, ...]:
        """The sync request to make now (only while :attr:`need` is set)."""
        if self._step is None:
            if self.need == "catch_up" and self.last_seq > 0:
                self._step = "catch_up"
            elif self.need == "refresh":
                self._step = "refresh"
            else:
                self._step = "snapshot" if self.snapshots else "replay_all"
        if self._step in ("snapshot", "refresh"):
            return (b"snapshot",)
        if self._step == "catch_up":
            return (b"replay", str(self.last_seq).encode())
        if self._step == "history":
            return (b"replay", str(max(1, self._snapshot_seq - self.history + 1)).encode())
        return (b"replay", b"1")

    def answer(self, replies: list[list[bytes]]) -> None:
        """The replies to :meth:`request`; SyncError if they make no sense. When :attr:`need` is None
        afterwards, the follower is up to date and its link ``live``."""
        step = self._step
        if step == "catch_up":
            self._caught_up(replayed(replies))
        elif step in ("snapshot", "refresh"):
            self._took_snapshot(read_snapshot(replies, self.name), step == "refresh")
        elif step == "history":
            self._took_history(replayed(replies))
        else:
            self._replayed_all(replayed(replies))
        if self._step is None:
            self.need = None
            self._restarted = False
            self.set_link("live")

    def _caught_up(self, events: list[Replayed]) -> None:
        """Replay from the last seq held; if that event is not the one held, start afresh."""
        held = self._recent.get(self.last_seq)
        first = events[0] if events else None
        same = first is not None and _seq(first[2]) == self.last_seq and first[1] == held
        lost_window = (first is not None and _seq(first[2]) > self.last_seq
                       and epoch_of(first[2]) in (None, self.epoch))
        if not same and not (lost_window and not self.snapshots):
            log.warning("table %s: its sequence changed (last seq held %d); starting afresh",
                        self.name, self.last_seq)
            self._restarted = True
            self._step = "snapshot" if self.snapshots else "replay_all"
            return
        if lost_window:
            assert first is not None
            log.error("table %s: events %d..%d are no longer held by the table: lost", self.name,
                      self.last_seq + 1, _seq(first[2]) - 1)
            self.last_seq = _seq(first[2]) - 1
        else:
            events = events[1:]
        if events:
            self.replays += 1
        self._deliver_in_order(events)
        self._step = "refresh" if self.snapshots else None

    def _deliver_in_order(self, events: list[Replayed]) -> None:
        """Deliver replayed events, which must follow the last seq held."""
        for topic, body, message in events:
            if _seq(message) != self.last_seq + 1:
                raise SyncError(f"replay skipped from {self.last_seq} to {message['seq']}")
            self._deliver(topic, body, message)

    def _new_label(self, events: list[Replayed]) -> str:
        """The label of the sequence these events (just replayed afresh) belong to."""
        if events and (epoch := epoch_of(events[-1][2])) is not None:
            return epoch
        if self._restarted and events:
            return f"restart@{events[0][2].get('ts')}"
        return self.epoch

    def _reset(self, label: str) -> None:
        if self._restarted:
            self.resyncs += 1
        self._restarted = False
        self.epoch = label
        self.last_seq = 0
        self._known = 0
        self._recent.clear()

    def _took_snapshot(self, snapshot: Message, refresh: bool) -> None:
        seq = _seq(snapshot)
        epoch = str(snapshot["epoch"]) if "epoch" in snapshot else None
        if refresh:
            if seq < self.last_seq or epoch not in (None, self.epoch):
                log.info("table %s: a snapshot of another sequence (seq %d, epoch %s); starting afresh",
                         self.name, seq, epoch)
                self._restarted = True
                self._step = "snapshot"
                return
            self._known = max(self._known, seq)
            self._refreshed(snapshot)
            self._step = None
            return
        self._snapshot_seq = seq
        self._fresh = snapshot
        self._step = "history" if seq else None
        if not seq:
            self._reset(epoch if epoch is not None else self.epoch)
            self._snapshot(snapshot)

    def _took_history(self, events: list[Replayed]) -> None:
        """The events just before the snapshot (history) and after it (live)."""
        snapshot, seq = self._fresh, self._snapshot_seq
        if not events or _seq(events[0][2]) > seq or _seq(events[-1][2]) < seq:
            raise SyncError(f"the replay does not hold seq {seq} of the snapshot")
        self._reset(str(snapshot["epoch"]) if "epoch" in snapshot else self._new_label(events))
        self._snapshot(snapshot)
        self.last_seq = _seq(events[0][2]) - 1
        self._known = seq
        self._deliver_in_order(events)
        self._step = None

    def _replayed_all(self, events: list[Replayed]) -> None:
        """Everything the table holds: go on where it departs from what is held, or take it afresh."""
        same = 0
        for _topic, body, message in events:
            if _seq(message) > self.last_seq or self._recent.get(_seq(message)) != body:
                break
            same += 1
        if same and same < len(events) and _seq(events[same][2]) <= self.last_seq:
            self.rewinds += 1
            log.warning("table %s: the table rewound its sequence to seq %d", self.name,
                        _seq(events[same][2]))
            self.last_seq = _seq(events[same][2]) - 1
        elif not same:
            self._reset(self._new_label(events))
            if events and _seq(events[0][2]) > 1:
                log.error("table %s: events 1..%d are no longer held by the table: lost", self.name,
                          _seq(events[0][2]) - 1)
            self.last_seq = _seq(events[0][2]) - 1 if events else 0
        self._deliver_in_order(events[same:])
        self._step = None


_HEAD = re.compile(
    rb'\{"v":1,"table":"[^"\\]*","seq":([1-9][0-9]{0,18}|0),(?:"epoch":([1-9][0-9]{0,18}|"[^"\\]*"),)?'
    rb'"ts":"([^"\\]*)","type":"([^"\\]*)","hand":(null|0|[1-9][0-9]{0,18}),"data":')
"""An envelope as the table lays it out (``encode_event``: its keys in order, ``data`` last)."""


def _head(body: bytes) -> Message | None:
    """An envelope without its ``data``, which is in ``raw`` as JSON text; None if the body is not
    laid out as the table lays it out (then it is decoded whole).

    >>> _head(b'{"v":1,"table":"T1","seq":4,"ts":"x","type":"table.view","hand":null,"data":{"a":1}}')
    {'seq': 4, 'type': 'table.view', 'ts': 'x', 'hand': None, 'raw': b'{"a":1}'}
    >>> _head(b'{"v":1,"table":"T1","seq":4,"epoch":7,"ts":"x","type":"bet.placed","hand":3,"data":{}}')
    {'seq': 4, 'type': 'bet.placed', 'ts': 'x', 'hand': 3, 'raw': b'{}', 'epoch': 7}
    >>> _head(b'{"v":1,"table":"T1","seq":4,"ts":"x","type":"heartbeat"}') is None
    True
    """
    found = _HEAD.match(body)
    if found is None or not body.endswith(b"}"):
        return None
    seq, epoch, ts, kind, hand = found.groups()
    head: Message = {"seq": int(seq), "type": kind.decode(), "ts": ts.decode(),
                            "hand": None if hand == b"null" else int(hand), "raw": body[found.end():-1]}
    if epoch is not None:
        head["epoch"] = int(epoch) if epoch[:1] != b'"' else epoch[1:-1].decode()
    return head


def data_of(message: Mapping[str, object]) -> JsonObject | None:
    """A message's ``data``, decoded from ``raw`` if it came undecoded (``raw_data``); None if it
    cannot be read as a JSON object."""
    data = message.get("data")
    raw = message.get("raw")
    if data is None and isinstance(raw, bytes):
        try:
            data = parse_json(raw)
        except (ValueError, RecursionError):
            return None
    return data if isinstance(data, dict) else None


def replayed(replies: list[list[bytes]]) -> list[Replayed]:
    """The events of a replay's replies, as ``(topic, body, message)``; SyncError for one unreadable."""
    events: list[Replayed] = []
    for reply in replies:
        if reply[0] != b"event":
            continue
        if len(reply) != 3:
            raise SyncError("a replayed event without topic and body")
        try:
            message: Message = dict(decode_body(reply[2]))
            _seq(message)
        except (ValueError, KeyError) as exc:
            raise SyncError(f"a replayed event that cannot be read: {exc}") from exc
        events.append((reply[1], reply[2], message))
    return events


def read_snapshot(replies: list[list[bytes]], name: str) -> Message:
    """The snapshot ``{"seq": S, "state": {...}}`` (with its ``epoch`` if it has one) of table ``name``."""
    try:
        snapshot: Message = dict(decode_snapshot(replies[-1][1]))
        seq = _seq(snapshot)
        state = snapshot["state"]
        if seq < 0 or not isinstance(state, dict):
            raise ValueError("seq or state of the wrong type")
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise SyncError(f"a snapshot that cannot be read: {exc}") from exc
    if state.get("table", name) != name:
        raise SyncError(f"the table is {state.get('table')!r}, not {name!r}")
    return snapshot


def decode_snapshot(body: bytes) -> JsonObject:
    """A snapshot reply's JSON object; ValueError if it is not one."""
    found = parse_json(body)
    if not isinstance(found, dict):
        raise ValueError("a snapshot that is not a JSON object")
    return found
