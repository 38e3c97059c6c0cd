"""What the dealer screen names for people: the supervisor's commands it offers (each with its label
and the fields the page asks for) and every action's label.

Read from the command registry (:mod:`controller.commands`) and the game's
declared actions, so the page names each command and action as the game labels
it, and asks only for the fields a command takes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

from controller.commands.registry import by_name, field_names
from controller.commands.table import TABLE_ACTIONS, Recall, ShoeResync
from controller.games.catalog import find_game
from controller.plugins import PluginError

VOID = "void"
"""The table's action a supervisor may take from the screen's panel (sent as ``act``)."""

SUPERVISOR_EXTRA = (Recall.name, ShoeResync.name, VOID)
"""Supervisor commands offered beside the game's own."""


def offered(state: Mapping[str, object] | None) -> dict[str, dict[str, object]]:
    """The supervisor's commands offered now (the picture's ``commands``, then
    :data:`SUPERVISOR_EXTRA`), each ``{"label", "fields", "books"}`` (``books``: it changes the
    table, so it carries a ``request_id``).

    >>> import controller.games.parts.stacks   # registers the seat stacks' commands
    >>> offered({"commands": ["buy_in"]})["buy_in"]
    {'label': 'Buy in', 'fields': ['seat', 'amount'], 'books': True}
    >>> list(offered(None))
    ['recall', 'shoe_resync', 'void']
    """
    listed = (state or {}).get("commands")
    names = [*(listed if isinstance(listed, list) else []), *SUPERVISOR_EXTRA]
    forms: dict[str, dict[str, object]] = {}
    for name in names:
        if name == VOID:
            forms[name] = {"label": "Void the hand", "fields": [], "books": True}
            continue
        cls = by_name(name) if isinstance(name, str) else None
        if cls is not None:
            forms[name] = {"label": cls.label, "fields": list(field_names(cls)), "books": cls.books}
    return forms


TABLE_DANGEROUS = (VOID,)
"""The table's own actions a screen confirms by a second touch."""


def _game_type(state: Mapping[str, object] | None) -> type | None:
    name = (state or {}).get("game")
    if isinstance(name, str):
        with contextlib.suppress(PluginError):      # a game not installed here: nothing declared
            return find_game(name).game_type
    return None


def dangerous(state: Mapping[str, object] | None) -> list[str]:
    """The actions and commands offered now that a screen confirms by a second touch: the table's
    ``void``, the game's declared dangerous (a dealer leaving), the commands marked so (a cash-out).

    >>> import controller.games.parts.stacks   # registers the seat stacks' commands
    >>> dangerous({"game": "blackjack-extreme", "commands": ["buy_in", "cash_out"]})
    ['void', 'leave', 'cash_out']
    """
    game = _game_type(state)
    found = [*TABLE_DANGEROUS, *(getattr(game, "dangerous_actions", ()) if game is not None else ())]
    listed = (state or {}).get("commands")
    for name in listed if isinstance(listed, list) else []:
        cls = by_name(name) if isinstance(name, str) else None
        if cls is not None and cls.danger:
            found.append(name)
    return found


def action_answers(state: Mapping[str, object] | None) -> dict[str, str]:
    """The words of each action of the picture's game whose amount answers a question.

    >>> action_answers({"game": "blackjack-extreme"})
    {'count': 'the dealer has {amount}'}
    """
    game = _game_type(state)
    return dict(getattr(game, "action_answers", ())) if game is not None else {}


def action_labels(state: Mapping[str, object] | None) -> dict[str, str]:
    """Each action's label by name: the game's (the picture's ``game``, as its actions declare
    them), then the table's own; none for a game this screen has not installed.

    >>> action_labels({"game": "blackjack-extreme"})["turn_up"]
    'Turn up card 1 or 2'
    >>> action_labels({"game": "no-such-game"}) == TABLE_ACTIONS
    True
    """
    name = (state or {}).get("game")
    labels: dict[str, str] = {}
    if isinstance(name, str):
        with contextlib.suppress(PluginError):      # a game not installed here: actions go by name
            labels.update(find_game(name).game_type.action_labels)
    return {**labels, **TABLE_ACTIONS}
