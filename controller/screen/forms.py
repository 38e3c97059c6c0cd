"""What the dealer screen names for people: the supervisor's commands it offers (each with its label
and the fields the page asks for) and every action's label.

Read from the command registry (:mod:`controller.commands`) and the game's
declared actions, so the page names each command and action as the game labels
it, and asks only for the fields a command takes.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from typing import TypedDict

from controller.commands.registry import by_name, field_names
from controller.commands.table import TABLE_ACTIONS, Recall, ShoeResync
from controller.games.catalog import find_game
from controller.games.interface import Game, Hand
from controller.plugins import PluginError

VOID = "void"
"""The table's action a supervisor may take from the screen's panel (sent as ``act``)."""

SUPERVISOR_EXTRA = (Recall.name, ShoeResync.name, VOID)
"""Supervisor commands offered beside the game's own."""


class Form(TypedDict):
    """A supervisor's command as the page offers it: its ``label``, the ``fields`` it asks for,
    and whether it changes the table's ``books`` (so it carries a ``request_id``)."""

    label: str
    fields: list[str]
    books: bool


def offered(commands: Sequence[str]) -> dict[str, Form]:
    """The supervisor's commands offered now (``commands``: the picture's, then
    :data:`SUPERVISOR_EXTRA`), each ``{"label", "fields", "books"}`` (``books``: it changes the
    table, so it carries a ``request_id``).

    >>> import controller.games.parts.stacks   # registers the seat stacks' commands
    >>> offered(["buy_in"])["buy_in"]
    {'label': 'Buy in', 'fields': ['seat', 'amount'], 'books': True}
    >>> list(offered(()))
    ['recall', 'shoe_resync', 'void']
    """
    forms: dict[str, Form] = {}
    for name in (*commands, *SUPERVISOR_EXTRA):
        if name == VOID:
            forms[name] = {"label": "Void the hand", "fields": [], "books": True}
            continue
        cls = by_name(name)
        if cls is not None:
            forms[name] = {"label": cls.label, "fields": list(field_names(cls)), "books": cls.books}
    return forms


TABLE_DANGEROUS = (VOID,)
"""The table's own actions a screen confirms by a second touch."""


@functools.cache
def _game_type(name: str | None) -> type[Game[Hand]] | None:
    """The game installed here as ``name`` (None: none such), found once per name: finding a
    plug-in reads every installed package's entry points, and the model is drawn at every change."""
    if name is not None:
        with contextlib.suppress(PluginError):      # a game not installed here: nothing declared
            return find_game(name).game_type
    return None


def dangerous(game_name: str | None, commands: Sequence[str]) -> list[str]:
    """The actions and commands offered now (at a table of ``game_name``, offering ``commands``)
    that a screen confirms by a second touch: the table's ``void``, the game's declared dangerous
    (a dealer leaving), the commands marked so (a cash-out).

    >>> import controller.games.parts.stacks   # registers the seat stacks' commands
    >>> dangerous("blackjack-extreme", ["buy_in", "cash_out"])
    ['void', 'leave', 'cash_out']
    """
    game = _game_type(game_name)
    found = [*TABLE_DANGEROUS, *(game.dangerous_actions if game is not None else ())]
    for name in commands:
        cls = by_name(name)
        if cls is not None and cls.danger:
            found.append(name)
    return found


def action_answers(game_name: str | None) -> dict[str, str]:
    """The words of each action of the game ``game_name`` whose amount answers a question.

    >>> action_answers("blackjack-extreme")
    {'count': 'the dealer has {amount}'}
    """
    game = _game_type(game_name)
    return dict(game.action_answers) if game is not None else {}


def action_labels(name: str | None) -> dict[str, str]:
    """Each action's label by name: the game's (``name``: the picture's ``game``, as its actions
    declare them), then the table's own; none for a game this screen has not installed.

    >>> action_labels("blackjack-extreme")["turn_up"]
    'Turn up card 1 or 2'
    >>> action_labels("no-such-game") == TABLE_ACTIONS
    True
    """
    game = _game_type(name)                      # a game not installed here: actions go by name
    return {**dict(game.action_labels if game is not None else ()), **TABLE_ACTIONS}
