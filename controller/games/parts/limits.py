"""Wager limits: whether a spot holds a wager, and why an amount breaks a pair of limits.

>>> from collections.abc import Mapping

from controller.games.interface import Limits
>>> limit_problems("seat 2 main", 300, Limits(500, 50000), ("table", "table"))
['seat 2 main $3.00 is below the table minimum $5.00']
>>> wagered(0), wagered(500), wagered(True)
(False, True, False)
>>> spot_problems(3, {"main": 500, "tip": 100, "side": -5}, ("main", "side"))
['seat 3 side -5 is not a wager in cents', "seat 3 has a wager on an unknown spot 'tip'"]
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.interface import Limits
from firmware_bridge.kernel.money import dollars


def wagered(amount: object) -> bool:
    """Whether a spot holds a wager (a whole number of cents above 0)."""
    return isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def limit_problems(what: str, amount: int, limits: Limits, words: tuple[str, str]) -> list[str]:
    """The reason ``amount`` breaks ``limits``, if it does, in dollars as the dealer reads money;
    ``words`` name whose min and max apply."""
    what = f"{what} {dollars(amount)}"
    if amount < limits.min_bet:
        return [f"{what} is below the {words[0]} minimum {dollars(limits.min_bet)}"]
    if amount > limits.max_bet:
        return [f"{what} is above the {words[1]} maximum {dollars(limits.max_bet)}"]
    return []


def spot_problems(seat: int, spots: Mapping[str, object], known: tuple[str, ...]) -> list[str]:
    """A line for each of a seat's spots that is not one of the game's, or holds no amount in cents."""
    found: list[str] = []
    for spot in sorted(spots):
        amount = spots[spot]
        if spot not in known:
            found.append(f"seat {seat} has a wager on an unknown spot {spot!r}")
        elif not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            found.append(f"seat {seat} {spot} {amount!r} is not a wager in cents")
    return found
