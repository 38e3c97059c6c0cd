"""Hold'em Blackjack on the game-agnostic table, in process on a real journal.

Every step is also rebuilt from the journal alone and compared (the rig does
it), which is what a restart after ``kill -9`` relies on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.commands.registry import decode
from controller.events.codec import record_json
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Button, Limits, Stacks
from controller.table.views import dealer_view, public_state
from tests.rigs.table_rig import Rig, types

BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    table = Rig(tmp_path, game=HoldemBlackjack(HoldemBlackjackRules(), Limits(200, 2000)), buttons=BUTTONS)
    table.ready()
    for seat in (1, 2, 3):
        assert table.table.command("buy_in", {"cmd": "buy_in", "seat": seat, "amount": 10000}) is None
    table.check_recovery()
    return table


def data(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [event["data"] for event in events if event["type"] == kind]


def push(rig: Rig, seat: int, amount: int) -> None:
    """Chips on the seat's bet spot now total ``amount``; no alert may follow."""
    assert not data(rig.bet(seat, "bet", amount), "alert")


def press(rig: Rig, button: str) -> list[dict[str, Any]]:
    return rig.press(button)


def test_a_whole_hand_at_the_table(rig: Rig) -> None:
    assert [e["data"] for e in rig.published if e["type"] == "seat.stack"] == [
        {"seat": seat, "amount": 10000, "reason": "buy_in"} for seat in (1, 2, 3)]
    assert rig.table.press("deal") == (
        "deal: seat 2 posts the small blind $1.00: its bet spot should read $1.00; it reads $0.00; "
        "seat 3 posts the big blind $2.00: its bet spot should read $2.00; it reads $0.00")
    push(rig, 2, 100)
    push(rig, 3, 200)
    events = press(rig, "deal")
    assert types(events) == ["hand.started", "bets.closed", "button.moved", "player.action", "player.action"]
    assert events[0]["data"] == {"seats": [1, 2, 3], "dealer_seat": None}
    assert data(events, "player.action") == [
        {"seat": 2, "hand_index": 0, "action": "small_blind", "amount": 100},
        {"seat": 3, "hand_index": 0, "action": "big_blind", "amount": 200}]
    for card, seat in (("7h", 2), ("Kc", 3), ("2s", 1)):
        (dealt,) = data(rig.card(card), "card.dealt")
        assert (dealt["seat"], dealt["card"], dealt["face_up"]) == (seat, None, False)
    view = dealer_view(rig.table)
    assert view.instruction == "Seat 1: $2.00 to call, raise to $4.00, or fold"
    assert view.live_buttons == ("call", "raise", "fold", "void")
    assert [s.seat for s in view.seats if s.in_turn] == [1]

    # Chips added out of turn are past posting; chips pushed in turn are the action.
    (alert,) = data(rig.bet(2, "bet", 300), "alert")
    assert (alert["code"], alert["seat"], alert["closed"]) == ("past_post", 2, 100)
    push(rig, 2, 100)
    push(rig, 1, 200)
    assert data(press(rig, "call"), "player.action") == [
        {"seat": 1, "hand_index": 0, "action": "call", "amount": 200}]
    assert rig.table.press("call") == (
        "call: seat 2: $1.00 to call, so the spot should read $2.00; it reads $1.00")
    assert rig.table.press("stand") == "stand: no seat is completing its hand now: " \
        "Seat 2: $1.00 to call, raise to $4.00, or fold"
    push(rig, 2, 200)
    press(rig, "call")
    events = press(rig, "check")                       # the big blind's option
    assert data(events, "pot") == [{"pots": [{"amount": 600, "seats": [1, 2, 3]}], "rake": 0}]
    for seat in (1, 2, 3):                             # the dealer gathers the bets into the pot
        push(rig, seat, 0)

    rig.card("9d")
    rig.card("Qs")
    rig.card("3h")
    assert record_json(public_state(rig.table))["seats"][1]["cards"] == [None, "9d"]
    push(rig, 2, 400)
    assert data(press(rig, "bet"), "player.action")[0]["action"] == "bet"
    push(rig, 3, 800)
    press(rig, "raise")
    press(rig, "fold")
    push(rig, 2, 800)
    events = press(rig, "call")
    assert data(events, "pot") == [{"pots": [{"amount": 2200, "seats": [2, 3]}], "rake": 0}]
    assert record_json(public_state(rig.table))["pots"] == [{"amount": 2200, "seats": [2, 3]}]
    for seat in (1, 2, 3):
        push(rig, seat, 0)

    assert dealer_view(rig.table).instruction == "Seat 2: draw a card to hit (face down), or press STAND"
    (dealt,) = data(rig.card("3d"), "card.dealt")
    assert (dealt["seat"], dealt["card"]) == (2, None)
    press(rig, "stand")
    press(rig, "stand")
    press(rig, "check")
    assert dealer_view(rig.table).instruction == "Seat 3: check, bet $4.00 to $20.00, or fold"
    push(rig, 3, 1000)
    assert data(press(rig, "raise"), "player.action")[0] == {
        "seat": 3, "hand_index": 0, "action": "bet", "amount": 1000}
    push(rig, 2, 1000)
    events = press(rig, "call")
    assert types(events) == ["player.action", "pot", "card.revealed", "pot.awarded", "hand.settled"]
    assert data(events, "card.revealed") == [
        {"index": 2, "to": "seat", "seat": 3, "hand_index": 0, "card": "Kc"}]
    assert data(events, "pot.awarded") == [{"pot": 0, "seats": [3], "amount": 4200, "rake": 0}]
    assert [(r["seat"], r["outcome"], r["payout"]) for r in data(events, "hand.settled")[0]["results"]] == [
        (1, "fold", -200), (2, "lose", -2000), (3, "win", 2200)]
    view = dealer_view(rig.table)
    assert view.payouts == ("Pot 1 of $42.00: seat 3 takes $42.00", "Seat 2: muck the hand unseen")
    assert [s.result for s in view.seats] == [None, None, None]          # no "pay" or "collect" per seat
    assert [s.hands[0].status for s in view.seats] == ["button, folded", "small blind, mucked",
                                                       "big blind, wins $42.00"]
    published = json.dumps(rig.published)
    assert '"7h"' not in published and '"3d"' not in published        # seat 2's hand, mucked unseen

    for seat in (2, 3):                                 # the dealer pushes the pot to seat 3
        push(rig, seat, 0)
    events = press(rig, "next")
    assert types(events)[:5] == ["seat.stack", "seat.stack", "seat.stack", "button.moved", "hand.ended"]
    assert data(events, "bet.placed") == [{"seat": 2, "spot": "bet", "amount": 0},   # betting opens again
                                          {"seat": 3, "spot": "bet", "amount": 0}]
    assert data(events, "seat.stack") == [
        {"seat": 1, "amount": 9800, "reason": "result"}, {"seat": 2, "amount": 8000, "reason": "result"},
        {"seat": 3, "amount": 12200, "reason": "result"}]
    assert data(events, "button.moved") == [{"seat": 2}]
    assert {s["seat"]: s.get("stack") for s in record_json(public_state(rig.table))["seats"][:3]} == {
        1: 9800, 2: 8000, 3: 12200}


def test_stacks_change_only_between_hands(rig: Rig) -> None:
    push(rig, 2, 100)
    push(rig, 3, 200)
    press(rig, "deal")
    assert rig.table.command("top_up", {"seat": 1, "amount": 500}) == (
        "top_up: seat 1: stacks change only between hands")
    press(rig, "void")
    assert rig.table.command("cash_out", {"seat": 1}) is None
    rig.check_recovery()
    assert 1 not in rig.table.state.session[Stacks].stacks
    assert rig.table.state.session[Button].seat == 1         # a voided hand leaves the button where it was


def test_a_button_refused_gives_the_rules_reason_before_the_spot(rig: Rig) -> None:
    """CHECK facing a bet, BET when a bet stands and RAISE when the betting is capped are refused
    with the rule's own reason, not with "needs the amount on the bet spot" (issue 18 item 5)."""
    push(rig, 2, 100)
    push(rig, 3, 200)
    press(rig, "deal")
    for card in ("7h", "Kc", "2s"):
        rig.card(card)
    assert rig.table.press("check") == "check: seat 1 cannot check: $2.00 to call"
    assert rig.table.press("bet") == "bet: seat 1: there is a bet of $2.00 already: raise, call or fold"
    push(rig, 1, 400)
    press(rig, "raise")
    push(rig, 2, 600)
    press(rig, "raise")
    push(rig, 3, 800)
    press(rig, "raise")
    assert rig.table.press("raise") == \
        "raise: seat 1: the betting is capped (a bet and 3 raises): call or fold"
    assert rig.table.notice == "raise: seat 1: the betting is capped (a bet and 3 raises): call or fold"


def test_an_amount_below_0_or_above_the_ceiling_is_refused_in_every_command() -> None:
    """A negative amount is refused with its reason, in a press, an action and a game command; so is
    an amount above the ceiling of every amount (issue 18 items 6 and 10): where the command is
    decoded, the one place amounts are bounded (the daemon's refusal:
    tests/e2e/test_e2e_hostile_clients.py)."""
    below = "amount -400 is below 0 cents"
    above = "amount is above 1000000000 cents ($10,000,000.00), the most any amount may be"
    for cmd in ("buy_in", "top_up"):
        assert decode({"cmd": cmd, "seat": 4, "amount": -400}) == f"{cmd}: {below}"
        assert decode({"cmd": cmd, "seat": 4, "amount": 10**30}) == f"{cmd}: {above}"
    assert decode({"cmd": "cash_out", "seat": 4, "amount": -400}) == "cash_out takes no field 'amount'"
    assert decode({"cmd": "press", "button": "deal", "amount": -400}) == f"deal: {below}"
    assert decode({"cmd": "act", "action": "call", "amount": 10**30}) == f"call: {above}"
    assert decode({"cmd": "press", "button": "fold", "amount": -1}) == "fold: amount -1 is below 0 cents"


def test_a_stack_without_a_configured_maximum_stops_at_the_ceiling(rig: Rig) -> None:
    """No ``max_buy_in``: a stack still holds at most 10^9 cents (issue 18 item 10)."""
    assert rig.table.command("buy_in", {"cmd": "buy_in", "seat": 4, "amount": 10**9}) is None
    assert rig.table.command("top_up", {"cmd": "top_up", "seat": 4, "amount": 1}) == (
        "top_up: seat 4: a stack may hold at most $10,000,000.00")
