"""The games this controller can run, by the name used in the configuration's ``[table] game``.

>>> sorted(GAMES)
['easy-jack']
>>> GAMES["easy-jack"].spots
('main', 'side')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.games.easy_jack.rules import EasyJack, EasyJackRules
from controller.games.interface import Limits


@dataclass(frozen=True)
class GameSpec:
    """One game: its rules type, its bet spots, the dealer buttons it needs, how to make it.

    ``make(rules, limits)`` returns the game object bound to its rules and the
    table limits.
    """

    name: str
    rules_type: type
    spots: tuple[str, ...]
    buttons_required: tuple[str, ...]
    buttons_optional: tuple[str, ...]
    make: Callable[[Any, Limits], Any]


GAMES: dict[str, GameSpec] = {
    "easy-jack": GameSpec(
        "easy-jack", EasyJackRules, ("main", "side"), ("deal", "stand", "next"), ("void",), EasyJack
    ),
}
"""Every implemented game by name."""
