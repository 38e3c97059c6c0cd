"""A fast simulation of the base wager: one seat playing basic strategy off the top of a full shoe.

Each round draws its cards at random from a full shoe of ``rules.decks`` decks
(a partial Fisher-Yates shuffle of the cards it uses, so every round is off the
top and there is no cut-card effect): the seat's two cards, the up card, the
hole card, then the hits and the player-dealer's draws. The seat plays
:class:`~controller.games.buster_blackjack_x.strategy.Strategy` by hand total
(the best decision the rules allow); the player-dealer plays its chart while a
result depends on it. Every total, draw and payout comes from tables built once
from the game's own functions (:mod:`~controller.games.buster_blackjack_x.totals`,
:mod:`~controller.games.buster_blackjack_x.outcomes`), so the loop only looks up.

The result of a round is the net payout per unit of the base wager placed
(doubles and splits included in the payout, not in the unit). To need fewer
rounds for the same precision, each round's result is taken with a control
variate: minus the infinite-deck value of its start (the seat's two cards and
the up card, :meth:`Strategy.start_value`), plus that value's exact mean over
the starts a full shoe deals. The mean is unchanged (the two added terms have
the same expectation) and the spread drops by the part the start explains.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from controller.games.buster_blackjack_x.outcomes import main_result
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.seats import MAX_HANDS
from controller.games.buster_blackjack_x.strategy import POINTS, UNIT, Strategy
from controller.games.buster_blackjack_x.totals import (
    TARGET,
    TOP,
    Count,
    Standing,
    dealer_must_draw,
    dealer_standing,
    player_standing,
    player_total,
)

MAX_HARD = 64
"""Room for every hard total a hand can reach (a state is ``hard * 2 + ace``)."""

KING = 12
"""The king's rank index in a card code (``rank index * 4 + suit``)."""

POINT_OF = [min(code // 4 + 1, 10) for code in range(52)]
"""A card code's points (an ace 1)."""


@dataclass(frozen=True)
class Tables:
    """Everything the simulation loop looks up, built once per rule set (plain data: it pickles).

    A hand's state is ``hard * 2 + (1 if it holds an ace)``. ``player_total``
    by state; ``player_key`` (three or more cards) and ``two_card_key`` (a
    split hand of two) name a player standing, ``surrender_key`` a
    surrendered hand; ``dealer_draws`` and ``dealer_key`` by state; ``pay``
    the net result per unit by player key and dealer key; ``ranked`` the
    decisions of a two-card hand by ``(up, state, pair)``; ``hits`` by
    ``up * 128 + state``; ``start`` the control variate by
    ``first * 121 + second * 11 + up`` and ``start_mean`` its exact mean.
    """

    decks: int
    player_total: tuple[int, ...]
    player_key: tuple[int, ...]
    two_card_key: tuple[int, ...]
    surrender_key: int
    live: tuple[bool, ...]
    dealer_draws: tuple[bool, ...]
    dealer_key: tuple[int, ...]
    pay: tuple[tuple[float, ...], ...]
    ranked: dict[tuple[int, int, int], tuple[str, ...]]
    hits: tuple[bool, ...]
    natural: float
    blackjack_x: float
    blackjack_x_vs_natural: float
    start: tuple[float, ...]
    start_mean: float


def build_tables(rules: BusterRules, strategy: Strategy | None = None) -> Tables:
    """The simulation's tables for ``rules`` (and its basic strategy)."""
    strategy = strategy or Strategy(rules)
    players: list[Standing] = []
    dealers: list[Standing] = []

    def key(found: list[Standing], standing: Standing) -> int:
        plain = Standing(standing.kind, standing.total, 0, standing.hard_31)
        if plain not in found:
            found.append(plain)
        return found.index(plain)

    states = range(MAX_HARD * 2)
    counts = [Count(state // 2, state % 2, 3) for state in states]
    totals = tuple(player_total(rules, count) for count in counts)
    player_key = tuple(key(players, player_standing(rules, count, None)) for count in counts)
    two_card_key = tuple(key(players, player_standing(rules, Count(c.hard, c.aces, 2), None))
                         for c in counts)
    surrender_key = key(players, Standing("surrendered", 0, 2))
    live = tuple(standing.kind in ("total", "31") for standing in players)
    dealer_draws = tuple(dealer_must_draw(rules, count) for count in counts)
    dealer_key = tuple(key(dealers, dealer_standing(rules, count, None)) for count in counts)
    pay = tuple(tuple(main_result(rules, p, d, UNIT)[1] / UNIT for d in dealers) for p in players)
    ranked: dict[tuple[int, int, int], tuple[str, ...]] = {}
    for up in POINTS:
        for first in POINTS:
            for second in POINTS:
                count = Count().add(first).add(second)
                state = count.hard * 2 + (count.aces > 0)
                for pair in {0, first if first == second else 0}:
                    ranked[(up, state, pair)] = strategy.ranked(count.hard, count.aces > 0, pair, up)
    hits = tuple(up >= 1 and state // 2 <= 31 and strategy.hits(state // 2, bool(state % 2), up)
                 for up in range(11) for state in range(128))
    start = [0.0] * (11 * 121)
    for first in POINTS:
        for second in POINTS:
            for up in POINTS:
                start[first * 121 + second * 11 + up] = strategy.start_value(first, second, up)
    return Tables(rules.decks, totals, player_key, two_card_key, surrender_key, live, dealer_draws,
                  dealer_key, pay, ranked, hits, start=tuple(start),
                  start_mean=_start_mean(rules.decks, start), natural=main_result(
                      rules, Standing("natural-31", 31, 2), Standing("total", 20, 3), UNIT)[1] / UNIT,
                  blackjack_x=main_result(rules, Standing("blackjack-x", 31, 2),
                                          Standing("total", 20, 3), UNIT)[1] / UNIT,
                  blackjack_x_vs_natural=main_result(rules, Standing("blackjack-x", 31, 2),
                                                     Standing("natural-31", 31, 2), UNIT)[1] / UNIT)


def _start_mean(decks: int, start: list[float]) -> float:
    """The exact mean of ``start`` over the first three cards (seat, seat, up) of a full shoe."""
    left = [4 * decks] * 9 + [16 * decks]
    cards = 52 * decks
    mean = 0.0
    for first in POINTS:
        one = left[first - 1] / cards
        left[first - 1] -= 1
        for second in POINTS:
            two = one * left[second - 1] / (cards - 1)
            left[second - 1] -= 1
            for up in POINTS:
                mean += two * left[up - 1] / (cards - 2) * start[first * 121 + second * 11 + up]
            left[second - 1] += 1
        left[first - 1] += 1
    return mean


def simulate(tables: Tables, rounds: int, seed: int) -> tuple[int, float, float]:
    """Play ``rounds`` rounds; return (rounds, sum of results, sum of squared results), each
    result taken with the control variate."""
    shoe = [rank * 4 + suit for rank in range(13) for suit in range(4)] * tables.decks
    size = len(shoe)
    rand = random.Random(seed).random
    start, start_mean = tables.start, tables.start_mean
    total = squares = 0.0
    position = 0

    def draw() -> int:
        nonlocal position
        pick = position + int(rand() * (size - position))
        card = shoe[pick]
        shoe[pick] = shoe[position]
        shoe[position] = card
        position += 1
        return card

    for _ in range(rounds):
        position = 0
        result, begun = play_round(tables, draw)
        result += start_mean - start[begun]
        total += result
        squares += result * result
    return rounds, total, squares


def play_round(tables: Tables, draw: Callable[[], int]) -> tuple[float, int]:
    """One round with the cards ``draw`` gives (card codes, in the order the table deals them):
    the net result per unit of the base wager, and the index of its start in ``tables.start``."""
    first, up_card, second, hole = draw(), draw(), draw(), draw()
    p1, p2, up, down = POINT_OF[first], POINT_OF[second], POINT_OF[up_card], POINT_OF[hole]
    begun = p1 * 121 + p2 * 11 + up
    player_natural = p1 + p2 == 11 and (p1 == 1 or p2 == 1)
    if up + down == 11 and (up == 1 or down == 1):
        if not player_natural:
            return -1.0, begun
        mine, theirs = _is_x(first, second), _is_x(up_card, hole)
        return (0.0 if mine == theirs else tables.blackjack_x_vs_natural if mine else -1.0), begun
    if player_natural:
        return (tables.blackjack_x if _is_x(first, second) else tables.natural), begun
    hands = _play(tables, p1, p2, up, draw)
    dealer = (up + down) * 2 + (up == 1 or down == 1)
    live = tables.live
    for key, _ in hands:
        if live[key]:                                       # a result depends on the player-dealer
            dealer_draws = tables.dealer_draws
            while dealer_draws[dealer]:
                point = POINT_OF[draw()]
                dealer += point * 2 + (point == 1 and not dealer & 1)
            break
    column = tables.dealer_key[dealer]
    pay = tables.pay
    result = 0.0
    for key, wager in hands:
        result += pay[key][column] * wager
    return result, begun


def _is_x(one: int, other: int) -> bool:
    """Whether two card codes are an ace and the king of its suit."""
    return one % 4 == other % 4 and {one // 4, other // 4} == {0, KING}


def _play(tables: Tables, p1: int, p2: int, up: int,
          draw: Callable[[], int]) -> list[tuple[int, float]]:
    """The seat's hands once played, as (player key, wager in units). As at the table, a split
    keeps the first card in the hand being played, which draws its second card at once, and the
    other card starts a hand played after every hand already there."""
    ptotal, pkey, pkey2, ranked, hits = (tables.player_total, tables.player_key, tables.two_card_key,
                                         tables.ranked, tables.hits)
    pending: list[tuple[int, int, bool]] = [(p1, p2, False)]
    done: list[tuple[int, float]] = []
    hands = 1
    while pending:
        a, b, split = pending.pop(0)
        if b == 0:
            b = POINT_OF[draw()]
        state = (a + b) * 2 + (a == 1 or b == 1)
        if split and (a == 1 or ptotal[state] == TARGET):    # a split ace's card, or a 31: it stands
            done.append((pkey2[state], 1.0))
            continue
        pair = a if a == b else 0
        for action in ranked[(up, state, pair)]:
            if action != "P" or (pair and hands < MAX_HANDS):
                break
        if action == "P":
            hands += 1
            pending.insert(0, (a, 0, True))
            pending.append((b, 0, True))
        elif action == "R":
            done.append((tables.surrender_key, 1.0))
        elif action == "S":
            done.append((pkey2[state], 1.0))
        elif action == "D":
            point = POINT_OF[draw()]
            state += point * 2 + (point == 1 and not state & 1)
            done.append((pkey[state], 2.0))
        else:
            hand_base = up * 128
            while True:
                point = POINT_OF[draw()]
                state += point * 2 + (point == 1 and not state & 1)
                if ptotal[state] > TOP or not hits[hand_base + state]:
                    break
            done.append((pkey[state], 1.0))
    return done
