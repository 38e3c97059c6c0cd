"""docs/pit-events.md and the event registry agree: every registered pit type is in the doc's table of
events with its data fields, in published order, and every type the table lists is registered.

The table is section 3's ``| type | when | data | published |``. In a data cell, each backticked name is
a field (words in parentheses describe it and are not read); a backticked ``{a, b}`` after a field names
the fields of each item of that list.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import controller.events.books
import controller.events.floor
import controller.events.table
import controller.events.tray  # noqa: F401  (registers the chip tray's events)
from controller.events.registry import Event, registered, wire_fields
from controller.games.catalog import find_game, game_names

DOC = Path(__file__).parents[2] / "docs" / "pit-events.md"

for _name in game_names():
    find_game(_name)            # each installed game registers its own events and session parts


def documented() -> dict[str, tuple[list[str], dict[str, list[str]]]]:
    """Each documented type: its fields in order, and the item fields of its list fields."""
    text = DOC.read_text()
    start = text.index("| type | when | data | published |")
    rows = text[start:].split("\n\n", 1)[0].splitlines()[2:]
    found: dict[str, tuple[list[str], dict[str, list[str]]]] = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        kind = cells[0].strip("`")
        data = cells[2]
        while re.search(r"\([^()]*\)", data):
            data = re.sub(r"\([^()]*\)", "", data)
        fields: list[str] = []
        items: dict[str, list[str]] = {}
        for token in re.findall(r"`([^`]+)`", data):
            if token.startswith("{"):
                items[fields[-1]] = [name.strip() for name in token.strip("{}").split(",")]
            else:
                fields.append(token)
        assert kind not in found, f"{kind} is in the table twice"
        found[kind] = (fields, items)
    return found


def item_fields(cls: type[Event], name: str) -> list[str]:
    """The fields of each item of ``cls``'s list field ``name`` (a tuple of records)."""
    item = typing.get_args(typing.get_type_hints(cls)[name])[0]
    return [field.name for field in dataclasses.fields(item)]


def test_the_registry_and_the_doc_name_the_same_event_types() -> None:
    doc = documented()
    assert sorted(set(registered()) - set(doc)) == [], "registered but not in docs/pit-events.md"
    assert sorted(set(doc) - set(registered())) == [], "in docs/pit-events.md but registered by nobody"


def test_every_event_is_documented_with_its_fields_in_order() -> None:
    doc = documented()
    for kind, cls in sorted(registered().items()):
        fields, items = doc[kind]
        assert fields == list(wire_fields(cls)), f"{kind}: the doc says {fields}"
        for name, listed in items.items():
            assert listed == item_fields(cls, name), f"{kind}.{name}: the doc says {listed}"


def test_the_reading_of_the_doc_finds_what_it_should() -> None:
    """The parse itself: a field's values in parentheses are not fields; item fields are read."""
    doc = documented()
    assert doc["device.online"] == (["device", "firmware", "serial"], {})
    assert doc["bets.closed"] == (["bets"], {"bets": ["seat", "spot", "amount"]})
    assert len(doc) >= 25
