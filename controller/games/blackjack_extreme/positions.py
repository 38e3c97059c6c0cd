"""Positions round a Blackjack Extreme table: dealing order from the player-dealer's left, who
must play against a short-stacked dealer, and where the deal goes next.

Seats are numbered clockwise, so the dealer's left is the next seat number up,
wrapping round after the highest.

>>> clockwise([1, 2, 4, 6], dealer=4)
(6, 1, 2)
>>> required((6, 1, 2), dealer_stack=2500, minimum=1000)
(6, 1)
>>> next_dealer([1, 2, 4, 6], dealer=6), next_dealer([4], dealer=4)
(1, None)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from controller.games.interface import SEAT_WRAP


def clockwise(seats: Iterable[int], dealer: int) -> tuple[int, ...]:
    """``seats`` other than the dealer's, from the dealer's left round the table."""
    return tuple(sorted((seat for seat in seats if seat != dealer),
                        key=lambda seat: (seat - dealer) % SEAT_WRAP))


def required(positions: Sequence[int], dealer_stack: int, minimum: int) -> tuple[int, ...]:
    """The positions that must play: in order, as many as the dealer could pay the minimum each."""
    return tuple(positions[: max(dealer_stack, 0) // minimum])


def next_dealer(candidates: Iterable[int], dealer: int) -> int | None:
    """The first of ``candidates`` to the dealer's left (None when there is none but the dealer)."""
    order = clockwise(candidates, dealer)
    return order[0] if order else None
