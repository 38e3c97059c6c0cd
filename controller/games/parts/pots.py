"""Pots of pot games: the main pot and side pots, an uncalled bet, a split with odd chips, the rake.

Every seat's chips in the hand (antes, blinds, bets; folded seats' too) go
into the pots; only seats that have not folded may win them. Each pot holds
the chips up to the next level where a seat still in is all in, and the
seats that put in at least that much are eligible for it: the main pot is
the first, side pots follow.

>>> build_pots({1: 300, 2: 1000, 3: 1000, 4: 500}, live=[1, 2, 3])
(Pot(amount=1200, seats=(1, 2, 3)), Pot(amount=1600, seats=(2, 3)))
>>> uncalled({1: 800, 2: 400, 3: 0})
(1, 400)
>>> split(900, (5, 2), unit=100)
(500, 400)
>>> rake_due(4000, percent=5, cap=150, unit=25)
150
>>> rake_by_pot((Pot(100, (1, 2)), Pot(400, (2, 3))), 150)
(100, 50)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from controller.games.interface import Pot


def uncalled(bets: Mapping[int, int]) -> tuple[int, int] | None:
    """The part of a round's largest bet that no other seat matched, as (seat, chips), or None.

    At the end of a round those chips go back to the seat: nobody called them.

    >>> uncalled({1: 400, 2: 400}) is None, uncalled({4: 200})
    (True, (4, 200))
    """
    if not bets:
        return None
    ordered = sorted(bets.items(), key=lambda item: (-item[1], item[0]))
    seat, top = ordered[0]
    second = ordered[1][1] if len(ordered) > 1 else 0
    return (seat, top - second) if top > second else None


def build_pots(contributions: Mapping[int, int], live: Iterable[int]) -> tuple[Pot, ...]:
    """The pots of these ``contributions`` (every seat's chips in the hand, by seat), in order:
    the main pot first. ``live`` are the seats that may still win (not folded).

    Chips that folded seats put in above the largest live contribution (which the rounds'
    uncalled-bet rule never leaves) would join the last pot.

    >>> build_pots({1: 200, 2: 200, 3: 50}, live=[1, 2])
    (Pot(amount=450, seats=(1, 2)),)
    >>> build_pots({1: 0, 2: 0}, live=[1, 2])
    ()
    """
    seats = sorted(set(live))
    levels = sorted({contributions.get(seat, 0) for seat in seats})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(chips, level) - min(chips, previous) for chips in contributions.values())
        if amount:
            pots.append(Pot(amount, tuple(s for s in seats if contributions.get(s, 0) >= level)))
        previous = level
    rest = sum(max(0, chips - previous) for chips in contributions.values())
    if rest and pots:
        pots[-1] = Pot(pots[-1].amount + rest, pots[-1].seats)
    return tuple(pots)


def split(amount: int, winners: Sequence[int], unit: int = 1) -> tuple[int, ...]:
    """Each winner's share of ``amount``, the winners in the order odd chips go: equal shares in
    whole chips of ``unit`` cents; the chips left over go one each to the first winners, and
    any part of a chip below ``unit`` to the first.

    >>> split(1000, (3, 1), unit=100), split(950, (3, 1, 2), unit=100), split(7, (1, 2))
    ((500, 500), (350, 300, 300), (4, 3))
    """
    units, below = divmod(amount, unit)
    each, odd = divmod(units, len(winners))
    shares = [(each + (1 if place < odd else 0)) * unit for place in range(len(winners))]
    shares[0] += below
    return tuple(shares)


def rake_due(total: int, percent: int, cap: int | None, unit: int = 1) -> int:
    """The house's rake on pots of ``total`` cents: ``percent`` of it, at most ``cap`` (None: no
    cap), rounded down to whole chips of ``unit`` cents.

    >>> rake_due(1990, 10, None), rake_due(1990, 10, None, unit=100), rake_due(1000, 0, 500)
    (199, 100, 0)
    """
    take = total * percent // 100
    if cap is not None:
        take = min(take, cap)
    return take - take % unit


def rake_by_pot(pots: Sequence[Pot], rake: int) -> tuple[int, ...]:
    """How much of ``rake`` each pot gives: taken from the main pot first, then each side pot
    in turn (``rake`` is never more than the pots hold)."""
    taken: list[int] = []
    left = rake
    for pot in pots:
        part = min(left, pot.amount)
        taken.append(part)
        left -= part
    return tuple(taken)
