"""A game's rules as ``table.opened`` publishes them: plain JSON with every option in force, back to the
same rules object through the configuration's checks, for each game; an older ``table.opened`` without
them still reads; bad rules are refused naming the key."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from controller.events.codec import decode, encode
from controller.events.table import TableOpened
from controller.games.catalog import find_game, game_names, rules_from_json, rules_json

SET = {       # some options of each game away from their defaults: tables of whole-number keys, limits set
    "easy-jack": {"decks": 8, "peek_for_ace": True, "side_min_bet": 500,
                  "dealer_bust_pays": {"2": 3, "3": 5, "4": 10, "5": 50, "6": 250}},
    "blackjack-extreme": {"decks": 1, "heads_up_draw": False, "format": "tournament", "max_buy_in": 500000,
                          "levels": {"1": 1000, "2": 2000}, "rebuy_levels": 1},
    "buster-blackjack-x": {"banker": "house", "bonus_pays": {"3": 2, "4": 3, "5": 5}, "bonus_max_bet": 5000,
                           "max_bank": 1000000},
    "holdem-blackjack": {"stakes": "10/20/20-100", "small_blind": 500, "chip_unit": 500, "rake_percent": 5,
                         "rake_cap": 1000},
}


def over_the_wire(rules: dict[str, Any], game: str) -> TableOpened:
    """``table.opened`` with these rules, encoded, sent as JSON, and decoded as a client or a replay does."""
    kind, data, private = encode(TableOpened(game, 6, {"min_bet": 500, "max_bet": 50000}, False, rules))
    decoded = decode(kind, json.loads(json.dumps(data)), private)
    assert isinstance(decoded, TableOpened)
    return decoded


@pytest.mark.parametrize("game", sorted(SET))
def test_the_rules_go_through_table_opened_and_come_back_the_same(game: str) -> None:
    rules = rules_from_json(game, SET[game])
    published = rules_json(rules)
    assert {key: published[key] for key in SET[game]} == SET[game]
    fields = find_game(game).rules_type.__dataclass_fields__          # type: ignore[attr-defined]
    assert set(published) == {name for name in fields if getattr(rules, name) is not None}
    opened = over_the_wire(published, game)
    assert opened.rules == published
    assert rules_from_json(game, opened.rules) == rules
    default = find_game(game).rules_type()
    assert rules_from_json(game, over_the_wire(rules_json(default), game).rules) == default


def test_every_game_is_covered() -> None:
    assert sorted(SET) == sorted(game_names())


def test_a_table_opened_from_before_the_rules_still_reads() -> None:
    old = {"game": "easy-jack", "seats": 6, "limits": {"min_bet": 500, "max_bet": 50000}, "recovered": True}
    assert decode("table.opened", old, {}) == TableOpened("easy-jack", 6, old["limits"], True, None)
    assert encode(TableOpened("easy-jack", 6, old["limits"], True))[1] == old    # none: left out


@pytest.mark.parametrize(("data", "message"), [
    ({"decks": "8"}, "easy-jack rules: game.decks: must be an integer, not a string"),
    ({"decks": None}, "game.decks: must be an integer, not null"),
    ({"colour": "red"}, "game.colour: unknown key"),
    ({"dealer_bust_pays": {"two": 3}}, "game.dealer_bust_pays: key 'two' must be a whole number"),
    ({"dealer_bust_pays": {"2": 2.5}}, "game.dealer_bust_pays.2: must be an integer, not a float"),
    ({"decks": 0}, "game.decks"),
    ([6], "easy-jack rules: must be an object of options, not an array"),
    (None, "must be an object of options, not null"),
])
def test_bad_rules_are_refused_naming_the_key(data: Any, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        rules_from_json("easy-jack", data)
