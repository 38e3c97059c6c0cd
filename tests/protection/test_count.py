"""The count of a shoe, from its events, against an independent count of the same cards.

The independent count here knows the shoe's cards by their place in it and applies each system's
tags written out again below (from the systems' published tables, not from the module): a card counts
once it is dealt face up or, dealt face down, once revealed; never while hidden."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import controller.events.hand
import controller.events.table  # noqa: F401 - registers shoe.loaded and shoe.cut_card
from controller.events.codec import decode_public
from controller.events.registry import Event
from controller.podium.protection.count import CountError, ShoeCount
from controller.podium.protection.systems import SYSTEMS, system_from

RANKS = "A23456789TJQK"
SUITS = "cdhs"

TAGS = {   # by rank character: the systems' published tag tables
    "hi-lo": {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "T": -1, "J": -1, "Q": -1,
              "K": -1, "A": -1},
    "ko": {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "8": 0, "9": 0, "T": -1, "J": -1, "Q": -1, "K": -1,
           "A": -1},
    "hi-opt-i": {"2": 0, "3": 1, "4": 1, "5": 1, "6": 1, "7": 0, "8": 0, "9": 0, "T": -1, "J": -1, "Q": -1,
                 "K": -1, "A": 0},
    "omega-ii": {"2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 1, "8": 0, "9": -1, "T": -2, "J": -2, "Q": -2,
                 "K": -2, "A": 0},
}


def record(kind: str, data: dict[str, Any] | None) -> Event:
    """The record a published event of ``kind`` is, its ``data`` completed as a table publishes it
    (a card to seat 1's first hand, face up when named)."""
    if data is not None and kind in ("card.dealt", "card.revealed"):
        data = {"to": "seat", "seat": 1, "hand_index": 0, **data}
        if kind == "card.dealt":
            data.setdefault("face_up", data["card"] is not None)
    if data is not None and kind == "shoe.loaded":
        data = {"shoe_id": 1, **data}
    found = decode_public(kind, data)
    assert found is not None
    return found


def shoe_of(decks: int, rng: random.Random) -> list[str]:
    cards = [rank + suit for rank in RANKS for suit in SUITS] * decks
    rng.shuffle(cards)
    return cards


def independent(system: str, shoe: list[str], shown: set[int], decks: int, drawn: int) -> tuple[int, float]:
    """Running and true count of the cards at the places ``shown`` (1-based), ``drawn`` out."""
    running = sum(TAGS[system][shoe[i - 1][0]] for i in shown)
    if system == "ko":
        return running + 4 - 4 * decks, running + 4 - 4 * decks
    left = max(0.25, (decks * 52 - drawn) / 52)
    return running, running / left


@settings(max_examples=60, deadline=None)
@given(system=st.sampled_from(sorted(TAGS)), decks=st.integers(1, 8), seed=st.integers(0, 2**32),
       hidden_share=st.floats(0, 0.5), reveal_share=st.floats(0, 1), drawn=st.integers(0, 200))
def test_the_count_is_an_independent_count_of_the_cards_shown(
        system: str, decks: int, seed: int, hidden_share: float, reveal_share: float, drawn: int) -> None:
    rng = random.Random(seed)
    shoe = shoe_of(decks, rng)
    drawn = min(drawn, len(shoe))
    count = ShoeCount(SYSTEMS[system])
    count.feed(record("shoe.loaded", {"shoe_id": seed, "decks": decks}))
    shown: set[int] = set()
    hidden: list[int] = []
    index = 0
    while index < drawn:
        index += 1 + (rng.random() < 0.05)          # now and then a card drawn unseen (a card_gap)
        index = min(index, drawn)
        if rng.random() < hidden_share:
            count.feed(record("card.dealt", {"index": index, "to": "dealer", "card": None,
                                                       "face_up": False}))
            hidden.append(index)
        else:
            count.feed(record("card.dealt", {"index": index, "to": "seat", "card": shoe[index - 1],
                                                       "face_up": True}))
            shown.add(index)
        if hidden and rng.random() < reveal_share:
            revealed = hidden.pop(rng.randrange(len(hidden)))
            count.feed(record("card.revealed", {"index": revealed, "card": shoe[revealed - 1]}))
            shown.add(revealed)
        now = count.now()
        assert now is not None
        running, true = independent(system, shoe, shown, decks, index)
        assert (now.running, now.drawn, now.counted) == (running, index, len(shown))
        assert now.true == pytest.approx(true)
        assert now.decks_left == pytest.approx((decks * 52 - index) / 52)


def test_a_balanced_count_comes_back_to_zero_over_a_whole_shoe() -> None:
    for name, system in SYSTEMS.items():
        count = ShoeCount(system)
        shoe = shoe_of(2, random.Random(5))
        count.feed(record("shoe.loaded", {"shoe_id": 1, "decks": 2}))
        for index, card in enumerate(shoe, start=1):
            count.feed(record("card.dealt", {"index": index, "card": card}))
        now = count.now()
        assert now is not None and now.counted == 104
        assert now.running == (0 if system.balanced else 4 - 4 * 2 + 8), name


def test_nothing_is_known_before_a_shoe_is_seen_loaded_and_a_new_shoe_starts_afresh() -> None:
    count = ShoeCount(SYSTEMS["hi-lo"])
    count.feed(record("card.dealt", {"index": 40, "card": "5c"}))
    assert count.now() is None
    count.feed(record("shoe.loaded", {"shoe_id": 3, "decks": 6}))
    count.feed(record("card.dealt", {"index": 1, "card": "5c"}))
    count.feed(record("card.dealt", {"index": 2, "card": None}))
    count.feed(record("shoe.cut_card", {"index": 1}))
    now = count.now()
    assert now is not None and (now.running, now.drawn, now.cut_card_out) == (1, 2, True)
    count.feed(record("shoe.loaded", {"shoe_id": 4, "decks": 6}))
    count.feed(record("card.revealed", {"index": 2, "card": "Kd"}))   # of the shoe before
    now = count.now()
    assert now is not None and (now.shoe_id, now.running, now.drawn, now.cut_card_out) == (4, 0, 0, False)


@pytest.mark.parametrize("event", [
    {"type": "card.dealt", "data": {"index": 3, "card": "Xz"}},
    {"type": "card.dealt", "data": {"index": "3", "card": "5c"}},
    {"type": "card.dealt", "data": None},
    {"type": "shoe.loaded", "data": {"shoe_id": 1, "decks": 0}},
])
def test_an_event_that_cannot_be_read_is_refused_and_changes_nothing(event: dict[str, Any]) -> None:
    """Refused as it is read into its record (a card that is none, no data), or by the count."""
    count = ShoeCount(SYSTEMS["hi-lo"])
    count.feed(record("shoe.loaded", {"shoe_id": 1, "decks": 6}))
    count.feed(record("card.dealt", {"index": 1, "card": "2c"}))
    before = count.now()
    with pytest.raises((CountError, ValueError, TypeError)):
        count.feed(record(event["type"], event["data"]))
    assert count.now() == before


def test_a_count_of_ones_own_is_data_and_is_checked() -> None:
    zen = system_from({"tags": {"2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 1, "T": -2, "A": -1}}, "zen")
    assert zen.tag(4) == 2 and zen.tag(12) == -2 and zen.tag(1) == -1 and zen.balanced
    with pytest.raises(ValueError, match="sum to 1"):
        system_from({"tags": {"2": 1}}, "lopsided")
    with pytest.raises(ValueError, match="no such rank"):
        system_from({"tags": {"1": 1}}, "odd")
    assert system_from({"tags": {"2": 1}, "balanced": False}, "plus").initial(6) == 0
