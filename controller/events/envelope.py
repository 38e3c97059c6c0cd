"""The pit event envelope (pit-events.md section 1).

Every pit event is published as two ZeroMQ frames: an ASCII topic
``<table_id>/<type>`` and a UTF-8 JSON body whose keys come in a fixed order
(``v``, ``table``, ``seq``, ``epoch``, ``ts``, ``type``, ``hand``, ``data``).
``epoch`` is this project's compatible extension of the v1 envelope (see
docs/pit-events.md, "Epochs"): it changes whenever the table's sequence restarts or rewinds, so
``(epoch, seq)`` names one event for ever; it is left out when not given. An event is
serialised exactly once, by :func:`encode_event`; the journal stores those bytes
and the sync socket replays them byte for byte, so nothing downstream ever
re-encodes an event.

>>> import datetime
>>> ts = utc_timestamp(datetime.datetime(2026, 11, 21, 22, 14, 5, 123456,
...                                      tzinfo=datetime.UTC))
>>> ts
'2026-11-21T22:14:05.123Z'
>>> topic, body = encode_event("T07", 1042, ts, "card.dealt", 57, {"card": "Qh", "seat": 3})
>>> topic
b'T07/card.dealt'
>>> body.decode()
'{"v":1,"table":"T07","seq":1042,"ts":"2026-11-21T22:14:05.123Z","type":"card.dealt","hand":57,"data":{"card":"Qh","seat":3}}'
>>> decode_body(body)["data"]["seat"]
3
"""

from __future__ import annotations

import datetime
import json
import marshal
from collections.abc import Mapping

import msgspec

from firmware_bridge.kernel.json import JsonObject, JsonValue

__all__ = [
    "UNSEQUENCED",
    "VERSION",
    "VIEW_TYPE",
    "compact_json",
    "decode_body",
    "encode_event",
    "encode_heartbeat",
    "now_timestamp",
    "parse_json",
    "utc_timestamp",
]

VERSION = 1
"""The envelope version carried in every body as ``"v"``."""

HEARTBEAT_TYPE = "heartbeat"
VIEW_TYPE = "table.view"
"""The message that carries the table's picture: like a heartbeat, it takes no seq of its own."""
UNSEQUENCED = frozenset({HEARTBEAT_TYPE, VIEW_TYPE})
"""Message types that carry the seq of the last event instead of one of their own."""


def utc_timestamp(when: datetime.datetime) -> str:
    """Format an aware datetime as the pit ``ts``: UTC, milliseconds, ``Z``.

    Sub-millisecond digits are truncated (never rounded up into the next
    second). A naive datetime is refused, since its zone is unknown.

    >>> tz = datetime.timezone(datetime.timedelta(hours=1))
    >>> utc_timestamp(datetime.datetime(2027, 1, 1, 0, 30, 0, 999999, tzinfo=tz))
    '2026-12-31T23:30:00.999Z'
    >>> utc_timestamp(datetime.datetime(2027, 1, 1))
    Traceback (most recent call last):
    ...
    ValueError: utc_timestamp needs an aware datetime, got a naive one
    """
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError("utc_timestamp needs an aware datetime, got a naive one")
    utc = when.astimezone(datetime.UTC)
    return f"{utc:%Y-%m-%dT%H:%M:%S}.{utc.microsecond // 1000:03d}Z"


def now_timestamp() -> str:
    """The pit ``ts`` of this moment (see :func:`utc_timestamp`)."""
    return utc_timestamp(datetime.datetime.now(datetime.UTC))


def _topic(table_id: str, type: str) -> bytes:
    """Build and check the ASCII topic ``<table_id>/<type>``."""
    if not table_id or "/" in table_id or not table_id.isascii() or not table_id.isprintable():
        raise ValueError(f"table id must be non-empty printable ASCII without '/': {table_id!r}")
    if not type or not type.isascii() or not type.isprintable():
        raise ValueError(f"event type must be non-empty printable ASCII: {type!r}")
    return f"{table_id}/{type}".encode("ascii")


_WRITE = msgspec.json.Encoder()
_FLOAT = object()
"""What :data:`_READ_BACK` reads a JSON number with a fraction or an exponent as: equal to nothing."""
_READ_BACK = msgspec.json.Decoder(float_hook=lambda _: _FLOAT)
_READ = msgspec.json.Decoder()


def compact_json(obj: Mapping[str, object]) -> bytes:
    """Compact UTF-8 JSON, non-ASCII kept as is, NaN and infinities refused.

    The encoding of every pit body and of the pit sockets' JSON replies: exactly the bytes of
    ``json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)`` in UTF-8, and
    the same refusals (ValueError for NaN, an infinity or a loop; TypeError for what JSON has no
    form for). msgspec writes them (in two thirds of json's time, its check included:
    docs/benchmarks.md) when ``obj`` is made of dicts, lists, strings, ints, bools and None
    alone: it holds only Python's own types (``marshal`` takes nothing else: a dict subclass may
    give its keys in an order of its own) and msgspec's bytes read back as ``obj`` with no number
    that is not an integer in them (msgspec writes a float in a form of its own, NaN as null, a
    set or a date as JSON would not). Anything else (a float, a tuple, an int key...) is written
    by :mod:`json`, which says what it refuses.

    >>> compact_json({"name": "Zoë", "n": [1, None]}).decode()
    '{"name":"Zoë","n":[1,null]}'
    >>> compact_json({"odds": 1.5, "seats": (1, 2), 7: "x"}).decode()
    '{"odds":1.5,"seats":[1,2],"7":"x"}'
    >>> compact_json({"ev": float("nan")})
    Traceback (most recent call last):
    ...
    ValueError: Out of range float values are not JSON compliant
    """
    try:
        marshal.dumps(obj)  # type: ignore[arg-type]  # ValueError for any type not Python's own
        body = _WRITE.encode(obj)
        if _READ_BACK.decode(body) == obj:
            return body
    except (ValueError, TypeError, RecursionError, msgspec.MsgspecError):
        pass
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def parse_json(text: bytes | str) -> JsonValue:
    """The JSON value ``text`` holds, exactly as :func:`json.loads` reads it, and ValueError (or
    RecursionError, nested too deep) where it refuses it.

    msgspec reads it (in less than half of json's time, docs/benchmarks.md) into the same dicts
    (their keys in order), lists, strings, ints, floats, bools and None; what msgspec refuses,
    :mod:`json` reads again and decides: ``NaN`` and ``Infinity`` (which JSON leaves out but
    Python's reader takes), a number too large for a float (read as infinity), a lone surrogate,
    UTF-16 text...

    >>> parse_json(b'{"seat":3,"bets":{"main":2500},"odds":1.5}')
    {'seat': 3, 'bets': {'main': 2500}, 'odds': 1.5}
    >>> parse_json(b'[NaN]')
    [nan]
    >>> parse_json(b'{"seat":')
    Traceback (most recent call last):
    ...
    json.decoder.JSONDecodeError: Expecting value: line 1 column 9 (char 8)
    """
    try:
        value: JsonValue = _READ.decode(text)
    except (ValueError, RecursionError):        # msgspec.DecodeError is a ValueError
        value = json.loads(text)
    return value


def _check_epoch(epoch: int | None) -> None:
    if epoch is not None and (not isinstance(epoch, int) or isinstance(epoch, bool) or epoch < 1):
        raise ValueError(f"epoch must be a positive int or None, got {epoch!r}")


def encode_event(
    table_id: str,
    seq: int,
    ts: str,
    type: str,
    hand: int | None,
    data: Mapping[str, object],
    *,
    epoch: int | None = None,
) -> tuple[bytes, bytes]:
    """Serialise one pit event to its exact published ``(topic, body)`` frames.

    The body is compact UTF-8 JSON with the keys in the order ``v``, ``table``,
    ``seq``, ``epoch`` (only when given), ``ts``, ``type``, ``hand``, ``data``;
    ``data`` keeps its own key order, integers stay integers and non-ASCII text
    is written as UTF-8.

    Raises ``ValueError`` for a table id or type that cannot form an ASCII
    topic, a ``seq`` below 1, an ``epoch`` that is not a positive int, or data
    that is not valid JSON (NaN, infinity); ``TypeError`` for a non-integer
    ``seq``/``hand`` or unserialisable data.

    >>> encode_event("T07", 1, "2026-11-21T22:14:05.123Z", "table.opened", None,
    ...              {"recovered": False, "name": "Täble"})[1].decode()
    '{"v":1,"table":"T07","seq":1,"ts":"2026-11-21T22:14:05.123Z","type":"table.opened","hand":null,"data":{"recovered":false,"name":"Täble"}}'
    >>> encode_event("T07", 22, "2026-11-21T22:14:05.123Z", "table.opened", None, {}, epoch=1795000000)[1]
    b'{"v":1,"table":"T07","seq":22,"epoch":1795000000,"ts":"2026-11-21T22:14:05.123Z","type":"table.opened","hand":null,"data":{}}'
    """
    topic = _topic(table_id, type)
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise TypeError(f"seq must be an int, got {seq!r}")
    if seq < 1:
        raise ValueError(f"seq starts at 1, got {seq}")
    _check_epoch(epoch)
    if hand is not None and (not isinstance(hand, int) or isinstance(hand, bool)):
        raise TypeError(f"hand must be an int or None, got {hand!r}")
    body: dict[str, object] = {"v": VERSION, "table": table_id, "seq": seq}
    if epoch is not None:
        body["epoch"] = epoch
    body.update({"ts": ts, "type": type, "hand": hand, "data": dict(data)})
    return topic, compact_json(body)


def encode_heartbeat(table_id: str, last_seq: int, ts: str, *,
                     epoch: int | None = None) -> tuple[bytes, bytes]:
    """Serialise a heartbeat: topic ``<table_id>/heartbeat``, body with the last seq (and the epoch).

    A heartbeat is not an event: it carries the seq of the last event
    published (0 before the first one), the table's current ``epoch`` when
    given, no ``hand`` and no ``data``.

    >>> encode_heartbeat("T07", 1042, "2026-11-21T22:14:07.123Z")
    (b'T07/heartbeat', b'{"v":1,"table":"T07","seq":1042,"ts":"2026-11-21T22:14:07.123Z","type":"heartbeat"}')
    >>> encode_heartbeat("T07", 21, "2026-11-21T22:14:07.123Z", epoch=1795000000)[1]
    b'{"v":1,"table":"T07","seq":21,"epoch":1795000000,"ts":"2026-11-21T22:14:07.123Z","type":"heartbeat"}'
    """
    topic = _topic(table_id, HEARTBEAT_TYPE)
    if not isinstance(last_seq, int) or isinstance(last_seq, bool):
        raise TypeError(f"last_seq must be an int, got {last_seq!r}")
    _check_epoch(epoch)
    body: JsonObject = {"v": VERSION, "table": table_id, "seq": last_seq}
    if epoch is not None:
        body["epoch"] = epoch
    body.update({"ts": ts, "type": HEARTBEAT_TYPE})
    return topic, compact_json(body)


def decode_body(body: bytes) -> JsonObject:
    """Parse an event or heartbeat body back into a dict (key order preserved).

    Raises ``ValueError`` if the body is not UTF-8 JSON, not a JSON object, or
    not of envelope version 1.

    >>> decode_body(b'{"v":1,"table":"T07","seq":3,"ts":"x","type":"heartbeat"}')["seq"]
    3
    >>> decode_body(b'[1, 2]')
    Traceback (most recent call last):
    ...
    ValueError: pit body is not a JSON object
    """
    try:
        obj = parse_json(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"pit body is not UTF-8 JSON: {exc}") from exc
    if not isinstance(obj, dict):
        raise ValueError("pit body is not a JSON object")
    if obj.get("v") != VERSION:
        raise ValueError(f"unsupported pit envelope version: {obj.get('v')!r}")
    return obj
