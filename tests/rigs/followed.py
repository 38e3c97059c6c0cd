"""Events as a follower hands them on (:class:`~controller.follow.records.FollowedEvent`), made from the
``{"seq", "ts", "type", "hand", "data"}`` a test writes: published as a table publishes them, then read."""

from __future__ import annotations

from collections.abc import Mapping

from controller.events.envelope import decode_body, encode_event
from controller.follow.records import FollowedEvent


def followed(message: Mapping[str, object], table: str = "T07") -> FollowedEvent:
    """``message`` as the event a follower of ``table`` delivers (its ``data`` published as it is)."""
    seq, ts, kind, hand, data = (message.get("seq", 0), message.get("ts", "2026-11-21T10:00:00.000Z"),
                                 message["type"], message.get("hand"), message.get("data") or {})
    assert isinstance(seq, int) and isinstance(ts, str) and isinstance(kind, str)
    assert (hand is None or isinstance(hand, int)) and isinstance(data, dict)
    topic, body = encode_event(table, seq, ts, kind, hand, data)
    return FollowedEvent.of(decode_body(body), topic, body)
