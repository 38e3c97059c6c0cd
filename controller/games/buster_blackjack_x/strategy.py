"""Basic strategy for the configured rules: the best decision by hand total and up card.

Worked out for an infinite deck (every card point equally likely whatever was
dealt, a ten-point card four times as likely as any other), from the game's own
totals, player-dealer chart and settlement (:mod:`~controller.games.buster_blackjack_x.totals`,
:mod:`~controller.games.buster_blackjack_x.outcomes`). Decisions are taken after
the check, so the player-dealer is known to hold no natural. A split is valued
as two hands that may not split again (the usual approximation); resplits,
where the table allows them, follow the same table.

:class:`Strategy` ranks the decisions of every two-card hand (a simulated
player takes the best one the rules allow), says whether to hit every other
hand, and gives the infinite-deck value of the base wager played that way
(``table-controller math`` prints it beside the simulated figure).

>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> strategy = Strategy(BusterRules())
>>> strategy.ranked(10, False, 0, 6)[0], strategy.ranked(16, False, 8, 10)[0]
('D', 'P')
>>> strategy.hits(20, False, 10), strategy.hits(6, True, 10)
(False, True)
"""

from __future__ import annotations

from functools import cache

from controller.games.buster_blackjack_x.outcomes import main_result
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.totals import (
    Count,
    Standing,
    dealer_must_draw,
    dealer_standing,
    player_standing,
)

UNIT = 10
"""The wager the payouts are worked out on: 6 to 5 and half of it are whole cents."""

POINTS = tuple(range(1, 11))
CHANCE = {point: (4 if point == 10 else 1) / 13 for point in POINTS}
"""An infinite deck: the chance of each card point."""

BLACKJACK_X_SHARE = 1 / 16
"""Of the two-card 31s, the share that are an ace and the king of its suit."""

ACTIONS = ("S", "H", "D", "P", "R")
"""Stand, hit, double, split, surrender."""


class Strategy:
    """Basic strategy and its value for one rule set (worked out once, then looked up)."""

    def __init__(self, rules: BusterRules) -> None:
        """Work out the strategy for ``rules``."""
        self.rules = rules
        self._dealer = {up: self._dealer_finals(up) for up in POINTS}
        self._stand: dict[tuple[Standing, int], float] = {}
        self._ranked: dict[tuple[int, bool, int, int], tuple[str, ...]] = {}
        self._values: dict[tuple[int, bool, int, int], dict[str, float]] = {}
        self._hit = cache(self._best_after_two)

    # -- the player-dealer ------------------------------------------------------

    def _dealer_finals(self, up: int) -> dict[Standing, float]:
        """The chance of each final player-dealer hand for up card ``up``, given no natural."""
        finals: dict[Standing, float] = {}

        def draw(count: Count, chance: float) -> None:
            if dealer_must_draw(self.rules, count):
                for point in POINTS:
                    draw(count.add(point), chance * CHANCE[point])
                return
            standing = dealer_standing(self.rules, count, None)
            finals[standing] = finals.get(standing, 0.0) + chance

        holes = [point for point in POINTS if sorted((up, point)) != [1, 10]]
        total = sum(CHANCE[point] for point in holes)
        for point in holes:
            draw(Count().add(up).add(point), CHANCE[point] / total)
        return finals

    def natural_chance(self, up: int) -> float:
        """The chance that the player-dealer with ``up`` showing holds a natural."""
        return CHANCE[10] if up == 1 else CHANCE[1] if up == 10 else 0.0

    # -- the player -------------------------------------------------------------

    def stand_value(self, player: Standing, up: int) -> float:
        """The expected net result per unit of a player hand standing as ``player`` against ``up``."""
        key = (player, up)
        if key not in self._stand:
            self._stand[key] = sum(
                chance * main_result(self.rules, player, dealer, UNIT)[1] / UNIT
                for dealer, chance in self._dealer[up].items())
        return self._stand[key]

    def _standing(self, count: Count) -> Standing:
        return player_standing(self.rules, count, None)

    def _best_after_two(self, hard: int, ace: bool, up: int) -> tuple[float, bool]:
        """The value of a hand of three or more cards (or one that may only hit or stand), and
        whether to hit it."""
        count = Count(hard, int(ace), 3)
        standing = self._standing(count)
        stand = self.stand_value(standing, up)
        if standing.kind != "total":
            return stand, False
        hit = sum(CHANCE[p] * self._hit(hard + p, ace or p == 1, up)[0] for p in POINTS)
        return (hit, True) if hit > stand else (stand, False)

    def hits(self, hard: int, ace: bool, up: int) -> bool:
        """Whether to hit a hand of three or more cards worth ``hard`` (aces as 1), with an ace or
        not, against ``up``."""
        return self._hit(hard, ace, up)[1]

    def values(self, hard: int, ace: bool, pair: int, up: int) -> dict[str, float]:
        """The value of each decision on a two-card hand (``pair``: the value of a pair, else 0)."""
        key = (hard, ace, pair, up)
        if key not in self._values:
            count = Count(hard, int(ace), 2)
            values = {
                "S": self.stand_value(self._standing(count), up),
                "H": sum(CHANCE[p] * self._hit(hard + p, ace or p == 1, up)[0] for p in POINTS),
                "D": 2 * sum(CHANCE[p] * self.stand_value(self._standing(count.add(p)), up)
                             for p in POINTS),
                "R": -0.5,
            }
            if pair:
                values["P"] = 2 * self._split_hand(pair, up)
            self._values[key] = values
        return self._values[key]

    def ranked(self, hard: int, ace: bool, pair: int, up: int) -> tuple[str, ...]:
        """The decisions on a two-card hand, best first (a player takes the first one allowed)."""
        key = (hard, ace, pair, up)
        if key not in self._ranked:
            values = self.values(hard, ace, pair, up)
            self._ranked[key] = tuple(sorted(values, key=lambda action: -values[action]))
        return self._ranked[key]

    def _split_hand(self, pair: int, up: int) -> float:
        """The value of one hand after a split of two cards worth ``pair`` (no further split)."""
        value = 0.0
        for point in POINTS:
            count = Count().add(pair).add(point)
            if pair == 1:
                value += CHANCE[point] * self.stand_value(self._standing(count), up)
            else:
                best = self.values(count.hard, count.aces > 0, 0, up)
                value += CHANCE[point] * max(best.values())
        return value

    def start_value(self, first: int, second: int, up: int) -> float:
        """The infinite-deck value of the base wager once the seat holds ``first`` and ``second``
        and the player-dealer shows ``up`` (its natural not yet checked)."""
        natural = self.natural_chance(up)
        if sorted((first, second)) == [1, 10]:
            return self._natural_value(natural)
        count = Count().add(first).add(second)
        pair = first if first == second else 0
        best = max(self.values(count.hard, count.aces > 0, pair, up).values())
        return (1 - natural) * best - natural

    def base_value(self) -> float:
        """The base wager's expected net result per unit played by this strategy, infinite deck."""
        return sum(CHANCE[up] * CHANCE[first] * CHANCE[second] * self.start_value(first, second, up)
                   for up in POINTS for first in POINTS for second in POINTS)

    def _natural_value(self, dealer_natural: float) -> float:
        """A player's two-card 31 (a Blackjack X one time in 16), against a possible dealer one."""
        x = BLACKJACK_X_SHARE
        against_none = x * 2 + (1 - x) * 1.2
        against_natural = x * (1 - x) * 2 - (1 - x) * x    # X beats a natural; a natural loses to X
        return (1 - dealer_natural) * against_none + dealer_natural * against_natural
