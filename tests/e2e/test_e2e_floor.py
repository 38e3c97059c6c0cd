"""End to end: the chip tray and the pit's actions through the daemon (issue 19, the table's side).

One table (Easy Jack, a tray on antenna 32, two supervisors) per test; the hands are the scripted
hand of test_e2e_hand: seat 1 main $10 loses, seat 3 main $25 wins, seat 3 side $5 loses, so the
house's result is -$10.00.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import TableRig, chip

TRAY = 32
PIN = "60417293"
SHOE = ["5h", "4c", "9d", "3s", "6d", "2c", "Kh"]


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[TableRig]:
    rig = TableRig(tmp_path, tray=TRAY, supervisors={"S101": hash_pin(PIN)})
    try:
        yield rig
    finally:
        rig.close()


def pit(rig: TableRig, cmd: str, **fields: Any) -> dict[str, Any]:
    """A pit command as supervisor S101."""
    return rig.pit.control({"cmd": cmd, "supervisor": "S101", "pin": PIN, **fields})


def act(rig: TableRig, action: str) -> dict[str, Any]:
    """The dealer's action by the control socket, as a dealer screen sends it."""
    return rig.pit.control({"cmd": "act", "action": action})


def state(rig: TableRig) -> dict[str, Any]:
    answer: dict[str, Any] = rig.pit.control({"cmd": "state"})["state"]
    return answer


def play(rig: TableRig, n: int) -> None:
    """Bets (chips ``a<n>`` to ``a<n+2>`` and ``b<n>``), the deal and the scripted hand up to its
    settlement."""
    rig.bet(1, "main", chip("a", n), chip("a", n + 1))
    rig.bet(3, "main", chip("b", n))
    rig.bet(3, "side", chip("a", n + 2))
    for seat, spot, amount in ((1, "main", 1000), (3, "main", 2500), (3, "side", 500)):
        rig.next("bet.placed", seat=seat, spot=spot, amount=amount)
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    for _ in range(4):
        rig.draw()
    rig.pit.press("stand")
    rig.draw()
    rig.pit.press("stand")
    rig.next("hand.settled")


def settle(rig: TableRig, n: int, paid_from_tray: list[int]) -> None:
    """Collect the losing chips of :func:`play` into the tray, take the $25 chips ``b<k>`` of
    ``paid_from_tray`` out of it, and pay seat 3's $25.00 with the $25 chip ``b<n+1>``."""
    rig.bet(1, "main")
    rig.bet(3, "side")
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("a", n + k) for k in range(3)])
    rig.rfid.cmd("remove", antenna=TRAY, uids=[chip("b", k)[0] for k in paid_from_tray])
    rig.add(3, "main", chip("b", n + 1))


def test_the_tray_is_checked_over_each_hand_and_against_its_fills(floor: TableRig) -> None:
    rig = floor
    rig.start()
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    assert rig.next("tray.counted")["data"] == {"amount": 10000, "chips": {"2500": 4}}   # 4 x $25
    assert state(rig)["tray"] == {"amount": 10000, "at_hand_start": None, "expected": None,
                                  "chips": {"2500": 4}}

    rig.load(SHOE)                                                  # hand 1: paid right
    play(rig, 1)
    assert state(rig)["tray"]["at_hand_start"] == 10000
    settle(rig, 1, paid_from_tray=[10])                             # +$15.00 collected, -$25.00 paid
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")
    assert state(rig)["tray"]["amount"] == 9000
    assert not [e for e in rig.pit.taken() if e["type"] == "alert"]

    rig.load(SHOE)                                                  # hand 2: the payout short
    rig.bet(3, "main")
    play(rig, 4)
    settle(rig, 4, paid_from_tray=[11, 12])                         # $50.00 out: $25.00 went astray
    assert rig.pit.press("next") == {"ok": True}
    alert = rig.next("alert", code="tray_variance")
    assert alert["hand"] == 2 and alert["data"] == {
        "code": "tray_variance", "severity": "warning",
        "message": "the tray changed by -$35.00 over the hand, but the house's result of the hand is "
                   "-$10.00: $25.00 short",
        "tray_change": -3500, "house_result": -1000}
    rig.next("hand.ended")

    assert pit(rig, "tray_fill", amount=5000) == {"ok": True}       # a fill, then its chips
    assert rig.next("tray.fill")["data"] == {"amount": 5000, "supervisor": "S101", "reading": 5500,
                                             "expected": 10500}
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", 20), chip("b", 21)])
    # a1-a6 collected (6 x $5), b10-b12 paid out, b20 and b21 filled: 6 x $5 + 3 x $25 = $105.00
    assert rig.next("tray.counted")["data"] == {"amount": 10500, "chips": {"500": 6, "2500": 3}}
    assert state(rig)["tray"]["expected"] is None                    # the fill is in the tray

    assert pit(rig, "tray_credit", amount=2500) == {"ok": True}     # a credit never taken out
    assert rig.next("tray.credit")["data"]["expected"] == 8000
    assert pit(rig, "tray_credit", amount=50000)["error"] == (
        "tray_credit: the tray holds $80.00: a credit of $500.00 cannot come from it")
    rig.load(SHOE)
    rig.bet(1, "main", chip("a", 30), chip("a", 31))
    rig.bet(3, "main")
    rig.next("bet.placed", seat=1, amount=1000)
    assert rig.pit.press("deal") == {"ok": True}
    checked = rig.next("alert", code="tray_fill_mismatch")
    assert checked["data"] == {
        "code": "tray_fill_mismatch", "severity": "warning",
        "message": "the tray reads $105.00, but the fills and credits entered make it $80.00: "
                   "$25.00 over", "expected": 8000, "read": 10500}
    assert rig.next()["type"] == "hand.started"                      # the deal goes on
    assert state(rig)["tray"]["expected"] is None


def test_the_pits_actions_need_a_supervisor_and_bind_the_table(floor: TableRig) -> None:
    rig = floor
    rig.start()
    orders: list[dict[str, Any]] = [
        {"cmd": "close_table"}, {"cmd": "open_table"},
        {"cmd": "set_limits", "min_bet": 1000, "max_bet": 2000},
        {"cmd": "dealer_message", "text": "hi"}, {"cmd": "tray_fill", "amount": 100},
        {"cmd": "tray_credit", "amount": 100}]
    for order in orders:
        assert rig.pit.control(order) == {"ok": False, "error": f"{order['cmd']} is a supervisor's "
                                          "command: it needs the supervisor's id and PIN"}
        wrong = rig.pit.control({**order, "supervisor": "S101", "pin": "0000"})
        assert wrong == {"ok": False, "error": "wrong supervisor id or PIN"}
        rig.pit.control({"cmd": "links", "supervisor": "S101", "pin": PIN})   # clears the count

    rig.load(SHOE)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed", seat=1)
    assert rig.pit.press("deal") == {"ok": True}                    # a limit change mid-hand
    assert pit(rig, "set_limits", min_bet=2000, max_bet=10000) == {
        "ok": False, "error": "set_limits: only between hands: finish the hand (NEXT) or void it first"}
    assert pit(rig, "close_table")["error"].startswith("close_table: only between hands")
    assert act(rig, "call_floor") == {"ok": True}                 # the dealer calls, any time
    called = rig.next("alert", code="floor_called")
    assert (called["hand"], called["data"]["severity"]) == (1, "warning")
    assert rig.pit.press("void") == {"ok": True}
    rig.next("hand.voided")

    assert pit(rig, "set_limits", min_bet=2000, max_bet=10000) == {"ok": True}
    limits = rig.next("table.limits")
    assert (limits["hand"], limits["data"]) == (None, {"min_bet": 2000, "max_bet": 10000,
                                                       "supervisor": "S101"})
    assert state(rig)["limits"] == {"min_bet": 2000, "max_bet": 10000}
    assert rig.pit.press("deal")["error"] == "deal: seat 1 main $10.00 is below the table minimum $20.00"

    assert pit(rig, "close_table") == {"ok": True}
    assert rig.next("table.closed")["data"] == {"supervisor": "S101"}
    rig.bet(1, "main", chip("b", 1))
    rig.next("bet.placed", seat=1, amount=2500)
    assert rig.pit.press("deal")["error"] == "deal: the table is closed by the pit"
    assert pit(rig, "open_table") == {"ok": True}
    rig.next("table.reopened")

    bad = pit(rig, "dealer_message", text="fill\x1b[2J on the way")
    assert bad["error"] == "dealer_message: text must hold no control characters (line breaks, tabs, escapes)"
    assert pit(rig, "dealer_message", text="x" * 201)["error"].startswith(
        "dealer_message: text may have at most 200 characters")
    assert pit(rig, "dealer_message", text="Fill on the way") == {"ok": True}
    rig.next("dealer.message")
    picture = state(rig)
    assert picture["message"] == "Fill on the way"
    assert [a["name"] for a in picture["actions"]][-2:] == ["call_floor", "acknowledge"]
    assert act(rig, "acknowledge") == {"ok": True}
    assert rig.next("dealer.acknowledged")["data"] == {"text": "Fill on the way"}
    assert state(rig)["message"] is None
    assert act(rig, "acknowledge")["error"] == (
        "acknowledge: there is no message from the pit to acknowledge")

    rig.kill()                                                       # the limits outlive a restart
    assert rig.start(wait_online=False)["data"]["limits"] == {"min_bet": 2000, "max_bet": 10000}
    assert state(rig)["limits"] == {"min_bet": 2000, "max_bet": 10000}
    assert "From the pit: Fill on the way" in rig.log_text()         # the dealer display showed it
