"""Easy Jack's exact house edge, main wager and Dealer Bust, by recursion over the shoe.

One player plays alone from a full shoe of ``rules.decks`` decks and takes the
best hit/stand decision knowing only his own cards (with ``peek_for_ace``, also
that the hole card is not an ace once play goes on). Cards are removed as they
are drawn; the recursion is memoised on the counts left by point value. The
totals, the dealer's drawing rule and the payouts are the game's own
(``controller.games.parts.totals`` and ``controller.games.easy_jack.rules``).

Why the order of the draws does not matter: the player's hits come after the
hole card, but as he does not see it, the cards are exchangeable and the hole
card may as well be drawn after his last hit. With ``peek_for_ace`` the values
are kept unnormalised (expected payout times "the hole card is not an ace"),
which leaves every hit/stand comparison unchanged.

Figures for the standard rule sets are in ``docs/games/easy-jack.md``; one
rule set takes one to two seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from controller.games.easy_jack.rules import (
    EasyJackRules,
    dealer_must_draw,
    main_result,
    side_result,
    turn_over,
)
from controller.games.parts.totals import Total, total_of
from controller.games.spec import Figure

UNIT = 10
"""The wager the payouts are computed on: a multiple of 2 and 5, so 3:2 and 6:5 pay whole cents."""

Shoe = tuple[int, ...]
"""Cards left in the shoe by point value: index 0 holds the aces, index 9 the ten-valued cards."""


def full_shoe(decks: int) -> Shoe:
    """The counts of a full shoe by point value.

    >>> full_shoe(6)
    (24, 24, 24, 24, 24, 24, 24, 24, 24, 96)
    """
    return (4 * decks,) * 9 + (16 * decks,)


def _without(shoe: Shoe, point: int) -> Shoe:
    return (*shoe[: point - 1], shoe[point - 1] - 1, *shoe[point:])


class EasyJackSolver:
    """The best play and its expected results for one rule set, memoised."""

    def __init__(self, rules: EasyJackRules) -> None:
        """Prepare to solve ``rules`` from a full shoe of ``rules.decks`` decks."""
        self.rules = rules
        self.shoe = full_shoe(rules.decks)
        self._dealer: dict[tuple[Shoe, int, int], dict[Total, float]] = {}
        self._player: dict[Shoe, tuple[float, float, bool]] = {}
        self._payoffs: dict[tuple[Total, Total], tuple[float, float]] = {}

    def house_edge(self) -> dict[str, Figure]:
        """Both house edges as fractions of the wager: ``{"main": {...}, "side": {...}}``."""
        main = side = 0.0
        cards = sum(self.shoe)
        for point, count in enumerate(self.shoe, start=1):
            if not count:
                continue
            chance = count / cards
            shoe = _without(self.shoe, point)
            player = Total().add(point)
            main_ev, side_ev, _ = self._play(shoe, player)
            if self.rules.peek_for_ace:
                ace_chance = shoe[0] / sum(shoe)
                natural_main, natural_side = self._payoff(player, Total().add(1))
                main_ev += ace_chance * natural_main
                side_ev += ace_chance * natural_side
            main += chance * main_ev
            side += chance * side_ev
        return {
            "main": {"house_edge": -main, "method": "exact", "decks": self.rules.decks},
            "side": {"house_edge": -side, "method": "exact", "decks": self.rules.decks},
        }

    def should_hit(self, points: Sequence[int]) -> bool:
        """Whether the best play hits a hand of cards worth ``points`` (an ace as 1), shoe full before.

        >>> solver = EasyJackSolver(EasyJackRules())
        >>> solver.should_hit([6]), solver.should_hit([4, 2]), solver.should_hit([10])
        (True, False, False)
        """
        shoe = self.shoe
        for point in points:
            shoe = _without(shoe, point)
        return self._play(shoe, total_of(points))[2]

    def _payoff(self, player: Total, dealer: Total) -> tuple[float, float]:
        """Net (main, side) per unit wagered for these final totals."""
        key = (player, dealer)
        if key not in self._payoffs:
            main = main_result(self.rules, player, dealer, UNIT)[1] / UNIT
            side = side_result(self.rules, dealer, UNIT)[1] / UNIT
            self._payoffs[key] = (main, side)
        return self._payoffs[key]

    def _dealer_finals(self, shoe: Shoe, dealer: Total) -> dict[Total, float]:
        """The chance of each final dealer total from ``dealer`` with ``shoe`` left."""
        if not dealer_must_draw(dealer):
            return {dealer: 1.0}
        key = (shoe, dealer.points, dealer.cards)  # a drawing dealer is hard: points say it all
        found = self._dealer.get(key)
        if found is not None:
            return found
        finals: dict[Total, float] = {}
        cards = sum(shoe)
        for point, count in enumerate(shoe, start=1):
            if count:
                chance = count / cards
                for final, p in self._dealer_finals(_without(shoe, point), dealer.add(point)).items():
                    finals[final] = finals.get(final, 0.0) + chance * p
        self._dealer[key] = finals
        return finals

    def _stand(self, shoe: Shoe, player: Total) -> tuple[float, float]:
        """Expected (main, side) when the player's turn ends at ``player`` with ``shoe`` left."""
        main = side = 0.0
        cards = sum(shoe)
        for point, count in enumerate(shoe, start=1):
            if not count or (point == 1 and self.rules.peek_for_ace):
                continue
            chance = count / cards
            for final, p in self._dealer_finals(_without(shoe, point), Total().add(point)).items():
                main_pay, side_pay = self._payoff(player, final)
                main += chance * p * main_pay
                side += chance * p * side_pay
        return main, side

    def _play(self, shoe: Shoe, player: Total) -> tuple[float, float, bool]:
        """Expected (main, side) of the best play from ``player`` with ``shoe`` left, and whether it hits."""
        found = self._player.get(shoe)
        if found is not None:
            return found
        main, side = self._stand(shoe, player)
        best = (main, side, False)
        if not turn_over(self.rules, player):
            hit_main = hit_side = 0.0
            cards = sum(shoe)
            for point, count in enumerate(shoe, start=1):
                if count:
                    chance = count / cards
                    next_main, next_side, _ = self._play(_without(shoe, point), player.add(point))
                    hit_main += chance * next_main
                    hit_side += chance * next_side
            if hit_main > main:
                best = (hit_main, hit_side, True)
        self._player[shoe] = best
        return best


def house_edge(rules: EasyJackRules) -> dict[str, Figure]:
    """The exact house edges of the main and Dealer Bust wagers, as fractions of the wager.

    Each entry holds ``house_edge`` (minus the expected net payout per unit
    wagered), ``method`` ("exact") and ``decks``.
    """
    return EasyJackSolver(rules).house_edge()
