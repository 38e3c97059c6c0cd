"""One hand of Blackjack Extreme as the table takes it: :class:`BlackjackExtremeHand`, the hand's
record (:class:`~controller.games.blackjack_extreme.hand_state.HandState`: where play stands, and
its phases) with the one question :meth:`~BlackjackExtremeHand.decision`, a card dealt, an action
verified and taken, and moving on by itself.

A card drawn from the shoe goes where :meth:`~BlackjackExtremeHand.decision` says. Amounts
are cents.

Each action is a ``verify_x`` and an ``x`` function, dispatched by name through
:data:`ACTION_TABLE`: the blinds and
the betting round in :mod:`~controller.games.blackjack_extreme.betting`, the
dealer's up card, choice and turn in :mod:`~controller.games.blackjack_extreme.dealer`,
the play of the hands in :mod:`~controller.games.blackjack_extreme.turns`, the
results and the short-stack payments in
:mod:`~controller.games.blackjack_extreme.settlement`. What is open now is
:mod:`~controller.games.blackjack_extreme.offers`; what the dealer is told and
the public sees is :mod:`~controller.games.blackjack_extreme.words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.games.blackjack_extreme import betting, dealer, settlement, turns
from controller.games.blackjack_extreme.dealer import dealer_turn
from controller.games.blackjack_extreme.hand_state import HandState
from controller.games.blackjack_extreme.offers import card_target, deal_target, decider, options
from controller.games.blackjack_extreme.seats import SPOT, Held, PlayHand
from controller.games.blackjack_extreme.settlement import committed_paying, settle
from controller.games.blackjack_extreme.words import prompt, public_view
from controller.games.interface import Dealt, Decision, GameEvent, HandView, Revealed, RuleError
from controller.games.parts.actions import Action, Actions, Moved
from firmware_bridge.kernel.cards import Card

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


@dataclass(frozen=True)
class BlackjackExtremeHand(HandState):
    """One hand: its record (:class:`~controller.games.blackjack_extreme.hand_state.HandState`) and
    what the table asks of it."""

    # -- the one question -----------------------------------------------------------

    def decision(self) -> Decision | None:
        """Who decides now, what they may do, and where a card drawn now goes; None once settled."""
        if self.phase == "complete":
            return None
        target = card_target(self)
        actions = options(self)
        seat = decider(self)
        index = 0
        turn = self.play_turn() if self.phase == "players" else None
        if turn is not None:
            index = turn[1]
        return Decision(seat, index, actions, target, prompt(self, target))

    # -- cards ----------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now, saying what the hand waits for."""
        if card_target(self) is None:
            decision = self.decision()
            waiting = decision.prompt if decision is not None else "the hand is settled"
            raise RuleError(f"no card now: {waiting}")

    def deal(self, card: Card, index: int) -> Moved[BlackjackExtremeHand]:
        """Put ``card`` (shoe ``index``) where the decision says; the events start with ``Dealt``."""
        self.verify_deal()
        target = card_target(self)
        assert target is not None
        held = Held(card, index, target.face_up)
        hand = replace(self, hit_called=False, phase="dealing" if self.phase == "blinds" else self.phase)
        if target.to == "dealer":
            hand = replace(hand, dealer=(*hand.dealer, held))
        else:
            assert target.seat is not None
            hand = hand.with_hand(target.seat, target.hand_index, lambda h: _add(h, held, self.phase))
        hand, events = hand.progress()
        return hand, (Dealt(target, card, index), *events)

    # -- actions ----------------------------------------------------------------------

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError unless ``action`` with ``amount`` is allowed now, saying why."""
        found = ACTION_TABLE.find(action)
        if self.phase == "complete":
            raise RuleError("the hand is settled")
        found.verify(self, amount)

    def take(self, action: str, amount: int | None = None) -> Moved[BlackjackExtremeHand]:
        """Take ``action`` (:meth:`verify` allowed it); the events start with its ``Acted`` record."""
        return ACTION_TABLE.take(self, action, amount)

    # -- what the table checks and shows ------------------------------------------

    def committed(self) -> Mapping[tuple[int, str], int]:
        """What each main spot should hold now: the blind, then the raised bet and split bets; a
        declined or folded seat's spot empties; once results are known, losers are collected,
        winners are paid line by line (the line on the display included) and the unpaid pull back."""
        if self.claims:
            return committed_paying(self)
        held: dict[tuple[int, str], int] = {}
        for seat in self.seats:
            if seat.playing:
                held[(seat.seat, SPOT)] = seat.staked()
        return held

    def staked(self) -> Mapping[int, int]:
        """Each seat's chips out of its stack: a player's blind, raises and split bets; in a
        payment walk, the player-dealer's too (what it paid onto the spots, less what it took
        off them). None once settled: the spots are the seats' own then, in their stacks until
        NEXT moves them (a folded blind the dealer took counts in the folder's stack until then)."""
        if self.phase == "complete":
            return {}
        if not self.claims:
            return {seat.seat: seat.staked() for seat in self.seats if seat.playing}
        held: dict[int, int] = {}
        for claim in self.claims:
            held[claim.seat] = held.get(claim.seat, 0) + claim.wager
        paid = sum(self.committed().values()) - sum(held.values())
        held[self.dealer_seat] = held.get(self.dealer_seat, 0) + paid
        return held

    def view(self) -> HandView:
        """What the public may see now (:func:`~controller.games.blackjack_extreme.words.public_view`)."""
        return public_view(self)

    def void(self) -> tuple[GameEvent, ...]:
        """A misdeal: every face-down card is turned up before the cards are mucked."""
        events: list[GameEvent] = []
        for seat in self.seats:
            for index, hand in enumerate(seat.hands):
                events.extend(Revealed("seat", seat.seat, index, h.card, h.index)
                              for h in hand.cards if not h.shown)
        events.extend(Revealed("dealer", self.dealer_seat, 0, h.card, h.index)
                      for h in self.dealer if not h.shown)
        return tuple(events)

    # -- moving on by itself ------------------------------------------------------

    def progress(self) -> Moved[BlackjackExtremeHand]:
        """Move on as far as the rules go without a card or a decision."""
        hand = self
        if hand.phase in ("blinds", "dealing") and not hand.playing():
            return settle(hand)
        if hand.phase == "dealing" and deal_target(hand) is None:
            shown = any(held.shown for held in hand.dealer)
            hand = replace(hand, phase="betting" if shown else "upcard")
        if hand.phase == "betting" and hand.betting_turn() is None:
            if not hand.playing():
                return settle(hand)
            hand = replace(hand, phase="dealer_choice")
        if hand.phase == "players" and hand.play_turn() is None:
            return dealer_turn(hand)
        if hand.phase == "dealer" and (hand.dealer_move() == "stand"
                                       or not any(seat.live() for seat in hand.seats)):
            return settle(hand)
        return hand, ()


def _add(hand: PlayHand, held: Held, phase: str) -> PlayHand:
    """``hand`` with one more card; a card after the first deal is a draw."""
    return replace(hand, cards=(*hand.cards, held), drew=hand.drew or phase == "players")


