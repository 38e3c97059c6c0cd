"""End to end: Blackjack Extreme through the real daemon, boards simulated on ptys, the pit stream
checked; SIGKILL in the middle of a short-stacked dealer's payments, and a tournament's clock and
knock-out across a SIGKILL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import TableRig, chip
from tests.rigs.walk import Paying, pay_line, paying

BUTTONS = ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void")


def make_rig(folder: Path, game: str = "", mispay: str = "hold") -> TableRig:
    return TableRig(folder, game=game, game_name="blackjack-extreme", spots=("main",), buttons=BUTTONS,
                    limits=(500, 50000), mispay=mispay)


@pytest.fixture
def ring(tmp_path: Path) -> Iterator[TableRig]:
    table = make_rig(tmp_path)
    try:
        yield table
    finally:
        table.close()


def ok(answer: dict[str, Any]) -> None:
    assert answer == {"ok": True}, answer


def act(rig: TableRig, action: str, amount: int | None = None) -> None:
    ok(rig.pit.control({"cmd": "act", "action": action, **({} if amount is None else {"amount": amount})}))


def spot(rig: TableRig, seat: int, *chips: list[Any]) -> None:
    """Put exactly these chips on a seat's main spot, and wait until the table has read them."""
    rig.bet(seat, "main", *chips)
    rig.rfid.cmd("wait_idle")


def next_line(rig: TableRig, chips_left: Paying) -> None:
    """A payment walk's step: the line paid, then NEXT."""
    pay_line(rig, chips_left)
    ok(rig.pit.press("next"))


def draw(rig: TableRig, count: int) -> list[dict[str, Any]]:
    return [rig.draw() for _ in range(count)]


def short_stacked_hand(rig: TableRig) -> None:
    """Start the table and deal its hand: seat 1 deals with $30.00 against four players and busts;
    the hand is paying, nothing paid yet."""
    opened = rig.start()
    assert opened["data"]["game"] == "blackjack-extreme"
    for seat, amount in ((1, 3000), (2, 20000), (3, 20000), (4, 20000), (5, 20000)):
        ok(rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}))
        assert rig.next("seat.stack")["data"] == {"seat": seat, "amount": amount, "reason": "buy_in"}
    rig.shoe.cmd("load", decks=2, cards=["Ah", "9c", "Td", "Th", "Ts", "Kh", "9d", "6c", "9s", "6s",
                                         "Tc", "Jc", "Kc", "9h"])
    rig.next("shoe.loaded")
    refused = rig.pit.press("deal")
    assert refused["ok"] is False and "seat 2 must play: the dealer (seat 1, $30.00)" in refused["error"]

    spot(rig, 2, chip("a", 1), chip("a", 2))
    spot(rig, 3, chip("a", 3), chip("a", 4), chip("a", 5))
    spot(rig, 4, chip("a", 6), chip("a", 7))
    spot(rig, 5, chip("a", 8), chip("a", 9), chip("a", 10))
    ok(rig.pit.press("deal"))
    started = rig.next("hand.started")
    assert started["data"] == {"seats": [2, 3, 4, 5], "dealer_seat": 1}
    dealt = draw(rig, 10)
    assert [d["data"]["card"] for d in dealt] == [None] * 5 + ["Kh", "9d", "6c", "9s", None]
    assert [d["data"]["seat"] for d in dealt[:5]] == [2, 3, 4, 5, 1]

    act(rig, "turn_up", 2)
    assert rig.next("card.revealed")["data"]["card"] == "6s"
    ok(rig.pit.press("check"))
    spot(rig, 3, *(chip("a", n) for n in (3, 4, 5, 11, 12, 13)))
    ok(rig.pit.press("raise"))
    assert rig.next("player.action", seat=3)["data"]["amount"] == 3000
    ok(rig.pit.press("check"))
    ok(rig.pit.press("check"))
    ok(rig.pit.press("play"))
    spot(rig, 3, *(chip("a", n) for n in (3, 4, 5, 11, 12, 13, 14)), chip("b", 1))
    ok(rig.pit.press("split"))
    rig.draw()
    ok(rig.pit.press("stand"))
    rig.draw()
    ok(rig.pit.press("stand"))
    rig.draw()                                                     # seat 4 busts
    ok(rig.pit.press("stand"))                                     # seat 5 stands on 19
    rig.draw()                                                     # the dealer busts with $30.00
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["phase"] == "paying" and state["results"] is None
    assert not [e for e in rig.pit.drain() if e["type"] == "alert"]



def test_a_short_stacked_dealer_pays_in_order_and_a_sigkill_mid_payments_resumes_exactly(
        ring: TableRig) -> None:
    rig = ring
    short_stacked_hand(rig)
    chips_left = paying()
    act(rig, "leave")
    for _ in range(3):
        next_line(rig, chips_left)                                 # collected, natural, seat 3's minimum
    assert [(e["data"]["seat"], e["data"]["action"], e["data"].get("amount"))
            for e in rig.pit.drain() if e["type"] == "player.action"] == [
        (1, "leave", None), (1, "collect", 1000), (2, "paid", 1500), (3, "paid", 500)]
    before = rig.pit.control({"cmd": "state"})
    assert rig.kill() == -9

    opened = rig.start()
    assert opened["seq"] == before["seq"] + 1 and opened["data"]["recovered"] is True
    after = rig.pit.control({"cmd": "state"})
    for key in ("phase", "hand", "seats", "dealer", "results"):
        assert after["state"][key] == before["state"][key], key
    assert "next" in after["state"]["live_buttons"]
    next_line(rig, chips_left)                                     # the line after the last one done
    assert rig.next("player.action")["data"] == {"seat": 5, "hand_index": 0, "action": "paid", "amount": 500}
    for _ in range(3):
        next_line(rig, chips_left)
    settled = rig.next("hand.settled")
    assert [(r["seat"], r["hand_index"], r["payout"]) for r in settled["data"]["results"]] == [
        (2, 0, 1500), (3, 0, 1500), (3, 1, 0), (4, 0, -1000), (5, 0, 1000)]
    ok(rig.pit.press("next"))
    stacks = [rig.next("seat.stack")["data"] for _ in range(6)]
    assert [(s["seat"], s["amount"], s["reason"]) for s in stacks] == [
        (2, 21500, "result"), (3, 21500, "result"), (4, 19000, "result"), (5, 21000, "result"),
        (1, 0, "result"), (1, 0, "cash_out")]
    assert rig.next("button.moved")["data"] == {"seat": 2}
    rig.next("hand.ended")


def test_a_payment_line_paid_short_holds_the_walk_until_the_spot_reads_right(tmp_path: Path) -> None:
    rig = make_rig(tmp_path)
    try:
        short_stacked_hand(rig)
        chips_left = paying()
        rig.pit.drain()
        walk = len(rig.pit.taken())
        act(rig, "leave")
        next_line(rig, chips_left)                                 # seat 4's lost $10.00 collected
        rig.add(2, "main", chip("a", 39))                          # the natural's $15.00 paid $5.00
        assert rig.pit.press("next") == {"ok": False, "error": (
            "next: seat 2 main reads $15.00, should hold $25.00: pay $10.00 more")}
        assert [e["data"]["action"] for e in rig.pit.drain() if e["type"] == "player.action"] == [
            "leave", "collect"]                                    # the walk did not move on
        next_line(rig, chips_left)                                 # paid right: it goes on
        assert rig.next("player.action")["data"]["action"] == "paid"
        rig.pit.drain()
        assert not [e["data"] for e in rig.pit.taken()[walk:] if e["type"] == "alert"]
    finally:
        rig.close()


def test_a_house_that_lets_the_walk_go_on_records_each_mispay(tmp_path: Path) -> None:
    rig = make_rig(tmp_path, mispay="alert")
    try:
        short_stacked_hand(rig)
        chips_left = paying()
        act(rig, "leave")
        next_line(rig, chips_left)
        rig.add(2, "main", chip("a", 39))
        ok(rig.pit.press("next"))
        mispay = rig.next("alert", code="mispay")["data"]
        assert (mispay["seat"], mispay["spot"], mispay["expected"], mispay["read"]) == (2, "main", 2500, 1500)
        assert mispay["message"] == ("seat 2 main reads $15.00, should hold $25.00: pay $10.00 more; "
                                     "the payment walk went on ([table] mispay)")
        assert rig.next("player.action")["data"]["action"] == "paid"
    finally:
        rig.close()


TOURNAMENT = 'format = "tournament"\nstarting_stack = 1000\n[game.levels]\n"1" = 500\n"2" = 1000\n'


@pytest.fixture
def tourney(tmp_path: Path) -> Iterator[TableRig]:
    table = make_rig(tmp_path, TOURNAMENT)
    try:
        yield table
    finally:
        table.close()


def test_a_tournament_clock_survives_a_sigkill_and_a_knock_out_ends_it(tourney: TableRig) -> None:
    rig = tourney
    rig.start()
    for seat in (1, 2):
        ok(rig.pit.control({"cmd": "buy_in", "seat": seat}))
        rig.next("seat.stack")
    ok(rig.pit.control({"cmd": "button", "seat": 1}))
    assert rig.next("button.moved")["data"] == {"seat": 1}
    level = rig.next("tournament.level")["data"]                    # at the next tick of the clock
    assert (level["level"], level["blinds"]) == (1, [500, 1000, 1500])
    assert rig.kill() == -9

    rig.start()
    session = rig.pit.control({"cmd": "state"})["state"]["session"]
    assert (session["level"], session["level_ends_at"]) == (1, level["ends_at"])
    rig.shoe.cmd("load", decks=2, cards=["Th", "Ts", "6h", "9s", "Kc"])
    rig.next("shoe.loaded")
    spot(rig, 2, chip("a", 1), chip("a", 2))
    ok(rig.pit.press("deal"))
    draw(rig, 4)
    act(rig, "turn_up", 1)
    ok(rig.pit.press("check"))
    ok(rig.pit.press("play"))
    rig.draw()                                                     # seat 2: 26
    assert rig.next("hand.settled")["data"]["results"][0]["payout"] == -1000
    ok(rig.pit.press("next"))
    assert rig.next("player.eliminated")["data"] == {"seat": 2, "place": 2}
    assert rig.next("tournament.ended")["data"] == {"seat": 1}
    refused = rig.pit.press("deal")
    assert refused["ok"] is False and "the tournament is over: seat 1 won it" in refused["error"]
