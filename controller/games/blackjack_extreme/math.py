"""What banking a hand of Blackjack Extreme is worth, by simulation (``table-controller math``).

The game has no house edge: the bank rotates among the players. What can be
said is what the bank expects from a hand against a table of players who play
basic strategy (:mod:`controller.games.blackjack_extreme.strategy`), with the
dealer's own fixed choices there. :func:`simulate` plays such hands, pure: the
caller passes a seeded ``random.Random`` and gets the same figures for the
same seed. Each hand is dealt from a freshly shuffled shoe of ``rules.decks``
decks, in the table's own order (down cards, the dealer's first card, up
cards, her second card, then the players' draws in turn, then hers), with every
player posting the same blind and every stack deep enough (no short stacks).
The totals, the dealer's drawing rule and the payouts are the game's own
(:mod:`controller.games.blackjack_extreme.play`).

Not computed: what a dealer gains by choosing her up card or surrendering
cleverly (bluffing), what players gain by reading her or by counting cards,
and short stacks (the seed's payment order only moves money when the bank
cannot pay, which a deep-stacked simulation never meets).

>>> import random
>>> figures = simulate(BlackjackExtremeRules(), random.Random(7), hands=200, players=5)
>>> figures.hands, figures.players
(200, 5)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.games.blackjack_extreme.play import (
    BLACKJACK,
    count,
    dealer_rule,
    half,
    hand_outcome,
    is_natural,
    natural_pays,
)
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.strategy import betting_move, dealer_hits, dealer_up_card, play_move
from controller.games.spec import Figure

BLIND = 100
"""The blind every simulated player posts, in cents (even, so half a blind and 3:2 are whole)."""

HANDS = 60_000
"""Hands ``table-controller math`` simulates (a few seconds; see docs/benchmarks.md)."""

PLAYERS = 5
"""Players against the bank: a full six-seat table."""

SEED = 20_270_301
"""The seed of the simulation ``table-controller math`` reports, so its figures repeat."""

Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True)
class Figures:
    """A simulation's result: the bank's mean net per hand in cents and its standard error."""

    hands: int
    players: int
    mean: float
    error: float

    def edge(self) -> float:
        """The bank's expectation per player and per unit of blind (a fraction)."""
        return self.mean / (self.players * BLIND)

    def interval(self) -> tuple[float, float]:
        """The 95 % interval of :meth:`edge`."""
        spread = Z95 * self.error / (self.players * BLIND)
        return self.edge() - spread, self.edge() + spread


def shoe(decks: int) -> list[int]:
    """The points of every card of a full shoe."""
    return [min(rank, 10) for rank in range(1, 14) for _ in range(4 * decks)]


def drawer(rng: random.Random, cards: list[int]) -> Callable[[], int]:
    """Draws from a copy of ``cards`` at random without replacement."""
    left = list(cards)

    def draw() -> int:
        index = rng.randrange(len(left))
        left[index], left[-1] = left[-1], left[index]
        return left.pop()
    return draw


def bank_net(rules: BlackjackExtremeRules, players: int, draw: Callable[[], int]) -> int:
    """One hand: the bank's net result in cents, every player posting :data:`BLIND`."""
    down = [draw() for _ in range(players)]
    first = draw()
    ups = [draw() for _ in range(players)]
    dealer = [first, draw()]
    up = dealer[dealer_up_card(dealer) - 1]
    moves = [betting_move((down[n], ups[n]), up) for n in range(players)]
    net = 0
    seats: list[tuple[bool, list[list[int]], list[bool]]] = []   # raised, hands, split flags
    for n, move in enumerate(moves):
        if move == "fold":
            net += half(BLIND)
            continue
        cards = [down[n], ups[n]]
        if move == "check" and is_natural(cards, False, False):
            net -= natural_pays(BLIND)
            continue
        seats.append((move == "raise", [cards], [False]))
    for raised, hands, splits in seats:
        _play_seat(raised, hands, splits, up, draw)
    net += _dealer_and_settle(rules, seats, dealer, draw)
    return net


def _play_seat(raised: bool, hands: list[list[int]], splits: list[bool], up: int,
               draw: Callable[[], int]) -> None:
    """One seat's turn, hand by hand in order; a split hand goes last and takes its second card."""
    index = 0
    while index < len(hands):
        hand = hands[index]
        forced = raised and not splits[index]
        while True:
            if len(hand) < 2 or forced:
                hand.append(draw())
                forced = False
            if count(hand, raised and not splits[index]).points >= BLACKJACK:
                break
            move = play_move(hand, up, may_split=True)
            if move == "stand":
                break
            if move == "split":
                hands.append([hand.pop()])
                splits[index] = True
                splits.append(True)
                continue
            hand.append(draw())
        index += 1


def _dealer_and_settle(rules: BlackjackExtremeRules, seats: list[tuple[bool, list[list[int]], list[bool]]],
                       dealer: list[int], draw: Callable[[], int]) -> int:
    """The dealer plays if a result depends on her, then every hand is settled: the bank's net."""
    standing = [totals for totals in (
        [t.points for t in (count(h, raised and not s) for h, s in zip(hands, splits, strict=True))
         if not t.bust] for raised, hands, splits in seats) if totals]
    losing_to = max(standing[0]) if rules.heads_up_draw and len(standing) == 1 else 0
    while standing:
        total = count(dealer)
        losing = losing_to > total.points
        move = dealer_rule(total, losing)
        if move == "stand" or (move == "choose" and not dealer_hits(total.points, total.soft, losing)):
            break
        dealer.append(draw())
    final = count(dealer)
    net = 0
    for raised, hands, splits in seats:
        bet = 2 * BLIND if raised else BLIND
        for hand, split in zip(hands, splits, strict=True):
            net -= hand_outcome(hand, bet, raised and not split, split, final)[1]
    return net


def simulate(rules: BlackjackExtremeRules, rng: random.Random, hands: int = HANDS,
             players: int = PLAYERS) -> Figures:
    """Play ``hands`` hands with ``rng``; the bank's mean net per hand and its standard error."""
    cards = shoe(rules.decks)
    total = squares = 0.0
    for _ in range(hands):
        net = bank_net(rules, players, drawer(rng, cards))
        total += net
        squares += net * net
    mean = total / hands
    variance = max(squares / hands - mean * mean, 0.0) * hands / max(hands - 1, 1)
    return Figures(hands, players, mean, math.sqrt(variance / hands))


def bank_report(rules: BlackjackExtremeRules, hands: int = HANDS) -> dict[str, Figure]:
    """What ``table-controller math`` prints: the bank's expectation per player and unit of blind,
    with its 95 % interval, and plainly what is not computed."""
    figures = simulate(rules, random.Random(SEED), hands)
    low, high = figures.interval()
    return {
        "bank": {
            "house_edge": figures.edge(), "interval": [low, high], "hands": figures.hands,
            "players": figures.players,
            "method": (f"simulation of {figures.hands:,} hands, seed {SEED}: the player-dealer banking "
                       f"{figures.players} basic-strategy players who each post one minimum blind "
                       "(raise 2x where basic strategy doubles, fold where it surrenders); the dealer "
                       "shows her higher card, never surrenders, hits soft 17, draws heads-up while "
                       "losing; deep stacks, a fresh shoe each hand"),
        },
        "not computed": {
            "value": "dealer bluffing and surrender strategy, players adapting or counting, short stacks",
            "method": "these depend on people's choices or on the stacks, which no fixed strategy captures",
        },
    }
