"""The dealer button and the blinds of games played with a button, and clockwise order.

Seats are numbered clockwise (seat 1 on the dealer's left), so "to the left
of" a seat is the next higher number that is in the hand, wrapping round.
The button moves one seat clockwise after each hand, to the next seat that
has chips ("moving button"); a seat that has left is skipped.

>>> seating((2, 3, 5, 6), button=3)
Seating(seats=(2, 3, 5, 6), button=3, small_blind=5, big_blind=6)
>>> seating((2, 5), button=5)
Seating(seats=(2, 5), button=5, small_blind=5, big_blind=2)
>>> seating((2, 5), button=5, heads_up_button_small_blind=False)
Seating(seats=(2, 5), button=5, small_blind=2, big_blind=5)
>>> next_clockwise((1, 4, 6), after=4), next_clockwise((1, 4, 6), after=6), next_clockwise((), 3)
(6, 1, None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def next_clockwise(seats: Sequence[int], after: int | None) -> int | None:
    """The first of ``seats`` to the left of seat ``after`` (the lowest seat when ``after`` is
    None), or None when there are no seats."""
    ordered = sorted(seats)
    if not ordered:
        return None
    if after is None:
        return ordered[0]
    return next((seat for seat in ordered if seat > after), ordered[0])


def clockwise(seats: Sequence[int], after: int) -> tuple[int, ...]:
    """``seats`` in clockwise order starting with the first to the left of ``after``.

    >>> clockwise((1, 2, 4, 6), after=2), clockwise((1, 2, 4, 6), after=6)
    ((4, 6, 1, 2), (1, 2, 4, 6))
    """
    ordered = sorted(seats)
    return tuple(s for s in ordered if s > after) + tuple(s for s in ordered if s <= after)


@dataclass(frozen=True)
class Seating:
    """Who is dealt in (``seats``, in seat order), the button and the blinds of one hand."""

    seats: tuple[int, ...]
    button: int
    small_blind: int
    big_blind: int

    def from_left_of(self, seat: int) -> tuple[int, ...]:
        """The seats dealt in, clockwise from the first one to the left of ``seat``."""
        return clockwise(self.seats, seat)


def seating(seats: Sequence[int], button: int | None,
            heads_up_button_small_blind: bool = True) -> Seating:
    """The button and blinds for a hand dealt to ``seats`` (two or more).

    The button stays on seat ``button`` if it is dealt in, else it goes to the next seat dealt in
    to its left (to the lowest seat when no button was set yet). The small blind is the seat to
    the button's left and the big blind the next one; with two players the button posts the
    small blind (or, with ``heads_up_button_small_blind`` false, the big blind).
    """
    dealt = tuple(sorted(seats))
    if len(dealt) < 2:
        raise ValueError("a hand with blinds needs two seats or more")
    at = button if button in dealt else next_clockwise(dealt, button)
    assert at is not None
    left = clockwise(dealt, at)
    if len(dealt) == 2:
        other = left[0]
        if heads_up_button_small_blind:
            return Seating(dealt, at, at, other)
        return Seating(dealt, at, other, at)
    return Seating(dealt, at, left[0], left[1])
