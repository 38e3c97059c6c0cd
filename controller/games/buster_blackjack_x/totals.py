"""Card counts and totals to 31, for the players and the player-dealer.

A :class:`Count` keeps the hard total (every ace as 1), the number of aces and
of cards; an ace may count high (21, or 11 with ``aces = "1_11_or_21"``), which
adds 20 (or 10) to the hard total. Which total a hand stands on depends on who
holds it, since the ranks differ:

- a player's total is 31 when the hand can make 31, else the best total of 21
  or less, else the hard total (22 to 30 loses; a player never passes 31,
  since one card adds 10 at most to a total of 21 or less);
- the player-dealer's total is 31 when it can make 31, else 28 to 30 made with
  an ace high (unless 28 to 30 loses), else the best total of 21 or less, else
  the hard total.

A :class:`Standing` is where a finished hand stands for settlement.

>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> rules = BusterRules()
>>> player_total(rules, count_of([1, 5])), player_total(rules, count_of([1, 5, 5]))
(6, 31)
>>> dealer_total(rules, count_of([1, 8])), dealer_total(rules, count_of([1, 5]))
(29, 6)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from controller.games.buster_blackjack_x.rules import BusterRules
from firmware_bridge.kernel.cards import Card

TARGET = 31
"""The best total."""

TOP = 21
"""The highest total below the losing range."""

KING = 13


def card_points(card: Card) -> int:
    """A card's points with an ace as 1: ace 1, two to ten face value, jack/queen/king 10.

    >>> card_points(Card.parse("Kd")), card_points(Card.parse("As")), card_points(Card.parse("7c"))
    (10, 1, 7)
    """
    return min(card.rank, 10)


@dataclass(frozen=True)
class Count:
    """A hand's cards as counted: the ``hard`` total (aces as 1), its ``aces`` and ``cards``."""

    hard: int = 0
    aces: int = 0
    cards: int = 0

    def add(self, point: int) -> Count:
        """The count after one more card worth ``point`` (1 for an ace).

        >>> Count().add(1).add(10)
        Count(hard=11, aces=1, cards=2)
        """
        return Count(self.hard + point, self.aces + (point == 1), self.cards + 1)


def count_of(points: Iterable[int]) -> Count:
    """The count of cards worth ``points`` (an ace given as 1)."""
    count = Count()
    for point in points:
        count = count.add(point)
    return count


def count_cards(cards: Iterable[Card]) -> Count:
    """The count of these cards."""
    return count_of(card_points(card) for card in cards)


def totals(rules: BusterRules, count: Count) -> tuple[int, ...]:
    """Every total the hand can count, lowest first (the hard total, and with an ace more).

    >>> totals(BusterRules(), count_of([1, 6])), totals(BusterRules(aces="1_11_or_21"), count_of([1, 6]))
    ((7, 27), (7, 17, 27))
    """
    if not count.aces:
        return (count.hard,)
    return (count.hard, *(count.hard + high for high in rules.ace_highs()))


def player_total(rules: BusterRules, count: Count) -> int:
    """The total a player's hand stands on: 31 if it can make it, else the best of 21 or less,
    else its hard total."""
    options = totals(rules, count)
    if TARGET in options:
        return TARGET
    under = [total for total in options if total <= TOP]
    return max(under) if under else count.hard


def dealer_total(rules: BusterRules, count: Count) -> int:
    """The total the player-dealer's hand stands on: 31 if it can make it, else 28 to 30 with an
    ace high (unless ``dealer_28_to_30`` is ``"loses"``), else the best of 21 or less, else its
    hard total."""
    options = totals(rules, count)
    if TARGET in options:
        return TARGET
    if rules.dealer_28_to_30 != "loses":
        high = [total for total in options if 28 <= total < TARGET]
        if high:
            return max(high)
    under = [total for total in options if total <= TOP]
    return max(under) if under else count.hard


def dealer_loses_to_21(rules: BusterRules, total: int) -> bool:
    """Whether a player-dealer total loses to every hand of 21 or less: 22 to 27, over 31, and 28
    to 30 when ``dealer_28_to_30`` is ``"loses"``."""
    if total <= TOP or total == TARGET:
        return False
    return not (28 <= total < TARGET and rules.dealer_28_to_30 != "loses")


def dealer_must_draw(rules: BusterRules, count: Count) -> bool:
    """Whether the player-dealer draws: below ``dealer_stands_on``, and on a total that loses to
    every hand of 21 or less (up to 30) when ``dealer_draws_past_21``.

    >>> rules = BusterRules()
    >>> dealer_must_draw(rules, count_of([10, 6])), dealer_must_draw(rules, count_of([10, 7]))
    (True, False)
    >>> dealer_must_draw(rules, count_of([10, 6, 8])), dealer_must_draw(rules, count_of([1, 7]))
    (False, False)
    """
    total = dealer_total(rules, count)
    if total < rules.dealer_stands_on:
        return True
    return rules.dealer_draws_past_21 and total < TARGET and dealer_loses_to_21(rules, total)


def natural_of(cards: Sequence[Card]) -> str | None:
    """The two-card 31 these cards make: ``"blackjack-x"`` (an ace and the king of its suit),
    ``"natural-31"`` (an ace and any ten-point card), else None.

    >>> natural_of([Card.parse("As"), Card.parse("Ks")]), natural_of([Card.parse("Td"), Card.parse("Ac")])
    ('blackjack-x', 'natural-31')
    >>> natural_of([Card.parse("As"), Card.parse("Kh")]), natural_of([Card.parse("As"), Card.parse("9s")])
    ('natural-31', None)
    """
    if len(cards) != 2:
        return None
    first, second = cards
    points = sorted((card_points(first), card_points(second)))
    if points != [1, 10]:
        return None
    if first.suit == second.suit and {first.rank, second.rank} == {1, KING}:
        return "blackjack-x"
    return "natural-31"


@dataclass(frozen=True)
class Standing:
    """Where a finished hand stands for settlement.

    A player's ``kind``: ``blackjack-x``, ``natural-31``, ``31`` (``hard_31``
    when it pays 3 to 1), ``total`` (21 or less), ``lost`` (22 to 30) or
    ``surrendered``. The player-dealer's: ``blackjack-x``, ``natural-31``,
    ``31``, ``high`` (28 to 30 that does not lose), ``total`` (21 or less) or
    ``bust`` (loses to every hand of 21 or less). ``total`` is the points;
    ``cards`` the cards in the hand.
    """

    kind: str
    total: int
    cards: int
    hard_31: bool = False


def player_standing(rules: BusterRules, count: Count, natural: str | None,
                    surrendered: bool = False) -> Standing:
    """A player's hand as it settles; ``natural`` is its two-card 31 when it was dealt one (not
    after a split).

    >>> player_standing(BusterRules(), count_of([1, 4, 6]), None)
    Standing(kind='31', total=31, cards=3, hard_31=True)
    >>> player_standing(BusterRules(hard_31="no_ace_high"), count_of([1, 4, 6]), None).hard_31
    False
    """
    if surrendered:
        return Standing("surrendered", player_total(rules, count), count.cards)
    if natural is not None:
        return Standing(natural, TARGET, count.cards)
    total = player_total(rules, count)
    if total == TARGET:
        hard = count.cards >= 3 if rules.hard_31 == "three_or_more_cards" else count.hard == TARGET
        return Standing("31", total, count.cards, hard)
    return Standing("total" if total <= TOP else "lost", total, count.cards)


def dealer_standing(rules: BusterRules, count: Count, natural: str | None) -> Standing:
    """The player-dealer's hand as it settles; ``natural`` is its two-card 31, if any.

    >>> dealer_standing(BusterRules(), count_of([10, 6, 9]), None)
    Standing(kind='bust', total=25, cards=3, hard_31=False)
    >>> dealer_standing(BusterRules(), count_of([1, 8]), None).kind
    'high'
    """
    if natural is not None:
        return Standing(natural, TARGET, count.cards)
    total = dealer_total(rules, count)
    if total == TARGET:
        return Standing("31", total, count.cards)
    if dealer_loses_to_21(rules, total):
        return Standing("bust", total, count.cards)
    return Standing("total" if total <= TOP else "high", total, count.cards)


def total_words(rules: BusterRules, count: Count, natural: str | None, dealer: bool) -> str | None:
    """A total as the dealer display shows it: None without cards, else ``Blackjack X``,
    ``Natural 31``, ``31``, ``bust 25``, ``soft 6`` (an ace may still count high) or ``17``.

    >>> rules = BusterRules()
    >>> total_words(rules, count_of([1, 5]), None, False)
    'soft 6'
    >>> total_words(rules, count_of([9, 8, 7]), None, False)
    'bust 24'
    """
    if count.cards == 0:
        return None
    if natural is not None:
        return "Blackjack X" if natural == "blackjack-x" else "Natural 31"
    total = dealer_total(rules, count) if dealer else player_total(rules, count)
    if total == TARGET:
        return "31"
    if total > TOP and (not dealer or dealer_loses_to_21(rules, total)):
        return f"bust {total}"
    if total == count.hard and count.aces and count.hard + rules.ace_highs()[0] <= TARGET:
        return f"soft {total}"
    return str(total)
