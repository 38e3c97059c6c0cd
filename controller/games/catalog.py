"""The games this controller can run, found by the name used in the configuration's ``[table] game``.

Every game is a plug-in (:mod:`controller.plugins`): an installed distribution
names its :class:`~controller.games.spec.GameSpec` in the entry-point group
:data:`GROUP`. This package's four games are declared so in ``pyproject.toml``,
like any other; a fifth is one package and a line there (docs/architecture.md).
The table itself names no game.

A table publishes its game's rules in ``table.opened`` as plain JSON
(:func:`rules_json`, every option in force); :func:`rules_from_json` rebuilds the
game's rules object from it, checked as the configuration file's ``[game]`` is.

>>> game_names()
('blackjack-extreme', 'buster-blackjack-x', 'easy-jack', 'holdem-blackjack')
>>> find_game("easy-jack").game_type.spots
('main', 'side')
>>> rules = rules_from_json("easy-jack", {"decks": 8})
>>> rules_json(rules)["decks"], rules_from_json("easy-jack", rules_json(rules)) == rules
(8, True)
>>> rules_from_json("easy-jack", {"decks": "8"})
Traceback (most recent call last):
ValueError: easy-jack rules: game.decks: must be an integer, not a string
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.interface import Rules
from controller.games.options import OptionJson, describe, options_json, parse_options
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


def load_games() -> None:
    """Import every installed game, so that each registers its own commands (a process that runs no
    table, such as the dealer screen, calls this before it reads the command registry)."""
    for name in game_names():
        find_game(name)


def rules_json(rules: Rules) -> dict[str, OptionJson]:
    """A game's rules object as plain JSON, as a configuration file's ``[game]`` gives it, with
    every option and its value in force, defaults included (an option set to none left out)."""
    return options_json(rules)


def rules_from_json(game: str, data: object) -> Rules:
    """The rules object of the installed game ``game`` from its ``[game]`` options as JSON (what
    :func:`rules_json` wrote), through the configuration file's checks: keys left out take their
    defaults. Raises ValueError naming every wrong key (``game.<key>: ...``), or
    :class:`~controller.plugins.PluginError` if no such game is installed."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{game} rules: must be an object of options, not {describe(data)}")
    rules, problems = parse_options(find_game(game).rules_type, data, "game")
    if rules is None:
        raise ValueError(f"{game} rules: " + "; ".join(problems))
    return rules
