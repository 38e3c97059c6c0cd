"""The part of a table's picture that a floor tile draws, as records read straight from the picture.

A floor of 2,000 tables draws a tile every time a table's picture changes, and
reading the whole :class:`~controller.events.picture.Picture` for it (every
card of every hand, the actions, the alerts, the books...) was most of the
monitor's time. :class:`TileView` names only what a tile shows, with the same
field names as the picture's, so the codec's decoder made from it
(:func:`controller.events.codec.from_json`) reads those keys and passes the
rest by. The table's own page, which shows everything, still reads the whole
picture. The records are plain (slotted, not frozen) dataclasses: one is made
for every picture a tile draws and dropped after, and a frozen record costs
about twice as much to make (its fields are set through ``object.__setattr__``).

>>> from controller.events.codec import from_json
>>> view = from_json(TileView, {"table": "T07", "game": "easy-jack", "phase": "betting", "hand": None,
...     "seats": [{"seat": 1, "bets": {"main": 500}, "cards": [], "total": None, "stack": 2500}],
...     "dealer": {"cards": [], "total": None, "seat": None}, "pots": [], "devices": {},
...     "session": {"button": None, "level": 0, "blinds": [], "level_ends_at": None},
...     "meters": {"hands": 3}, "closed": False, "actions": []})
>>> view.seats[0].bets["main"], view.seats[0].stack, view.seats[0].hands
(500, 2500, ())
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(slots=True)
class TileHand:
    """What rides on one of a seat's hands."""

    wager: int | None = None


@dataclass(slots=True)
class TileSeat:
    """A seat as its tile shows it: its bets, what rides on its hands, its stack, whether in turn."""

    seat: int
    bets: Mapping[str, int]
    hands: tuple[TileHand, ...] = ()
    in_turn: bool = False
    stack: int | None = None


@dataclass(slots=True)
class TileDealer:
    """Who deals: the player-dealer's seat (None: the house)."""

    seat: int | None = None


@dataclass(slots=True)
class TilePot:
    """A pot's amount in cents."""

    amount: int


@dataclass(slots=True)
class TileDevice:
    """Whether a board is online."""

    online: bool


@dataclass(slots=True)
class TileSession:
    """The session's button and a tournament's level, blinds and when the level ends."""

    button: int | None = None
    level: int = 0
    blinds: tuple[int, ...] = ()
    level_ends_at: str | None = None


@dataclass(slots=True)
class TileView:
    """What a floor tile reads of a table's picture (the picture's own names)."""

    table: str
    game: str
    phase: str
    hand: int | None
    seats: tuple[TileSeat, ...]
    dealer: TileDealer
    pots: tuple[TilePot, ...]
    devices: Mapping[str, TileDevice]
    session: TileSession
    meters: Mapping[str, int]
    closed: bool = False
