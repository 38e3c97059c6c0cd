"""Each game's basic strategy behind one small interface: what the strategy advises for a hand.

The advice comes from the strategy each game's math already uses, never from
a chart of this module's own:

* **Easy Jack**: :class:`~controller.games.easy_jack.math.EasyJackSolver`, the
  exact best hit/stand play from a full shoe (the dealer's card is face down:
  the play depends on the seat's own cards only). Its hands start with one card.
* **Buster Blackjack X**: :class:`~controller.games.buster_blackjack_x.strategy.Strategy`,
  the ranked decisions of a two-card hand against the up card (the first one
  the hand may take: a double or a surrender only on its first two cards, a
  split only of a pair and up to four hands) and hit/stand for more cards;
  insurance never.
* **Blackjack Extreme** has a strategy module, but the players' down cards are
  dealt face down and named only when the player-dealer plays (a folded
  hand's never), so the pit cannot see what a decision was taken on; and the
  house banks nothing there. Not checked.
* **Hold'em Blackjack** (a pot game) has none. Not checked.

Cards are given as points, an ace 1 and a ten-point card 10.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.strategy import Strategy
from controller.games.buster_blackjack_x.totals import TARGET, Count, player_total
from controller.games.catalog import rules_from_json
from controller.games.easy_jack.math import EasyJackSolver
from controller.games.easy_jack.rules import EasyJackRules, turn_over
from controller.games.parts.totals import total_of
from controller.plugins import PluginError

ACTION_OF = {"S": "stand", "H": "hit", "D": "double", "P": "split", "R": "surrender"}

NOT_CHECKED = {
    "blackjack-extreme": "the players' cards are face down until the player-dealer plays, and the house "
                         "banks nothing: decisions are not checked",
    "holdem-blackjack": "a pot game with no strategy module: decisions are not checked",
}
"""Why a game's decisions are not checked against a strategy."""


@dataclass(frozen=True)
class Situation:
    """A hand at a decision: its cards (points), the up card (points; None: none shows), whether it
    took a card by a hit already, whether it is a split ace, and the seat's hands now."""

    cards: tuple[int, ...]
    up: int | None
    hit: bool
    split_aces: bool
    hands: int


class GameStrategy(Protocol):
    """What the play checker needs of a game's strategy."""

    first_cards: int
    """Cards a hand is dealt before its first decision."""

    def advice(self, situation: Situation) -> str | None:
        """The action the strategy takes (``hit``, ``stand``, ``double``, ``split``, ``surrender``);
        None where it gives none (the hand plays no more)."""


class EasyJackStrategy:
    """Easy Jack's best play (hit or stand), from the game's exact solver."""

    first_cards = 1

    def __init__(self, rules: EasyJackRules) -> None:
        """Solve ``rules`` (a second or two: the solver's house edge walks every hand a player may
        hold from a full shoe, and remembers each, so that every advice after is looked up)."""
        self._solver = EasyJackSolver(rules)
        self._solver.house_edge()
        self._rules = rules
        self._known: dict[tuple[int, ...], bool] = {}

    def advice(self, situation: Situation) -> str | None:
        cards = tuple(sorted(situation.cards))
        if not cards or turn_over(self._rules, total_of(list(cards))):
            return None
        if cards not in self._known:
            self._known[cards] = self._solver.should_hit(list(cards))
        return "hit" if self._known[cards] else "stand"


class BusterStrategy:
    """Buster Blackjack X's basic strategy, from the game's own strategy module."""

    first_cards = 2
    MAX_HANDS = 4

    def __init__(self, rules: BusterRules) -> None:
        """Work out the strategy of ``rules`` for every hand total and up card (a fraction of a second)."""
        self._strategy = Strategy(rules)
        self._rules = rules
        for up in range(1, 11):
            for hard in range(2, 22):
                for ace in (False, True):
                    self._strategy.hits(hard, ace, up)
                    self._strategy.ranked(hard, ace, 0, up)

    def advice(self, situation: Situation) -> str | None:
        cards, up = situation.cards, situation.up
        if up is None or len(cards) < 2:
            return None
        hard, aces = sum(cards), sum(card == 1 for card in cards)
        total = player_total(self._rules, Count(hard, aces, len(cards)))
        if total >= TARGET or total > 21 or situation.split_aces:
            return None
        if len(cards) > 2 or situation.hit:
            return "hit" if self._strategy.hits(hard, aces > 0, up) else "stand"
        pair = cards[0] if cards[0] == cards[1] else 0
        allowed = {"S", "H", "D", "R"} | ({"P"} if pair and situation.hands < self.MAX_HANDS else set())
        ranked = self._strategy.ranked(hard, aces > 0, pair, up)
        return ACTION_OF[next(action for action in ranked if action in allowed)]


_BUILT: dict[tuple[str, str], GameStrategy | None] = {}


Strategies = Callable[[str | None, Mapping[str, object] | None, str], "GameStrategy | None"]
"""What gives a table's strategy: ``(game, rules, key)`` -> the strategy, or None (none, or not yet)."""


def strategy_for(game: str | None, rules: Mapping[str, object] | None,
                 key: str = "") -> GameStrategy | None:
    """The strategy of ``game`` under ``rules`` (as ``table.opened`` gives them; ``key``: their
    canonical text, to build each once); None for a game whose decisions are not checked, or rules
    that cannot be read. Building one takes up to a second or two (Easy Jack's solver): the monitor
    builds them apart (:mod:`controller.podium.monitor.apart.strategies`)."""
    if game is None or rules is None:
        return None
    cached = _BUILT.get((game, key))
    if cached is not None or (game, key) in _BUILT:
        return cached
    built: GameStrategy | None = None
    if game in ("easy-jack", "buster-blackjack-x"):
        try:
            typed = rules_from_json(game, rules)
        except (ValueError, PluginError):
            typed = None
        if isinstance(typed, EasyJackRules):
            built = EasyJackStrategy(typed)
        elif isinstance(typed, BusterRules):
            built = BusterStrategy(typed)
    _BUILT[(game, key)] = built
    return built


def not_checked(game: str | None) -> str | None:
    """Why ``game``'s decisions are not checked (None: they are, or the game is not known)."""
    return NOT_CHECKED.get(game or "")
