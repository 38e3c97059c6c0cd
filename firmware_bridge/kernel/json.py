"""JSON as every layer reads and writes it: the recursive :data:`JsonValue` and :data:`JsonObject`.

What ``json.loads`` gives, or what ``json.dumps`` is handed, at the edges of
firmware_bridge/ and drivers/ (the simulator's command lines and answers,
the decoded wire captures, a board's ``board.json``): a value read out of a
:data:`JsonObject` is checked (``isinstance``) or decoded into a record before
it is used (:func:`object_at`, :func:`int_at`, :func:`ints_at` check as they
read): nothing further in is typed as JSON. controller/ takes the same two
types where its bytes meet the code: the pit events' codec
(controller/events/codec.py) and its readers, which check every field.

>>> import json
>>> answer: JsonObject = {"ok": True, "chips": [["00000000000000aa", 500]], "pty": None}
>>> json.loads(json.dumps(answer)) == answer
True
"""

from __future__ import annotations

from typing import TypeAlias

JsonValue: TypeAlias = "bool | int | float | str | list[JsonValue] | dict[str, JsonValue] | None"
"""A JSON value, whichever: null, true/false, a number, a string, an array or an object."""

JsonObject: TypeAlias = "dict[str, JsonValue]"
"""A JSON object: names to values."""


def object_at(obj: JsonObject, key: str) -> JsonObject:
    """The object ``obj[key]``; raises ``ValueError`` naming ``key`` if it is missing or not an object."""
    value = obj.get(key)
    if not isinstance(value, dict):
        raise ValueError(f"{key} must be an object, not {value!r}")
    return value


def int_at(obj: JsonObject, key: str, default: int | None = None) -> int:
    """The integer ``obj[key]`` (``default`` if missing and given); raises ``ValueError`` naming ``key``.

    >>> int_at({"decks": 6}, "decks"), int_at({}, "spi", 0)
    (6, 0)
    >>> int_at({"decks": True}, "decks")
    Traceback (most recent call last):
    ...
    ValueError: decks must be an integer, not True
    """
    value = obj.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{key} must be an integer, not {value!r}")
    return value


def ints_at(obj: JsonObject, key: str) -> list[int]:
    """The list of integers ``obj[key]``; raises ``ValueError`` naming ``key``."""
    value = obj.get(key)
    if not isinstance(value, list):
        raise ValueError(f"{key} must be a list of integers, not {value!r}")
    return [int_at({key: item}, key) for item in value]
