"""Hands played at an in-process table for the monitor's tests: random Hold'em Blackjack hands."""

from __future__ import annotations

from hypothesis import strategies as st

from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from tests.rigs.holdem_hands import play_to_settlement
from tests.rigs.table_rig import Rig


def random_holdem_hand(rig: Rig, rules: HoldemBlackjackRules, data: st.DataObject, stacks: dict[int, int],
                       deck: list[str]) -> None:
    """Buy-ins, the forced bets, one hand of random actions as a dealer would play it, and NEXT."""
    for seat, amount in sorted(stacks.items()):
        assert rig.table.command("buy_in", {"cmd": "buy_in", "seat": seat, "amount": amount}) is None
        rig.check_recovery()
    play_to_settlement(rig, rules, data, stacks, deck)
    rig.press("next")
