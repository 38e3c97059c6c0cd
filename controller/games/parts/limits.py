"""Wager limits: whether a spot holds a wager, and why an amount breaks a pair of limits.

>>> from controller.games.interface import Limits
>>> limit_problems("seat 2 main", 300, Limits(500, 50000), ("table", "table"))
['seat 2 main 300 is below the table minimum 500']
>>> wagered(0), wagered(500), wagered(True)
(False, True, False)
"""

from __future__ import annotations

from controller.games.interface import Limits


def wagered(amount: object) -> bool:
    """Whether a spot holds a wager (a whole number of cents above 0)."""
    return isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def limit_problems(what: str, amount: int, limits: Limits, words: tuple[str, str]) -> list[str]:
    """The reason ``amount`` breaks ``limits``, if it does; ``words`` name whose min and max apply."""
    what = f"{what} {amount}"
    if amount < limits.min_bet:
        return [f"{what} is below the {words[0]} minimum {limits.min_bet}"]
    if amount > limits.max_bet:
        return [f"{what} is above the {words[1]} maximum {limits.max_bet}"]
    return []
