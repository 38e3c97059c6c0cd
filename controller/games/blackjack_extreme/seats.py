"""The players' side of a Blackjack Extreme hand: cards held, a seat's hands, a seat in the hand,
and the one spot that holds a seat's chips.

>>> from firmware_bridge.kernel.cards import Card
>>> pair = PlayHand(cards=(Held(Card.parse("Ah"), 1, False), Held(Card.parse("Kd"), 4, True)), wager=1000)
>>> seat = SeatPlay(3, stack=20000, blind=1000, hands=(pair,))
>>> seat.natural(), seat.staked(), pair.total(raised=True)
(True, 1000, Count(points=11, soft=False))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.games.blackjack_extreme.play import Count, is_natural
from controller.games.blackjack_extreme.play import count as count_of
from firmware_bridge.kernel.cards import Card

SPOT = "main"
"""The spot that holds all of a seat's chips in play: blind, raise, and every split hand's bet."""


@dataclass(frozen=True)
class Held:
    """A card in a hand: the card, its shoe index, and whether the public has seen it."""

    card: Card
    index: int
    shown: bool

    @property
    def points(self) -> int:
        """The card's points, an ace 1."""
        return min(self.card.rank, 10)


@dataclass(frozen=True)
class PlayHand:
    """One of a seat's hands: its cards, its wager, whether it came from a split, whether it has
    taken a card since the betting round, and whether its play is over."""

    cards: tuple[Held, ...] = ()
    wager: int = 0
    split: bool = False
    drew: bool = False
    done: bool = False

    def points(self) -> tuple[int, ...]:
        """The points of its cards."""
        return tuple(held.points for held in self.cards)

    def total(self, raised: bool) -> Count:
        """Its total; ``raised``: the seat raised, so a first hand's two-card 21 counts 11."""
        return count_of(self.points(), raised and not self.split)


SeatState = Literal["in", "declined", "folded"]


@dataclass(frozen=True)
class SeatPlay:
    """A player in the hand: the stack it started with (table stakes), its blind, whether it is
    still in, has acted in the betting round or raised, and its hands (more after a split)."""

    seat: int
    stack: int
    blind: int
    state: SeatState = "in"
    acted: bool = False
    raised: bool = False
    hands: tuple[PlayHand, ...] = ()

    @property
    def playing(self) -> bool:
        """Whether the seat is still in the hand."""
        return self.state == "in"

    def staked(self) -> int:
        """Every chip the seat has in play."""
        return sum(hand.wager for hand in self.hands)

    def natural(self) -> bool:
        """Whether its first hand is a natural (never after a raise or a split)."""
        first = self.hands[0]
        return is_natural(first.points(), self.raised, first.split)

    def live(self) -> tuple[PlayHand, ...]:
        """Its hands whose result still depends on the dealer's: in play, not bust, not a natural."""
        if not self.playing or self.natural():
            return ()
        return tuple(h for h in self.hands if not h.total(self.raised).bust)
