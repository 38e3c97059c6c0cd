"""The one codec of pit events: a typed record to ``(type, data, private)`` and back.

The pit stream publishes ``data``; the journal keeps ``private`` beside it (what
is never published: a face-down card's identity); a restart reads both back
into the same record (:func:`decode`). A record's ``data`` is its fields in
order (:func:`to_json`: tuples as lists, nested records as objects, cards in pit
notation), a field marked :data:`OMIT_NONE` left out while None. A record
whose wire form is its own (a card dealt face down) has ``to_pit`` and
``from_pit`` methods, which the codec calls instead. The checkpoint writes a
session's parts with the same :func:`to_json` and reads them with
:func:`from_json`, and so does the table's picture
(:mod:`controller.events.picture`). A record type is written and read by a
function made once from its fields' types (the picture is encoded after every
step); one whose JSON form is its own has ``json_form`` and ``from_json_form``.
Reading checks every field against its declared type
(:mod:`controller.events.decoders`): data that is not the record's raises
``ValueError`` naming the record, the field and what was found.

Where bytes meet the code, JSON is :data:`~firmware_bridge.kernel.json.JsonValue` /
:data:`~firmware_bridge.kernel.json.JsonObject` (every layer's one JSON type);
:func:`integer`, :func:`text` and :func:`optional` read a value out of one,
checked. :func:`decode_public` reads an event as anyone on the pit stream
sees it (no private part: a card dealt face down has no card).

>>> from firmware_bridge.kernel.cards import Card
>>> from controller.events.hand import Acted, Dealt, Target
>>> encode(Acted(3, 0, "stand"))
('player.action', {'seat': 3, 'hand_index': 0, 'action': 'stand'}, {})
>>> kind, data, private = encode(Dealt(Target("dealer", None, 0, False), Card.parse("Qh"), 7))
>>> kind, data["card"], data["face_up"], private
('card.dealt', None, False, {'card': 'Qh'})
>>> decode(kind, data, private) == Dealt(Target("dealer", None, 0, False), Card.parse("Qh"), 7)
True
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Literal, TypeVar, Union

from controller.events.decoders import DECODERS, compiled, field_types, reader
from controller.events.registry import Event, by_type, wire_fields
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject, JsonValue

T = TypeVar("T")

PitEvent = tuple[str, JsonObject, JsonObject]
"""A pit event before it is numbered: (type, data, private)."""

OMIT_NONE: Mapping[str, bool] = types.MappingProxyType({"omit_none": True})
"""Field metadata: the key is left out of the event's ``data`` while the field is None."""


def encode(record: Event) -> PitEvent:
    """The pit event that ``record`` is (its own ``to_pit`` where it has one: its ``data`` and
    ``private``, read back by its ``from_pit(data, private)`` class method)."""
    own = getattr(record, "to_pit", None)
    if own is not None:
        data, private = own()
        return record.pit_type, data, private
    return record.pit_type, record_json(record), {}


def decode(kind: str, data: Mapping[str, JsonValue], private: Mapping[str, JsonValue]) -> Event | None:
    """The record a journaled pit event is (None for a type nobody registered)."""
    cls = by_type(kind)
    if cls is None:
        return None
    from_pit = getattr(cls, "from_pit", None)
    if from_pit is not None:
        record: Event = from_pit(data, private)
        return record
    return from_json(cls, data)


def integer(value: object) -> int:
    """``value``, a JSON integer (ValueError otherwise: a bool is no integer here).

    >>> integer(7)
    7
    >>> integer(True)
    Traceback (most recent call last):
    ValueError: not an integer: True
    """
    if type(value) is not int:
        raise ValueError(f"not an integer: {value!r}")
    return value


def text(value: object) -> str:
    """``value``, a JSON string (ValueError otherwise)."""
    if not isinstance(value, str):
        raise ValueError(f"not a string: {value!r}")
    return value


def optional(read: Callable[[object], T], value: object) -> T | None:
    """None for a JSON null, else ``read(value)``: ``optional(integer, data.get("seat"))``."""
    return None if value is None else read(value)


PUBLIC: dict[str, type[Event]] = {}
"""The record a published event of a type is read into when it differs from the registered one
(``card.dealt``: :class:`~controller.events.hand.DealtInPublic`, whose card may be unknown)."""


def decode_public(kind: str, data: Mapping[str, JsonValue]) -> Event | None:
    """The record a published event is, as anyone reading the pit stream sees it (no private part):
    None for a type nobody registered; a card dealt face down has no card
    (:class:`~controller.events.hand.DealtInPublic`). ValueError, KeyError or TypeError for data
    that is not the record's.

    >>> import controller.events.hand
    >>> decode_public("card.dealt", {"index": 7, "to": "dealer", "seat": None, "hand_index": 0,
    ...                              "card": None, "face_up": False}).card is None
    True
    >>> decode_public("player.action", {"seat": 3, "hand_index": 0, "action": "stand"})
    Acted(seat=3, hand_index=0, action='stand', amount=None)
    >>> decode_public("example.unknown", {}) is None
    True
    """
    cls = PUBLIC.get(kind) or by_type(kind)
    if cls is None:
        return None
    from_pit = getattr(cls, "from_pit", None)
    if from_pit is not None:
        record: Event = from_pit(data, {})
        return record
    return from_json(cls, data)


_PLAIN = frozenset({int, str, bool, float, type(None)})
"""Types :func:`to_json` hands back as they are (looked up first: most fields are one)."""


def to_json(value: object) -> JsonValue:
    """``value`` as JSON-able data: a record as an object of its fields, tuples as lists, a card in
    pit notation; mappings keep their keys (JSON writes an int key as its digits). A record whose JSON
    form is not simply its fields (an alert's ``about`` spread among them) gives its own
    ``json_form()``, read back by its class's ``from_json_form``."""
    kind = type(value)
    if kind in _PLAIN:
        return value  # type: ignore[return-value]
    encoder = _ENCODERS.get(kind)
    return (encoder or _encoder(kind))(value)


def record_json(record: object) -> JsonObject:
    """:func:`to_json` of a record: always a JSON object (TypeError for any other value)."""
    data = to_json(record)
    if not isinstance(data, dict):
        raise TypeError(f"{type(record).__name__} is not written as a JSON object")
    return data


@typing.overload
def from_json(kind: type[T], value: object) -> T: ...


@typing.overload
def from_json(kind: object, value: object) -> object: ...


def from_json(kind: object, value: object) -> object:
    """The value of type ``kind`` that :func:`to_json` wrote as ``value`` (None for null), each
    record's field checked against its declared type (:mod:`controller.events.decoders`: mapping keys
    read back as ints where the type says so). ``ValueError``, naming the record, its field and what
    was found, for a value that is not what its type says.

    >>> from controller.events.hand import Acted
    >>> from_json(Acted, {"seat": 3, "hand_index": 0, "action": "stand"})
    Acted(seat=3, hand_index=0, action='stand', amount=None)
    >>> from_json(Acted, {"seat": "3", "hand_index": 0, "action": "stand"})
    Traceback (most recent call last):
    ValueError: Acted.seat must be int, found '3' (str)
    """
    if value is None:
        return None
    if isinstance(kind, type):
        made = DECODERS.get(kind)
        if made is not None:
            return made(value)
    return reader(kind)(value)


Encoder = Callable[[object], JsonValue]


def _generic(value: object) -> JsonValue:
    """:func:`to_json` of a value whose type says nothing more (a list, a mapping, a card...)."""
    if type(value) in _PLAIN:
        return value  # type: ignore[return-value]
    if isinstance(value, Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: to_json(item) for key, item in value.items()}
    return value  # type: ignore[return-value]


_ENCODERS: dict[type, Encoder] = {}
"""The encoder of each type :func:`to_json` has met."""


def prepare(classes: Iterable[type]) -> None:
    """Make the encoders of the record types ``classes`` now, instead of at the first record of each
    that is written (the daemon makes every registered event's at start, so a hand's first steps
    after a restart cost what any other's do, and the encoders are frozen with the rest of start-up).
    A record with its own ``to_pit`` writes itself and needs none; the records a record holds get
    theirs too.

    >>> from controller.events.hand import Dealt, Settled, WagerResult
    >>> prepare([Settled, Dealt]); Settled in _ENCODERS, WagerResult in _ENCODERS, Dealt in _ENCODERS
    (True, True, False)
    """
    todo, seen = list(classes), set()
    while todo:
        cls = todo.pop()
        if cls in seen or getattr(cls, "to_pit", None) is not None:
            continue
        seen.add(cls)
        _encoder(cls)
        with contextlib.suppress(NameError):    # a type named only while type checking: to_json's
            todo.extend(_held_records(field_types(cls).values()))


def _held_records(hints: Iterable[object]) -> Iterator[type]:
    """The record classes among ``hints`` and inside them (a tuple's, a mapping's, a union's); a card
    is written as its notation, with no encoder of its own."""
    for hint in hints:
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint is not Card:
            yield hint
        yield from _held_records(typing.get_args(hint))


def _encoder(cls: type) -> Encoder:
    """The encoder of values of type ``cls``: a record's is made once from its fields' types, as
    a function building its object directly (the table's picture is encoded after every step)."""
    encoder = _ENCODERS.get(cls)
    if encoder is None:
        own = getattr(cls, "json_form", None)
        if not dataclasses.is_dataclass(cls):
            encoder = _generic
        elif own is not None:
            encoder = own
        else:
            encoder = _record_encoder(cls)
        _ENCODERS[cls] = encoder
    return encoder


def _plain_hint(hint: object) -> bool:
    """Whether a field of this type holds a value JSON takes as it is."""
    if hint in _PLAIN or typing.get_origin(hint) is Literal:
        return True
    if typing.get_origin(hint) in (Union, types.UnionType):
        return all(_plain_hint(arg) for arg in typing.get_args(hint))
    return False


def _value_code(hint: object, name: str, helpers: dict[str, object]) -> str:
    """Python source that encodes the expression ``name`` of type ``hint``."""
    if _plain_hint(hint):
        return name
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType) and type(None) in args:
        rest = [arg for arg in args if arg is not type(None)]
        if len(rest) == 1:
            return f"(None if {name} is None else {_value_code(rest[0], name, helpers)})"
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        if _plain_hint(args[0]):
            return f"list({name})"
        return f"[{_value_code(args[0], '_i', helpers)} for _i in {name}]"
    if origin in (Mapping, dict) and len(args) == 2:
        if _plain_hint(args[1]):
            return f"dict({name})"
        return f"{{_k: {_value_code(args[1], '_v', helpers)} for _k, _v in {name}.items()}}"
    if hint is Card:
        return f"str({name})"
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        helpers["_encoder"] = _encoder
        return f"_encoder(type({name}))({name})"
    helpers["_to_json"] = to_json
    return f"_to_json({name})"


def _record_encoder(cls: type) -> Encoder:
    """A function that writes a record of ``cls`` as :func:`to_json` does, made from its fields'
    types (a field of a type the codec reads nothing from is written by :func:`to_json`)."""
    try:
        hints = field_types(cls)
    except NameError:       # a type named only while type checking: each field by :func:`to_json`
        hints = {}
    helpers: dict[str, object] = {}
    lines = ["def encode(record):", "    out = {}"]
    for name, omit in _fields(cls):
        code = _value_code(hints.get(name, object), f"record.{name}", helpers)
        if omit:
            lines += [f"    if record.{name} is not None:", f"        out[{name!r}] = {code}"]
        else:
            lines.append(f"    out[{name!r}] = {code}")
    lines.append("    return out")
    return typing.cast(Encoder, compiled(lines, helpers))


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """A record's fields in wire order, each with whether it is left out while None."""
    fields = {f.name: bool(f.metadata.get("omit_none")) for f in dataclasses.fields(cls)}
    names = wire_fields(cls) if issubclass(cls, Event) else tuple(fields)
    return tuple((name, fields[name]) for name in names)
