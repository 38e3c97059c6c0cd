"""Blazing 7's: the prize three cards win, and what a prize takes from the meter.

The qualifying cards are the player's first two cards and the player-dealer's
up card. Three 7s of one suit win ``progressive_suited_percent`` of the meter,
three 7s of one colour ``progressive_colour_percent`` of it (these two are
jackpots: paid on a supervisor's confirmation, and taken off the meter when
won); otherwise ``progressive_pays`` pays N for 1 by the number of 7s (the
wager is part of the N). Pure: the meter is an input.

>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> cards = [Card.parse(text) for text in ("7h", "7h", "7h")]
>>> blazing_prize(BusterRules(), cards)
Prize(name='three suited 7s', for_one=0, percent=100)
>>> blazing_prize(BusterRules(), [Card.parse(text) for text in ("7h", "Kc", "7s")])
Prize(name='two 7s', for_one=25, percent=0)
>>> jackpot(Prize("three suited 7s", 0, 100), 123_456)
123456
>>> jackpot(Prize("three 7s of one colour", 0, 10), 123_456)
12345
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.buster_blackjack_x.rules import BusterRules
from firmware_bridge.kernel.cards import Card

SEVEN = 7
RED_SUITS = frozenset({1, 2})
"""Diamonds and hearts (firmware_bridge.kernel.cards suit numbers)."""

COUNT_NAMES = {1: "one 7", 2: "two 7s", 3: "three 7s"}


@dataclass(frozen=True)
class Prize:
    """A Blazing 7's prize: its ``name``; ``for_one`` N for 1 of the wager (a fixed prize), or
    ``percent`` of the meter (a jackpot)."""

    name: str
    for_one: int
    percent: int

    @property
    def is_jackpot(self) -> bool:
        """Whether the prize is a share of the meter (paid on a supervisor's confirmation)."""
        return self.percent > 0


def blazing_prize(rules: BusterRules, cards: Sequence[Card]) -> Prize | None:
    """The prize of these three qualifying cards, or None when they win nothing."""
    sevens = [card for card in cards if card.rank == SEVEN]
    if len(sevens) == 3:
        if len({card.suit for card in sevens}) == 1 and rules.progressive_suited_percent:
            return Prize("three suited 7s", 0, rules.progressive_suited_percent)
        colours = {card.suit in RED_SUITS for card in sevens}
        if len(colours) == 1 and rules.progressive_colour_percent:
            return Prize("three 7s of one colour", 0, rules.progressive_colour_percent)
    pay = rules.progressive_pays.get(len(sevens))
    return Prize(COUNT_NAMES[len(sevens)], pay, 0) if sevens and pay else None


def jackpot(prize: Prize, meter: int) -> int:
    """What a jackpot prize pays (cents, rounded down) when the meter reads ``meter``."""
    return meter * prize.percent // 100


def meter_after(rules: BusterRules, meter: int, paid: int) -> int:
    """The meter after a jackpot of ``paid`` was won from it: at least its base (a jackpot of the
    whole meter resets it to the base).

    >>> meter_after(BusterRules(), 250_000, 250_000), meter_after(BusterRules(), 250_000, 25_000)
    (100000, 225000)
    """
    return max(meter - paid, rules.progressive_base)
