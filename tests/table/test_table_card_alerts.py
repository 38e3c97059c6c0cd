"""Card alerts in process, against pit-events.md: over-counted and unreadable cards, gaps, and the
hole card kept out of every event and log line until its reveal.

Every test runs on a real journal (tests/rigs/table_rig.py), which also checks after every step that a
table rebuilt from the journal alone is in the same state.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drivers.inputs import CardUnreadable
from tests.rigs.table_rig import Rig, types


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    return Rig(tmp_path)


def test_an_over_counted_hole_card_stays_hidden_until_it_is_revealed(rig: Rig) -> None:
    # pit-events.md section 1: "A card dealt face down appears as null in every event ... until
    # the event that reveals it."
    rig.ready(s1_main=1000)
    for _ in range(6):                   # six 9d out of turn: counted as drawn, not dealt
        rig.card("9d")
    rig.press("deal")
    rig.card("5h")                       # seat 1
    hole = rig.card("9d")                # the hole card, a seventh 9d in a 6-deck shoe
    assert types(hole) == ["alert", "card.dealt"]
    assert hole[0]["data"]["code"] == "card_over_count" and hole[0]["data"]["index"] == 8
    assert hole[1]["data"]["card"] is None
    assert "9d" not in json.dumps(hole)
    rig.press("stand")                   # the reveal: now the card may be seen
    revealed = next(e for e in rig.published if e["type"] == "card.revealed")
    assert revealed["data"]["card"] == "9d"


def test_an_over_counted_card_dealt_face_up_is_named(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    for _ in range(6):
        rig.card("7c")
    rig.press("deal")
    dealt = rig.card("7c")
    assert types(dealt) == ["alert", "card.dealt"]
    assert dealt[0]["data"]["card"] == "7c" and "7c" in dealt[0]["data"]["message"]


def test_a_gap_before_an_unreadable_card_raises_card_gap(rig: Rig) -> None:
    # pit-events.md section 3: card_gap "the shoe's card index jumped: a card was drawn unseen".
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")                       # index 1
    events = rig.do(CardUnreadable(42, 4))   # cards 2 and 3 left the shoe unseen
    assert [e["data"]["code"] for e in events] == ["card_gap", "card_unreadable"]
    assert (events[0]["data"]["index"], events[0]["data"]["last_index"]) == (2, 3)
    assert events[1]["data"]["index"] == 4
    assert rig.table.state.shoe.last_index == 4
    assert rig.do(CardUnreadable(42, 4)) == []       # the same report again after a link reset


def test_a_hole_card_that_cannot_be_journaled_is_not_named_in_the_log(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    # pit-events.md section 1: a hole card is not visible before its card.revealed; the daemon's log
    # is read by service engineers. A journal that fails on the hole card must not print it.
    from controller.config.loader import load_config
    from controller.daemon import Daemon
    from controller.devkit.simulated import write_config
    from drivers.inputs import CardDrawn, DeviceOnline, ShoeLoaded, SpotWager
    from firmware_bridge.cards import Card

    daemon = Daemon(load_config(write_config(tmp_path)))
    for item in (DeviceOnline("shoe", "f", "s"), DeviceOnline("rfid", "f", "s"), ShoeLoaded(42, 6),
                 SpotWager(1, "main", 1, 1000, ("00000000000000aa",))):
        daemon.dispatch(item)
    assert daemon.press("deal") is None
    daemon.dispatch(CardDrawn(42, 1, Card.parse("5h")))
    daemon.journal.close()                                   # the disk fails under the hole card
    with caplog.at_level("DEBUG"):
        daemon.dispatch(CardDrawn(42, 2, Card.parse("9d")))
    assert daemon.failure is not None
    assert "could not be handled" in caplog.text
    assert "9d" not in caplog.text and repr(Card.parse("9d")) not in caplog.text
