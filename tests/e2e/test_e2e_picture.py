"""End to end: after every step the daemon publishes the table's picture (``table.view``), and a
consumer can draw the table from it alone: it is the snapshot's state, hidden cards stay hidden, and
it says what may be done now."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.rigs.daemon_rig import TIMEOUT, TableRig, chip


def picture_at(rig: TableRig, seq: int) -> dict[str, Any]:
    """The latest ``table.view`` message once one reflects the events up to ``seq`` (waits)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        rig.pit.poll(0)
        view = rig.pit.view
        if view is not None and view["seq"] >= seq:
            return view
        assert time.monotonic() < deadline, f"no table.view for seq {seq}; last: {view}"
        rig.pit.poll(0.1)


def names(view: dict[str, Any]) -> list[str]:
    return [action["name"] for action in view["data"]["actions"]]


def test_every_step_publishes_the_picture_a_consumer_draws_from(rig: TableRig) -> None:
    rig.start()
    loaded = rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    view = picture_at(rig, loaded["seq"])
    assert view["type"] == "table.view" and view["hand"] is None and view["epoch"] is not None
    assert view["data"]["table_phase"] == "betting" and "deal" not in names(view)
    assert view["data"]["instruction"].startswith("Betting is open. Before the deal")

    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    bet = rig.next("bet.placed")
    view = picture_at(rig, bet["seq"])
    assert view["data"]["seats"][0]["bets"] == {"main": 1000}
    assert view["data"]["live"] == {"1": {"main": 1000}}
    assert names(view) == ["deal", "call_floor"]     # the dealer may call the floor at any time
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3, spot="main")

    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    for _ in range(3):
        dealt = rig.draw()
    view = picture_at(rig, dealt["seq"])
    assert view["hand"] == 1 and view["data"]["dealer"]["cards"] == [None]
    assert "9d" not in json.dumps(view)                           # the hole card stays hidden
    seat_one = view["data"]["seats"][0]
    assert seat_one["in_turn"] and seat_one["cards"] == ["5h"]
    assert {"name": "stand", "seat": 1, "hand_index": 0, "low": None, "high": None,
            "spot": None} in view["data"]["actions"]
    assert "void" in names(view) and "deal" not in names(view)

    state = rig.pit.control({"cmd": "state"})
    assert state["seq"] == view["seq"] and state["state"] == view["data"]    # the snapshot's state

    refused = rig.pit.press("next")
    assert refused["ok"] is False
    deadline = time.monotonic() + TIMEOUT
    while view["data"]["notice"] is None and time.monotonic() < deadline:
        view = picture_at(rig, dealt["seq"])    # a refusal changes the picture, not the sequence
    assert view["data"]["notice"] == refused["error"] and view["seq"] == dealt["seq"]

    rig.draw()
    rig.pit.press("stand")
    rig.draw()
    rig.pit.press("stand")
    settled = rig.next("hand.settled")
    view = picture_at(rig, settled["seq"])
    assert view["data"]["table_phase"] == "settled" and names(view) == ["next", "call_floor"]
    assert view["data"]["results"] == settled["data"]["results"]
    assert view["data"]["dealer"]["cards"] == ["9d"]                  # turned up at the end
