"""The session: what outlives a hand, composed of parts that each own their events and their state.

A part is a frozen dataclass deriving from :class:`SessionPart`, every field
with a default, registered with :func:`session_part` under a name (its key in a
checkpoint). It names the events it takes (``events``) and answers ``apply``
with its next state. :class:`Session` holds the parts a game uses and hands
each event to every part that takes it, so the journal alone rebuilds the
session. The shared parts live beside this module: seat stacks
(:mod:`.stacks`), the button or player-dealer seat (:mod:`.button`), a
tournament's clock and standings (:mod:`.tournament`), progressive meters and
jackpots (:mod:`.progressive`). A game with a fact of its own declares a part
and its events the same way, in its own package, and lists the part in
``Game.session_parts``; the table, the interface and the consumers stay as they are.

>>> from controller.games.session.stacks import StackChanged, Stacks
>>> session = Session().apply(StackChanged(seat=2, amount=10_000, reason="buy_in"))
>>> session[Stacks].stack(2), session[Stacks].stack(3)
(10000, 0)
>>> Session.from_json(session.to_json()) == session
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Self, TypeVar

from controller.events.codec import from_json, to_json
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


P = TypeVar("P", bound=SessionPart)
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


@dataclass(frozen=True)
class Session:
    """What outlives a hand: its parts by class, changed only by :meth:`apply`, part of every
    checkpoint. A part the session does not hold reads as its default (``session[Stacks]`` of an
    empty session has no stacks)."""

    parts: Mapping[type[SessionPart], SessionPart] = field(default_factory=dict)

    @classmethod
    def of(cls, *parts: SessionPart) -> Session:
        """A session holding ``parts``."""
        return cls({type(part): part for part in parts})

    def __getitem__(self, kind: type[P]) -> P:
        part = self.parts.get(kind)
        return part if isinstance(part, kind) else kind()

    def apply(self, event: Event) -> Session:
        """The session after ``event``: each part that takes it applies it; other events leave it
        as it is."""
        takers = _BY_EVENT.get(type(event))
        if not takers:
            return self
        parts = dict(self.parts)
        for kind in takers:
            parts[kind] = self[kind].apply(event)
        return Session(parts)

    def to_json(self) -> dict[str, object]:
        """The session as JSON-able data: each part under its name (for checkpoints)."""
        return {kind.name: to_json(part) for kind, part in sorted(self.parts.items(),
                                                                  key=lambda item: item[0].name)}

    @classmethod
    def from_json(cls, data: object) -> Session:
        """The session :meth:`to_json` wrote (or a checkpoint's session from before parts, read by
        :func:`controller.games.session.legacy.from_flat`); ValueError for a part nobody registered,
        or for data that is not an object of parts."""
        if not isinstance(data, Mapping):
            raise ValueError(f"the checkpoint's session must be an object of parts, "
                             f"not {type(data).__name__}")
        if isinstance(data.get("stacks"), list):
            from controller.games.session.legacy import from_flat
            return from_flat(data)
        parts: dict[type[SessionPart], SessionPart] = {}
        for name, saved in data.items():
            kind = _BY_NAME.get(name)
            if kind is None:
                raise ValueError(f"the checkpoint's session has a part {name!r} that no game registers")
            parts[kind] = from_json(kind, saved)
        return cls(parts)
