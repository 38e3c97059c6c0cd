"""End to end: one implausible card from the shoe board never wedges the table.

The probe that found it: mid-hand, the shoe sent a CRC-valid CARD with index 0xFFFFFFFF; the table
raised card_gap "cards 5 to 4294967294", dealt it, and then silently dropped every real card of that
shoe. Now such a card is refused with a critical card_implausible alert and changes nothing; a
supervisor (shoe_resync) or a new shoe brings back a shoe whose index really jumped.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import TableRig, chip


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    table.config.write_text(table.config.read_text() + f'\n[supervisors]\nS101 = "{hash_pin("2468")}"\n')
    try:
        table.start()
        yield table
    finally:
        table.close()


def card(index: int, rank: int = 13, suit: int = 1) -> dict[str, Any]:
    """A CARD message as the simulator's ``send`` takes it (rank 13 suit 1: the king of diamonds)."""
    return {"type": "CARD", "index": index, "rank": rank, "suit": suit}


def test_a_card_index_no_shoe_holds_is_refused_and_every_later_card_is_still_dealt(rig: TableRig) -> None:
    shoe_id = rig.load(["5h", "9d", "Kc", "2c", "3c", "4c"])["data"]["shoe_id"]
    rig.bet(1, "main", chip("a", 1))
    rig.next("bet.placed")
    rig.pit.press("deal")
    assert rig.draw()["data"]["index"] == 1
    rig.shoe.cmd("send", message=card(0xFFFFFFFF))
    refused = rig.next("alert", code="card_implausible")
    assert refused["data"]["severity"] == "critical" and refused["data"]["reason"] == "beyond_shoe"
    assert refused["data"]["index"] == 0xFFFFFFFF and refused["hand"] == 1
    rig.shoe.cmd("send", message=card(0xFFFFFFFF))          # the same again: logged, no second alert
    hole = rig.draw()
    assert (hole["type"], hole["data"]["index"]) == ("card.dealt", 2)
    assert rig.pit.press("stand") == {"ok": True}
    rig.next("hand.settled")
    assert rig.pit.press("next") == {"ok": True}
    assert rig.pit.press("deal") == {"ok": True}              # the same chips ride on the next hand
    assert (rig.draw()["type"], rig.pit.control({"cmd": "state"})["state"]["shoe"]["cards_drawn"]) == (
        "card.dealt", 3)                                       # the next hand goes on from card 3
    taken = rig.pit.drain()
    assert not [e for e in rig.pit.taken() if e["data"].get("code") == "card_gap"]
    assert [e for e in taken if e["type"] == "alert"] == []
    assert (f"shoe {shoe_id}: a card at index 4294967295: a shoe of 6 decks holds 312 cards: ignored"
            in rig.log_text())


def test_index_zero_a_conflict_and_a_card_after_its_gap_are_each_refused_with_an_alert(rig: TableRig) -> None:
    rig.load(["5h", "9d", "Kc", "2c"], cut_at=0)
    rig.draw()                                               # card 1, out of turn (betting is open)
    rig.shoe.cmd("send", message=card(0))
    assert rig.next("alert", code="card_implausible")["data"]["reason"] == "index_zero"
    rig.shoe.cmd("send", message=card(1))                    # card 1 was the 5h, not a king
    assert rig.next("alert", code="card_implausible")["data"]["reason"] == "conflict"
    rig.shoe.cmd("skip")                                     # card 2 leaves unseen
    rig.shoe.cmd("draw")                                     # card 3: a gap of card 2
    assert rig.next("alert", code="card_gap")["data"]["index"] == 2
    rig.shoe.cmd("send", message=card(2))                    # card 2 turns up after all
    after = rig.next("alert", code="card_implausible")
    assert after["data"]["reason"] == "after_gap" and after["data"]["index"] == 2
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["shoe"]["cards_drawn"] == 3


def test_a_shoe_whose_index_really_jumped_comes_back_with_a_supervisor_resync(rig: TableRig) -> None:
    rig.load(["5h", "9d", "Kc", "2c"], cut_at=0)
    rig.draw()
    rig.shoe.cmd("send", message=card(100))                  # the board lost 98 cards' reports
    assert rig.next("alert", code="card_implausible")["data"]["reason"] == "jump"
    wrong = rig.pit.control({"cmd": "shoe_resync", "supervisor": "S101", "pin": "1111"})
    assert wrong == {"ok": False, "error": "wrong supervisor id or PIN"}
    assert rig.pit.control({"cmd": "shoe_resync", "supervisor": "S101", "pin": "2468"}) == {"ok": True}
    resync = rig.next("alert", code="shoe_resync")
    assert resync["data"]["supervisor"] == "S101" and resync["data"]["severity"] == "warning"
    rig.shoe.cmd("send", message=card(101))
    gap = rig.next("alert", code="card_gap")
    assert (gap["data"]["index"], gap["data"]["last_index"]) == (2, 100)
    assert rig.next("alert", code="card_out_of_turn")["data"]["index"] == 101
    assert "supervisor command 'shoe_resync' for 'S101' refused: wrong supervisor id or PIN" in rig.log_text()
