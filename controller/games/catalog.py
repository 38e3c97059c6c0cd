"""The games this controller can run, by the name used in the configuration's ``[table] game``.

Each entry declares a game as data: its rules type (the ``[game]`` options),
its spots and dealer buttons, how to bind it to the table limits, and what
``table-controller math`` reports for it. The table itself names no game.

>>> sorted(GAMES)
['buster-blackjack-x', 'easy-jack']
>>> GAMES["easy-jack"].spots
('main', 'side')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.math import house_edges as buster_math
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.math import house_edge
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Game, Limits, Rules

MathReport = Mapping[str, Mapping[str, Any]]
"""What ``table-controller math`` prints: wager (or figure) name -> its figures, among them
``house_edge`` (a fraction) or ``value``, and ``method`` (how it was found)."""


@dataclass(frozen=True)
class GameSpec:
    """One game: its rules type, its bet spots, the dealer buttons it needs, how to make it.

    ``game_type`` is the game's class (its phases, actions and spots as data);
    ``make(rules, limits)`` returns the game bound to its rules and the table
    limits; ``math(rules)`` the figures ``table-controller math`` prints.
    """

    name: str
    game_type: type[Game[Any]]
    rules_type: type[Rules]
    spots: tuple[str, ...]
    buttons_required: tuple[str, ...]
    buttons_optional: tuple[str, ...]
    make: Callable[[Any, Limits], Game[Any]]
    math: Callable[[Any], MathReport]


GAMES: dict[str, GameSpec] = {
    "easy-jack": GameSpec(
        "easy-jack", EasyJack, EasyJackRules, EasyJack.spots, ("deal", "stand", "next"), ("void",),
        EasyJack, house_edge,
    ),
    "buster-blackjack-x": GameSpec(
        "buster-blackjack-x", BusterBlackjackX, BusterRules, BusterBlackjackX.spots,
        ("deal", "stand", "next"), ("hit", "double", "split", "surrender", "insurance", "void"),
        BusterBlackjackX, buster_math,
    ),
}
"""Every implemented game by name."""
