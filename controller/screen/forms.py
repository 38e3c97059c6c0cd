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
