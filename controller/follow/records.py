"""What a follower hands on, as typed records: each event with its envelope, and the table's picture.

:class:`FollowedEvent` is one event of the stream: its envelope (``seq``,
``ts``, ``epoch``, ``type``, ``hand``), its bytes as published (``topic``,
``body``), and the registered record it is (:attr:`FollowedEvent.event`,
decoded once, when first read, as the public reads it: a card dealt face down
has no card, :class:`~controller.events.hand.DealtInPublic`; None for a type no
module registers: the table's, the hands' and the session parts' are, a game's
own events once its module is imported, e.g. by
:func:`controller.games.catalog.load_games`).

:class:`RecordListener` is what a consumer implements to be told in records
(the picture as :class:`~controller.events.picture.Picture`, each event as a
:class:`FollowedEvent`); :class:`Records` is the
:class:`~controller.follow.aio.Listener` that turns what the follower finds into
those and tells it::

    follower = Follower(source, Records(my_listener), context=context)

>>> body = (b'{"v":1,"table":"T07","seq":9,"ts":"2026-11-21T22:14:05.123Z","type":"card.dealt","hand":3,'
...         b'"data":{"index":7,"to":"dealer","seat":null,"hand_index":0,"card":null,"face_up":false}}')
>>> followed = FollowedEvent.of(decode_body(body), b"T07/card.dealt", body)
>>> followed.seq, followed.type, followed.hand, followed.epoch
(9, 'card.dealt', 3, None)
>>> dealt = followed.event
>>> type(dealt).__name__, dealt.index, dealt.target.to, dealt.card
('DealtInPublic', 7, 'dealer', None)
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

import controller.events.books
import controller.events.floor
import controller.events.table
import controller.events.tray
import controller.games.interface  # noqa: F401 - with the above, registers the events decode_public reads
from controller.events.codec import decode_public, from_json
from controller.events.envelope import decode_body, parse_json
from controller.events.picture import Picture
from controller.events.registry import Event
from controller.follow.core import Message, epoch_of
from firmware_bridge.kernel.json import JsonObject

if TYPE_CHECKING:
    from controller.follow.aio import Follower

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FollowedEvent:
    """One event of a table's stream: its envelope, its bytes as published, and its record.

    ``epoch`` is the envelope's epoch as text (None when it has none); ``body`` is
    the published body, byte for byte (what a recorder stores). :attr:`event` is
    the registered record its ``data`` is, decoded when first read.
    """

    seq: int
    ts: str
    epoch: str | None
    type: str
    hand: int | None
    topic: bytes
    body: bytes

    @classmethod
    def of(cls, message: Message, topic: bytes, body: bytes) -> FollowedEvent:
        """The event a follower delivered (its ``message``, ``topic`` and ``body``)."""
        seq, ts, kind, hand = message["seq"], message["ts"], message["type"], message.get("hand")
        if not isinstance(seq, int) or not isinstance(ts, str) or not isinstance(kind, str) or \
                not (hand is None or isinstance(hand, int)):
            raise ValueError(f"not an event's envelope: seq {seq!r}, ts {ts!r}, type {kind!r}")
        followed = cls(seq, ts, epoch_of(message), kind, hand, topic, body)
        data = message.get("data")
        if isinstance(data, dict):            # the follower read the body already: not read twice
            followed.__dict__["data"] = data
        return followed

    @cached_property
    def data(self) -> JsonObject:
        """The event's ``data``: the follower's message's, or decoded from :attr:`body` (once)."""
        data = decode_body(self.body).get("data")
        return data if isinstance(data, dict) else {}

    @cached_property
    def event(self) -> Event | None:
        """The registered record the event is, as the public reads it (decoded once): None for a
        type no module registers, or for data that is not its record (logged)."""
        try:
            return decode_public(self.type, self.data)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s seq %d: %s is not a %s: %s", self.topic.decode(errors="replace"), self.seq,
                        json.dumps(self.data)[:200], self.type, exc)
            return None


class RecordListener(Protocol):
    """What a consumer is told in records (through :class:`Records`)."""

    def snapshot(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """A fresh picture of the table as of event ``seq`` (at the start, or a new sequence)."""

    def refreshed(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """A newer picture of the same sequence, as of event ``seq``, after a gap was repaired."""

    def event(self, follower: Follower, event: FollowedEvent, live: bool) -> None:
        """The next event; ``live`` is False for events already in the last snapshot."""

    def picture(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        """The table's picture as of event ``seq`` (None: it does not read as a picture, logged)."""

    def link(self, follower: Follower) -> None:
        """:attr:`Follower.link_state` or :attr:`Follower.reason` changed."""


class Records:
    """The :class:`~controller.follow.aio.Listener` that tells a :class:`RecordListener` in records."""

    def __init__(self, listener: RecordListener) -> None:
        self.listener = listener

    def snapshot(self, follower: Follower, snapshot: Message) -> None:
        """Tell the snapshot's picture."""
        self.listener.snapshot(follower, *_picture(snapshot))

    def refreshed(self, follower: Follower, snapshot: Message) -> None:
        """Tell the newer snapshot's picture."""
        self.listener.refreshed(follower, *_picture(snapshot))

    def event(self, follower: Follower, message: Message, topic: bytes, body: bytes,
              live: bool) -> None:
        """Tell the event as a :class:`FollowedEvent`."""
        self.listener.event(follower, FollowedEvent.of(message, topic, body), live)

    def picture(self, follower: Follower, message: Message) -> None:
        """Tell the ``table.view``'s picture."""
        self.listener.picture(follower, *_picture(message))

    def link(self, follower: Follower) -> None:
        """Tell the change of the link."""
        self.listener.link(follower)


def _picture(message: Message) -> tuple[int, Picture | None]:
    """The seq and the picture of a snapshot (``state``) or of a ``table.view`` (``data``, or as
    text in ``raw``); None for a picture that is not one (logged)."""
    seq = message["seq"]
    state = message["state"] if "state" in message else message.get("data")
    try:
        raw = message.get("raw")
        if state is None and isinstance(raw, bytes):
            state = parse_json(raw)
        picture: Picture | None = from_json(Picture, state)
    except (ValueError, KeyError, TypeError, RecursionError) as exc:
        log.warning("a picture that is not the table's picture: %s", exc)
        picture = None
    return (seq if isinstance(seq, int) else 0), picture
