"""Checkpoints written before the session was made of parts: their flat session, read into parts.

Such a checkpoint holds ``stacks`` and ``places`` as lists of pairs, ``button``,
``level``, ``blinds``, ``level_ends_at``, ``winner``, ``meters``, ``unpaid``,
``hits`` and (later) ``waiting`` side by side.

>>> from_flat({"stacks": [[2, 500]], "button": 2, "level": 0, "blinds": [], "level_ends_at": None,
...            "places": [], "winner": None, "meters": {}, "unpaid": [], "hits": []})[1]
Button(seat=2, waiting=())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.events.codec import from_json
from controller.games.session.button import Button
from controller.games.session.part import SessionPart
from controller.games.session.progressive import Progressive, ProgressiveHit, ProgressivePaid
from controller.games.session.stacks import Stacks
from controller.games.session.tournament import Tournament


@dataclass(frozen=True)
class _Flat:
    """A flat checkpoint session as it was written: each hit and payment a list of its fields."""

    stacks: tuple[tuple[int, int], ...]
    button: int | None
    level: int
    blinds: tuple[int, ...]
    level_ends_at: str | None
    places: tuple[tuple[int, int], ...]
    winner: int | None
    meters: Mapping[str, int]
    unpaid: tuple[tuple[int, int, str, int], ...]
    hits: tuple[tuple[int, int, str], ...]
    waiting: tuple[int, ...] = ()


def from_flat(data: Mapping[str, object]) -> tuple[SessionPart, ...]:
    """The parts a flat checkpoint session holds (the session of them:
    :meth:`controller.games.session.Session.from_json`)."""
    flat: _Flat = from_json(_Flat, data)
    return (
        Stacks(dict(flat.stacks)),
        Button(flat.button, flat.waiting),
        Tournament(flat.level, flat.blinds, flat.level_ends_at, dict(flat.places), flat.winner),
        Progressive(dict(flat.meters), tuple(ProgressiveHit(*hit) for hit in flat.unpaid),
                    tuple(ProgressivePaid(*hit) for hit in flat.hits)),
    )
