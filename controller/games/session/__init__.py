"""The session: what outlives a hand, composed of parts that each own their events and their state.

A part is a frozen dataclass deriving from
:class:`~controller.games.session.part.SessionPart`, every field with a default,
registered with :func:`~controller.games.session.part.session_part` under a name
(its key in a checkpoint). It names the events it takes (``events``) and answers
``apply`` with its next state. :class:`Session` holds the parts a game uses and hands
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

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from controller.events.codec import from_json, to_json
from controller.events.registry import Event
from controller.games.session.legacy import from_flat
from controller.games.session.part import SessionPart, part_named, takers

P = TypeVar("P", bound=SessionPart)


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
        taking = takers(event)
        if not taking:
            return self
        parts = dict(self.parts)
        for kind in taking:
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
            return cls.of(*from_flat(data))
        parts: dict[type[SessionPart], SessionPart] = {}
        for name, saved in data.items():
            kind = part_named(name)
            if kind is None:
                raise ValueError(f"the checkpoint's session has a part {name!r} that no game registers")
            parts[kind] = from_json(kind, saved)
        return cls(parts)
