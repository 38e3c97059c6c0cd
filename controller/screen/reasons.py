"""Why each winning spot is paid, in the rule sheet's words: "natural 3:2", "bust in 3 cards pays 4
to 1", "win 1:1".

Read from the settled results alone (the picture's ``results``): a result's ``label`` is the
game's own words for a hand paid at its own odds (declared beside the payout
rule); a plain result is its ``outcome`` and the odds its payout makes of its
wager, when they are odds a table pays (``1:1``, ``3:2``, ``6:5``, ``4:1``).
A spot's results (the hands of a split) are joined.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import gcd

from controller.events.hand import WagerResult

MAX_ODDS_TERM = 10
"""The largest term of odds shown (``9:5``); a pot's share (``37:20``) is not odds and is left out."""


def odds(wager: int, payout: int) -> str | None:
    """``payout`` to ``wager`` as odds a table pays, or None.

    >>> odds(1000, 1500), odds(1000, 1000), odds(500, 2000), odds(2000, 3700), odds(0, 10)
    ('3:2', '1:1', '4:1', None, None)
    """
    if wager <= 0 or payout <= 0:
        return None
    common = gcd(wager, payout)
    paid, staked = payout // common, wager // common
    return f"{paid}:{staked}" if paid <= MAX_ODDS_TERM * 100 and staked <= MAX_ODDS_TERM else None


def reason(result: WagerResult) -> str:
    """Why one winning result is paid: its label, else its outcome and odds.

    >>> reason(WagerResult(1, "main", 0, "natural", 1000, 1500, "natural 3:2"))
    'natural 3:2'
    >>> reason(WagerResult(1, "main", 0, "win", 1000, 1000))
    'win 1:1'
    """
    if result.label:
        return result.label
    outcome = result.outcome or "win"
    shown = odds(result.wager, result.payout)
    return f"{outcome} {shown}" if shown else outcome


def payout_reasons(results: Iterable[WagerResult]) -> dict[str, str]:
    """``"seat:spot"`` -> why that spot is paid, for every spot with a winning result.

    >>> payout_reasons([
    ...     WagerResult(2, "side", 0, "win", 500, 2000, "bust in 3 cards pays 4 to 1"),
    ...     WagerResult(2, "main", 0, "win", 1000, 1000),
    ...     WagerResult(2, "main", 1, "lose", 1000, -1000)])
    {'2:side': 'bust in 3 cards pays 4 to 1', '2:main': 'win 1:1'}
    """
    found: dict[str, list[str]] = {}
    for result in results:
        if result.payout > 0:
            found.setdefault(f"{result.seat}:{result.spot}", []).append(reason(result))
    return {key: " + ".join(words) for key, words in found.items()}
