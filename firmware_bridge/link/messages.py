"""Typed link messages: one frozen record per frame type, their payload layout, and JSON names.

Field names are exactly the protocol's (docs/protocol.md section 3), so a JSON dump
of a message uses them as keys.

>>> kind, payload = pack(Card(index=7, rank=12, suit=2))
>>> hex(kind), payload.hex()
('0x21', '070000000c02')
>>> unpack(kind, payload)
Card(index=7, rank=12, suit=2)
>>> inventory = unpack(0x30, bytes.fromhex("0102efcdab8967452301f40100008877665544332211c4090000"))
>>> to_json(inventory)["chips"][0]
{'uid': '0123456789abcdef', 'value': 500}
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import ClassVar

from firmware_bridge.kernel.json import JsonObject, JsonValue

KIND_SHOE = 1
KIND_RFID = 2
DEVICE_KINDS = {KIND_SHOE: "shoe", KIND_RFID: "rfid"}
"""Device kind numbers in HELLO, and the names the rest of the system uses for them."""

MAX_CHIPS = 85
"""The most chips one INVENTORY can list."""

LID_OPEN = 1 << 0
"""Shoe STATUS flag bit 0: the lid is open."""
SHOE_EMPTY = 1 << 1
"""Shoe STATUS flag bit 1: no card is left in the shoe (or none was loaded)."""
OPTICAL_FAULT = 1 << 2
"""Shoe STATUS flag bit 2: the optical sensor reports a fault."""

ANTENNA_FAULT = 1 << 0
"""RFID STATUS flag bit 0: an antenna fault."""
RF_FIELD_FAULT = 1 << 1
"""RFID STATUS flag bit 1: an RF field fault."""
TOO_MANY_CHIPS = 1 << 2
"""RFID STATUS flag bit 2: a spot holds more chips than one INVENTORY can list (85)."""

STATUS_FLAGS: Mapping[str, tuple[str, ...]] = {
    "shoe": ("lid open", "shoe empty", "optical sensor fault"),
    "rfid": ("antenna fault", "RF field fault", "too many chips on a spot"),
}
"""What each STATUS flag bit means in words, by board kind: bit ``n`` is the ``n``-th name
(docs/protocol.md section 3). The only place the bits are named."""


def raised_flags(names: tuple[str, ...], flags: int) -> tuple[str, ...]:
    """The names of the bits set in ``flags``, in bit order (``names[n]`` names bit ``n``).

    >>> raised_flags(STATUS_FLAGS["shoe"], LID_OPEN | OPTICAL_FAULT)
    ('lid open', 'optical sensor fault')
    """
    return tuple(name for bit, name in enumerate(names) if flags & (1 << bit))


class PayloadError(ValueError):
    """A payload that does not fit its frame type."""


@dataclass(frozen=True, slots=True)
class Ack:
    """ACK (control): acknowledges data frames through the frame's ack field."""

    TYPE: ClassVar[int] = 0x00
    NAME: ClassVar[str] = "ACK"


@dataclass(frozen=True, slots=True)
class Reset:
    """RESET (control, host): asks the board to start a session echoing ``nonce``."""

    TYPE: ClassVar[int] = 0x01
    NAME: ClassVar[str] = "RESET"
    nonce: int


@dataclass(frozen=True, slots=True)
class Hello:
    """HELLO (control, device): answers a RESET (or ``nonce`` 0 at boot)."""

    TYPE: ClassVar[int] = 0x02
    NAME: ClassVar[str] = "HELLO"
    nonce: int
    kind: int
    protocol: int
    firmware: str
    serial: str


@dataclass(frozen=True, slots=True)
class Status:
    """STATUS (data, device): heartbeat with uptime and flag bits; ``memory_errors``, the steps of its work
    a board dropped for lack of memory since it started, only in the 8-byte form (0: the 6-byte one)."""

    TYPE: ClassVar[int] = 0x10
    NAME: ClassVar[str] = "STATUS"
    uptime_ms: int
    flags: int
    memory_errors: int = 0


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    """SHOE_LOADED (data, shoe): a new shuffle, ``shoe_id`` never reused."""

    TYPE: ClassVar[int] = 0x20
    NAME: ClassVar[str] = "SHOE_LOADED"
    shoe_id: int
    decks: int


@dataclass(frozen=True, slots=True)
class Card:
    """CARD (data, shoe): the ``index``-th card since SHOE_LOADED (from 1)."""

    TYPE: ClassVar[int] = 0x21
    NAME: ClassVar[str] = "CARD"
    index: int
    rank: int
    suit: int


@dataclass(frozen=True, slots=True)
class CardUnreadable:
    """CARD_UNREADABLE (data, shoe): a card left the shoe at ``index`` but was not read."""

    TYPE: ClassVar[int] = 0x22
    NAME: ClassVar[str] = "CARD_UNREADABLE"
    index: int


@dataclass(frozen=True, slots=True)
class CutCard:
    """CUT_CARD (data, shoe): the cut card came out after card ``index``."""

    TYPE: ClassVar[int] = 0x23
    NAME: ClassVar[str] = "CUT_CARD"
    index: int


@dataclass(frozen=True, slots=True)
class Chip:
    """One chip read on an antenna: tag ``uid`` (16 lowercase hex digits) and written ``value`` in cents."""

    uid: str
    value: int


@dataclass(frozen=True, slots=True)
class Inventory:
    """INVENTORY (data, rfid): the complete set of chips now on ``antenna`` (1 to 32)."""

    TYPE: ClassVar[int] = 0x30
    NAME: ClassVar[str] = "INVENTORY"
    antenna: int
    chips: tuple[Chip, ...]


@dataclass(frozen=True, slots=True)
class Fault:
    """FAULT (data, device): ``code`` 1 sensor, 2 lid open in a draw, 3 antenna, 4 overflow, 5 watchdog."""

    TYPE: ClassVar[int] = 0x40
    NAME: ClassVar[str] = "FAULT"
    code: int
    text: str


@dataclass(frozen=True, slots=True)
class SpotLights:
    """SPOT_LIGHTS (data, host): bit n-1 of ``mask`` lights the spot on antenna n."""

    TYPE: ClassVar[int] = 0x50
    NAME: ClassVar[str] = "SPOT_LIGHTS"
    mask: int


Message = (
    Ack | Reset | Hello | Status | ShoeLoaded | Card | CardUnreadable | CutCard | Inventory | Fault
    | SpotLights
)
MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Ack, Reset, Hello, Status, ShoeLoaded, Card, CardUnreadable, CutCard, Inventory, Fault,
        SpotLights,
    )
}
CONTROL_TYPES = frozenset({Ack.TYPE, Reset.TYPE, Hello.TYPE})
"""Frame types that are not sequenced and never acknowledged."""

_FIXED: dict[int, struct.Struct] = {
    Ack.TYPE: struct.Struct("<"),
    Reset.TYPE: struct.Struct("<I"),
    Status.TYPE: struct.Struct("<IH"),
    ShoeLoaded.TYPE: struct.Struct("<IB"),
    Card.TYPE: struct.Struct("<IBB"),
    CardUnreadable.TYPE: struct.Struct("<I"),
    CutCard.TYPE: struct.Struct("<I"),
    SpotLights.TYPE: struct.Struct("<I"),
}
_STATUS_LONG = struct.Struct("<IHH")
OPTIONAL = {Status.NAME: "memory_errors"}
"""The fields a JSON dump leaves out when 0 (and a JSON message may leave out), by message name: those
only the longer form of a payload carries."""
_HELLO_HEAD = struct.Struct("<IBB")
_FAULT_HEAD = struct.Struct("<H")
_CHIP = struct.Struct("<QI")


def is_data(frame_type: int) -> bool:
    """Whether frames of this type are sequenced data frames (every type but ACK, RESET, HELLO)."""
    return frame_type not in CONTROL_TYPES


def _pack_string(text: str) -> bytes:
    raw = text.encode("utf-8")
    if len(raw) > 255:
        raise ValueError(f"string of {len(raw)} bytes does not fit a length byte")
    return bytes([len(raw)]) + raw


def _unpack_string(payload: bytes, at: int) -> tuple[str, int]:
    if at >= len(payload):
        raise PayloadError("string length byte missing")
    end = at + 1 + payload[at]
    if end > len(payload):
        raise PayloadError("string runs past the payload")
    try:
        return payload[at + 1 : end].decode("utf-8"), end
    except UnicodeDecodeError:
        raise PayloadError("string is not UTF-8") from None


def pack(message: Message) -> tuple[int, bytes]:
    """The frame type and payload bytes of ``message``."""
    if isinstance(message, Hello):
        head = _HELLO_HEAD.pack(message.nonce, message.kind, message.protocol)
        return message.TYPE, head + _pack_string(message.firmware) + _pack_string(message.serial)
    if isinstance(message, Fault):
        return message.TYPE, _FAULT_HEAD.pack(message.code) + _pack_string(message.text)
    if isinstance(message, Inventory):
        if len(message.chips) > MAX_CHIPS:
            raise ValueError(f"{len(message.chips)} chips do not fit one INVENTORY")
        body = bytes([message.antenna, len(message.chips)])
        return message.TYPE, body + b"".join(
            _CHIP.pack(int(chip.uid, 16), chip.value) for chip in message.chips
        )
    if isinstance(message, Status) and message.memory_errors:
        return message.TYPE, _STATUS_LONG.pack(message.uptime_ms, message.flags, message.memory_errors)
    if isinstance(message, Status):
        return message.TYPE, _FIXED[message.TYPE].pack(message.uptime_ms, message.flags)
    values = [getattr(message, f.name) for f in fields(message)]
    return message.TYPE, _FIXED[message.TYPE].pack(*values)


def unpack(frame_type: int, payload: bytes) -> Message:
    """The message in a frame's payload; raises :class:`PayloadError`, or KeyError for an unknown type.

    >>> unpack(0x21, b"\\x01")
    Traceback (most recent call last):
    ...
    firmware_bridge.link.messages.PayloadError: CARD payload is 1 bytes, expected 6
    """
    cls = MESSAGE_TYPES[frame_type]
    if frame_type == Hello.TYPE:
        if len(payload) < _HELLO_HEAD.size:
            raise PayloadError(f"HELLO payload is {len(payload)} bytes, too short")
        nonce, kind, protocol = _HELLO_HEAD.unpack_from(payload)
        firmware, at = _unpack_string(payload, _HELLO_HEAD.size)
        serial, at = _unpack_string(payload, at)
        _expect_end(cls, payload, at)
        return Hello(nonce, kind, protocol, firmware, serial)
    if frame_type == Fault.TYPE:
        if len(payload) < _FAULT_HEAD.size:
            raise PayloadError(f"FAULT payload is {len(payload)} bytes, too short")
        (code,) = _FAULT_HEAD.unpack_from(payload)
        text, at = _unpack_string(payload, _FAULT_HEAD.size)
        _expect_end(cls, payload, at)
        return Fault(code, text)
    if frame_type == Inventory.TYPE:
        return _unpack_inventory(payload)
    if frame_type == Status.TYPE and len(payload) == _STATUS_LONG.size:
        return Status(*_STATUS_LONG.unpack(payload))
    layout = _FIXED[frame_type]
    if len(payload) != layout.size:
        raise PayloadError(f"{cls.NAME} payload is {len(payload)} bytes, expected {layout.size}")
    return cls(*layout.unpack(payload))


def _unpack_inventory(payload: bytes) -> Inventory:
    if len(payload) < 2:
        raise PayloadError(f"INVENTORY payload is {len(payload)} bytes, too short")
    antenna, count = payload[0], payload[1]
    if not 1 <= antenna <= 32:
        raise PayloadError(f"INVENTORY antenna {antenna} is not 1 to 32")
    if count > MAX_CHIPS:
        raise PayloadError(f"INVENTORY count {count} exceeds {MAX_CHIPS}")
    if len(payload) != 2 + count * _CHIP.size:
        raise PayloadError(f"INVENTORY of {count} chips is {len(payload)} bytes")
    chips = tuple(
        Chip(f"{uid:016x}", value) for uid, value in _CHIP.iter_unpack(payload[2:])
    )
    return Inventory(antenna, chips)


def _expect_end(cls: type[Message], payload: bytes, at: int) -> None:
    if at != len(payload):
        raise PayloadError(f"{cls.NAME} payload has {len(payload) - at} bytes left over")


def to_json(message: Message) -> JsonObject:
    """A JSON-ready dict: ``{"type": NAME, ...fields}`` with the spec's field names."""
    out: JsonObject = {"type": message.NAME}
    for f in fields(message):
        value = getattr(message, f.name)
        if f.name == OPTIONAL.get(message.NAME) and not value:
            continue
        if f.name == "chips":
            value = [{"uid": chip.uid, "value": chip.value} for chip in value]
        out[f.name] = value
    return out


def from_json(data: Mapping[str, JsonValue]) -> Message:
    """The data message a :func:`to_json` dict describes, checked by packing it.

    Raises :class:`PayloadError` for an unknown or control type, missing or extra fields, or
    values that do not fit the frame (for the simulator's ``send``, which injects any message).

    >>> from_json({"type": "CARD", "index": 4294967295, "rank": 13, "suit": 3})
    Card(index=4294967295, rank=13, suit=3)
    >>> from_json({"type": "INVENTORY", "antenna": 9, "chips": [{"uid": "00000000000000aa", "value": 5}]})
    Inventory(antenna=9, chips=(Chip(uid='00000000000000aa', value=5),))
    >>> from_json({"type": "CARD", "index": -1, "rank": 1, "suit": 0})
    Traceback (most recent call last):
    ...
    firmware_bridge.link.messages.PayloadError: CARD does not fit its frame: ...
    """
    by_name = {cls.NAME: cls for cls in MESSAGE_TYPES.values() if cls.TYPE not in CONTROL_TYPES}
    cls = by_name.get(str(data.get("type")))
    if cls is None:
        raise PayloadError(f"type must be one of {', '.join(sorted(by_name))}, not {data.get('type')!r}")
    names = [f.name for f in fields(cls)]
    if set(data) - {OPTIONAL.get(cls.NAME)} != {"type", *names} - {OPTIONAL.get(cls.NAME)}:
        raise PayloadError(f"{cls.NAME} takes the fields {', '.join(names)}")
    values: dict[str, object] = dict(data)
    values.pop("type")
    make: Callable[..., Message] = cls  # the values' types are checked by packing the message
    try:
        if cls is Inventory:
            values["chips"] = tuple(_chip(chip) for chip in _items(data["chips"]))
        message = make(**values)
        pack(message)
    except (TypeError, ValueError, KeyError, struct.error) as error:
        raise PayloadError(f"{cls.NAME} does not fit its frame: {error}") from None
    return message


def _items(value: JsonValue) -> list[JsonValue]:
    if not isinstance(value, list):
        raise TypeError(f"chips is a list, not {value!r}")
    return value


def _chip(value: JsonValue) -> Chip:
    if not isinstance(value, dict):
        raise TypeError(f"a chip is {{uid, value}}, not {value!r}")
    cents = value["value"]
    if not isinstance(cents, int):
        raise TypeError(f"a chip's value is an integer, not {cents!r}")
    return Chip(str(value["uid"]), cents)
