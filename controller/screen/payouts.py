"""What to pay or collect on each spot NEXT checks, in the fewest chips, and whether the spot reads it.

Pure functions over the table's picture: its ``checks`` are exactly the spots
the table checks at NEXT (raising ``payout_mismatch`` for each that reads
wrong) with what each should read then (``expected``: the wager plus the
payout, 0 for a lost wager); ``results`` say what each spot won (a spot's
results added up, as after a split), ``live`` what each spot reads now:

* ``pay``: a winning spot still reads its wager (or nothing): nothing is paid yet;
* ``collect``: a losing spot still reads its wager: nothing is collected yet;
* ``paid``: it reads what it should (green);
* ``short`` / ``over``: anything else, with the difference.

A spot NEXT does not check (its money goes to a stack the table keeps, or the
check is off) gets no box. What is still to pay is shown in the fewest chips of
the table's denominations.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd
from typing import TypedDict

from controller.events.codec import record_json
from controller.events.picture import Picture
from firmware_bridge.kernel.json import JsonObject

MAX_UNITS = 200_000
"""Amounts above this many chip units are broken down greedily (the denominations a casino uses
make the greedy breakdown the fewest chips anyway)."""


def fewest_chips(amount: int, denominations: Sequence[int]) -> tuple[list[tuple[int, int]], int]:
    """The fewest chips that make up ``amount`` cents: ``([(value, count), ...] highest first, rest)``,
    ``rest`` being what no chip can make (0 normally).

    >>> fewest_chips(3000, [2500, 500, 100])
    ([(2500, 1), (500, 1)], 0)
    >>> fewest_chips(1200, [1000, 600, 100])       # not greedy: two 600s beat 1000 + 2 x 100
    ([(600, 2)], 0)
    >>> fewest_chips(750, [500])
    ([(500, 1)], 250)
    >>> fewest_chips(0, [500]), fewest_chips(300, [])
    (([], 0), ([], 300))
    """
    values = sorted({d for d in denominations if d > 0}, reverse=True)
    if amount <= 0 or not values:
        return [], max(amount, 0)
    unit = 0
    for value in values:
        unit = gcd(unit, value)
    units, rest = divmod(amount, unit)
    if units > MAX_UNITS:
        return _greedy(amount, values)
    coins = [v // unit for v in values]
    best = [0] + [units + 1] * units
    last = [0] * (units + 1)
    for total in range(1, units + 1):
        for coin in coins:
            if coin <= total and best[total - coin] + 1 < best[total]:
                best[total], last[total] = best[total - coin] + 1, coin
    while units and best[units] > units:   # not every unit count can be made: pay the most that can
        units, rest = units - 1, rest + unit
    counts: dict[int, int] = {}
    while units:
        counts[last[units] * unit] = counts.get(last[units] * unit, 0) + 1
        units -= last[units]
    return sorted(counts.items(), reverse=True), rest


def _greedy(amount: int, values: list[int]) -> tuple[list[tuple[int, int]], int]:
    chips = []
    for value in values:
        count, amount = divmod(amount, value)
        if count:
            chips.append((value, count))
    return chips, amount


class PayoutCheck(TypedDict):
    """A spot's box (:func:`payout_checks`), as the page draws it."""

    seat: int
    spot: str
    wager: int
    payout: int
    expected: int
    read: int
    to_pay: int
    state: str
    chips: list[list[int]]
    rest: int
    jackpot: JsonObject | None


def payout_checks(picture: Picture, denominations: Sequence[int]) -> list[PayoutCheck]:
    """A box for each spot NEXT checks (the picture's ``checks``: the table's one rule), seat by
    seat: ``seat``, ``spot``, ``wager``, ``payout`` (the spot's results added up), ``expected``
    and ``read`` (cents), ``to_pay`` (expected - read, below 0 when over), ``state`` (``pay``,
    ``collect``, ``paid``, ``short``, ``over``), ``chips`` (``[[value, count], ...]``) and ``rest``
    (what no chip makes) to pay ``to_pay``, and ``jackpot``: the prize the spot won that a
    supervisor pays (``amount``, ``waiting``, ``prize`` or ``supervisor``, as the picture writes
    it), else None.

    >>> import json
    >>> from dataclasses import replace
    >>> from controller.events.codec import from_json
    >>> from controller.events.hand import WagerResult
    >>> from controller.events.picture import Check
    >>> from controller.follow.picture import PICTURE
    >>> picture = replace(from_json(Picture, json.loads(PICTURE)),
    ...                   results=(WagerResult(1, "main", 0, "natural", 1000, 1500),
    ...                            WagerResult(2, "main", 0, "lose", 500, -500)),
    ...                   checks=(Check(1, "main", 2500), Check(2, "main", 0)),
    ...                   live={"1": {"main": 2000}, "2": {"main": 500}})
    >>> [(c["state"], c["to_pay"], c["chips"]) for c in payout_checks(picture, [1000, 500])]
    [('short', 500, [[500, 1]]), ('collect', -500, [])]
    >>> picture = replace(picture, live={"2": {"main": 500}})   # the wager went into a pot: push it all
    >>> [(c["state"], c["to_pay"], c["chips"]) for c in payout_checks(picture, [1000, 500])][0]
    ('pay', 2500, [[1000, 2], [500, 1]])
    >>> payout_checks(replace(picture, checks=()), [1000, 500])     # NEXT checks nothing: no box
    []
    """
    totals: dict[tuple[int, str], tuple[int, int]] = {}
    waiting: set[tuple[int, str]] = set()
    for result in picture.results or ():
        key = (result.seat, result.spot)
        wager, payout = totals.get(key, (0, 0))
        totals[key] = (wager + result.wager, payout + result.payout)
        if result.outcome == "waiting":
            waiting.add(key)
    jackpots = {jackpot.seat: jackpot for jackpot in picture.jackpots}
    checks: list[PayoutCheck] = []
    for check in picture.checks:
        seat, spot, expected = check.seat, check.spot, check.expected
        wager, payout = totals.get((seat, spot), (expected, 0))
        read = picture.live.get(str(seat), {}).get(spot, 0)
        if read == expected:
            state = "paid"
        elif payout > 0 and read in (0, wager):
            state = "pay"
        elif payout < 0 and read == wager:
            state = "collect"
        else:
            state = "short" if read < expected else "over"
        chips, rest = fewest_chips(expected - read, denominations)
        jackpot = jackpots.get(seat) if (seat, spot) in waiting else None
        checks.append({"seat": seat, "spot": spot, "wager": wager, "payout": payout,
                       "expected": expected, "read": read, "to_pay": expected - read,
                       "state": state, "chips": [list(c) for c in chips], "rest": rest,
                       "jackpot": record_json(jackpot) if jackpot is not None else None})
    return checks
