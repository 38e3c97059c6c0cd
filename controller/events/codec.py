"""The one codec of pit events: a typed record to ``(type, data, private)`` and back.

The pit stream publishes ``data``; the journal keeps ``private`` beside it (what
is never published: a face-down card's identity); a restart reads both back
into the same record (:func:`decode`). A record's ``data`` is its fields in
order (:func:`to_json`: tuples as lists, nested records as objects, cards in pit
notation), a field marked :data:`OMIT_NONE` left out while None. A record
whose wire form is its own (a card dealt face down) has ``to_pit`` and
``from_pit`` methods, which the codec calls instead. The checkpoint writes a
session's parts with the same :func:`to_json` and reads them with
:func:`from_json`.

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

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any, Union

from controller.events.registry import Event, by_type, wire_fields
from firmware_bridge.kernel.cards import Card

PitEvent = tuple[str, dict[str, Any], dict[str, Any]]
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
    return record.pit_type, to_json(record), {}


def decode(kind: str, data: Mapping[str, Any], private: Mapping[str, Any]) -> Event | None:
    """The record a journaled pit event is (None for a type nobody registered)."""
    cls = by_type(kind)
    if cls is None:
        return None
    from_pit = getattr(cls, "from_pit", None)
    if from_pit is not None:
        record: Event = from_pit(data, private)
        return record
    return from_json(cls, data)  # type: ignore[no-any-return]


_PLAIN = frozenset({int, str, bool, float, type(None)})
"""Types :func:`to_json` hands back as they are (looked up first: most fields are one)."""


def to_json(value: Any) -> Any:
    """``value`` as JSON-able data: a record as an object of its fields, tuples as lists, a card in
    pit notation; mappings keep their keys (JSON writes an int key as its digits)."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, Card):
        return str(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for name, omit in _fields(type(value)):
            item = getattr(value, name)
            if item is None and omit:
                continue
            out[name] = to_json(item)
        return out
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    if isinstance(value, Mapping):
        return {key: to_json(item) for key, item in value.items()}
    return value


def from_json(kind: Any, value: Any) -> Any:
    """The value of type ``kind`` that :func:`to_json` wrote as ``value`` (records by their type
    hints; mapping keys read back as ints where the type says so)."""
    if value is None:
        return None
    origin = typing.get_origin(kind)
    if origin in (Union, types.UnionType):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return from_json(options[0], value) if len(options) == 1 else value
    if origin is tuple:
        item = typing.get_args(kind)[0]
        return tuple(from_json(item, element) for element in value)
    if origin in (Mapping, dict):
        key_type, item_type = typing.get_args(kind)
        return {(int(key) if key_type is int else key): from_json(item_type, item)
                for key, item in value.items()}
    if kind is Card:
        return Card.parse(value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = _hints(kind)
        return kind(**{name: from_json(hints[name], value[name])
                       for name, _ in _fields(kind) if name in value})
    return value


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, bool], ...]:
    """A record's fields in wire order, each with whether it is left out while None."""
    fields = {f.name: bool(f.metadata.get("omit_none")) for f in dataclasses.fields(cls)}
    names = wire_fields(cls) if issubclass(cls, Event) else tuple(fields)
    return tuple((name, fields[name]) for name in names)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)
