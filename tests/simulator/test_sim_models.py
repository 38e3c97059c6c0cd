"""Tests of the pure shoe and RFID models behind the board simulator."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from firmware_bridge.link.messages import (
    MAX_CHIPS,
    Card,
    CardUnreadable,
    Chip,
    CutCard,
    Inventory,
    ShoeLoaded,
)
from firmware_bridge.simulator.models import (
    ANTENNA_FAULT,
    LID_OPEN,
    SHOE_EMPTY,
    TOO_MANY_CHIPS,
    RfidModel,
    ShoeModel,
    full_deck,
    parse_card,
)


def draw_all(shoe: ShoeModel) -> list[object]:
    out: list[object] = []
    while shoe.remaining:
        out += shoe.draw()
    return out


def test_shuffled_shoe_holds_every_card_decks_times_and_is_seeded() -> None:
    shoe = ShoeModel()
    loaded = shoe.load(6, rng=random.Random(42))
    assert loaded == ShoeLoaded(shoe_id=1, decks=6)
    assert shoe.remaining == 312
    assert shoe.cut_at == 234
    messages = draw_all(shoe)
    cards = [m for m in messages if isinstance(m, Card)]
    assert [c.index for c in cards] == list(range(1, 313))
    assert Counter((c.rank, c.suit) for c in cards) == Counter(full_deck() * 6)
    assert [m for m in messages if isinstance(m, CutCard)] == [CutCard(234)]

    again = ShoeModel()
    again.load(6, rng=random.Random(42))
    assert [m for m in draw_all(again) if isinstance(m, Card)] == cards
    other = ShoeModel()
    other.load(6, rng=random.Random(43))
    assert [m for m in draw_all(other) if isinstance(m, Card)] != cards


def test_shoe_ids_are_new_for_every_load() -> None:
    shoe = ShoeModel(first_shoe_id=1000)
    ids = [shoe.load(1, cards=[(1, 0)]).shoe_id for _ in range(5)]
    assert ids == [1000, 1001, 1002, 1003, 1004]
    assert shoe.shoe_id == 1004


def test_scripted_order_and_cut_card_after_its_card() -> None:
    shoe = ShoeModel()
    shoe.load(1, cards=[parse_card(c) for c in ["As", "Kd", "Qh", "Tc"]], cut_at=3)
    assert shoe.draw() == [Card(1, 1, 3)]
    assert shoe.draw() == [Card(2, 13, 1)]
    assert shoe.draw() == [Card(3, 12, 2), CutCard(3)]
    assert shoe.cut_card_out
    assert shoe.draw() == [Card(4, 10, 0)]
    assert shoe.status_flags == SHOE_EMPTY
    assert shoe.draw() == []
    assert shoe.position == 4


def test_cut_at_zero_means_no_cut_card_and_bounds_are_checked() -> None:
    shoe = ShoeModel()
    shoe.load(1, cards=[(2, 2)] * 3, cut_at=0)
    assert [m for m in draw_all(shoe) if isinstance(m, CutCard)] == []
    with pytest.raises(ValueError, match="cut_at"):
        shoe.load(1, cards=[(2, 2)] * 3, cut_at=4)
    with pytest.raises(ValueError, match="no such card"):
        shoe.load(1, cards=[(14, 0)])
    with pytest.raises(ValueError, match="rng"):
        shoe.load(2)
    with pytest.raises(ValueError, match="decks"):
        shoe.load(0, cards=[])


def test_unreadable_draw_uses_the_index_once() -> None:
    shoe = ShoeModel()
    shoe.load(1, cards=[(5, 1), (6, 1), (7, 1)], cut_at=0)
    shoe.arm_unreadable()
    assert shoe.draw() == [CardUnreadable(1)]
    assert shoe.draw() == [Card(2, 6, 1)]


def test_skip_leaves_a_gap_and_still_reports_the_cut_card() -> None:
    shoe = ShoeModel()
    shoe.load(1, cards=[(5, 1), (6, 1), (7, 1), (8, 1)], cut_at=2)
    assert shoe.draw() == [Card(1, 5, 1)]
    assert shoe.skip() == [CutCard(2)]
    assert shoe.draw() == [Card(3, 7, 1)]
    assert shoe.skip() == []
    assert shoe.skip() == []
    assert shoe.position == 4


def test_unloaded_shoe_is_empty_and_flags_follow_the_attributes() -> None:
    shoe = ShoeModel()
    assert not shoe.loaded
    assert shoe.draw() == []
    assert shoe.status_flags == SHOE_EMPTY
    shoe.load(1, cards=[(1, 1)])
    shoe.lid_open = True
    assert shoe.status_flags == LID_OPEN


def test_parse_card_rejects_bad_notation() -> None:
    assert parse_card("9d") == (9, 1)
    for bad in ["", "A", "Xs", "Ax", "10c", "as"]:
        with pytest.raises(ValueError):
            parse_card(bad)


def uid(n: int) -> str:
    return f"{n:016x}"


def test_rfid_place_remove_clear_report_the_complete_set() -> None:
    rfid = RfidModel(antennas=[7])
    assert rfid.antennas_in_use == (7,)
    assert rfid.place(1, [(uid(1), 500), Chip(uid(2), 100)]) == Inventory(
        1, (Chip(uid(1), 500), Chip(uid(2), 100))
    )
    assert rfid.place(1, [(uid(1).upper(), 2500)]).chips == (Chip(uid(1), 2500), Chip(uid(2), 100))
    assert rfid.remove(1, [uid(2), uid(99)]).chips == (Chip(uid(1), 2500),)
    assert rfid.clear(1) == Inventory(1, ())
    assert list(rfid.antennas_in_use) == [1, 7]
    assert rfid.inventory(7) == Inventory(7, ())


def test_rfid_lists_85_chips_and_flags_the_overflow() -> None:
    rfid = RfidModel()
    inventory = rfid.place(2, [(uid(n), 100) for n in range(90)])
    assert len(inventory.chips) == MAX_CHIPS
    assert inventory.chips[0] == Chip(uid(0), 100)
    assert len(rfid.chips(2)) == 90
    assert rfid.status_flags == TOO_MANY_CHIPS
    rfid.remove(2, [uid(n) for n in range(5)])
    assert rfid.status_flags == 0
    rfid.antenna_fault = True
    assert rfid.status_flags == ANTENNA_FAULT


def test_rfid_rejects_bad_input_without_changing_anything() -> None:
    rfid = RfidModel()
    rfid.place(1, [(uid(1), 100)])
    for antenna, chips in [(0, []), (33, []), (1, [(uid(2), 5), ("xyz", 5)]), (1, [(uid(3), -1)])]:
        with pytest.raises(ValueError):
            rfid.place(antenna, chips)
    assert rfid.chips(1) == (Chip(uid(1), 100),)
    assert rfid.antennas_in_use == (1,)
