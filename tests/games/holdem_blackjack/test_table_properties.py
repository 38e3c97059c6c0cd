"""Hypothesis at the table: random hands played as a dealer would, on a real journal.

Stacks are bought in by command, blinds and antes put on the spots, every
action's chips pushed onto the spot of the seat in turn before its button is
pressed, bets gathered off the spots when a round ends, the pots pushed and
the spots cleared before NEXT. Whatever the actions: nothing is refused and
no alert is raised, the table rebuilt from the journal equals the live one
after every step (the rig checks it), and the stacks after the hand and the
rake add up to the stacks before it.
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.hand import HoldemHand
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits, Stacks
from tests.rigs.holdem_hands import DECK, play_to_settlement
from tests.rigs.table_rig import Rig

BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(),
       stacks=st.dictionaries(st.integers(1, 6), st.sampled_from([300, 1000, 4000, 20000]),
                              min_size=2, max_size=4),
       ante=st.sampled_from([0, 100]), rake=st.sampled_from([0, 10]), deck=st.permutations(DECK))
def test_random_hands_at_the_table_keep_every_chip_and_replay_exactly(
        data: st.DataObject, stacks: dict[int, int], ante: int, rake: int, deck: list[str]) -> None:
    rules = HoldemBlackjackRules(ante=ante, rake_percent=rake, rake_cap=500, min_buy_in=100)
    with TemporaryDirectory() as folder:
        rig = Rig(Path(folder), game=HoldemBlackjack(rules, Limits(100, 100_000)), buttons=BUTTONS)
        rig.ready()
        for seat, amount in sorted(stacks.items()):
            assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
        play_to_settlement(rig, rules, data, stacks, deck)
        hand = rig.table.state.hand
        assert isinstance(hand, HoldemHand)
        rig.press("next")
        session = rig.table.state.session
        assert sum(session[Stacks].stacks.values()) + hand.rake == sum(stacks.values())
        assert all(amount >= 0 for amount in session[Stacks].stacks.values())
        assert not [e for e in rig.published if e["type"] == "alert"]
