"""What a session part is, and the registry of parts: :class:`SessionPart`, :func:`session_part`.

A part is a frozen dataclass deriving from :class:`SessionPart`, every field
with a default, registered with :func:`session_part` under a name (its key in a
checkpoint). It names the events it takes (``events``) and answers ``apply``
with its next state. The session (:class:`controller.games.session.Session`)
finds a part by its name (:func:`part_named`) and hands each event to the parts
that take it (:func:`takers`). Every part, shared or a game's own, imports this
module, not the session it is part of.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Self, TypeVar

from controller.events.registry import Event


class SessionPart:
    """One piece of the session: a frozen dataclass whose fields all have defaults.

    ``name`` is set by :func:`session_part`; ``events`` are the event classes it
    takes; :meth:`apply` returns the part after one of them.
    """

    name: ClassVar[str]
    events: ClassVar[tuple[type[Event], ...]] = ()

    def apply(self, event: Event) -> Self:
        """The part after ``event`` (one of :attr:`events`)."""
        raise NotImplementedError


T = TypeVar("T", bound=type[SessionPart])

_BY_NAME: dict[str, type[SessionPart]] = {}
_BY_EVENT: dict[type[Event], list[type[SessionPart]]] = {}


def session_part(name: str) -> Callable[[T], T]:
    """Register the decorated part class under ``name``, as the taker of its ``events``."""

    def register(cls: T) -> T:
        held = _BY_NAME.get(name)
        if held is not None and held is not cls:
            raise ValueError(f"session part {name!r} is already {held.__module__}.{held.__name__}")
        cls.name = name
        _BY_NAME[name] = cls
        for kind in cls.events:
            takers = _BY_EVENT.setdefault(kind, [])
            if cls not in takers:
                takers.append(cls)
        return cls

    return register


def takes(event: Event) -> bool:
    """Whether some session part takes ``event`` (a session event)."""
    return type(event) in _BY_EVENT


def takers(event: Event) -> Sequence[type[SessionPart]]:
    """The parts that take ``event``, in the order they were registered (none for another event)."""
    return _BY_EVENT.get(type(event), ())


def part_named(name: str) -> type[SessionPart] | None:
    """The part registered under ``name`` (its key in a checkpoint), or None."""
    return _BY_NAME.get(name)
