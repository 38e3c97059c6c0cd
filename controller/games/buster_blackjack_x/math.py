"""What each wager of Buster Blackjack X is worth to whoever banks it (``table-controller math``).

Exact where the method allows:

- the Buster bonus depends only on the player-dealer's cards, which (the
  players' cards unseen) are a random draw from the full shoe: the chance of a
  bust in each number of cards is worked out by recursion over the shoe's
  composition, with the game's own chart and settlement;
- insurance depends only on the hole card under an ace;
- Blazing 7's depends only on three cards from the full shoe: counted
  exactly; the figure is given at the meter's base, as the meter at which the
  wager breaks even, and for the long run (every increment paid back, the base
  put up again after each whole-meter jackpot).

The base wager depends on the players' decisions: it is simulated
(:mod:`~controller.games.buster_blackjack_x.simulate`, basic strategy off the
top of a full shoe) until the 95% interval is ``precision`` wide on each side,
over ``workers`` processes; the infinite-deck value of the same strategy is
given beside it. House edge = minus the expected net payout per unit wagered,
for the bank of that wager (the player-dealer's for the base wager and
insurance, the house's for the bonus and Blazing 7's).

That simulation takes some 40 s on two cores. Its result for the example
rules is stored with the game (:mod:`~controller.games.buster_blackjack_x.stored`,
written by ``bench/buster_figures.py``), under the :func:`fingerprint` of
everything the result depends on but the loop's code: the simulation's
tables, built from the rules by the game's own functions, the precision, the
seed and the batches. Rules whose tables are the same (they differ only in
the bank, the bonus or Blazing 7's) run the very same simulation, so they find
the stored result too; any other rules, or a game whose totals, payouts or
strategy changed, are simulated afresh.

Each wager spot's figure is named by the spot (``main``, ``side`` for the
bonus, ``insurance``, ``progressive``): the figure a rating uses.

>>> fingerprint(build_tables(BusterRules()), PRECISION, SEED) in STORED
True
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
from collections.abc import Iterator
from functools import cache

from controller.games.buster_blackjack_x.outcomes import bonus_busts
from controller.games.buster_blackjack_x.progressive import blazing_prize
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.buster_blackjack_x.simulate import Tables, build_tables, simulate
from controller.games.buster_blackjack_x.stored import STORED
from controller.games.buster_blackjack_x.strategy import Strategy
from controller.games.buster_blackjack_x.totals import Count, dealer_must_draw, dealer_standing
from controller.games.spec import Figure
from firmware_bridge.kernel.cards import Card

PRECISION = 0.0005
"""The half-width of the base wager's 95% interval that the simulation runs to: 0.05 points."""

WORKERS = 2
"""Processes the simulation runs on."""

BATCH = 250_000
"""Rounds per batch of the simulation (one seed each)."""

MAX_ROUNDS = 100_000_000
"""The simulation stops here even if the interval is still wider than asked."""

Z95 = 1.959964
"""The normal quantile of a two-sided 95% interval."""

SEED = 31
"""The simulation's seed: batch N runs on seed ``SEED * 1_000_003 + N``."""

Shoe = tuple[int, ...]
"""Cards left by point value: index 0 the aces, index 9 the ten-point cards."""


def full_shoe(decks: int) -> Shoe:
    """A full shoe by point value.

    >>> full_shoe(8)
    (32, 32, 32, 32, 32, 32, 32, 32, 32, 128)
    """
    return (4 * decks,) * 9 + (16 * decks,)


def _without(shoe: Shoe, point: int) -> Shoe:
    return (*shoe[: point - 1], shoe[point - 1] - 1, *shoe[point:])


def bonus_busts_by_cards(rules: BusterRules) -> dict[int, float]:
    """The chance that the player-dealer busts (for the bonus) in each number of cards, exactly,
    from a full shoe, its natural (the hand ends at once, no bust) counted in.

    >>> chances = bonus_busts_by_cards(BusterRules())
    >>> min(chances), round(sum(chances.values()), 4)
    (3, 0.2857)
    """

    @cache
    def busts(shoe: Shoe, hard: int, ace: bool, cards: int) -> tuple[tuple[int, float], ...]:
        count = Count(hard, int(ace), cards)
        if not dealer_must_draw(rules, count):
            standing = dealer_standing(rules, count, None)
            return ((cards, 1.0),) if bonus_busts(rules, standing) else ()
        found: dict[int, float] = {}
        left = sum(shoe)
        for point, number in enumerate(shoe, start=1):
            if number:
                for size, chance in busts(_without(shoe, point), hard + point, ace or point == 1,
                                          cards + 1):
                    found[size] = found.get(size, 0.0) + chance * number / left
        return tuple(sorted(found.items()))

    shoe = full_shoe(rules.decks)
    total: dict[int, float] = {}
    cards = sum(shoe)
    for up, ups in enumerate(shoe, start=1):
        after_up = _without(shoe, up)
        for hole, holes in enumerate(after_up, start=1):
            if not holes or sorted((up, hole)) == [1, 10]:
                continue
            chance = ups / cards * holes / (cards - 1)
            for size, bust in busts(_without(after_up, hole), up + hole, up == 1 or hole == 1, 2):
                total[size] = total.get(size, 0.0) + chance * bust
    return total


def bonus_edge(rules: BusterRules) -> Figure:
    """The Buster bonus's exact house edge."""
    chances = bonus_busts_by_cards(rules)
    value = sum(chance * rules.bonus_odds(cards) for cards, chance in chances.items())
    value -= 1 - sum(chances.values())
    return {"house_edge": -value,
            "method": "exact: the Buster bonus, the player-dealer's cards from a full shoe"}


def insurance_edge(rules: BusterRules) -> Figure:
    """Insurance's exact house edge: the hole card under an ace, from the rest of a full shoe.

    >>> round(insurance_edge(BusterRules())["house_edge"], 6)
    0.074699
    """
    decks = rules.decks
    left = 52 * decks - 1
    paying = 16 * decks - (0 if rules.insurance_pays_on_blackjack_x else decks)
    value = 3 * paying / left - 1
    return {"house_edge": -value, "method": "exact: the hole card under an ace"}


def blazing_chances(rules: BusterRules) -> list[tuple[float, int, int]]:
    """Every way three cards from a full shoe can win Blazing 7's: (chance, N for 1, percent of
    the meter), each prize as the game's own :func:`blazing_prize` names it."""
    d = rules.decks
    deal = math.comb(52 * d, 3)
    others = 48 * d
    seven = [Card(7, suit) for suit in range(4)]
    # Suits of three 7s: one suit; two suits of one colour; mixed colours.
    patterns = [
        ((seven[0], seven[0], seven[0]), 4 * math.comb(d, 3)),
        ((seven[1], seven[1], seven[2]), 2 * (math.comb(2 * d, 3) - 2 * math.comb(d, 3))),
        ((seven[0], seven[0], seven[1]),
         math.comb(4 * d, 3) - 4 * math.comb(d, 3) - 2 * (math.comb(2 * d, 3) - 2 * math.comb(d, 3))),
        ((seven[0], seven[1], Card(13, 0)), math.comb(4 * d, 2) * others),
        ((seven[0], Card(13, 0), Card(12, 1)), 4 * d * math.comb(others, 2)),
    ]
    found = []
    for cards, ways in patterns:
        prize = blazing_prize(rules, cards)
        if prize is not None and ways:
            found.append((ways / deal, prize.for_one, prize.percent))
    return found


def progressive_edges(rules: BusterRules) -> dict[str, Figure]:
    """Blazing 7's: the house edge in the long run (``progressive``: what the house keeps of each
    wager once every increment is paid back, the figure a rating uses) and at the base meter, and
    the meter at which the wager breaks even (cents)."""
    wager = rules.progressive_wager
    chances = blazing_chances(rules)
    fixed = sum(chance * for_one for chance, for_one, percent in chances if not percent)
    share = sum(chance * percent / 100 for chance, _, percent in chances if percent)
    whole = sum(chance for chance, _, percent in chances if percent == 100)
    at_base = fixed + share * rules.progressive_base / wager
    long_run = fixed + (rules.progressive_increment + whole * rules.progressive_base) / wager
    figures: dict[str, Figure] = {
        "progressive": {
            "house_edge": 1 - long_run,
            "method": "exact: three cards, in the long run: every increment paid back, the base put "
                      "up again after each jackpot"},
        "progressive_at_base": {"house_edge": 1 - at_base,
                                "method": "exact: three cards, the meter at its base"},
    }
    if share:
        figures["progressive_break_even_meter"] = {
            "value": math.ceil((1 - fixed) * wager / share),
            "method": "exact: the meter (cents) at which the wager returns what it costs"}
    return figures


def _worker_init(tables: Tables) -> None:
    global _TABLES
    _TABLES = tables


_TABLES: Tables | None = None


def _batch(seed: int) -> tuple[int, float, float]:
    assert _TABLES is not None
    return simulate(_TABLES, BATCH, seed)


def interval(rounds: int, total: float, squares: float) -> tuple[float, float]:
    """The mean result and the half-width of its 95% interval (normal approximation).

    >>> [round(x, 4) for x in interval(4, 0.0, 4.0)]
    [0.0, 1.1316]
    """
    mean = total / rounds
    variance = max(squares / rounds - mean * mean, 0.0) * rounds / max(rounds - 1, 1)
    return mean, Z95 * math.sqrt(variance / rounds)


def simulate_base(rules: BusterRules, precision: float = PRECISION, workers: int = WORKERS,
                  seed: int = SEED, max_rounds: int = MAX_ROUNDS,
                  tables: Tables | None = None) -> Figure:
    """The base wager's house edge by simulation, run until its 95% interval is ``precision`` wide
    on each side (or ``max_rounds`` are played), in batches of :data:`BATCH` rounds."""
    tables = tables or build_tables(rules)
    rounds, total, squares = 0, 0.0, 0.0
    for done, batch_total, batch_squares in _batches(tables, workers, seed):
        rounds, total, squares = rounds + done, total + batch_total, squares + batch_squares
        mean, half = interval(rounds, total, squares)
        if half <= precision or rounds >= max_rounds:
            break
    return {"house_edge": -mean, "interval": [-mean - half, -mean + half], "rounds": rounds,
            "method": _simulated(rules, rounds)}


def _simulated(rules: BusterRules, rounds: int) -> str:
    return (f"simulated: {rounds:,} rounds of basic strategy off the top of a full {rules.decks}-deck "
            "shoe, 95% interval")


def fingerprint(tables: Tables, precision: float, seed: int) -> str:
    """What the simulation's result depends on, but the code of its loop: its tables (built from
    the rules by the game's own functions), the precision asked, the seeds, the batches and the
    interval's quantile, as a SHA-256 hex digest. Equal fingerprints, equal results."""
    inputs = (tables, precision, seed, BATCH, MAX_ROUNDS, Z95)
    return hashlib.sha256(repr(inputs).encode()).hexdigest()


def stored_base(rules: BusterRules, tables: Tables, precision: float = PRECISION,
                seed: int = SEED) -> Figure | None:
    """The base wager's figure that :func:`simulate_base` gives for these rules, as stored with the
    game (:mod:`~controller.games.buster_blackjack_x.stored`), or None when it is not stored."""
    found = STORED.get(fingerprint(tables, precision, seed))
    if found is None:
        return None
    return {"house_edge": found["house_edge"], "interval": list(found["interval"]),
            "rounds": found["rounds"],
            "method": _simulated(rules, found["rounds"]) + "; stored with the game, as "
                      "bench/buster_figures.py ran this same simulation"}


def _batches(tables: Tables, workers: int, seed: int) -> Iterator[tuple[int, float, float]]:
    """Batch results in seed order, computed on ``workers`` processes (1: in this process)."""
    seeds = (seed * 1_000_003 + number for number in range(MAX_ROUNDS // BATCH + 1))
    if workers <= 1:
        for each in seeds:
            yield simulate(tables, BATCH, each)
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(workers, initializer=_worker_init, initargs=(tables,)) as pool:
        yield from pool.imap(_batch, seeds)


def house_edges(rules: BusterRules, precision: float = PRECISION,
                workers: int = WORKERS) -> dict[str, Figure]:
    """Every wager's figures for ``table-controller math``: the base wager simulated to
    ``precision`` on ``workers`` processes (its stored result where there is one), and beside it
    the infinite-deck value; the bonus (``side``), insurance and Blazing 7's exactly; and the
    bank's collection fee (``bank_fee``), which a rating's theo counts for each hand banked."""
    strategy = Strategy(rules)
    tables = build_tables(rules, strategy)
    main = stored_base(rules, tables, precision) or simulate_base(rules, precision, workers, tables=tables)
    return {
        "main": main,
        "main_infinite_deck": {"house_edge": -strategy.base_value(),
                               "method": "the same strategy worked out for an infinite deck "
                                         "(a split valued without resplits)"},
        "side": bonus_edge(rules),
        "insurance": insurance_edge(rules),
        **progressive_edges(rules),
        "bank_fee": {"value": rules.collection_fee,
                     "method": "cents a player-dealer's bank pays the house each hand it banks "
                               "(collection_fee): the house's certain win on a banked hand"},
    }
