"""What a game package declares to the table controller: its :class:`GameSpec`.

A game is a plug-in: its package holds one ``GameSpec`` and its distribution names
it in the entry-point group ``table_controller.games`` (the config's
``[table] game``), as the four games of this package do in ``pyproject.toml``;
:mod:`controller.games.catalog` finds it by that name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.interface import Game, Hand, Limits, Rules

MathReport = Mapping[str, Mapping[str, Any]]
"""What ``table-controller math`` prints: wager (or figure) name -> its figures, among them
``house_edge`` (a fraction) or ``value``, and ``method`` (how it was found)."""


@dataclass(frozen=True)
class GameSpec:
    """One game: its class, its rules type, the dealer buttons it needs, how to make it.

    ``game_type`` is the game's class, which declares as data its spots, actions,
    phases and commands; ``rules_type`` is its ``[game]`` options (a frozen
    dataclass with ``problems()``). ``make`` and ``math`` take that rules type,
    which only the game knows: that is the one place typed ``Any``.
    ``make(rules, limits)`` returns the game bound to its rules and the table
    limits; ``math(rules)`` the figures ``table-controller math`` prints.
    """

    game_type: type[Game[Hand]]
    rules_type: type[Rules]
    buttons_required: tuple[str, ...]
    buttons_optional: tuple[str, ...]
    make: Callable[[Any, Limits], Game[Hand]]
    math: Callable[[Any], MathReport]
