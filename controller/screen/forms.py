"""The supervisor's commands the dealer screen offers, each with its label and the fields the page asks for.

Read from the command registry (:mod:`controller.commands`), so the page's panel
names each command as the game labels it and asks only for the fields it takes.
"""

from __future__ import annotations

from typing import Any

from controller.commands.registry import by_name, field_names
from controller.commands.table import ShoeResync

VOID = "void"
"""The table's action a supervisor may take from the screen's panel (sent as ``act``)."""

SUPERVISOR_EXTRA = (ShoeResync.name, VOID)
"""Supervisor commands offered beside the game's own."""


def offered(state: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The supervisor's commands offered now (the picture's ``commands``, then
    :data:`SUPERVISOR_EXTRA`), each ``{"label", "fields"}``.

    >>> import controller.games.parts.stacks   # registers the seat stacks' commands
    >>> offered({"commands": ["buy_in"]})["buy_in"]
    {'label': 'Buy in', 'fields': ['seat', 'amount']}
    >>> list(offered(None))
    ['shoe_resync', 'void']
    """
    names = [*((state or {}).get("commands") or []), *SUPERVISOR_EXTRA]
    forms: dict[str, dict[str, Any]] = {}
    for name in names:
        if name == VOID:
            forms[name] = {"label": "Void the hand", "fields": []}
            continue
        cls = by_name(name) if isinstance(name, str) else None
        if cls is not None:
            forms[name] = {"label": cls.label, "fields": list(field_names(cls))}
    return forms
