"""A seat in a hand of Buster Blackjack X: its wagers, its hands (more than one after a split), and
which decisions each hand still allows.

>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> pair = PlayerHand((HandCard(Card.parse("8h"), 1, True), HandCard(Card.parse("8c"), 3, True)), 1000)
>>> play = SeatPlay(1, 1000, hands=(pair,))
>>> double_problem(BusterRules(), pair), split_problem(play, pair), surrender_problem(pair)
(None, None, None)
>>> split_problem(SeatPlay(1, 1000, hands=(pair,) * MAX_HANDS), pair)
'three splits at most'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.totals import (
    TARGET,
    Count,
    card_points,
    count_cards,
    natural_of,
    player_total,
)
from controller.games.parts.hand_names import hand_number
from firmware_bridge.kernel.cards import Card

MAX_HANDS = 4
"""Hands a seat may play: three splits."""

HandState = Literal["playing", "doubling", "stood", "doubled", "surrendered", "done"]


@dataclass(frozen=True)
class HandCard:
    """A card in a hand: the card, its shoe index, and whether it was dealt face up."""

    card: Card
    index: int
    face_up: bool


@dataclass(frozen=True)
class PlayerHand:
    """One hand of a seat: its cards, its wager (with a double), how it stands.

    ``split`` marks a hand made by a split (never a natural); ``split_aces`` a
    split ace (one card only); ``doubled`` the double's wager; ``hits`` the cards
    taken after the first two; ``state``: ``playing``, ``doubling`` (waiting for
    the double's card), ``stood``, ``doubled``, ``surrendered`` or ``done``
    (31, 22 to 30, a natural, a split ace with its card).
    """

    cards: tuple[HandCard, ...]
    wager: int
    split: bool = False
    split_aces: bool = False
    doubled: int = 0
    hits: int = 0
    state: HandState = "playing"

    def count(self) -> Count:
        """The hand's count."""
        return count_cards(held.card for held in self.cards)

    def natural(self) -> str | None:
        """The two-card 31 this hand was dealt (never after a split), or None."""
        return None if self.split else natural_of([held.card for held in self.cards])


@dataclass(frozen=True)
class SeatPlay:
    """One seat in play: its wagers in cents, its hands, and its insurance.

    ``insurance`` is None until the seat is asked (or when it is never asked),
    then the insurance wager (0: none); ``first_two`` the seat's first two cards
    (for Blazing 7's), kept once the deal is out.
    """

    seat: int
    base: int
    bonus: int = 0
    progressive: int = 0
    insurance: int | None = None
    hands: tuple[PlayerHand, ...] = ()
    first_two: tuple[Card, ...] = ()

    def main_total(self) -> int:
        """What the main spot holds now: every hand's wager, doubles and splits included."""
        return sum(hand.wager for hand in self.hands)


@dataclass(frozen=True)
class Jackpot:
    """A Blazing 7's jackpot won in a hand: the seat, the prize's name, what it pays."""

    seat: int
    prize: str
    amount: int


def double_problem(rules: BusterRules, hand: PlayerHand) -> str | None:
    """Why ``hand`` may not double now, or None."""
    if hand.split_aces:
        return "a split ace takes one card only"
    if len(hand.cards) != 2 or hand.hits:
        return "a double is only on the first two cards of a hand"
    if player_total(rules, hand.count()) == TARGET:
        return "no double on a 31"
    return None


def split_problem(play: SeatPlay, hand: PlayerHand) -> str | None:
    """Why ``hand`` of ``play`` may not split now, or None."""
    if len(hand.cards) != 2 or hand.hits:
        return "a split is only of the first two cards of a hand"
    first, second = (card_points(held.card) for held in hand.cards)
    if first != second:
        return "only two cards of the same value may be split"
    if hand.split_aces:
        return "aces are split once only"
    if len(play.hands) >= MAX_HANDS:
        return "three splits at most"
    return None


def surrender_problem(hand: PlayerHand) -> str | None:
    """Why ``hand`` may not surrender now, or None."""
    if len(hand.cards) != 2 or hand.hits or hand.state != "playing":
        return "surrender only before taking any card on the first two"
    return None


def who(play: SeatPlay, index: int) -> str:
    """``seat 3`` for a seat's one hand; after a split, every hand numbered from 1: ``seat 3 hand 1``,
    ``seat 3 hand 2`` (``hand_index`` 0 and 1)."""
    return f"seat {play.seat}" + hand_number(index, len(play.hands) > 1)
