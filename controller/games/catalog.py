"""The games this controller can run, found by the name used in the configuration's ``[table] game``.

Every game is a plug-in (:mod:`controller.plugins`): an installed distribution
names its :class:`~controller.games.spec.GameSpec` in the entry-point group
:data:`GROUP`. This package's four games are declared so in ``pyproject.toml``,
like any other; a fifth is one package and a line there (docs/architecture.md).
The table itself names no game.

>>> game_names()
('blackjack-extreme', 'buster-blackjack-x', 'easy-jack', 'holdem-blackjack')
>>> find_game("easy-jack").game_type.spots
('main', 'side')
"""

from __future__ import annotations

from controller.games.spec import GameSpec
from controller.plugins import installed, load

GROUP = "table_controller.games"
"""The entry-point group games are installed in."""


def game_names() -> tuple[str, ...]:
    """The names of the installed games, sorted."""
    return installed(GROUP)


def find_game(name: str) -> GameSpec:
    """The installed game ``name``; raises :class:`~controller.plugins.PluginError` (its message
    names the installed games, or says why the plug-in cannot be loaded)."""
    return load(GROUP, name, GameSpec, "game")
