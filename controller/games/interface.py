"""What every game shares: table limits, card targets, the game events and the rule error.

A game is pure: a frozen rules object and a frozen hand state go in, a new hand
state and a tuple of these small frozen events come out.

>>> Target(to="dealer", seat=None, hand_index=0, face_up=False).face_up
False
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from firmware_bridge.cards import Card


@dataclass(frozen=True)
class Limits:
    """The table's wager limits in cents, both inclusive."""

    min_bet: int
    max_bet: int


@dataclass(frozen=True)
class Target:
    """Where the next card from the shoe goes: a seat's hand or the dealer, face up or down."""

    to: Literal["seat", "dealer"]
    seat: int | None
    hand_index: int
    face_up: bool


@dataclass(frozen=True)
class Dealt:
    """A card went to ``target``; ``index`` is its index in the shoe, passed in by the table."""

    target: Target
    card: Card
    index: int


@dataclass(frozen=True)
class Revealed:
    """A face-down card (shoe index ``index``) was turned face up; ``to`` is "seat" or "dealer"."""

    to: str
    seat: int | None
    hand_index: int
    card: Card
    index: int


@dataclass(frozen=True)
class Acted:
    """A seat took an action on one of its hands ("stand", ...), with an amount if it has one."""

    seat: int
    hand_index: int
    action: str
    amount: int | None = None


@dataclass(frozen=True)
class WagerResult:
    """How one wager ended.

    ``outcome`` is "win", "lose", "push" or "natural" (a natural paid at its own
    odds); ``payout`` is the player's net result in cents: positive for a win,
    ``-wager`` for a loss, 0 for a push.
    """

    seat: int
    spot: str
    hand_index: int
    outcome: str
    wager: int
    payout: int
    label: str | None = None


@dataclass(frozen=True)
class Settled:
    """The hand is over: one result per wager in play."""

    results: tuple[WagerResult, ...]


GameEvent = Dealt | Revealed | Acted | Settled
"""Any event a game action returns."""


class RuleError(ValueError):
    """An action that the rules do not allow now; the message says why, in words for a dealer."""


Bets = Mapping[int, Mapping[str, int]]
"""Wagers on the layout: seat -> spot name -> cents (spots with 0 may be absent)."""
