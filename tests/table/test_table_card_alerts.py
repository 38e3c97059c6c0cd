"""Card alerts in process, against pit-events.md: over-counted and unreadable cards, gaps, and the
hole card kept out of every event and log line until its reveal.

Every test runs on a real journal (tests/rigs/table_rig.py), which also checks after every step that a
table rebuilt from the journal alone is in the same state.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.table.state import TableState
from drivers.inputs import CardDrawn, CardUnreadable, ShoeLoaded
from firmware_bridge.kernel.cards import Card
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
    from controller.daemon.loop import Daemon
    from controller.devkit.simulated import write_config
    from drivers.inputs import CardDrawn, DeviceOnline, ShoeLoaded, SpotWager
    from firmware_bridge.kernel.cards import Card

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
    said = without_paths(caplog.text, tmp_path)
    assert "9d" not in said and repr(Card.parse("9d")) not in said


def without_paths(text: str, *folders: Path) -> str:
    """``text`` with the file names of its tracebacks and the given folders taken out: a random
    temporary folder's name (the checkout's, the test's) may hold any short string."""
    text = re.sub(r'File "[^"\n]*"', 'File "<path>"', text)
    for folder in (*folders, Path(__file__).resolve().parents[2], Path(sys.prefix)):
        text = text.replace(str(folder), "<folder>")
    return text


def implausible(events: list[dict[str, Any]]) -> dict[str, Any]:
    """The one ``card_implausible`` alert of ``events`` (and nothing else)."""
    assert types(events) == ["alert"], events
    data: dict[str, Any] = events[0]["data"]
    assert (data["code"], data["severity"]) == ("card_implausible", "critical")
    return data


def test_a_card_index_no_shoe_holds_is_refused_and_the_shoe_goes_on(rig: Rig) -> None:
    # The probe: a CRC-valid CARD with index 0xFFFFFFFF mid-hand made every later card vanish.
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")                                       # index 1
    before = rig.table.state.shoe.last_index
    data = implausible(rig.do(CardDrawn(42, 0xFFFFFFFF, Card.parse("Kd"))))
    assert (data["index"], data["reason"], data["shoe_id"]) == (0xFFFFFFFF, "beyond_shoe", 42)
    assert "a shoe of 6 decks holds 312 cards" in data["message"] and "Kd" not in data["message"]
    assert rig.table.state.shoe.last_index == before     # nothing counted
    assert rig.do(CardDrawn(42, 0xFFFFFFFF, Card.parse("Kd"))) == []   # the same again: logged only
    hole = rig.card("9d")                                 # index 2: dealt as usual, no card_gap
    assert types(hole) == ["card.dealt"] and hole[0]["data"]["index"] == 2
    rig.press("stand")
    rig.press("next")
    rig.bet(1, "main", 1000)
    rig.press("deal")
    assert types(rig.card("7c")) == ["card.dealt"]       # and in the next hand


@pytest.mark.parametrize(("index", "reason"), [(0, "index_zero"), (313, "beyond_shoe"), (23, "jump")])
def test_indexes_the_loaded_shoe_cannot_report_are_refused(rig: Rig, index: int, reason: str) -> None:
    rig.ready(s1_main=1000)
    rig.card("2c")                                        # index 1, out of turn
    assert implausible(rig.do(CardUnreadable(42, index)))["reason"] == reason
    assert rig.do(CardDrawn(42, index, Card.parse("As"))) == []   # that index was refused already: logged
    assert rig.table.state.shoe.last_index == 1
    assert [e["data"]["index"] for e in rig.card("3c") if e["type"] == "alert"] == [2]   # out of turn
    assert types(rig.do(CardDrawn(42, 3 + 20, Card.parse("4c")))) == ["alert", "alert"]  # 20 unseen: a gap
    assert rig.published[-2]["data"]["code"] == "card_gap"


def test_an_index_read_before_as_another_card_is_refused_without_naming_either(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")
    rig.card("9d")                                        # the hole card, index 2
    data = implausible(rig.do(CardDrawn(42, 2, Card.parse("Qs"))))
    assert data["reason"] == "conflict" and "9d" not in json.dumps(data) and "Qs" not in json.dumps(data)
    record = rig.journal.since(rig.journal.last_seq)[0]
    assert record.private == {"card": "Qs", "read_before": "9d"}   # kept in the journal's private part
    assert implausible(rig.do(CardUnreadable(42, 1)))["reason"] == "conflict"
    assert rig.do(CardDrawn(42, 2, Card.parse("9d"))) == []        # the same card again: a resend


def test_a_card_reported_after_its_index_was_declared_a_gap_is_refused(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")                                        # index 1
    rig.do(CardDrawn(42, 4, Card.parse("9d")))            # cards 2 and 3 declared missing
    data = implausible(rig.do(CardDrawn(42, 3, Card.parse("Kc"))))
    assert data["reason"] == "after_gap" and data["index"] == 3
    assert rig.rebuilt().state.shoe.gaps == [(2, 3)]


def test_refusals_of_one_shoe_stop_raising_alerts_after_ten_and_are_logged(
        rig: Rig, caplog: pytest.LogCaptureFixture) -> None:
    rig.ready()
    alerts = [e for index in range(1000, 1030) for e in rig.do(CardDrawn(42, index, Card.parse("As")))]
    assert len(alerts) == 10
    assert "card at index 1010: a shoe of 6 decks holds 312 cards: ignored" in caplog.text
    rig.do(ShoeLoaded(43, 6))                             # a new shoe starts afresh
    assert len(rig.do(CardDrawn(43, 1000, Card.parse("As")))) == 1


def test_a_supervisor_resync_takes_the_next_card_wherever_the_shoe_is(rig: Rig) -> None:
    rig.ready()
    rig.card("2c")
    assert implausible(rig.do(CardDrawn(42, 60, Card.parse("As"))))["reason"] == "jump"
    assert rig.table.resync_shoe("S101") is None
    resync = rig.published[-1]["data"]
    assert (resync["code"], resync["severity"], resync["supervisor"]) == ("shoe_resync", "warning", "S101")
    events = rig.do(CardDrawn(42, 61, Card.parse("As")))
    assert [e["data"]["code"] for e in events] == ["card_gap", "card_out_of_turn"]
    assert rig.table.state.shoe.resync is False           # for one card only
    assert implausible(rig.do(CardDrawn(42, 90, Card.parse("As"))))["reason"] == "jump"


def test_the_shoe_checks_survive_a_checkpoint(rig: Rig) -> None:
    rig.ready()
    rig.card("2c")
    rig.do(CardDrawn(42, 4, Card.parse("3c")))
    rig.do(CardDrawn(42, 0, Card.parse("3c")))
    state = rig.table.state
    restored = TableState.from_checkpoint(state.game, json.loads(json.dumps(state.checkpoint())))
    assert restored.shoe == state.shoe
    assert (restored.shoe.read, restored.shoe.gaps) == ({1: "2c", 4: "3c"}, [(2, 3)])
