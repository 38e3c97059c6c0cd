"""Buster Blackjack X's ``[game]`` options, with the house defaults and their checks.

Every choice where the vendor's rule sheet is silent is an option here, and its
default is explained in ``docs/games/buster-blackjack-x.md``.

>>> BusterRules().problems()
[]
>>> BusterRules(aces="1_or_11", bonus_pays={3: 2, 5: 4}).problems()
['game.aces: must be one of 1_or_21, 1_11_or_21, not 1_or_11', 'game.bonus_pays: no payout for 4 cards']
"""

from __future__ import annotations

from dataclasses import dataclass, field

ACES = ("1_or_21", "1_11_or_21")
"""What an ace may count: 1 or 21 (default), or 1, 11 or 21."""

HARD_31 = ("three_or_more_cards", "no_ace_high")
"""Which 31s pay 3 to 1: every 31 of three or more cards, or only those with every ace counting 1."""

DEALER_28_TO_30 = ("wins", "pushes", "loses")
"""How a player-dealer's 28, 29 or 30 settles against a player's 21 or less."""

BONUS_BUST = ("loses_to_21", "over_31")
"""What is a bust for the Buster bonus: a player-dealer hand that loses to every 21 or less, or over 31."""

BANKERS = ("rotate", "fixed", "house")
"""Who banks: a player-dealer position that rotates, a fixed player-dealer seat, or the house."""

COVER_ORDERS = ("banker_left", "seat")
"""The order the bank pays winning wagers in when it cannot pay them all."""

SPOTS = ("main", "side", "progressive", "insurance")
"""The spots: the base wager, the Buster bonus, Blazing 7's, insurance."""

METER = "blazing_7s"
"""The name of the progressive meter (``meter`` events)."""


def _default_bonus_pays() -> dict[int, int]:
    return {3: 2, 4: 2, 5: 4, 6: 12, 7: 50, 8: 250}


def _default_progressive_pays() -> dict[int, int]:
    return {3: 200, 2: 25, 1: 2}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class BusterRules:
    """The ``[game]`` options of Buster Blackjack X (money in cents).

    Cards and hands: ``decks``; ``aces`` (``"1_or_21"``: an ace counts 1 or 21,
    so an ace and a ten-point card make 31); ``hard_31`` (which 31s pay 3 to 1).
    The player-dealer's chart: draws below ``dealer_stands_on``, stands from it
    to 21; stops on 22 to 27 (a loss to every hand of 21 or less) unless
    ``dealer_draws_past_21``; ``dealer_28_to_30`` says how 28 to 30 settles.
    ``insurance`` offers insurance on an ace up (before the hole card is
    checked); ``insurance_pays_on_blackjack_x``; ``hit_button``: a hand takes
    its card only after HIT is pressed. The Buster bonus: ``bonus_bust``,
    ``bonus_pays`` (N to 1 by the cards in the busted hand, the largest key also
    for more), ``bonus_min_bet``/``bonus_max_bet`` (None: the table's).
    Blazing 7's: a fixed ``progressive_wager``; the meter starts at
    ``progressive_base`` and grows by ``progressive_increment`` per wager;
    ``progressive_suited_percent``/``progressive_colour_percent`` of the meter
    for three suited 7s / three 7s of one colour; ``progressive_pays`` N for 1
    by the number of 7s otherwise. The bank: ``banker``, ``banker_seat`` (with
    ``"fixed"``), ``cover_order``, ``collection_fee`` per hand from the bank,
    ``min_bank``/``max_bank`` (a bank's buy-in, and the least a bank must hold
    to deal).
    """

    decks: int = 8
    aces: str = "1_or_21"
    hard_31: str = "three_or_more_cards"
    dealer_stands_on: int = 17
    dealer_draws_past_21: bool = False
    dealer_28_to_30: str = "wins"
    insurance: bool = True
    insurance_pays_on_blackjack_x: bool = True
    hit_button: bool = False
    bonus_bust: str = "loses_to_21"
    bonus_pays: dict[int, int] = field(default_factory=_default_bonus_pays)
    bonus_min_bet: int | None = None
    bonus_max_bet: int | None = None
    progressive_wager: int = 100
    progressive_base: int = 100_000
    progressive_increment: int = 5
    progressive_suited_percent: int = 100
    progressive_colour_percent: int = 10
    progressive_pays: dict[int, int] = field(default_factory=_default_progressive_pays)
    banker: str = "rotate"
    banker_seat: int = 1
    cover_order: str = "banker_left"
    collection_fee: int = 0
    min_bank: int = 10_000
    max_bank: int | None = None

    def problems(self) -> list[str]:
        """Every wrong value, one line each: ``game.<key>: <what is wrong>``; empty when all is well."""
        found: list[str] = []
        if not _is_int(self.decks) or not 1 <= self.decks <= 8:
            found.append(f"game.decks: must be 1 to 8, not {self.decks!r}")
        for key, allowed in (("aces", ACES), ("hard_31", HARD_31), ("dealer_28_to_30", DEALER_28_TO_30),
                             ("bonus_bust", BONUS_BUST), ("banker", BANKERS),
                             ("cover_order", COVER_ORDERS)):
            value = getattr(self, key)
            if value not in allowed:
                found.append(f"game.{key}: must be one of {', '.join(allowed)}, not {value}")
        for key in ("dealer_draws_past_21", "insurance", "insurance_pays_on_blackjack_x", "hit_button"):
            if not isinstance(getattr(self, key), bool):
                found.append(f"game.{key}: must be true or false, not {getattr(self, key)!r}")
        if not _is_int(self.dealer_stands_on) or not 12 <= self.dealer_stands_on <= 21:
            found.append(f"game.dealer_stands_on: must be 12 to 21, not {self.dealer_stands_on!r}")
        found.extend(_pays_problems("bonus_pays", self.bonus_pays, 3))
        found.extend(_pays_problems("progressive_pays", self.progressive_pays, 1, top=3, gaps=True))
        found.extend(self._money_problems())
        return found

    def _money_problems(self) -> list[str]:
        found: list[str] = []
        positive = ("progressive_wager", "progressive_base", "min_bank", "banker_seat")
        optional = ("bonus_min_bet", "bonus_max_bet", "max_bank")
        for key in (*positive, *optional):
            value = getattr(self, key)
            if (value is not None or key in positive) and (not _is_int(value) or value <= 0):
                found.append(f"game.{key}: must be a positive whole number, not {value!r}")
        for key in ("progressive_increment", "collection_fee"):
            value = getattr(self, key)
            if not _is_int(value) or value < 0:
                found.append(f"game.{key}: must be 0 or more cents, not {value!r}")
        for key in ("progressive_suited_percent", "progressive_colour_percent"):
            value = getattr(self, key)
            if not _is_int(value) or not 0 <= value <= 100:
                found.append(f"game.{key}: must be 0 to 100, not {value!r}")
        for low_key, high_key in (("bonus_min_bet", "bonus_max_bet"), ("min_bank", "max_bank")):
            low, high = getattr(self, low_key), getattr(self, high_key)
            if _is_int(low) and _is_int(high) and low > high:
                found.append(f"game.{low_key}: {low} is above game.{high_key} {high}")
        return found

    def bonus_odds(self, cards: int) -> int:
        """The Buster bonus odds (N to 1) for a busted player-dealer hand of ``cards`` cards.

        >>> BusterRules().bonus_odds(3), BusterRules().bonus_odds(11)
        (2, 250)
        """
        return self.bonus_pays[min(cards, max(self.bonus_pays))]

    def ace_highs(self) -> tuple[int, ...]:
        """What counting aces high may add to the hard total (aces as 1): 20, or 10 and 20.

        >>> BusterRules().ace_highs(), BusterRules(aces="1_11_or_21").ace_highs()
        ((20,), (10, 20))
        """
        return (20,) if self.aces == "1_or_21" else (10, 20)


def _pays_problems(key: str, pays: object, first: int, top: int | None = None,
                   gaps: bool = False) -> list[str]:
    """Problems of a pay table keyed by a count from ``first`` (to ``top`` at most); unless
    ``gaps``, every count from ``first`` to the largest key must have a pay."""
    if not isinstance(pays, dict) or not pays:
        return [f"game.{key}: must be a table of count -> pay"]
    found: list[str] = []
    for count, pay in pays.items():
        if not _is_int(count) or count < first or (top is not None and count > top):
            upper = f" to {top}" if top is not None else " or more"
            found.append(f"game.{key}: key {count!r} must be {first}{upper}")
        if not _is_int(pay) or pay <= 0:
            found.append(f"game.{key}: the pay for {count!r} must be positive")
    if found or gaps:
        return found
    return [f"game.{key}: no payout for {count} cards" for count in range(first, max(pays))
            if count not in pays]
