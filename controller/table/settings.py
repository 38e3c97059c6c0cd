"""What the table is set up with, and the names its buttons and the dealer's floor actions go by."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TABLE_BUTTONS = ("deal", "next", "void")
"""Buttons the table itself answers; every other button names a game action."""

FLOOR_ACTIONS = ("call_floor", "acknowledge")
"""The dealer's actions towards the pit, open outside the machine's phases: ``call_floor`` at any
time (a ``floor_called`` alert), ``acknowledge`` while the pit's message is shown."""

MISPAY_POLICIES = ("hold", "alert")
"""What a payment walk does with a spot paid wrong: hold the walk, or go on and record it."""

FLOOR_CALL_WINDOW = 60.0
"""Seconds a floor call stays open: further calls in that time are counted on it, not raised again."""


@dataclass(frozen=True)
class TableSettings:
    """What the table needs of its configuration."""

    table_id: str
    game_name: str
    seats: int
    limits: Mapping[str, int]
    buttons: tuple[str, ...]
    boards: tuple[str, ...]
    """The boards the table runs, by name (``[devices]``): a deal waits until all are online."""
    chips: tuple[int, ...] = ()
    """The chip registry's denominations in cents, ascending (a screen pays in the fewest chips)."""
    payout_check: bool = True
    """Whether NEXT checks each settled spot's chips (``payout_mismatch``; ``[table] payout_check``)."""
    tray: bool = False
    """Whether an antenna is the chip tray (``[antennas] N = "tray"``: :mod:`controller.table.tray`)."""
    rules: Mapping[str, object] | None = None
    """The game's ``[game]`` options in force as plain JSON, published in ``table.opened``
    (:func:`controller.games.catalog.rules_json`); None: none published."""
    floor_call_window: float = FLOOR_CALL_WINDOW
    """Seconds a floor call stays open (``[table] floor_call_window``)."""
    mispay: str = "hold"
    """What a payment walk's NEXT does while a spot the hand checks reads short or over
    (``[table] mispay``): ``"hold"``, refused until it reads right; ``"alert"``, taken with a
    ``mispay`` alert for each such spot (:data:`MISPAY_POLICIES`)."""
    repeat_window: float = 0.0
    """Seconds in which a game action pressed again, once the seat in turn has changed, is taken
    for a double press and refused once (``[table] repeat_window_ms``; 0: never)."""


@dataclass
class FloorCall:
    """The dealer's last floor call: the ``seq`` of its ``floor_called`` alert, when it was raised
    (``at``, monotonic seconds), and the ``calls`` counted on it, the first included."""

    seq: int
    at: float
    calls: int = 1


@dataclass(frozen=True)
class TakenAction:
    """The last game action taken by a press: its name, the seat that took it (None: the house
    dealer, or nobody) and when (``at``, monotonic seconds); ``repeated`` once a press of the
    same action for the next seat was refused as a double press, so the press after it is taken."""

    action: str
    seat: int | None
    at: float
    repeated: bool = False


def waiting_words(boards: Sequence[str]) -> str:
    """Why the hand takes no decision while ``boards`` are offline, in a dealer's words.

    >>> waiting_words(["rfid"])
    'the rfid is offline: the hand waits until it is back'
    >>> waiting_words(["rfid", "shoe"])
    'the rfid and the shoe are offline: the hand waits until they are back'
    """
    names = " and the ".join(boards)
    if len(boards) == 1:
        return f"the {names} is offline: the hand waits until it is back"
    return f"the {names} are offline: the hand waits until they are back"
