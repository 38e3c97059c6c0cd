"""Where a Blackjack Extreme hand stands: :class:`HandState`, the frozen record of one hand (the seats,
the dealer's cards, its phase, its claims and payment lines once known) and what it answers of itself.

:class:`~controller.games.blackjack_extreme.hand.BlackjackExtremeHand` is this record with what the
table asks of a hand (its decision, a card dealt, an action taken, moving on by itself). The
functions of the actions, of what is open now and of the words take the record (:data:`H`: any
hand, returned as the same kind), so they import nothing of the hand that dispatches to them.

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
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal, Self, TypedDict, TypeVar, Unpack

from controller.games.blackjack_extreme.payments import Claim, Line, owed_in_full, paid
from controller.games.blackjack_extreme.play import BLACKJACK, DealerMove, dealer_rule
from controller.games.blackjack_extreme.play import count as count_of
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.seats import Held, PlayHand, SeatPlay, SeatState
from controller.games.interface import Hand, RuleError, WagerResult
from controller.games.parts.actions import Moved

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

H = TypeVar("H", bound="HandState")
"""Any hand: the function of an action takes one and returns the same kind of hand after it."""


class SeatChanges(TypedDict, total=False):
    """What :meth:`HandState.with_seat` may change of a :class:`SeatPlay`."""

    state: SeatState
    acted: bool
    raised: bool
    hands: tuple[PlayHand, ...]


@dataclass(frozen=True)
class HandState(Hand):
    """One hand as a record: the players clockwise from the dealer's left, the dealer's cards, where
    play stands.

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

    # -- changed copies -------------------------------------------------------------

    def with_hand(self, seat_number: int, index: int,
                  change: Callable[[PlayHand], PlayHand]) -> Self:
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

    def with_seat(self, seat_number: int, **changes: Unpack[SeatChanges]) -> Self:
        """This hand with ``changes`` made to seat ``seat_number``."""
        seats = tuple(replace(seat, **changes) if seat.seat == seat_number else seat
                      for seat in self.seats)
        return replace(self, seats=seats)

    @abstractmethod
    def progress(self) -> Moved[Self]:
        """Move on as far as the rules go without a card or a decision
        (:meth:`~controller.games.blackjack_extreme.hand.BlackjackExtremeHand.progress`)."""


def _settle_hand(hand: PlayHand, raised: bool) -> PlayHand:
    """A hand in play is over by itself at 21 or over."""
    if len(hand.cards) >= 2 and hand.total(raised).points >= BLACKJACK:
        return replace(hand, done=True)
    return hand
