"""One hand of Blackjack Extreme: frozen, where play stands, and what the table asks of it.

The phases, in order (``docs/games/blackjack-extreme.md`` says it in words):

- ``blinds``: the blinds are in. Every player may ask for the dealer's chip
  count; a player the dealer cannot pay the minimum may decline. The first
  card dealt closes it.
- ``dealing``: one card down to each player from the dealer's left, the
  dealer's first card down, one card up to each player, the dealer's second
  card down.
- ``upcard``: the dealer turns up the card of her choice (``turn_up`` 1 or 2).
- ``betting``: from the dealer's left, each player checks, raises (the main
  spot to at least double the blind, at most the stack) or folds (keeping half
  the blind).
- ``dealer_choice``: the dealer surrenders (half the blind to every player
  still in) or plays; on ``play`` the players' down cards are turned up and
  naturals are done.
- ``players``: from the dealer's left, each hand in turn takes cards (a card
  from the shoe is a hit), stands or splits; raised hands must take a card.
- ``dealer``: the dealer's hole card is turned up and she draws by her rule.
- ``paying``: only when the dealer cannot pay every winner in full: in a ring
  game she re-buys to cover or leaves; then the dealer is walked through the
  short-stack payment order, one line per ``next``.
- ``complete``: settled.

A card drawn from the shoe goes where :meth:`~BlackjackExtremeHand.decision` says. Amounts
are cents.

Each action is a ``verify_x`` and an ``x`` function, dispatched by name through
:data:`~controller.games.blackjack_extreme.actions.ACTION_TABLE`: the blinds and
the betting round in :mod:`~controller.games.blackjack_extreme.betting`, the
dealer's up card, choice and turn in :mod:`~controller.games.blackjack_extreme.dealer`,
the play of the hands in :mod:`~controller.games.blackjack_extreme.turns`, the
results and the short-stack payments in
:mod:`~controller.games.blackjack_extreme.settlement`. What is open now is
:mod:`~controller.games.blackjack_extreme.offers`; what the dealer is told and
the public sees is :mod:`~controller.games.blackjack_extreme.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Literal, TypedDict, Unpack

from controller.games.blackjack_extreme.actions import ACTION_TABLE
from controller.games.blackjack_extreme.dealer import dealer_turn
from controller.games.blackjack_extreme.offers import card_target, deal_target, decider, options
from controller.games.blackjack_extreme.payments import Claim, Line, owed_in_full, paid
from controller.games.blackjack_extreme.play import BLACKJACK, DealerMove, dealer_rule
from controller.games.blackjack_extreme.play import count as count_of
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.seats import SPOT, Held, PlayHand, SeatPlay, SeatState
from controller.games.blackjack_extreme.settlement import committed_paying, settle
from controller.games.blackjack_extreme.words import prompt, public_view
from controller.games.interface import (
    Dealt,
    Decision,
    GameEvent,
    Hand,
    HandView,
    Revealed,
    RuleError,
    WagerResult,
)
from firmware_bridge.kernel.cards import Card

Phase = Literal["blinds", "dealing", "upcard", "betting", "dealer_choice", "players", "dealer",
                "paying", "complete"]
PHASES: tuple[Phase, ...] = ("blinds", "dealing", "upcard", "betting", "dealer_choice", "players",
                             "dealer", "paying", "complete")
FLOW: tuple[tuple[Phase, Phase], ...] = (
    ("blinds", "dealing"), ("blinds", "complete"),
    ("dealing", "upcard"), ("dealing", "betting"), ("upcard", "betting"),
    ("betting", "dealer_choice"), ("betting", "paying"), ("betting", "complete"),
    ("dealer_choice", "players"), ("dealer_choice", "dealer"), ("dealer_choice", "paying"),
    ("dealer_choice", "complete"),
    ("players", "dealer"), ("dealer", "paying"), ("dealer", "complete"), ("paying", "complete"),
)
"""How a hand moves between its phases: everyone declining ends it at once; an up card already
shown by mistake skips the choice; all folded, or a surrender, settles before play; a table of
naturals goes straight to the dealer's reveal."""

Moved = tuple["BlackjackExtremeHand", tuple[GameEvent, ...]]
"""A hand after a card or an action, and the events it brought."""


class SeatChanges(TypedDict, total=False):
    """What :meth:`BlackjackExtremeHand.with_seat` may change of a :class:`SeatPlay`."""

    state: SeatState
    acted: bool
    raised: bool
    hands: tuple[PlayHand, ...]


@dataclass(frozen=True)
class BlackjackExtremeHand(Hand):
    """One hand: the players clockwise from the dealer's left, the dealer's cards, where play stands.

    ``dealer_stack`` is the dealer's stack at the start (what she can pay out
    besides what she collects); ``required`` the seats that had to play;
    ``claims``/``lines`` the results and payment lines once known, ``confirmed``
    the short-stack payment steps done.
    """

    rules: BlackjackExtremeRules
    minimum: int
    dealer_seat: int
    dealer_stack: int
    required: tuple[int, ...]
    seats: tuple[SeatPlay, ...]
    dealer: tuple[Held, ...] = ()
    phase: Phase = "blinds"
    hit_called: bool = False
    surrendered: bool = False
    dealer_stood: bool = False
    rebought: int = 0
    dealer_left: bool = False
    claims: tuple[Claim, ...] = ()
    lines: tuple[Line, ...] = ()
    confirmed: int = 0
    settlement: tuple[WagerResult, ...] | None = None

    # -- where things stand -------------------------------------------------------

    def seat(self, number: int) -> SeatPlay:
        """The seat ``number`` in this hand; raises RuleError if it is not in it."""
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise RuleError(f"seat {number} is not in this hand")

    def playing(self) -> tuple[SeatPlay, ...]:
        """The seats still in the hand, clockwise."""
        return tuple(seat for seat in self.seats if seat.playing)

    def betting_turn(self) -> SeatPlay | None:
        """The seat to act in the betting round, if any."""
        return next((seat for seat in self.playing() if not seat.acted), None)

    def play_turn(self) -> tuple[SeatPlay, int] | None:
        """The seat and hand index in turn while players take cards, if any."""
        for seat in self.playing():
            for index, hand in enumerate(seat.hands):
                if not hand.done:
                    return seat, index
        return None

    def dealer_count(self, shown_only: bool = False) -> tuple[int, ...]:
        """The points of the dealer's cards (only those shown, with ``shown_only``)."""
        return tuple(held.points for held in self.dealer if held.shown or not shown_only)

    def heads_up_losing(self) -> bool:
        """Whether the dealer may draw to a losing hard 17 to 20: ``heads_up_draw`` is on, only
        one player has hands the dealer's cards can still change, and one of them beats hers."""
        if not self.rules.heads_up_draw:
            return False
        live = [seat for seat in self.seats if seat.live()]
        if len(live) != 1:
            return False
        mine = count_of(self.dealer_count()).points
        return any(h.total(live[0].raised).points > mine for h in live[0].live())

    def steps(self) -> int:
        """The short-stack payment steps: each line, and one for the pull-back if anyone is unpaid."""
        return len(self.lines) + (1 if self.unpaid() else 0)

    def unpaid(self) -> tuple[Claim, ...]:
        """The winning claims the lines leave short: their players pull back their bets."""
        net = paid(self.claims, self.lines)
        return tuple(c for c in self.claims if c.owed > 0 and net[(c.seat, c.hand_index)] < c.owed)

    def dealer_move(self) -> DealerMove:
        """What the dealer's cards allow now: must hit, may choose, or must (or did) stand."""
        if self.dealer_stood:
            return "stand"
        return dealer_rule(count_of(self.dealer_count()), self.heads_up_losing())

    def choice_pending(self) -> bool:
        """A ring game's dealer who cannot pay in full has not yet chosen to re-buy or leave."""
        return (self.phase == "paying" and not self.rules.tournament and not self.dealer_left
                and self.rebought == 0)

    def shortfall(self) -> int:
        """What the dealer lacks to pay every winner in full, once the losers are collected."""
        claims = self.claims
        return max(0, owed_in_full(claims) - self.dealer_stack - self.rebought
                   - sum(-c.owed for c in claims if c.owed < 0))

    def results(self) -> tuple[WagerResult, ...] | None:
        """Every wager's result once the hand is settled."""
        return self.settlement

    def house_result(self) -> int:
        """Nothing: the players bank each other and the house only deals."""
        return 0

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

    def deal(self, card: Card, index: int) -> Moved:
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

    def with_hand(self, seat_number: int, index: int,
                  change: Callable[[PlayHand], PlayHand]) -> BlackjackExtremeHand:
        """This hand with ``change`` made to hand ``index`` of seat ``seat_number`` (in play, a hand
        at 21 or over is then done)."""
        seats = []
        for seat in self.seats:
            if seat.seat == seat_number:
                hands = list(seat.hands)
                hands[index] = change(hands[index])
                hands[index] = _settle_hand(hands[index], seat.raised) if self.phase == "players" \
                    else hands[index]
                seat = replace(seat, hands=tuple(hands))
            seats.append(seat)
        return replace(self, seats=tuple(seats))

    def with_seat(self, seat_number: int, **changes: Unpack[SeatChanges]) -> BlackjackExtremeHand:
        """This hand with ``changes`` made to seat ``seat_number``."""
        seats = tuple(replace(seat, **changes) if seat.seat == seat_number else seat
                      for seat in self.seats)
        return replace(self, seats=seats)

    # -- actions ----------------------------------------------------------------------

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError unless ``action`` with ``amount`` is allowed now, saying why."""
        found = ACTION_TABLE.find(action)
        if self.phase == "complete":
            raise RuleError("the hand is settled")
        found.verify(self, amount)

    def take(self, action: str, amount: int | None = None) -> Moved:
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

    def progress(self) -> Moved:
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


def _settle_hand(hand: PlayHand, raised: bool) -> PlayHand:
    """A hand in play is over by itself at 21 or over."""
    if len(hand.cards) >= 2 and hand.total(raised).points >= BLACKJACK:
        return replace(hand, done=True)
    return hand
