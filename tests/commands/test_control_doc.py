"""docs/control.md and the command registry agree: every registered command is in the doc's registry
table with its fields in order (which may be left out), who may send it and its label, and every
command the table lists is registered; "Replies" gives the wait of every command that declares a
longer one than the rest.

The table is ``| command | who | fields | label |`` under "The registry". In a fields cell each
backticked name is a field, followed by ``(optional)`` when it may be left out.
"""

from __future__ import annotations

import re
from pathlib import Path

from controller.commands.registry import REPLY_WITHIN, Command, field_names, registered, required
from controller.games.catalog import load_games

DOC = Path(__file__).parents[2] / "docs" / "control.md"

load_games()                    # each installed game registers its own commands

Row = tuple[str, list[tuple[str, bool]], str]
"""Who may send it, its fields (each with whether it is optional), its label."""


def documented() -> dict[str, Row]:
    """Each command of the doc's registry table."""
    text = DOC.read_text()
    start = text.index("| command | who | fields | label |")
    rows = text[start:].split("\n\n", 1)[0].splitlines()[2:]
    found: dict[str, Row] = {}
    for row in rows:
        name, who, fields, label = (cell.strip() for cell in row.strip("|").split("|"))
        listed = [(field, optional == "(optional)")
                  for field, optional in re.findall(r"`([^`]+)`\s*(\(optional\))?", fields)]
        assert name.strip("`") not in found, f"{name} is in the table twice"
        found[name.strip("`")] = (who, listed, label)
    return found


def row_of(cls: type[Command]) -> Row:
    """What the doc should say of ``cls``."""
    needed = required(cls)
    return cls.who, [(name, name not in needed) for name in field_names(cls)], cls.label


def test_the_registry_and_the_doc_name_the_same_commands() -> None:
    doc = documented()
    assert sorted(set(registered()) - set(doc)) == [], "registered but not in docs/control.md"
    assert sorted(set(doc) - set(registered())) == [], "in docs/control.md but registered by nobody"


def test_every_command_is_documented_with_its_fields_who_sends_it_and_its_label() -> None:
    doc = documented()
    for name, cls in sorted(registered().items()):
        assert doc[name] == row_of(cls), f"{name}: the doc says {doc[name]}"


def test_the_reading_of_the_doc_finds_what_it_should() -> None:
    """The parse itself: optional fields, supervisors' commands and labels are read."""
    doc = documented()
    assert doc["press"] == ("anyone", [("button", False), ("amount", True)], "Press a button")
    assert doc["set_limits"] == ("supervisor", [("min_bet", False), ("max_bet", False)], "Set the limits")
    assert doc["close_table"] == ("supervisor", [], "Close the table")
    assert len(doc) >= 17


def test_every_longer_wait_for_a_reply_is_in_replies() -> None:
    text = DOC.read_text()
    replies = text[text.index("\n## Replies\n"):].split("\n## ", 2)[1]
    assert f"{REPLY_WITHIN:g} seconds" in replies
    longer = {name: cls.reply_within for name, cls in registered().items()
              if cls.reply_within != REPLY_WITHIN}
    assert longer, "no command declares a longer wait: the doc would say so"
    for name, seconds in longer.items():
        assert f"`{name}`" in replies and f"{seconds:g} seconds" in replies, name
