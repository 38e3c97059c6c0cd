"""The codec reads every field as its declared type, or refuses the data naming the record, the field
and what was found (``ValueError``, the codec's one decode error): a string in an int field, a bool
where an int is declared, a number where a string is, a missing key, an array of the wrong length.
Every record type the codec reads (every registered event, the picture, the floor's tile view, the
checkpoint and the session's parts) has its decoder; every leaf of a real picture given the wrong
type is refused."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

import controller.events.books
import controller.events.floor
import controller.events.table
import controller.events.tray  # noqa: F401 - with the above, registers every event the table publishes
from controller.events import decoders
from controller.events.codec import decode_public, from_json, to_json
from controller.events.hand import Acted, Settled, WagerResult
from controller.events.picture import ALERT_KEYS, Picture, PublicState
from controller.events.registry import registered
from controller.events.table import BetsClosed, HandStarted, TableOpened, Wager
from controller.events.tray import TrayCounted
from controller.games.catalog import load_games
from controller.games.session.legacy import _Flat
from controller.games.session.part import _BY_NAME as SESSION_PARTS
from controller.podium.monitor.models.tile_view import TileView
from controller.table.books import BooksState
from controller.table.saved import Saved
from firmware_bridge.kernel.cards import Card
from tests.table.picture_scenarios import read_golden


@dataclass(frozen=True)
class Inner:
    name: str
    count: int = 0


@dataclass(frozen=True)
class Every:
    """One field of every kind the codec reads (no event declares a float or a fixed tuple of mixed
    types but the checkpoint's, so this record does)."""

    whole: int
    ratio: float
    flag: bool
    side: Literal["seat", "dealer"]
    pair: tuple[int, str | None]
    many: tuple[Inner, ...]
    by_value: Mapping[int, int]
    inner: Inner
    maybe: Inner | None = None
    card: Card | None = None
    loose: object = None
    either: int | str = 0
    tags: tuple[str, ...] = field(default=())


GOOD: dict[str, Any] = {"whole": 3, "ratio": 2, "flag": False, "side": "dealer", "pair": [1, None],
                        "many": [{"name": "a"}, {"name": "b", "count": 2}], "by_value": {"500": 3, "-5": 1},
                        "inner": {"name": "c"}, "card": "Qh", "loose": {"any": ["json"]}, "either": "x",
                        "tags": ["t"]}


def test_a_record_of_every_kind_of_field_reads_back() -> None:
    every = from_json(Every, GOOD)
    assert every == Every(3, 2, False, "dealer", (1, None), (Inner("a"), Inner("b", 2)), {500: 3, -5: 1},
                          Inner("c"), None, Card.parse("Qh"), {"any": ["json"]}, "x", ("t",))
    assert from_json(Every, to_json(every)) == every       # as written: mapping keys still ints
    assert from_json(Every, {**GOOD, "ratio": 0.5}).ratio == 0.5


@pytest.mark.parametrize(("key", "value", "said"), [
    ("whole", "3", "Every.whole must be int, found '3' (str)"),
    ("whole", True, "Every.whole must be int, found True (bool)"),
    ("whole", 3.0, "Every.whole must be int, found 3.0 (float)"),
    ("whole", None, "Every.whole must be int, found None (NoneType)"),
    ("ratio", "2", "Every.ratio must be float, found '2' (str)"),
    ("ratio", False, "Every.ratio must be float, found False (bool)"),
    ("flag", 0, "Every.flag must be bool, found 0 (int)"),
    ("side", "player", "Every.side must be Literal['seat', 'dealer'], found 'player' (str)"),
    ("side", ["seat"], "Every.side must be Literal['seat', 'dealer'], found ['seat'] (list)"),
    ("pair", [1], "Every.pair must be tuple[int, str | None], found [1] (list)"),
    ("pair", [1, 2], "Every.pair must be tuple[int, str | None]: within it, found 2 (int)"),
    ("pair", "1,2", "Every.pair must be tuple[int, str | None], found '1,2' (str)"),
    ("many", [{"name": "a"}, 7], "Every.many must be tuple[Inner, ...]: within it, found 7 (int)"),
    ("many", [{"name": 7}], "Inner.name must be str, found 7 (int)"),
    ("many", {"name": "a"}, "Every.many must be tuple[Inner, ...], found {'name': 'a'} (dict)"),
    ("by_value", {"05": 3}, "Every.by_value must be Mapping[int, int]: within it, found '05' (str)"),
    ("by_value", {"five": 3}, "Every.by_value must be Mapping[int, int]: within it, found 'five' (str)"),
    ("by_value", {"5": "3"}, "Every.by_value must be Mapping[int, int]: within it, found '3' (str)"),
    ("by_value", [[5, 3]], "Every.by_value must be Mapping[int, int], found [[5, 3]] (list)"),
    ("inner", "c", "Every.inner must be Inner, found 'c' (str)"),
    ("inner", None, "Every.inner must be Inner, found None (NoneType)"),
    ("inner", {"name": "c", "count": "1"}, "Inner.count must be int, found '1' (str)"),
    ("maybe", {"count": 1}, "Inner.name is missing"),
    ("card", "Qx", "Every.card must be Card | None, found 'Qx' (str)"),
    ("card", 12, "Every.card must be Card | None, found 12 (int)"),
    ("either", 1.5, "Every.either must be int | str, found 1.5 (float)"),
    ("tags", ["t", None], "Every.tags must be tuple[str, ...]: within it, found None (NoneType)"),
])
def test_a_field_of_the_wrong_type_is_refused_naming_the_record_the_field_and_what_was_found(
        key: str, value: object, said: str) -> None:
    with pytest.raises(ValueError) as refused:
        from_json(Every, {**GOOD, key: value})
    assert str(refused.value) == said


def test_a_missing_key_and_data_that_is_no_object_are_the_same_decode_error() -> None:
    with pytest.raises(ValueError, match=r"^Every\.inner is missing$"):
        from_json(Every, {k: v for k, v in GOOD.items() if k != "inner"})
    with pytest.raises(ValueError, match=r"^Every must be a JSON object, found \[1, 2\] \(list\)$"):
        from_json(Every, [1, 2])
    assert from_json(Every, {k: v for k, v in GOOD.items() if k != "tags"}).tags == ()   # its default


def test_a_long_value_is_shown_cut() -> None:
    with pytest.raises(ValueError) as refused:
        from_json(Every, {**GOOD, "whole": "x" * 500})
    assert str(refused.value) == f"Every.whole must be int, found '{'x' * 56}... (str)"


def test_a_value_of_a_plain_type_is_read_checked_too() -> None:
    assert from_json(tuple[int, ...], [1, 2]) == (1, 2)
    assert from_json(Mapping[int, str], {"7": "x"}) == {7: "x"}
    with pytest.raises(ValueError, match=r"^the value must be tuple\[int, \.\.\.\]: within it, found '2'"):
        from_json(tuple[int, ...], [1, "2"])
    with pytest.raises(ValueError, match=r"^the value must be int, found True \(bool\)$"):
        from_json(int, True)


@pytest.mark.parametrize(("kind", "data", "said"), [
    ("player.action", {"seat": "3", "hand_index": 0, "action": "stand"},
     "Acted.seat must be int, found '3' (str)"),
    ("player.action", {"seat": 3, "hand_index": False, "action": "stand"},
     "Acted.hand_index must be int, found False (bool)"),
    ("player.action", {"seat": 3, "hand_index": 0, "action": "raise", "amount": "800"},
     "Acted.amount must be int | None, found '800' (str)"),
    ("table.opened", {"game": "easy-jack", "seats": 6, "limits": {"min_bet": "500"}, "recovered": False},
     "TableOpened.limits must be Mapping[str, int]: within it, found '500' (str)"),
    ("table.opened", {"game": "easy-jack", "seats": 6, "limits": {}, "recovered": "no"},
     "TableOpened.recovered must be bool, found 'no' (str)"),
    ("hand.started", {"seats": [1, "3"], "dealer_seat": None},
     "HandStarted.seats must be tuple[int, ...]: within it, found '3' (str)"),
    ("bets.closed", {"bets": [{"seat": 1, "spot": "main", "amount": 10.5}]},
     "Wager.amount must be int, found 10.5 (float)"),
    ("hand.settled", {"results": [{"seat": 1, "spot": "main", "hand_index": 0, "outcome": "win",
                                   "wager": 500, "payout": None}]},
     "WagerResult.payout must be int, found None (NoneType)"),
    ("tray.counted", {"amount": 500, "chips": {"500": 1.0}},
     "TrayCounted.chips must be Mapping[int, int] | None: within it, found 1.0 (float)"),
    ("dealer.in", {"dealer": 42}, "DealerIn.dealer must be str, found 42 (int)"),
])
def test_an_event_of_the_wrong_type_is_refused_as_the_public_reads_it(kind: str, data: dict[str, Any],
                                                                       said: str) -> None:
    with pytest.raises(ValueError) as refused:
        decode_public(kind, data)
    assert str(refused.value) == said


def test_events_of_the_right_types_read_as_before() -> None:
    assert decode_public("hand.started", {"seats": [1, 3], "dealer_seat": 2}) == HandStarted((1, 3), 2)
    assert decode_public("bets.closed", {"bets": [{"seat": 1, "spot": "main", "amount": 500}]}) == \
        BetsClosed((Wager(1, "main", 500),))
    assert decode_public("tray.counted", {"amount": 500, "chips": {"500": 1}}) == TrayCounted(500, {500: 1})
    assert decode_public("table.opened", {"game": "g", "seats": 6, "limits": {}, "recovered": True,
                                          "rules": {"decks": 6, "pays": [1.5]}}) == \
        TableOpened("g", 6, {}, True, {"decks": 6, "pays": [1.5]})
    assert decode_public("hand.settled", {"results": [{"seat": 1, "spot": "main", "hand_index": 0,
                                                       "outcome": "win", "wager": 500, "payout": 500}]}) == \
        Settled((WagerResult(1, "main", 0, "win", 500, 500),))
    assert decode_public("player.action", {"seat": 3, "hand_index": 0, "action": "stand", "later": 1}) == \
        Acted(3, 0, "stand")                                  # a key the record does not know: passed by


def _records() -> Iterator[type]:
    load_games()
    yield from registered().values()
    yield from (Picture, PublicState, TileView, Saved, BooksState, _Flat, *SESSION_PARTS.values())


def test_every_record_type_the_codec_reads_has_its_decoder() -> None:
    """A field of a type the codec cannot read fails here, not at a table's first event of that type."""
    made = [decoders.decoder(cls) for cls in _records()]
    assert len(made) > 40 and all(callable(decoder) for decoder in made)


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _leaves(item, (*path, n))
    else:
        yield path, value


def _replaced(value: Any, path: tuple[Any, ...], new: object) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replaced(value[path[0]], path[1:], new)
    return copy


def test_every_leaf_of_a_real_picture_given_the_wrong_type_is_refused() -> None:
    """The richest pictures the golden steps hold (a hand in play at each game, the pit's doings):
    each value (but what an alert is about, which takes any JSON) replaced by one of another JSON
    type is refused, naming its field."""
    wrong: dict[type, tuple[object, ...]] = {int: ("1", True, 1.5), str: (5, False, ["x"]), bool: (1, "true")}
    pictures = sorted((json.loads(body) for _, _, body in read_golden()), key=lambda p: -len(json.dumps(p)))
    tried = 0
    for picture in pictures[:6]:
        from_json(Picture, picture)
        for path, value in _leaves(picture):
            if (path[0] == "alerts" and path[2] not in ALERT_KEYS) or type(value) not in wrong:
                continue
            for new in wrong[type(value)]:
                with pytest.raises(ValueError, match=" must be ") as refused:
                    from_json(Picture, _replaced(picture, path, new))
                assert repr(new) in str(refused.value), (path, new)
                tried += 1
    assert tried > 500


@dataclass(frozen=True)
class Node:
    name: str
    children: tuple[Node, ...] = ()


def test_a_record_that_holds_its_own_kind_reads() -> None:
    tree = {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}
    assert from_json(Node, tree) == Node("a", (Node("b", (Node("c"),)),))
    with pytest.raises(ValueError, match=r"^Node\.name must be str, found 3 \(int\)$"):
        from_json(Node, {"name": "a", "children": [{"name": 3}]})
