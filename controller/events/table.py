"""The events of the table itself: the boards, the shoe, the betting, a hand's start and end.

The table (:mod:`controller.table.machine`) emits these around whatever the game
reports; alerts are :class:`~controller.events.hand.Alerted`, whoever raises them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.events.codec import OMIT_NONE
from controller.events.registry import Event, event


@event("table.opened")
@dataclass(frozen=True)
class TableOpened(Event):
    """The controller started: its ``game``, ``seats`` and ``limits``; ``recovered`` after a restart.

    ``rules`` (an extension) is the game's ``[game]`` options in force, as plain JSON
    (:func:`controller.games.catalog.rules_json`); None, and left out, in a ``table.opened``
    journaled before the extension."""

    game: str
    seats: int
    limits: Mapping[str, int]
    recovered: bool
    rules: Mapping[str, object] | None = field(default=None, metadata=OMIT_NONE)


@event("device.online")
@dataclass(frozen=True)
class DeviceOnline(Event):
    """A board's link came up (``device``: ``shoe`` or ``rfid``), as the board reported itself."""

    device: str
    firmware: str | None
    serial: str | None


@event("device.offline")
@dataclass(frozen=True)
class DeviceOffline(Event):
    """A board's link went down, and why."""

    device: str
    reason: str


@event("shoe.loaded")
@dataclass(frozen=True)
class ShoeLoaded(Event):
    """A new shoe (the board's ``shoe_id`` for this load) of ``decks`` decks."""

    shoe_id: int
    decks: int


@event("shoe.cut_card")
@dataclass(frozen=True)
class CutCardOut(Event):
    """The cut card came out after the card at shoe ``index``."""

    index: int


@event("bet.placed")
@dataclass(frozen=True)
class BetPlaced(Event):
    """A spot's whole wager now, in cents (0: its chips were taken away), while bets are open."""

    seat: int
    spot: str
    amount: int


@event("hand.started")
@dataclass(frozen=True)
class HandStarted(Event):
    """A hand begins: the ``seats`` it deals to, and the player-dealer's seat (None: the house)."""

    seats: tuple[int, ...]
    dealer_seat: int | None


@dataclass(frozen=True)
class Wager:
    """One spot's wager as ``bets.closed`` lists it."""

    seat: int
    spot: str
    amount: int


@event("bets.closed")
@dataclass(frozen=True)
class BetsClosed(Event):
    """No more bets: every spot with a wager, by seat then spot."""

    bets: tuple[Wager, ...]


@event("hand.ended")
@dataclass(frozen=True)
class HandEnded(Event):
    """The dealer closed hand number ``hand``."""

    hand: int


@event("hand.voided")
@dataclass(frozen=True)
class HandVoided(Event):
    """The hand in play was cancelled, and why."""

    reason: str
