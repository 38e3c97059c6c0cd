"""The table with a game it was not shaped by: amounts from the spots, a split, stacks.

The toy game (``tests/table/toy_game.py``) raises with an amount read from the
RFID spot, splits into two hands whose cards are second targets, deals a card
face down to a seat, and keeps stacks changed by buy-ins and results. The rig
checks after every step that a table rebuilt from the journal alone is the same.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.events.codec import record_json
from controller.games.interface import Stacks
from controller.table.views import dealer_view, public_state
from tests.rigs.table_rig import Rig, types
from tests.table.toy_game import Toy, ToyRound

BUTTONS = ("deal", "stand", "raise", "split", "next", "void")


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    table = Rig(tmp_path, game=Toy(), buttons=BUTTONS)
    table.ready()
    return table


def command(rig: Rig, name: str, **args: object) -> tuple[str | None, list[dict[str, object]]]:
    before = len(rig.published)
    reason = rig.table.command(name, args)
    rig.check_recovery()
    return reason, rig.published[before:]


def stacks(rig: Rig) -> dict[int, int]:
    return dict(rig.table.state.session[Stacks].stacks)


def test_buy_ins_are_stack_events_and_bets_are_checked_against_the_stack(rig: Rig) -> None:
    reason, events = command(rig, "buy_in", seat=1, amount=10000)
    assert reason is None
    assert [(e["type"], e["data"]) for e in events] == [
        ("seat.stack", {"seat": 1, "amount": 10000, "reason": "buy_in"})]
    refused = command(rig, "buy_in", seat=1, amount=100)[0]
    assert refused == "buy_in: seat 1 already has a stack: top up instead"
    assert command(rig, "dance", seat=1)[0] == "unknown command 'dance'"
    assert command(rig, "buy_in", seat=7, amount=1000)[0] == (
        "buy_in: there is no seat 7 at this table (seats 1 to 6)")
    rig.bet(1, "main", 20000)
    assert rig.table.refusal("deal") == "seat 1 bets 20000 with a stack of 10000"
    rig.bet(1, "main", 1000)
    rig.press("deal")
    assert command(rig, "cash_out", seat=1)[0] == "cash_out: seat 1: stacks change only between hands"
    assert stacks(rig) == {1: 10000}


def test_raise_split_and_second_targets_through_the_table(rig: Rig) -> None:
    command(rig, "buy_in", seat=1, amount=10000)
    command(rig, "buy_in", seat=2, amount=5000)
    rig.bet(1, "main", 1000)
    rig.bet(2, "main", 1000)
    rig.press("deal")
    rig.card("8h")
    rig.card("9c")
    down = rig.card("8d")[0]["data"]
    assert (down["seat"], down["card"], down["face_up"]) == (1, None, False)
    rig.card("5s")
    rig.card("Kc")
    assert "8d" not in json.dumps(rig.published) and "5s" not in json.dumps(rig.published)
    assert rig.table.seat_in_turn() == 1
    assert rig.table.live_buttons() == ("stand", "raise", "split", "void")

    # Seat 1 pushes chips for its split: its own action's spot, within range: no alert.
    assert rig.bet(1, "main", 2000) == []
    # Seat 2 is not in turn: chips added there are past posting; taking them back is not.
    alert = rig.bet(2, "main", 1500)
    assert types(alert) == ["alert"] and alert[0]["data"]["code"] == "past_post"
    assert alert[0]["data"]["seat"] == 2 and alert[0]["data"]["closed"] == 1000
    assert rig.bet(2, "main", 1000) == []

    split = rig.press("split")
    assert types(split) == ["player.action", "card.revealed"]
    assert split[0]["data"] == {"seat": 1, "hand_index": 0, "action": "split", "amount": 2000}
    assert split[1]["data"]["card"] == "8d"
    assert rig.table.hand is not None and rig.table.hand.committed()[(1, "main")] == 2000
    first = rig.card("2h")[0]["data"]
    assert (first["seat"], first["hand_index"]) == (1, 0)
    rig.press("stand")                               # the first hand is played before the second
    second = rig.card("Th")[0]["data"]
    assert (second["seat"], second["hand_index"]) == (1, 1)
    seat_one = record_json(public_state(rig.table))["seats"][0]
    assert [h["cards"] for h in seat_one["hands"]] == [["8h", "2h"], ["8d", "Th"]]
    rig.press("stand")

    # Seat 2 raises with the amount its spot reads; too little is refused with the amounts.
    assert rig.table.seat_in_turn() == 2
    rig.bet(2, "main", 1500)
    refused = rig.table.press("raise")
    assert refused == "raise: seat 2: raise needs 2000 to 5000 cents on the spot, it reads 1500"
    assert rig.table.notice is not None and "1500" in (dealer_view(rig.table).notice or "")
    rig.bet(2, "main", 3000)
    raised = rig.press("raise")
    assert types(raised) == ["player.action", "card.revealed", "hand.settled"]
    assert raised[0]["data"]["amount"] == 3000 and raised[1]["data"]["card"] == "5s"
    results = [(r["seat"], r["hand_index"], r["payout"]) for r in raised[2]["data"]["results"]]
    assert results == [(1, 0, 0), (1, 1, 1000), (2, 0, 3000)]
    assert rig.table.phase == "settled"
    # A seat that split numbers every hand from 1 ("hand N" is hand_index N-1); one hand, none.
    view = dealer_view(rig.table)
    assert view.payouts == ("Seat 1 main hand 1: PUSH", "Seat 1 main hand 2: PAY $10.00",
                            "Seat 2 main: PAY $30.00")
    assert [seat.result for seat in view.seats] == ["main hand 1: push; main hand 2: pay $10.00",
                                                    "main: pay $30.00"]
    assert rig.bet(2, "main", 0) == []               # paying and collecting: not checked

    ended = rig.press("next")
    assert [(e["type"], e["data"].get("amount")) for e in ended][:3] == [
        ("seat.stack", 11000), ("seat.stack", 8000), ("hand.ended", None)]
    assert stacks(rig) == {1: 11000, 2: 8000}
    assert sum(stacks(rig).values()) == 15000 + 1000 + 3000   # what the house paid out


def test_a_game_action_the_game_does_not_offer_now_is_refused_in_its_words(rig: Rig) -> None:
    command(rig, "buy_in", seat=1, amount=10000)
    rig.bet(1, "main", 1000)
    rig.press("deal")
    assert rig.table.press("raise") == "raise: no seat is in turn"
    assert rig.table.press("fold") == "fold: this game does not use that button"
    rig.card("8h")
    rig.card("8d")
    rig.card("Kc")
    assert rig.table.live_buttons() == ("stand", "raise", "split", "void")
    rig.press("stand")
    assert rig.table.phase == "settled" and rig.table.live_buttons() == ("next",)
    assert rig.table.press("void") == "void: the hand is settled: pay and collect, then press NEXT"


def test_the_game_verifies_each_action_once(rig: Rig, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: pressing STAND asks the game once whether it may (its ``verify``), not once to
    say why not and again to take it; a refused action is verified once too."""
    verified: list[str] = []
    real = ToyRound.verify

    def counted(hand: ToyRound, action: str, amount: int | None = None) -> None:
        verified.append(action)
        real(hand, action, amount)

    command(rig, "buy_in", seat=1, amount=10000)
    rig.bet(1, "main", 1000)
    rig.press("deal")
    for card in ("8h", "8d", "Kc"):
        rig.card(card)
    assert rig.table.seat_in_turn() == 1
    monkeypatch.setattr(ToyRound, "verify", counted)
    assert rig.table.press("raise", 100) is not None          # refused: verified once, to say why
    assert verified == ["raise"]
    before = len(rig.published)
    assert rig.table.press("stand") is None
    assert verified == ["raise", "stand"]
    assert types(rig.published[before:])[0] == "player.action"
