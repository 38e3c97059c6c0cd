"""Easy Jack's rules: the ``[game]`` options and the pure settlement functions.

The options (``EasyJackRules``) and the settlement functions shared by the hand
(:mod:`controller.games.easy_jack.hand`) and the house-edge math
(:mod:`controller.games.easy_jack.math`): ``turn_over``, ``dealer_must_draw``,
``main_result``, ``side_result``. The rule choices are written out in
``docs/games/easy-jack.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.games.parts.totals import TARGET, Total

DEALER_STANDS_ON = 7
"""The dealer draws while below this total."""

SPOTS = ("main", "side")
"""The bet spots: the Easy Jack wager and the Dealer Bust side wager."""

def _default_bust_pays() -> dict[int, int]:
    return {2: 3, 3: 4, 4: 10, 5: 50, 6: 500}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class EasyJackRules:
    """The ``[game]`` options of Easy Jack, with the house defaults.

    ``dealer_bust_pays`` maps the number of cards in the dealer's busted hand
    to the Dealer Bust odds (N to 1); its largest key also pays for more cards.
    ``side_min_bet`` / ``side_max_bet`` of None take the table limits.

    >>> EasyJackRules().problems()
    []
    >>> EasyJackRules(decks=7, dealer_bust_pays={2: 3, 4: 10}).problems()
    ['game.decks: must be 6 or 8, not 7', 'game.dealer_bust_pays: no payout for 3 cards']
    """

    decks: int = 6
    peek_for_ace: bool = False
    natural_pays_6_5: bool = False
    dealer_bust_pays: dict[int, int] = field(default_factory=_default_bust_pays)
    side_min_bet: int | None = None
    side_max_bet: int | None = None
    stand_on_11: bool = False

    def problems(self) -> list[str]:
        """Every wrong value, one line each: ``game.<key>: <what is wrong>``; empty when all is well."""
        found: list[str] = []
        if not _is_int(self.decks) or self.decks not in (6, 8):
            found.append(f"game.decks: must be 6 or 8, not {self.decks!r}")
        for key in ("peek_for_ace", "natural_pays_6_5", "stand_on_11"):
            value = getattr(self, key)
            if not isinstance(value, bool):
                found.append(f"game.{key}: must be true or false, not {value!r}")
        found.extend(self._pays_problems())
        for key in ("side_min_bet", "side_max_bet"):
            value = getattr(self, key)
            if value is not None and (not _is_int(value) or value <= 0):
                found.append(f"game.{key}: must be a positive number of cents, not {value!r}")
        low, high = self.side_min_bet, self.side_max_bet
        if isinstance(low, int) and isinstance(high, int) and low > high:
            found.append(f"game.side_min_bet: {low} is above game.side_max_bet {high}")
        return found

    def _pays_problems(self) -> list[str]:
        pays = self.dealer_bust_pays
        if not isinstance(pays, dict) or not pays:
            return ["game.dealer_bust_pays: must be a table of card count -> odds"]
        found: list[str] = []
        for cards, odds in pays.items():
            if not _is_int(cards) or cards < 2:
                found.append(f"game.dealer_bust_pays: card count {cards!r} must be 2 or more")
            if not _is_int(odds) or odds <= 0:
                found.append(f"game.dealer_bust_pays: odds for {cards!r} cards must be positive")
        if found:
            return found
        return [
            f"game.dealer_bust_pays: no payout for {cards} cards"
            for cards in range(2, max(pays))
            if cards not in pays
        ]

    def bust_odds(self, cards: int) -> int:
        """The Dealer Bust odds (N to 1) for a busted dealer hand of ``cards`` cards.

        >>> EasyJackRules().bust_odds(4), EasyJackRules().bust_odds(7)
        (10, 500)
        """
        return self.dealer_bust_pays[min(cards, max(self.dealer_bust_pays))]


def turn_over(rules: EasyJackRules, total: Total) -> bool:
    """Whether a seat's turn ends by itself: bust, natural, or 11 with ``stand_on_11``."""
    return total.bust or total.natural or (rules.stand_on_11 and total.points == TARGET)


def dealer_must_draw(total: Total) -> bool:
    """Whether the dealer draws another card: below 7 (an ace counting 11 unless that busts)."""
    return total.points < DEALER_STANDS_ON


def main_result(
    rules: EasyJackRules, player: Total, dealer: Total, wager: int
) -> tuple[str, int, str | None]:
    """The Easy Jack wager's (outcome, net payout, label); fractions of a cent round down.

    >>> from controller.games.parts.totals import total_of
    >>> rules = EasyJackRules()
    >>> main_result(rules, total_of([1]), total_of([5, 3]), 1001)
    ('natural', 1501, 'natural 3:2')
    >>> main_result(rules, total_of([1]), total_of([1]), 1000)
    ('push', 0, None)
    >>> main_result(rules, total_of([9, 5]), total_of([6, 10]), 1000)
    ('lose', -1000, None)
    """
    if player.natural:
        if rules.natural_pays_6_5:
            return "natural", wager * 6 // 5, "natural 6:5"
        if dealer.natural:
            return "push", 0, None
        return "natural", wager * 3 // 2, "natural 3:2"
    if player.bust or dealer.natural:
        return "lose", -wager, None
    if dealer.bust or player.points > dealer.points:
        return "win", wager, None
    if player.points == dealer.points:
        return "push", 0, None
    return "lose", -wager, None


def side_result(rules: EasyJackRules, dealer: Total, wager: int) -> tuple[str, int, str | None]:
    """The Dealer Bust wager's (outcome, net payout, label) for the dealer's final total.

    >>> from controller.games.parts.totals import total_of
    >>> side_result(EasyJackRules(), total_of([2, 1, 1, 1, 1, 9]), 100)
    ('win', 50000, 'dealer bust in 6 cards pays 500 to 1')
    >>> side_result(EasyJackRules(), total_of([6, 5]), 100)
    ('lose', -100, None)
    """
    if not dealer.bust:
        return "lose", -wager, None
    odds = rules.bust_odds(dealer.cards)
    return "win", wager * odds, f"dealer bust in {dealer.cards} cards pays {odds} to 1"
