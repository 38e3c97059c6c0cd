"""A fixed way to play Blackjack Extreme, for the simulation of ``table-controller math``.

Players play multi-deck blackjack basic strategy, read for this game: the
second betting round's raise is basic strategy's double down (to exactly twice
the blind), its fold is basic strategy's late surrender, and pairs are split
as basic strategy splits them without doubling after a split. The dealer turns
up her higher card (an ace highest), never surrenders, hits soft 17 and stands
on soft 18 or more, and heads-up draws on every losing hand she may draw to.
Cards are given by points (ace 1, ten and faces 10); ``up`` is the dealer's up card.

>>> betting_move((10, 6), up=10), betting_move((6, 5), up=7), betting_move((1, 10), up=6)
('fold', 'raise', 'check')
>>> play_move((8, 8), up=10, may_split=True), play_move((10, 2), up=4, may_split=False)
('split', 'stand')
>>> dealer_up_card((7, 1)), dealer_hits(17, soft=True, heads_up_losing=False)
(2, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from controller.games.parts.totals import best_total

ACE = 1


def _hard_soft(points: Sequence[int]) -> tuple[int, bool]:
    return best_total(points)


def betting_move(cards: Sequence[int], up: int) -> Literal["check", "raise", "fold"]:
    """The second betting round for a player holding ``cards`` (both seen) against ``up``."""
    total, soft = _hard_soft(cards)
    if total == 21:
        return "check"
    pair = cards[0] == cards[1]
    if not soft and not pair and ((total == 16 and up in (9, 10, ACE)) or (total == 15 and up in (10, ACE))):
        return "fold"
    if pair and cards[0] != 5:
        return "check"
    if soft:
        if (total in (13, 14) and up in (5, 6)) or (total in (15, 16) and up in (4, 5, 6)) or \
                (total in (17, 18) and up in (3, 4, 5, 6)):
            return "raise"
        return "check"
    if (total == 9 and up in (3, 4, 5, 6)) or (total == 10 and up not in (10, ACE)) or \
            (total == 11 and up != ACE):
        return "raise"
    return "check"


SPLIT_AGAINST = {
    ACE: set(range(1, 11)), 8: set(range(1, 11)), 9: {2, 3, 4, 5, 6, 8, 9}, 7: {2, 3, 4, 5, 6, 7},
    6: {3, 4, 5, 6}, 3: {4, 5, 6, 7}, 2: {4, 5, 6, 7},
}
"""Pairs basic strategy splits (without doubling after a split), by the up cards it splits against."""


def play_move(cards: Sequence[int], up: int, may_split: bool) -> Literal["hit", "stand", "split"]:
    """A player's play of a hand of two or more ``cards`` against ``up`` (a forced card aside)."""
    if may_split and len(cards) == 2 and cards[0] == cards[1] and up in SPLIT_AGAINST.get(cards[0], ()):
        return "split"
    total, soft = _hard_soft(cards)
    if soft:
        if total <= 17 or (total == 18 and up in (9, 10, ACE)):
            return "hit"
        return "stand"
    weak = up in (2, 3, 4, 5, 6)
    if total <= 11 or (total == 12 and up not in (4, 5, 6)) or (13 <= total <= 16 and not weak):
        return "hit"
    return "stand"


def dealer_up_card(cards: Sequence[int]) -> int:
    """Which of her two cards (1 or 2) the dealer turns up: the higher, an ace highest."""
    first, second = ((11 if point == ACE else point) for point in cards[:2])
    return 1 if first >= second else 2


def dealer_hits(total: int, soft: bool, heads_up_losing: bool) -> bool:
    """Whether the dealer draws where she may choose: on soft 17, and heads-up whenever losing."""
    return heads_up_losing or (soft and total == 17)
