"""Hold'em Blackjack's rules: the ``[game]`` options and the showdown ranking.

The options (:class:`HoldemBlackjackRules`) hold the stakes in the seed's
notation (:mod:`controller.games.holdem_blackjack.stakes`), the blinds and
ante, and every choice the rule text leaves to the house, each with its
default; ``docs/games/holdem-blackjack.md`` gives the reasons. The ranking
(:func:`rank`) is the rule text's: a 7-card charlie, then 21 (all 21s equal),
then the total closest to 21, and over 21 the total closest to 21 from above.

>>> from firmware_bridge.kernel.cards import Card
>>> def cards(*texts): return [Card.parse(t) for t in texts]
>>> rank(cards("As", "Qd")) == rank(cards("4c", "2d", "8h", "7s"))
True
>>> rank(cards("2c", "2d", "2h", "2s", "3c", "3d", "4h")) > rank(cards("As", "Kd"))
True
>>> rank(cards("Kc", "Qd", "5h")) > rank(cards("Kc", "Qd", "9h"))
True
>>> rank_words(cards("Ac", "6d")), rank_words(cards("Kc", "Qd", "5h"))
('17', 'bust 25')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.games.holdem_blackjack.stakes import Stakes, parse_stakes
from controller.games.parts.totals import best_total, card_points
from firmware_bridge.kernel.cards import Card

MAX_PLAYERS = 6
"""Up to six players are seated (seats 1 to 6)."""

MAX_CARDS = 7
"""A hand holds at most seven cards; seven without going over 21 is a charlie."""

TARGET = 21

SPOT = "bet"
"""Each seat's one betting spot."""

REOPEN_CHOICES = ("full", "half")
ODD_CHIP_CHOICES = ("left_of_button", "showdown_order")
SHOWDOWN_CHOICES = ("last_aggressor", "left_of_button")
CHARLIE_TIE_CHOICES = ("split", "higher_total", "lower_total")

Rank = tuple[int, int]
"""A hand's place in the ranking; a larger rank is a better hand."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class HoldemBlackjackRules:
    """The ``[game]`` options of Hold'em Blackjack, with the house defaults.

    ``stakes`` is ``A/B/C-D`` in dollars (the big blind is ``A``); every other
    amount is in cents. ``small_blind`` None is half the big blind;
    ``min_buy_in`` None is ten big blinds; ``max_buy_in`` and ``rake_cap``
    None mean none. ``chip_unit`` is the smallest chip in play: pots are split
    and the rake taken in whole chips of it.

    >>> HoldemBlackjackRules().problems()
    []
    >>> for line in HoldemBlackjackRules(stakes="2/4", ante=-1, odd_chip="dealer").problems():
    ...     print(line)
    game.stakes: '2/4' is not written A/B/C-D like "2/4/4-20" (amounts in dollars, up to two decimals)
    game.odd_chip: must be one of left_of_button, showdown_order, not 'dealer'
    game.ante: must be 0 or more cents, not -1
    """

    stakes: str = "2/4/4-20"
    small_blind: int | None = None
    ante: int = 0
    chip_unit: int = 100
    decks: int = 6
    raise_cap: int = 3
    all_in_reopens: str = "full"
    big_blind_option: bool = True
    heads_up_button_small_blind: bool = True
    odd_chip: str = "left_of_button"
    charlie_ties: str = "split"
    showdown_order: str = "last_aggressor"
    muck_losing_hands: bool = True
    rake_percent: int = 0
    rake_cap: int | None = None
    rake_first_round: bool = False
    min_buy_in: int | None = None
    max_buy_in: int | None = None

    # -- what the options amount to -------------------------------------------------------------

    @property
    def parsed_stakes(self) -> Stakes:
        """The stakes in cents (the options must be free of problems)."""
        return parse_stakes(self.stakes)

    @property
    def big_blind(self) -> int:
        """The big blind in cents: the first round's bet."""
        return self.parsed_stakes.first

    @property
    def small_blind_amount(self) -> int:
        """The small blind in cents: ``small_blind``, or half the big blind."""
        return self.small_blind if self.small_blind is not None else self.big_blind // 2

    @property
    def buy_in_minimum(self) -> int:
        """The smallest buy-in in cents: ``min_buy_in``, or ten big blinds."""
        return self.min_buy_in if self.min_buy_in is not None else 10 * self.big_blind

    # -- checks ------------------------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Every wrong value, one line each: ``game.<key>: <what is wrong>``; empty when all is well."""
        found: list[str] = []
        stakes: Stakes | None = None
        try:
            stakes = parse_stakes(self.stakes)
        except ValueError as error:
            found.append(f"game.stakes: {error}")
        found.extend(self._choice_problems())
        found.extend(self._amount_problems())
        if stakes is not None and not found:
            found.extend(self._chip_problems(stakes))
        return found

    def _choice_problems(self) -> list[str]:
        found: list[str] = []
        for key in ("big_blind_option", "heads_up_button_small_blind", "muck_losing_hands",
                    "rake_first_round"):
            if not isinstance(getattr(self, key), bool):
                found.append(f"game.{key}: must be true or false, not {getattr(self, key)!r}")
        for key, choices in (("all_in_reopens", REOPEN_CHOICES), ("odd_chip", ODD_CHIP_CHOICES),
                             ("charlie_ties", CHARLIE_TIE_CHOICES), ("showdown_order", SHOWDOWN_CHOICES)):
            if getattr(self, key) not in choices:
                found.append(f"game.{key}: must be one of {', '.join(choices)}, not {getattr(self, key)!r}")
        if not _is_int(self.decks) or not 1 <= self.decks <= 8:
            found.append(f"game.decks: must be 1 to 8, not {self.decks!r}")
        if not _is_int(self.raise_cap) or not 0 <= self.raise_cap <= 10:
            found.append(f"game.raise_cap: must be 0 to 10 raises, not {self.raise_cap!r}")
        if not _is_int(self.rake_percent) or not 0 <= self.rake_percent <= 100:
            found.append(f"game.rake_percent: must be 0 to 100, not {self.rake_percent!r}")
        return found

    def _amount_problems(self) -> list[str]:
        found: list[str] = []
        if not _is_int(self.ante) or self.ante < 0:
            found.append(f"game.ante: must be 0 or more cents, not {self.ante!r}")
        if not _is_int(self.chip_unit) or self.chip_unit <= 0:
            found.append(f"game.chip_unit: must be more than 0 cents, not {self.chip_unit!r}")
        for key in ("small_blind", "rake_cap", "min_buy_in", "max_buy_in"):
            value = getattr(self, key)
            if value is not None and (not _is_int(value) or value <= 0):
                found.append(f"game.{key}: must be more than 0 cents, not {value!r}")
        low, high = self.min_buy_in, self.max_buy_in
        if _is_int(low) and _is_int(high) and low is not None and high is not None and low > high:
            found.append(f"game.min_buy_in: {low} is above game.max_buy_in {high}")
        return found

    def _chip_problems(self, stakes: Stakes) -> list[str]:
        found: list[str] = []
        if self.small_blind_amount > stakes.first:
            found.append(f"game.small_blind: {self.small_blind_amount} is above the big blind {stakes.first}")
        amounts = {
            "game.stakes": (stakes.first, stakes.second, stakes.final_low, stakes.final_high),
            "game.small_blind": (self.small_blind_amount,),
            "game.ante": (self.ante,),
        }
        for key, values in amounts.items():
            if any(value % self.chip_unit for value in values):
                found.append(f"{key}: not a whole number of {self.chip_unit}-cent chips "
                             "(game.chip_unit, the smallest chip in play)")
        return found


def hand_total(cards: Sequence[Card]) -> int:
    """The best total of ``cards``: an ace counts 11 unless that goes over 21."""
    return best_total((card_points(card) for card in cards), TARGET)[0]


def is_charlie(cards: Sequence[Card]) -> bool:
    """Whether ``cards`` are a 7-card charlie: seven cards without going over 21."""
    return len(cards) == MAX_CARDS and hand_total(cards) <= TARGET


def rank(cards: Sequence[Card], charlie_ties: str = "split") -> Rank:
    """The hand's rank for the showdown: charlies first (equal, or by total as ``charlie_ties``
    says), then totals up to 21 (every 21 equal), then totals over 21, lower first."""
    total = hand_total(cards)
    if is_charlie(cards):
        tiebreak = {"split": 0, "higher_total": total, "lower_total": -total}[charlie_ties]
        return 3, tiebreak
    if total <= TARGET:
        return 2, total
    return 1, -total


def rank_words(cards: Sequence[Card]) -> str:
    """The hand as the dealer announces it: ``7-card charlie``, ``21``, ``18``, ``bust 24``."""
    total = hand_total(cards)
    if is_charlie(cards):
        return "7-card charlie"
    return str(total) if total <= TARGET else f"bust {total}"
