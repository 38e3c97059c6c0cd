"""Every action of a Blackjack Extreme hand by name, with the functions that verify and take it,
as data (:mod:`controller.games.parts.actions`): the hand's ``verify`` and ``act`` look them up here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.blackjack_extreme import betting, dealer, settlement, turns
from controller.games.parts.actions import Action, Actions

if TYPE_CHECKING:
    from controller.games.blackjack_extreme.hand import BlackjackExtremeHand

ACTION_TABLE: Actions[BlackjackExtremeHand] = Actions("Blackjack Extreme", {
    "count": Action(betting.verify_count, betting.count, "Count the dealer's chips",
                    answer="the dealer has {amount}"),
    "decline": Action(betting.verify_decline, betting.decline, "Decline to play"),
    "turn_up": Action(dealer.verify_turn_up, dealer.turn_up, "Turn up card 1 or 2"),
    "check": Action(betting.verify_check, betting.check, "Check"),
    "raise": Action(betting.verify_raise, betting.raise_, "Raise"),
    "fold": Action(betting.verify_fold, betting.fold, "Fold"),
    "surrender": Action(dealer.verify_surrender, dealer.surrender, "Surrender (dealer)"),
    "play": Action(dealer.verify_play, dealer.play, "Play (dealer)"),
    "hit": Action(turns.verify_hit, turns.hit, "Hit"),
    "stand": Action(turns.verify_stand, turns.stand, "Stand"),
    "split": Action(turns.verify_split, turns.split, "Split"),
    "expose": Action(turns.verify_expose, turns.expose, "Expose a card turned up by mistake"),
    "rebuy": Action(settlement.verify_rebuy, settlement.rebuy, "Dealer re-buys"),
    "leave": Action(settlement.verify_leave, settlement.leave, "Dealer leaves", danger=True),
    "next": Action(settlement.verify_next, settlement.next_, "Next"),
})
"""Every action of a hand by name, with the functions that verify and take it."""

ACTIONS = tuple(name for name in ACTION_TABLE.names if name != "next")
"""The actions a hand offers by name; ``next``, the table's own button, walks the short-stack
payments."""
