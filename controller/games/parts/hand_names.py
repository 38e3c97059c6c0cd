"""How a dealer's words number a seat's hands: one way on the display, the pit monitor, the dealer
screen and ``recall``.

A seat with one hand shows no number; a seat that split numbers every hand, its first too, from 1
(``main hand 1``, ``main hand 2``), so the words' "hand N" is the events' ``hand_index`` N-1.

>>> hand_number(0, several=False), hand_number(0, several=True), hand_number(1, several=True)
('', ' hand 1', ' hand 2')
>>> sorted(split_spots([(3, "main", 0), (3, "main", 1), (3, "progressive", 0), (5, "main", 0)]))
[(3, 'main')]
"""

from __future__ import annotations

from collections.abc import Iterable


def hand_number(index: int, several: bool) -> str:
    """`` hand N`` (N = ``index`` + 1) for a hand of a seat with ``several`` hands, else nothing."""
    return f" hand {index + 1}" if several else ""


def split_spots(results: Iterable[tuple[int, str, int]]) -> frozenset[tuple[int, str]]:
    """The ``(seat, spot)`` pairs wagered on more than one hand, among ``(seat, spot, hand_index)``
    results (a split hand's index is above 0; the seat's first hand is 0)."""
    return frozenset((seat, spot) for seat, spot, index in results if index > 0)
