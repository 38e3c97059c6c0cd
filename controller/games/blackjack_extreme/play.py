"""Blackjack Extreme's card play, pure: totals, when a hand is over, the dealer's drawing rule,
and how one hand ends against the dealer.

Cards are given by their points (ace 1, face cards 10). A total is the usual
blackjack count: one ace counts 11 when that does not go over 21. A *natural*
is a two-card 21 dealt to a hand that was neither raised nor split; a raised
two-card 21 is played as 11 (the ace counts 1) and must take a card; a two-card
21 made after a split is a "split blackjack", paid even money.

>>> count((1, 10)), count((1, 10), raised=True), count((10, 6, 8))
(Count(points=21, soft=True), Count(points=11, soft=False), Count(points=24, soft=False))
>>> dealer_rule(count((10, 6)), heads_up_losing=False), dealer_rule(count((1, 6)), False)
('hit', 'choose')
>>> dealer_rule(count((10, 8)), heads_up_losing=True), dealer_rule(count((10, 8)), False)
('choose', 'stand')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from controller.games.parts.totals import ACE_BONUS

ACE = 1
BLACKJACK = 21
DEALER_MUST_HIT = 16
"""The dealer must hit this total or less."""

RAISED_BLACKJACK = 11
"""What a raised two-card 21 counts: the ace as 1."""


class Count(NamedTuple):
    """A hand's total: ``points`` (an ace counted 11 when ``soft``)."""

    points: int
    soft: bool

    @property
    def bust(self) -> bool:
        """Whether the hand is over 21."""
        return self.points > BLACKJACK


def count(points: Sequence[int], raised: bool = False) -> Count:
    """The total of cards worth ``points``: one ace counts 11 when that does not go over 21
    (the blackjack count of :func:`~controller.games.parts.totals.best_total`); with
    ``raised``, a two-card 21 counts 11."""
    hard = sum(points)
    if ACE in points and hard + ACE_BONUS <= BLACKJACK:
        if raised and len(points) == 2 and hard + ACE_BONUS == BLACKJACK:
            return Count(RAISED_BLACKJACK, False)
        return Count(hard + ACE_BONUS, True)
    return Count(hard, False)


def is_natural(points: Sequence[int], raised: bool, split: bool) -> bool:
    """A natural: two cards making 21 on a hand neither raised nor split."""
    return len(points) == 2 and not raised and not split and sum(points) == RAISED_BLACKJACK \
        and ACE in points


def total_words(points: Sequence[int], raised: bool = False, natural: bool = False) -> str | None:
    """A total as the dealer display says it: ``natural``, ``bust 24``, ``soft 17``, ``11``.

    >>> total_words((1, 10), natural=True), total_words((10, 9, 5)), total_words((1, 6)), total_words(())
    ('natural', 'bust 24', 'soft 17', None)
    """
    if not points:
        return None
    if natural:
        return "natural"
    total = count(points, raised)
    if total.bust:
        return f"bust {total.points}"
    return f"soft {total.points}" if total.soft else str(total.points)


DealerMove = Literal["hit", "choose", "stand"]


def dealer_rule(total: Count, heads_up_losing: bool) -> DealerMove:
    """What the dealer's total allows: ``hit`` (must), ``choose`` (hit or stand), ``stand`` (must).

    The dealer must hit 16 or less, may hit or stand on any soft 17 or more,
    must stand on a hard 17 or more, unless ``heads_up_losing`` (one player
    left, whose hand beats the dealer's hard 17 to 20): then she may draw on.
    A bust or a hard 21 stands.
    """
    if total.bust:
        return "stand"
    if total.points <= DEALER_MUST_HIT:
        return "hit"
    if total.soft:
        return "choose"
    if heads_up_losing and total.points < BLACKJACK:
        return "choose"
    return "stand"


Outcome = tuple[str, int, str | None]
"""(outcome, the dealer's debt to the hand in cents: negative when the hand loses, label)."""


def hand_outcome(points: Sequence[int], wager: int, raised: bool, split: bool,
                 dealer: Count) -> Outcome:
    """How a played hand ends against the dealer's final ``dealer`` total (naturals aside).

    A bust loses; then a busted dealer pays even money; a higher total wins even
    money, an equal one pushes, a lower one loses. A split blackjack that wins
    is labelled. The dealer's own two-card 21 is simply 21.

    >>> hand_outcome((10, 9), 1000, False, False, count((10, 8)))
    ('win', 1000, None)
    >>> hand_outcome((1, 10), 1000, False, True, count((10, 5, 3)))
    ('win', 1000, 'split blackjack 1:1')
    >>> hand_outcome((10, 7), 1000, True, False, count((10, 7)))
    ('push', 0, None)
    """
    mine = count(points, raised)
    if mine.bust:
        return "lose", -wager, None
    if dealer.bust or mine.points > dealer.points:
        label = "split blackjack 1:1" if split and len(points) == 2 and mine.points == BLACKJACK else None
        return "win", wager, label
    if mine.points == dealer.points:
        return "push", 0, None
    return "lose", -wager, None


def natural_pays(blind: int) -> int:
    """A natural's pay, 3:2 on the blind, a fraction of a cent rounded down.

    >>> natural_pays(1001)
    1501
    """
    return blind * 3 // 2


def half(blind: int) -> int:
    """Half a blind, what a fold loses and a dealer's surrender pays, rounded down to the cent.

    >>> half(2505)
    1252
    """
    return blind // 2
