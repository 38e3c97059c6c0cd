"""Tests of the pit event envelope: body shape, key order, timestamps, heartbeats."""

from __future__ import annotations

import datetime
import json
import re

import pytest

from controller.events.envelope import decode_body, encode_event, encode_heartbeat, utc_timestamp

TS = "2026-11-21T22:14:05.123Z"


def test_encode_event_topic_and_exact_body() -> None:
    data = {"index": 12, "to": "seat", "seat": 3, "hand_index": 0, "card": "Qh", "face_up": True}
    topic, body = encode_event("T07", 1042, TS, "card.dealt", 57, data)
    assert topic == b"T07/card.dealt"
    assert body == (
        b'{"v":1,"table":"T07","seq":1042,"ts":"2026-11-21T22:14:05.123Z",'
        b'"type":"card.dealt","hand":57,"data":{"index":12,"to":"seat","seat":3,'
        b'"hand_index":0,"card":"Qh","face_up":true}}'
    )


def test_encode_event_key_order_types_and_round_trip() -> None:
    data = {"z": 1, "a": [{"amount": 50000}], "name": "Zoë", "none": None}
    _, body = encode_event("T07", 1, TS, "bets.closed", None, data)
    decoded = decode_body(body)
    assert list(decoded) == ["v", "table", "seq", "ts", "type", "hand", "data"]
    assert list(decoded["data"]) == ["z", "a", "name", "none"]
    assert decoded["hand"] is None
    assert type(decoded["seq"]) is int
    assert type(decoded["data"]["a"][0]["amount"]) is int
    assert "Zoë".encode() in body  # UTF-8, not \\u escapes
    assert b" " not in body.replace("Zoë".encode(), b"")  # compact separators


@pytest.mark.parametrize(
    ("table", "seq", "type_", "hand", "data", "error"),
    [
        ("T/7", 1, "meter", None, {}, ValueError),
        ("", 1, "meter", None, {}, ValueError),
        ("Tä", 1, "meter", None, {}, ValueError),
        ("T07", 0, "meter", None, {}, ValueError),
        ("T07", True, "meter", None, {}, TypeError),
        ("T07", 1, "", None, {}, ValueError),
        ("T07", 1, "meter", "57", {}, TypeError),
        ("T07", 1, "meter", None, {"value": float("nan")}, ValueError),
        ("T07", 1, "meter", None, {"value": object()}, TypeError),
    ],
)
def test_encode_event_refuses_bad_input(
    table: str, seq: int, type_: str, hand: int | None, data: dict[str, object], error: type
) -> None:
    with pytest.raises(error):
        encode_event(table, seq, TS, type_, hand, data)


def test_utc_timestamp_format() -> None:
    pattern = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")
    now = utc_timestamp(datetime.datetime.now(datetime.UTC))
    assert pattern.match(now)
    eastern = datetime.timezone(datetime.timedelta(hours=-5))
    when = datetime.datetime(2026, 11, 21, 17, 14, 5, 123999, tzinfo=eastern)
    assert utc_timestamp(when) == TS
    exact = datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    assert utc_timestamp(exact) == "2026-01-02T03:04:05.000Z"
    with pytest.raises(ValueError):
        utc_timestamp(datetime.datetime(2026, 1, 2))


def test_encode_heartbeat() -> None:
    topic, body = encode_heartbeat("T07", 1042, TS)
    assert topic == b"T07/heartbeat"
    assert json.loads(body) == {"v": 1, "table": "T07", "seq": 1042, "ts": TS, "type": "heartbeat"}
    assert list(json.loads(body)) == ["v", "table", "seq", "ts", "type"]


@pytest.mark.parametrize("body", [b"not json", b"\xff\xfe", b"[1]", b'{"v":2}', b"{}"])
def test_decode_body_refuses(body: bytes) -> None:
    with pytest.raises(ValueError):
        decode_body(body)
