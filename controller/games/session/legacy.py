"""Checkpoints written before the session was made of parts: their flat session, read into parts.

Such a checkpoint holds ``stacks`` and ``places`` as lists of pairs, ``button``,
``level``, ``blinds``, ``level_ends_at``, ``winner``, ``meters``, ``unpaid``,
``hits`` and (later) ``waiting`` side by side.

>>> from_flat({"stacks": [[2, 500]], "button": 2, "level": 0, "blinds": [], "level_ends_at": None,
...            "places": [], "winner": None, "meters": {}, "unpaid": [], "hits": []})[Button]
Button(seat=2, waiting=())
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.games.session import Session
from controller.games.session.button import Button
from controller.games.session.progressive import Progressive, ProgressiveHit, ProgressivePaid
from controller.games.session.stacks import Stacks
from controller.games.session.tournament import Tournament


def from_flat(data: Mapping[str, Any]) -> Session:
    """The session a flat checkpoint session holds."""
    return Session.of(
        Stacks({seat: amount for seat, amount in data["stacks"]}),
        Button(data["button"], tuple(data.get("waiting", ()))),
        Tournament(data["level"], tuple(data["blinds"]), data["level_ends_at"],
                   {seat: place for seat, place in data["places"]}, data["winner"]),
        Progressive(dict(data["meters"]), tuple(ProgressiveHit(*hit) for hit in data["unpaid"]),
                    tuple(ProgressivePaid(*hit) for hit in data["hits"])),
    )
