"""Typed options from a TOML table: build a frozen dataclass from its fields and type hints.

Each game describes its ``[game]`` options as a frozen dataclass whose fields carry
defaults; :func:`parse_options` checks a TOML table against it and reports every
mistake as one line naming the key. Supported field types: ``bool``, ``int`` (a TOML
boolean is not an integer), ``str``, ``T | None`` (the key may be left out; TOML has
no null), ``dict[int, T]`` / ``dict[str, T]`` given as a TOML table (integer keys
written as decimal strings: ``[game.dealer_bust_pays]`` ``17 = 100``) and ``tuple[T, ...]``
given as a TOML array (``designs = ["a.npz", "b.npz"]``). :func:`describe` and
:func:`type_mismatch` word the same type checks for the rest of the configuration.
:func:`options_json` is the way back: the options as a configuration file gives them, as
plain JSON (what ``table.opened`` publishes as the table's ``rules``).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Rules:
...     decks: int = 6
...     peek: bool = False
>>> parse_options(Rules, {"decks": 8}, "game")
(Rules(decks=8, peek=False), [])
>>> parse_options(Rules, {"decks": "8", "colour": "red"}, "game")
(None, ['game.colour: unknown key', 'game.decks: must be an integer, not a string'])
>>> options_json(Rules(decks=8))
{'decks': 8, 'peek': False}
"""

from __future__ import annotations

import dataclasses
import datetime
import re
import types
import typing
from collections.abc import Mapping
from typing import TypeAlias, TypeVar

from firmware_bridge.kernel.money import MAX_AMOUNT, dollars

OptionJson: TypeAlias = "bool | int | str | list[OptionJson] | dict[str, OptionJson]"
"""An option's value as plain JSON (as a configuration file gives it): a table's keys are strings."""

T = TypeVar("T")

_TYPE_NAMES: dict[type, str] = {
    bool: "a boolean",
    int: "an integer",
    float: "a float",
    str: "a string",
    list: "an array",
    dict: "a table",
    datetime.datetime: "a date-time",
    datetime.date: "a date",
    datetime.time: "a time",
    type(None): "null",
}


def describe(value: object) -> str:
    """Name the TOML type of a parsed value, with its article: ``describe(1) == 'an integer'``.

    >>> describe(True), describe("x"), describe({}), describe(None)
    ('a boolean', 'a string', 'a table', 'null')
    """
    for kind, name in _TYPE_NAMES.items():
        if isinstance(value, kind):
            return name
    return f"a {type(value).__name__}"


def type_mismatch(kind: type, value: object) -> str | None:
    """Why the parsed TOML ``value`` is not a ``kind`` (``bool``, ``int`` or ``str``), or None.

    A boolean is not an integer, although Python counts it as one. No integer of the configuration
    is larger than the largest amount (:data:`MAX_AMOUNT` cents), in either direction.

    >>> type_mismatch(int, True), type_mismatch(int, 3)
    ('must be an integer, not a boolean', None)
    >>> type_mismatch(int, 10**30)
    'must be at most 1000000000 ($10,000,000.00, the most any amount may be)'
    """
    if kind is int and isinstance(value, int) and not isinstance(value, bool):
        if value > MAX_AMOUNT:
            return f"must be at most {MAX_AMOUNT} ({dollars(MAX_AMOUNT)}, the most any amount may be)"
        if value < -MAX_AMOUNT:
            return f"must be at least {-MAX_AMOUNT}"
        return None
    if isinstance(value, kind) and not (kind is int and isinstance(value, bool)):
        return None
    return f"must be {_TYPE_NAMES[kind]}, not {describe(value)}"


def _convert(hint: object, value: object, key: str) -> tuple[object, list[str]]:
    """Check ``value`` against ``hint``; return the converted value and the problems."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        kinds = [arg for arg in typing.get_args(hint) if arg is not type(None)]
        if len(kinds) != 1:
            raise TypeError(f"{key}: unsupported option type {hint!r}")
        return _convert(kinds[0], value, key)
    if hint is bool or hint is int or hint is str:
        problem = type_mismatch(hint, value)
        return (value, []) if problem is None else (None, [f"{key}: {problem}"])
    if typing.get_origin(hint) is dict:
        key_type, value_type = typing.get_args(hint)
        return _convert_dict(key_type, value_type, value, key)
    if typing.get_origin(hint) is tuple and typing.get_args(hint)[1:] == (Ellipsis,):
        return _convert_tuple(typing.get_args(hint)[0], value, key)
    raise TypeError(f"{key}: unsupported option type {hint!r}")


def _convert_tuple(item_type: object, value: object, key: str) -> tuple[object, list[str]]:
    """A TOML array as a tuple, each item checked against ``item_type`` (named by its place from 1).

    >>> _convert_tuple(str, ["a", 2], "designs")
    (('a', None), ['designs.2: must be a string, not an integer'])
    """
    if not isinstance(value, list):
        return None, [f"{key}: must be an array, not {describe(value)}"]
    items: list[object] = []
    problems: list[str] = []
    for place, raw in enumerate(value, start=1):
        converted, item_problems = _convert(item_type, raw, f"{key}.{place}")
        problems += item_problems
        items.append(converted)
    return tuple(items), problems


def _convert_dict(key_type: object, value_type: object, value: object, key: str) -> tuple[object, list[str]]:
    if not isinstance(value, dict):
        return None, [f"{key}: must be a table, not {describe(value)}"]
    if key_type not in (int, str):
        raise TypeError(f"{key}: unsupported option key type {key_type!r}")
    result: dict[int | str, object] = {}
    problems: list[str] = []
    for raw_key, raw_value in value.items():
        item_key: int | str = raw_key
        if key_type is int:
            if re.fullmatch(r"-?[0-9]+", raw_key) is None:
                problems.append(f"{key}: key {raw_key!r} must be a whole number")
                continue
            item_key = int(raw_key)
        converted, item_problems = _convert(value_type, raw_value, f"{key}.{raw_key}")
        problems += item_problems
        result[item_key] = converted
    return result, problems


def parse_options(
    rules_type: type[T], table: Mapping[str, object], prefix: str
) -> tuple[T | None, list[str]]:
    """Build a ``rules_type`` instance from ``table``; return ``(instance or None, problems)``.

    Keys left out take the field's default (a field without a default is required).
    After the types check out, the instance's own ``problems()`` lines, if it has
    that method, are added, prefixed with ``prefix`` unless they already name it.
    The instance is returned only when there is no problem at all.
    """
    if not dataclasses.is_dataclass(rules_type):
        raise TypeError(f"{rules_type!r} is not a dataclass")
    fields = {field.name: field for field in dataclasses.fields(rules_type) if field.init}
    hints = typing.get_type_hints(rules_type)
    problems = [f"{prefix}.{name}: unknown key" for name in table if name not in fields]
    values: dict[str, object] = {}
    for name, field in fields.items():
        if name in table:
            values[name], field_problems = _convert(hints[name], table[name], f"{prefix}.{name}")
            problems += field_problems
        elif field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING:
            problems.append(f"{prefix}.{name}: missing (required)")
    if problems:
        return None, problems
    try:
        instance = rules_type(**values)
    except (TypeError, ValueError) as exc:
        return None, [f"{prefix}: {exc}"]
    check = getattr(instance, "problems", None)
    if callable(check):
        for line in check():
            named = line.startswith((f"{prefix}.", f"{prefix}:"))
            problems.append(line if named else f"{prefix}.{line}")
    return (None if problems else instance), problems


def options_json(options: object) -> dict[str, OptionJson]:
    """Every option of the dataclass instance ``options`` with its value, as a configuration file
    gives it: an option that is None (none set) left out, as TOML has no null, and the keys of a
    table as strings. :func:`parse_options` reads it back to an equal instance.

    >>> from dataclasses import dataclass, field
    >>> @dataclass(frozen=True)
    ... class Rules:
    ...     pays: dict[int, int] = field(default_factory=lambda: {17: 100})
    ...     cap: int | None = None
    >>> options_json(Rules())
    {'pays': {'17': 100}}
    >>> parse_options(Rules, options_json(Rules(cap=5)), "game")
    (Rules(pays={17: 100}, cap=5), [])
    """
    if not dataclasses.is_dataclass(options) or isinstance(options, type):
        raise TypeError(f"{options!r} is not a dataclass instance")
    found = {field.name: getattr(options, field.name) for field in dataclasses.fields(options) if field.init}
    return {name: _plain(value) for name, value in found.items() if value is not None}


def _plain(value: object) -> OptionJson:
    """An option's value as TOML would give it: a table's keys as strings."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if isinstance(value, bool | int | str):
        return value
    raise TypeError(f"an option of {describe(value)} has no TOML form")
