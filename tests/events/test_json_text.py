"""The pit's JSON is written and read by msgspec, byte for byte and value for value what :mod:`json` gives.

:func:`controller.events.envelope.compact_json` must give exactly
``json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False)``
in UTF-8 and refuse what it refuses; :func:`controller.events.envelope.parse_json`
must give exactly what ``json.loads`` gives (its dicts' keys in the same order)
and raise where it raises. Checked over every golden picture and checkpoint, every
code point, tricky numbers and types, and at random (hypothesis).
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import decimal
import enum
import json
import math
import random
import re
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.events.codec import from_json, record_json
from controller.events.envelope import compact_json, decode_body, parse_json
from controller.events.picture import Picture, PublicState
from tests.table.picture_scenarios import SAVED, read_golden


def json_bytes(obj: object) -> bytes:
    """What compact_json has always been."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def same_outcome(obj: Any) -> None:
    """compact_json(obj) is json's bytes, or json's refusal (the same exception type and words)."""
    try:
        expected = json_bytes(obj)
    except (TypeError, ValueError) as exc:
        with pytest.raises(type(exc)) as raised:
            compact_json(obj)
        assert str(raised.value) == str(exc)
        return
    assert compact_json(obj) == expected


def same_reading(text: bytes | str) -> None:
    """parse_json(text) is json.loads(text), key order and types too, or its refusal."""
    try:
        expected = json.loads(text)
    except (ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)) as raised:
            parse_json(text)
        assert str(raised.value) == str(exc)
        return
    found = parse_json(text)
    assert shape(found) == shape(expected)


def shape(value: object) -> object:
    """``value`` with every type and key order spelled out (1 == 1.0 == True in Python; NaN is no NaN)."""
    if isinstance(value, dict):
        return ("dict", [(key, shape(item)) for key, item in value.items()])
    if isinstance(value, list):
        return ("list", [shape(item) for item in value])
    if isinstance(value, float):
        return ("float", struct.pack("<d", value))
    return (type(value).__name__, value)


def test_every_golden_picture_and_state_is_written_as_json_writes_it_and_read_as_json_reads_it() -> None:
    for name, state, picture in read_golden():
        for kind, raw in ((Picture, picture), (PublicState, state)):
            obj = record_json(from_json(kind, json.loads(raw)))
            assert compact_json(obj) == json_bytes(obj) == raw, name
            assert shape(parse_json(raw)) == shape(json.loads(raw)), name
            assert shape(decode_body(b'{"v":1,"data":' + raw + b"}")["data"]) == shape(json.loads(raw)), name


def test_every_golden_checkpoint_is_written_and_read_as_json_does() -> None:
    for name, data, _ in read_golden(SAVED):
        obj = json.loads(data)
        assert compact_json(obj) == json_bytes(obj), name
        assert shape(parse_json(data)) == shape(obj), name


def test_every_code_point_is_written_and_read_back_as_json_does() -> None:
    points = [chr(point) for point in range(0x110000) if not 0xD800 <= point <= 0xDFFF]
    for start in range(0, len(points), 4096):
        text = "".join(points[start:start + 4096])
        same_outcome({"text": text, text[:50]: 1})
        same_reading(json_bytes({"text": text}))
        same_reading(json.dumps({"text": text}))           # every character escaped as \\uXXXX
    for escaped in ('"\\ud800"', '"\\udc00\\ud800"', '"\\ud83d\\ude00"', '"\\u0000"', '"\\/"', '"\\x"'):
        same_reading(escaped)
    with pytest.raises(UnicodeEncodeError):
        compact_json({"lone": "\ud800"})


class Colour(enum.Enum):
    RED = 1


class Seat(enum.IntEnum):
    ONE = 1


class Word(enum.StrEnum):
    HIT = "hit"


class Cents(int):
    pass


class Name(str):
    pass


class Reversed(dict[str, object]):
    def items(self) -> Any:
        return reversed(list(super().items()))

    def __iter__(self) -> Any:
        return reversed(list(super().__iter__()))


@dataclasses.dataclass
class Record:
    seat: int


def moved_to_end() -> collections.OrderedDict[str, int]:
    """An OrderedDict whose order is not the order its keys went in (msgspec would write the latter)."""
    ordered = collections.OrderedDict(a=1, b=2)
    ordered.move_to_end("a")
    return ordered


def looped() -> dict[str, object]:
    loop: dict[str, object] = {}
    loop["self"] = loop
    return loop


ADDRESS = re.compile(r" at 0x[0-9a-f]+")
"""An object's address in its repr: no part of a test's name, which both test workers must agree on."""

TRICKY: list[object] = [
    {}, {"a": None, "b": True, "c": False, "d": 0, "e": -0, "f": ""},
    {"z": 1, "a": 2, "m": {"y": [], "b": {}}},                          # key order is insertion order
    {"big": 2**64, "neg": -(2**63) - 1, "huge": 10**400, "max": 2**63 - 1},
    {"seats": (1, 2), "pair": ((1, "9h"), [2, None])},                  # tuples are arrays
    {1: "int key", "2": "str key"}, {1.5: "float key"}, {True: "bool key"}, {None: "none key"},
    {"floats": [0.1, 1.0, -0.0, 1e16, 1e-7, 2.5e-5, 5e-324, 1.7976931348623157e308, 123456789.125]},
    {"nan": math.nan}, {"inf": math.inf}, {"ninf": -math.inf}, {math.nan: 1}, {"deep": [[[math.inf]]]},
    {"set": {1}}, {"frozen": frozenset()}, {"bytes": b"ab"}, {b"k": 1}, {(1, 2): 1}, {"cx": 1j},
    {"when": datetime.datetime(2026, 1, 1)}, {"day": datetime.date(2026, 1, 1)},
    {"d": decimal.Decimal("1.5")}, {"record": Record(3)}, {"colour": Colour.RED},
    {"seat": Seat.ONE, Seat.ONE: "int enum key"}, {"word": Word.HIT}, {"cents": Cents(5)},
    {"name": Name("x"), Name("k"): 1}, {"ordered": moved_to_end()}, Reversed(a=1, b=2),
    {"inner": Reversed(a=1, b=2)}, {"default": collections.defaultdict(int, a=1)},
    {"counter": collections.Counter("aab")}, {"object": object()}, {"type": int}, {"ellipsis": ...},
    looped(), {"nested": [[[[[[[[[[["deep"]]]]]]]]]]]}, {"text": "Zoë \u2028 </script> \x00 \x7f \"\\"},
]


@pytest.mark.parametrize("obj", TRICKY, ids=lambda obj: ADDRESS.sub("", repr(obj))[:40])
def test_a_tricky_value_is_written_or_refused_as_json_does(obj: Any) -> None:
    same_outcome(obj)


def test_nan_and_infinities_are_still_refused() -> None:
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="Out of range float"):
            compact_json({"data": {"ev": [value]}})


def test_a_structure_nested_past_the_recursion_limit_is_refused_as_json_refuses_it() -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RecursionError):
        compact_json({"deep": deep})
    with pytest.raises(RecursionError):
        parse_json(b"[" * 100_000 + b"]" * 100_000)


TEXTS: list[bytes | str] = [
    b'{"a":1,"b":2,"a":3}', b"[NaN]", b"[Infinity,-Infinity]", b"1E400", b"-1e400", b"1e-400", b"-0", b"-0.0",
    b"[18446744073709551616]", b"[" + b"9" * 500 + b"]",
    b"0.1000000000000000055511151231257827021181583404541015625",
    b"", b" ", b"{", b"{} x", b"01", b"1.", b".5", b"+1", b"[1,]", b'{"a":1,}', b"'a'", b"nul", b"true ",
    b' \n\t\r{"a" : [ 1 , 2 ] }\r\n', b'"a\x01b"', b'"a\tb"', b'"\x7f"', b"\xef\xbb\xbf{}", b'"\xff"',
    b'"\xc0\xaf"',
    b'"\xed\xa0\x80"', '{"a":1}'.encode("utf-16"), '{"a":1}'.encode("utf-32-le"), "\ufeff{}", '"\ud800"',
    '{"z":"Zoë","a":[1,2.5,null,true,false,{}]}', b"[1e5, 1E5, 1.5e+3, 2E-3, 0e0, -0e-0]",
    b"123456789012345678901",
]


@pytest.mark.parametrize("text", TEXTS, ids=lambda text: repr(text)[:40])
def test_a_tricky_text_is_read_or_refused_as_json_does(text: bytes | str) -> None:
    same_reading(text)


def test_random_doubles_are_read_as_json_reads_them() -> None:
    draw = random.Random(24)
    for _ in range(20_000):
        value = struct.unpack("<d", draw.randbytes(8))[0]
        if math.isfinite(value):
            same_reading(repr(value).encode())
            same_reading(f"{value:.{draw.randint(1, 25)}e}".encode())
        same_reading(f"{draw.randint(-10**30, 10**30)}.{draw.randint(0, 10**20)}e{draw.randint(-330, 330)}")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=5) | st.integers(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=6))
def test_any_json_value_is_written_or_refused_as_json_does_and_read_back_as_json_reads_it(
        obj: dict[str, object]) -> None:
    same_outcome(obj)
    same_reading(json.dumps(obj))                        # NaN and infinities as json writes them when let
    same_reading(json.dumps(obj, ensure_ascii=False).encode("utf-8", "surrogatepass"))


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40).map(lambda text: text.encode("utf-8", "surrogatepass")))
def test_any_bytes_are_read_or_refused_as_json_does(text: bytes) -> None:
    same_reading(text)
    same_reading(b'{"a":[' + text + b"]}")
