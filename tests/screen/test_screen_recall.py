"""A player's dispute settled at the table (issue 26 item 9): a supervisor recalls the last hands, step by
step, on the dealer screen's supervisor panel, through the control command ``recall`` of a real daemon."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for

PIN = "27182818"


@pytest.fixture
def station(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path_factory.mktemp("recall"), browser, payout_check=False,
                           supervisors={"S101": hash_pin(PIN)})


def recall(station: Station, **fields: Any) -> dict[str, Any]:
    reply: dict[str, Any] = station.rig.pit.control({"cmd": "recall", "supervisor": "S101", "pin": PIN,
                                                     **fields})
    return reply


def test_recall_gives_the_last_hands_step_by_step_with_the_hole_card_face_down_until_revealed(
        station: Station) -> None:
    rig = station.rig
    assert recall(station) == {"ok": True, "hands": []}
    assert rig.pit.control({"cmd": "recall"})["error"] == (
        "recall is a supervisor's command: it needs the supervisor's id and PIN")
    assert recall(station, hands=11)["error"] == "recall: hands must be a whole number from 1 to 10"
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh", "8s", "7c", "4d", "Jh"])
    for number in (1, 2):                                     # two hands; the second stays in play
        rig.bet(1, "main", chip("a", number))
        rig.next("bet.placed", seat=1, amount=500)          # not the clearing reading before it
        station.touch("deal")
        rig.next("bets.closed")
        for _ in range(2):
            rig.draw()
        if number == 1:
            station.touch("stand")
            rig.next("player.action", action="stand")         # taken before a card is drawn (a hit)
            while rig.pit.control({"cmd": "state"})["state"]["results"] is None:
                rig.draw()                                    # the dealer draws to settle
            rig.bet(1, "main")                                # the chips collected or paid and taken
            station.touch("next")
            rig.next("hand.ended")
    hands = recall(station)["hands"]
    assert [h["hand"] for h in hands] == [1, 2]
    first, second = ("\n".join(h["lines"]) for h in hands)
    assert first.startswith("Hand 1  (") and "dealer <- face down" in first and "dealer shows 4c" in first
    assert "seat 1 main" in first and "stand" in first
    assert "dealer <- face down" in second and "dealer shows" not in second   # the hole card stays hidden
    assert [h["hand"] for h in recall(station, hands=1)["hands"]] == [2]

    station.open()                                            # and on the screen, by a supervisor
    assert station.supervisor("S101", PIN, "recall", None, None) == "Recall the last hands: 2 shown"
    shown = station.until("the recalled hands", lambda: station.page(
        "return [...document.querySelectorAll('#panel-body pre')].map(p => [p.dataset.hand, p.textContent])"))
    assert [int(hand) for hand, _ in shown] == [1, 2]
    assert [text for _, text in shown] == [first, second]
    assert station.page("return document.getElementById('panel-title').textContent") == (
        "The last 2 hands, step by step")
    assert PIN not in station.page("return document.body.innerHTML")
    station.key("#panel-cancel")
    assert station.page("return document.getElementById('panel').hidden")
