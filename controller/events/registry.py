"""The event registry: every pit event type and the frozen record class that it is.

A record class is a frozen dataclass deriving from :class:`Event`, registered
with :func:`event` under its pit type. The codec (:mod:`controller.events.codec`)
finds a class by its type when it reads an event back, and the type by its
class when it writes one; ``docs/pit-events.md`` is checked against
:func:`registered` by a test. Registering happens when the module that
declares the class is imported: the table's and hands' events with this
package, a session part's with its module, a game's own with the game.

>>> from dataclasses import dataclass
>>> @event("example.rang")
... @dataclass(frozen=True)
... class Rang(Event):
...     bell: str
>>> by_type("example.rang") is Rang, Rang.pit_type, wire_fields(Rang)
(True, 'example.rang', ('bell',))
>>> unregister("example.rang")
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import ClassVar, TypeVar


class Event:
    """The base of every pit event record: ``pit_type`` is set by :func:`event`.

    ``wire`` names the record's ``data`` keys in their published order when they
    are not simply its fields in order (a record with a codec of its own, or a
    published order that differs from the constructor's).
    """

    pit_type: ClassVar[str]
    wire: ClassVar[tuple[str, ...] | None] = None


E = TypeVar("E", bound=type[Event])

_BY_TYPE: dict[str, type[Event]] = {}


def event(pit_type: str) -> Callable[[E], E]:
    """Register the decorated record class under ``pit_type`` (one class per type)."""

    def register(cls: E) -> E:
        if not dataclasses.is_dataclass(cls) or not cls.__dataclass_params__.frozen:
            raise TypeError(f"{cls.__name__}: an event is a frozen dataclass")
        held = _BY_TYPE.get(pit_type)
        if held is not None and held is not cls:
            raise ValueError(f"pit type {pit_type!r} is already {held.__module__}.{held.__name__}")
        cls.pit_type = pit_type
        _BY_TYPE[pit_type] = cls
        return cls

    return register


def unregister(pit_type: str) -> None:
    """Forget ``pit_type`` (for a test's own example events)."""
    _BY_TYPE.pop(pit_type, None)


def by_type(pit_type: str) -> type[Event] | None:
    """The record class registered under ``pit_type``, or None."""
    return _BY_TYPE.get(pit_type)


def registered() -> Mapping[str, type[Event]]:
    """Every registered pit type and its record class (a read-only view)."""
    return dict(_BY_TYPE)


def wire_fields(cls: type[Event]) -> tuple[str, ...]:
    """The ``data`` keys of ``cls``'s pit event, in published order (a key may be left out when
    it is None: see :data:`controller.events.codec.OMIT_NONE`)."""
    if cls.wire is not None:
        return cls.wire
    return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]
