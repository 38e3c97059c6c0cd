"""Blackjack Extreme on the game-agnostic table, in process, on a real journal.

The rig checks after every step that a table rebuilt from the journal alone is
in the same state. Seat 1 deals; blinds, raises and split bets are read from
the seats' ``main`` spots.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.events.codec import record_json
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.interface import Limits, Tournament
from controller.table.machine import Table, TableSettings
from controller.table.views import dealer_view, public_state
from tests.rigs.table_rig import Rig, types

BUTTONS = ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void")


def table(folder: Path, stacks: dict[int, int], **rules: Any) -> Rig:
    rig = Rig(folder, game=BlackjackExtreme(BlackjackExtremeRules(**rules), Limits(500, 50000)),
              buttons=BUTTONS)
    for seat, amount in stacks.items():
        assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
    rig.check_recovery()
    return rig


def alerts(events: list[dict[str, Any]]) -> list[str]:
    return [event["data"]["code"] for event in events if event["type"] == "alert"]


def test_a_hand_with_a_raise_a_fold_and_a_split_read_from_the_spots(tmp_path: Path) -> None:
    rig = table(tmp_path, {1: 50000, 2: 20000, 3: 20000, 4: 20000})
    rig.ready(s2_main=1000, s3_main=1000, s4_main=1000)
    assert record_json(public_state(rig.table))["session"]["button"] is None
    started = rig.press("deal")
    assert types(started) == ["hand.started", "bets.closed", "button.moved"]
    assert started[0]["data"] == {"seats": [2, 3, 4], "dealer_seat": 1}
    assert started[2]["data"] == {"seat": 1}          # the first hand sets the button (issue 18 item 16)
    assert record_json(public_state(rig.table))["session"]["button"] == 1
    dealt = [rig.card(card)[0] for card in ("8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s")]
    assert [event["data"]["card"] for event in dealt] == [None, None, None, None, "8d", "Tc", "Td", None]
    assert rig.table.live_buttons() == ("void",)                  # the dealer's choice is a command
    assert "turn one up: “Turn up card 1 or 2”" in dealer_view(rig.table).instruction
    assert rig.table.press("turn_up", 3) == (
        "turn_up: turn_up takes 1 (the dealer's first card) or 2 (her second)")
    assert types(rig.press("turn_up", 2)) == ["player.action", "card.revealed"]

    assert rig.table.press("raise") == ("raise: seat 2: a raise makes the bet at least $20.00 (double the "
                                        "$10.00 blind); the spot reads $10.00")
    assert alerts(rig.bet(2, "main", 3000)) == []                 # chips for a raise, in turn
    raised = rig.press("raise")
    assert raised[0]["data"] == {"seat": 2, "hand_index": 0, "action": "raise", "amount": 3000}
    assert alerts(rig.bet(4, "main", 5000)) == ["past_post"]      # seat 4 is not in turn
    assert alerts(rig.bet(4, "main", 1000)) == []                 # back as it was
    rig.press("check")
    folded = rig.press("fold")
    assert folded[0]["data"]["amount"] == 500                     # the dealer's half
    assert alerts(rig.bet(4, "main", 500)) + alerts(rig.bet(4, "main", 0)) == []   # halves taken away
    assert rig.table.live_buttons() == ("surrender", "play", "void")
    shown = rig.press("play")
    assert [e["data"]["card"] for e in shown if e["type"] == "card.revealed"] == ["8h", "9c"]

    assert alerts(rig.bet(2, "main", 6000)) == []                 # the split's matching bet
    split = rig.press("split")
    assert split[0]["data"] == {"seat": 2, "hand_index": 0, "action": "split", "amount": 3000}
    rig.card("3c")
    rig.card("Tc")                                                # hand 1: 8 3 T = 21
    rig.card("Kc")                                                # hand 2: 8 K = 18
    rig.press("stand")
    settled = rig.press("stand")                                  # seat 3 stands on 19: 17 stands
    assert settled[-1]["type"] == "hand.settled"
    assert [(r["seat"], r["hand_index"], r["payout"]) for r in settled[-1]["data"]["results"]] == [
        (2, 0, 3000), (2, 1, 3000), (3, 0, 1000), (4, 0, -500)]
    view = dealer_view(rig.table)
    assert view.payouts[0] == "Collect $5.00 from the losing bets (seat 4 $5.00)"
    assert view.dealer_seat == 1
    ended = rig.press("next")
    stacks = [(e["data"]["seat"], e["data"]["amount"]) for e in ended if e["type"] == "seat.stack"]
    assert stacks == [(2, 26000), (3, 21000), (4, 19500), (1, 43500)]
    assert [e["data"] for e in ended if e["type"] == "button.moved"] == [{"seat": 2}]
    assert record_json(public_state(rig.table))["seats"][0]["stack"] == 43500


SHORT = {1: 3000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}


def short_hand(rig: Rig) -> None:
    """The seed's short-stack example: a natural, a split pair of nines, a bust, a winner, and a
    busted dealer with $30.00 (tests/games/blackjack_extreme/test_short_stack.py)."""
    rig.ready(s2_main=1000, s3_main=1500, s4_main=1000, s5_main=1500)
    rig.press("deal")
    for card in ("Ah", "9c", "Td", "Th", "Ts", "Kh", "9d", "6c", "9s", "6s"):
        rig.card(card)
    rig.press("turn_up", 2)
    rig.press("check")
    rig.bet(3, "main", 3000)
    rig.press("raise")
    rig.press("check")
    rig.press("check")
    rig.press("play")
    rig.bet(3, "main", 6000)
    rig.press("split")
    rig.card("Tc")
    rig.press("stand")
    rig.card("Jc")
    rig.press("stand")
    rig.card("Kc")
    rig.press("stand")
    rig.card("9h")


def test_the_short_stack_payments_walk_the_dealer_through_the_order(tmp_path: Path) -> None:
    rig = table(tmp_path, SHORT, format="ring")
    short_hand(rig)
    assert rig.table.phase == "in_hand" and rig.table.live_buttons() == ("void",)
    assert rig.table.press("next") is not None                    # the dealer must choose first
    rig.press("leave")
    view = dealer_view(rig.table)
    assert view.instruction.startswith("Step 1 of 7: Collect $10.00")
    assert view.payouts[1] == "2. Pay seat 2 $15.00: natural 3:2"
    assert "next" in rig.table.live_buttons()
    assert alerts(rig.bet(4, "main", 0)) == []                    # the loser's chips collected
    rig.press("next")
    assert alerts(rig.bet(3, "main", 6500)) == ["past_post"]      # seat 3 paid out of order
    rig.bet(3, "main", 6000)
    assert alerts(rig.bet(2, "main", 2500)) == []                 # seat 2's natural paid on its spot
    for _ in range(5):
        rig.press("next")
    assert alerts(rig.bet(3, "main", 0)) + alerts(rig.bet(5, "main", 0)) == []   # pulled back
    settled = rig.press("next")
    assert settled[-1]["type"] == "hand.settled"
    ended = rig.press("next")
    assert {(e["data"]["seat"], e["data"]["amount"], e["data"]["reason"])
            for e in ended if e["type"] == "seat.stack" and e["data"]["seat"] == 1} == {
        (1, 0, "result"), (1, 0, "cash_out")}
    assert record_json(public_state(rig.table))["seats"][0].get("stack") is None


def test_void_turns_every_hidden_card_up_before_the_hand_is_voided(tmp_path: Path) -> None:
    rig = table(tmp_path, {1: 50000, 2: 20000, 3: 20000})
    rig.ready(s2_main=1000, s3_main=1000)
    rig.press("deal")
    for card in ("9h", "8c", "Ts", "Kh"):
        rig.card(card)
    published = list(rig.published)
    assert all(e["data"].get("card") not in ("9h", "8c", "Ts") for e in published)
    voided = rig.press("void")
    assert [(e["type"], e["data"].get("card")) for e in voided] == [
        ("card.revealed", "9h"), ("card.revealed", "8c"), ("card.revealed", "Ts"), ("hand.voided", None)]
    assert rig.table.phase == "betting"


def test_a_card_turned_up_by_mistake_is_made_public_by_a_command(tmp_path: Path) -> None:
    rig = table(tmp_path, {1: 50000, 2: 20000})
    rig.ready(s2_main=1000)
    rig.press("deal")
    rig.card("9h")
    exposed = rig.press("expose", 2)
    assert [(e["type"], e["data"].get("card")) for e in exposed] == [("player.action", None),
                                                                    ("card.revealed", "9h")]
    assert record_json(public_state(rig.table))["seats"][1]["cards"] == ["9h"]


class ClockRig(Rig):
    """A rig whose table clock the test sets."""

    now = "2027-03-01T20:00:00.000Z"

    def _table(self, write: Any) -> Table:
        settings = TableSettings("T01", "blackjack-extreme", 6, {"min_bet": 500, "max_bet": 50000},
                                 self.buttons, ("shoe", "rfid"))
        return Table(settings, self.game, clock=lambda: type(self).now, write=write)


def test_the_tournament_clock_is_journaled_and_a_rebuilt_table_keeps_it(tmp_path: Path) -> None:
    rig = ClockRig(tmp_path, game=BlackjackExtreme(BlackjackExtremeRules(format="tournament",
                                                                        level_minutes=10),
                                                   Limits(500, 50000)), buttons=BUTTONS)
    for seat in (1, 2, 3):
        assert rig.table.command("buy_in", {"seat": seat}) is None
    rig.table.tick()
    assert rig.published[-1]["type"] == "seat.stack"               # no clock before the deal is given
    assert rig.table.command("button", {"seat": 1}) is None
    rig.table.tick()
    assert rig.published[-1]["data"] == {"level": 1, "blinds": [2000, 4000, 6000],
                                         "ends_at": "2027-03-01T20:10:00.000Z"}
    ClockRig.now = "2027-03-01T20:10:00.500Z"
    rig.table.tick()
    assert rig.published[-1]["type"] == "tournament.level" and rig.published[-1]["data"]["level"] == 2
    rebuilt = rig.rebuilt()
    assert (rebuilt.state.session[Tournament].level, rebuilt.state.session[Tournament].ends_at) == (
        2, "2027-03-01T20:20:00.000Z")
    rig.check_recovery()
    rig.ready(s2_main=2000)
    assert rig.table.deal_problems() == ["seat 2 blind $20.00 is below the $40.00 minimum",
                                         "seat 3 must play: the dealer (seat 1, $2,000.00) can pay it at "
                                         "least the $40.00 minimum"]


@pytest.fixture(autouse=True)
def _clock_reset() -> None:
    ClockRig.now = "2027-03-01T20:00:00.000Z"
