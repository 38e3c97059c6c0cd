"""Random Hold'em Blackjack hands played at an in-process table as a dealer would play them.

Blinds and antes are put on the spots, every action's chips pushed onto the
spot of the seat in turn before its button is pressed, and bets gathered off
the spots when a round ends; no alert may come of any of it. Used by the
game's property test and by the pit monitor's tests.
"""

from __future__ import annotations

from hypothesis import strategies as st

from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.hand import forced_bets
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from tests.rigs.table_rig import Rig

DECK = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]


def gather(rig: Rig) -> None:
    """The dealer takes off every spot what the hand no longer has on it."""
    hand = rig.table.state.hand
    committed = hand.committed() if hand is not None and rig.table.phase == "in_hand" else {}
    for (seat, spot), wager in sorted(rig.table.live_spots.items()):
        if wager.amount != committed.get((seat, spot), 0):
            taken = rig.bet(seat, spot, committed.get((seat, spot), 0))
            assert not [e for e in taken if e["type"] == "alert"]


def play_to_settlement(rig: Rig, rules: HoldemBlackjackRules, data: st.DataObject,
                       stacks: dict[int, int], deck: list[str]) -> None:
    """The forced bets, the deal, and random actions until the hand is settled."""
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
