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
from controller.games.holdem_blackjack.hand import HoldemHand, forced_bets
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits
from tests.rigs.table_rig import Rig

DECK = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")


def gather(rig: Rig) -> None:
    """The dealer takes off every spot what the hand no longer has on it."""
    hand = rig.table.state.hand
    committed = hand.committed() if hand is not None and rig.table.phase == "in_hand" else {}
    for (seat, spot), wager in sorted(rig.table.live_spots.items()):
        if wager.amount != committed.get((seat, spot), 0):
            taken = rig.bet(seat, spot, committed.get((seat, spot), 0))
            assert not [e for e in taken if e["type"] == "alert"]


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
        game: HoldemBlackjack = rig.table.game  # type: ignore[assignment]
        place = game.seating(rig.table.state.session)
        assert place is not None
        for seat, (posted_ante, blind) in forced_bets(rules, place, stacks).items():
            if posted_ante + blind:
                rig.bet(seat, "bet", posted_ante + blind)
        rig.press("deal")
        cards = iter(deck)
        for _ in range(300):
            gather(rig)
            if rig.table.phase == "settled":
                break
            decision = rig.table.decision()
            assert decision is not None
            if decision.card is not None and (not decision.actions or data.draw(st.booleans())):
                rig.card(next(cards))
                continue
            action = data.draw(st.sampled_from(sorted(decision.actions)))
            option = decision.actions[action]
            if option.low is not None and option.high is not None:
                assert decision.seat is not None
                rig.bet(decision.seat, "bet", data.draw(st.integers(option.low, option.high)))
            rig.press(action)
        assert rig.table.phase == "settled"
        hand = rig.table.state.hand
        assert isinstance(hand, HoldemHand)
        rig.press("next")
        session = rig.table.state.session
        assert sum(session.stacks.values()) + hand.rake == sum(stacks.values())
        assert all(amount >= 0 for amount in session.stacks.values())
        assert not [e for e in rig.published if e["type"] == "alert"]
