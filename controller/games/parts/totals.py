"""Hand totals: card points and soft aces for any target, and the to-11 totals of Easy Jack.

:func:`best_total` is the blackjack count for any target (21, 31) and ace value;
:class:`Total` is Easy Jack's (to 11): an ace counts 11 unless that takes the
hand over 11, then 1; face cards count 10; a natural is a one-card hand that is
an ace. :func:`total_words` says a total as the dealer display does.

>>> total_of([1])
Total(points=11, soft=True, natural=True, bust=False, cards=1)
>>> total_of([1, 5])
Total(points=6, soft=False, natural=False, bust=False, cards=2)
>>> total_of([10, 2]).bust
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from firmware_bridge.kernel.cards import Card

TARGET = 11
"""The highest total that does not bust."""

ACE_BONUS = 10
"""What an ace adds when it counts 11 rather than 1."""


def card_points(card: Card) -> int:
    """A card's points with an ace as 1: ace 1, two to ten face value, jack/queen/king 10.

    >>> card_points(Card.parse("Kd")), card_points(Card.parse("As")), card_points(Card.parse("7c"))
    (10, 1, 7)
    """
    return min(card.rank, 10)


@dataclass(frozen=True)
class Total:
    """A hand's total: ``points`` (an ace counted 11 when ``soft``), natural, bust, number of cards."""

    points: int = 0
    soft: bool = False
    natural: bool = False
    bust: bool = False
    cards: int = 0

    def add(self, point: int) -> Total:
        """The total after one more card worth ``point`` (1 for an ace).

        >>> Total().add(1).add(1)
        Total(points=2, soft=False, natural=False, bust=False, cards=2)
        """
        hard = self.points - (ACE_BONUS if self.soft else 0) + point
        soft = (self.soft or point == 1) and hard + ACE_BONUS <= TARGET
        points = hard + ACE_BONUS if soft else hard
        return Total(
            points=points,
            soft=soft,
            natural=self.cards == 0 and point == 1,
            bust=points > TARGET,
            cards=self.cards + 1,
        )


def total_of(points: Iterable[int]) -> Total:
    """The total of cards worth ``points`` (an ace given as 1)."""
    total = Total()
    for point in points:
        total = total.add(point)
    return total


def best_total(points: Iterable[int], target: int = 21, ace_high: int = 11) -> tuple[int, bool]:
    """The best count of cards worth ``points`` (an ace given as 1) for ``target``: one ace
    counts ``ace_high`` when that does not go over ``target``. Returns (points, soft).

    >>> best_total([1, 6]), best_total([1, 6, 9]), best_total([1, 10], target=31, ace_high=21)
    ((17, True), (16, False), (31, True))
    """
    hard = 0
    aces = False
    for point in points:
        hard += point
        aces = aces or point == 1
    if aces and hard + ace_high - 1 <= target:
        return hard + ace_high - 1, True
    return hard, False


def total_words(total: Total) -> str | None:
    """An Easy Jack total as the dealer sees it: None for no cards, else ``natural``,
    ``bust 14``, ``soft 7`` or ``9``.

    >>> total_words(total_of([1])), total_words(total_of([10, 5])), total_words(Total())
    ('natural', 'bust 15', None)
    """
    if total.cards == 0:
        return None
    if total.natural:
        return "natural"
    if total.bust:
        return f"bust {total.points}"
    return f"soft {total.points}" if total.soft else str(total.points)
