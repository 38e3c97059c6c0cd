"""End to end: what a table with a dealer screen needs of the daemon. Every action by ``act``
without a physical button, and a ``payout_mismatch`` when NEXT comes with a spot paid wrong."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import CHIP_VALUES, TableRig, chip


@pytest.fixture
def screen_rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, buttons=(), screen=8070)
    try:
        yield table
    finally:
        table.close()


def act(rig: TableRig, action: str, **fields: Any) -> dict[str, Any]:
    return rig.pit.control({"cmd": "act", "action": action, **fields})


def test_a_table_with_a_screen_runs_a_hand_with_no_button_at_all(screen_rig: TableRig) -> None:
    rig = screen_rig
    rig.start()
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    assert rig.pit.press("deal") == {"ok": False, "error": "there is no 'deal' button at this table"}
    assert act(rig, "deal") == {"ok": True}
    rig.next("bets.closed")
    for _ in range(4):
        rig.draw()
    assert act(rig, "stand") == {"ok": True}
    rig.draw()
    assert act(rig, "stand") == {"ok": True}
    rig.next("hand.settled")
    assert act(rig, "next") == {"ok": True}
    assert rig.next("hand.ended")["hand"] == 1
    assert rig.pit.control({"cmd": "state"})["state"]["live_buttons"] == []   # no lights either


def test_next_with_a_spot_paid_short_raises_a_payout_mismatch(rig: TableRig) -> None:
    rig.start()
    shoe = ["5h", "4c", "9d", "3s", "6d", "2c", "Kh"]
    rig.load(shoe)
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["chips"] == sorted(CHIP_VALUES.values())        # the denominations to pay in

    def play() -> list[dict[str, Any]]:
        rig.bet(1, "main", chip("a", 1), chip("a", 2))
        rig.bet(3, "main", chip("b", 1))
        rig.bet(3, "side", chip("a", 3))
        for seat, spot, amount in ((1, "main", 1000), (3, "main", 2500), (3, "side", 500)):
            rig.next("bet.placed", seat=seat, spot=spot, amount=amount)
        assert rig.pit.press("deal") == {"ok": True}
        rig.next("bets.closed")
        for _ in range(3):
            rig.draw()
        rig.draw()
        rig.pit.press("stand")
        rig.draw()
        rig.pit.press("stand")
        settled: list[dict[str, Any]] = rig.next("hand.settled")["data"]["results"]
        return settled

    results = play()
    assert [(r["seat"], r["spot"], r["payout"]) for r in results] == [
        (1, "main", -1000), (3, "main", 2500), (3, "side", -500)]
    rig.bet(1, "main")                                         # collected
    rig.bet(3, "side")                                         # collected
    rig.add(3, "main", chip("a", 4))                           # paid $5.00 of $25.00
    assert rig.pit.press("next") == {"ok": True}
    alert = rig.next("alert", code="payout_mismatch")
    assert alert["hand"] == 1 and alert["data"] == {
        "code": "payout_mismatch", "severity": "warning",
        "message": "seat 3 main reads $30.00 at NEXT, should read $50.00 once paid and collected: "
                   "$20.00 short",
        "seat": 3, "spot": "main", "expected": 5000, "read": 3000}
    assert rig.next()["type"] == "hand.ended"                  # the table is never held up

    rig.load(shoe)
    results = play()                                           # hand 2: paid right
    assert results[1]["payout"] == 2500
    rig.bet(1, "main")
    rig.bet(3, "side")
    rig.bet(3, "main", chip("b", 1), chip("b", 2))
    rig.add(3, "main")
    assert rig.pit.press("next") == {"ok": True}
    ended = rig.next("hand.ended")
    assert not [e for e in rig.pit.taken() if e["hand"] == 2 and e["type"] == "alert"
                and e["data"]["code"] == "payout_mismatch"], ended
