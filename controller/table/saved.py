"""The table's state as a checkpoint keeps it: records the one codec writes and reads back.

:meth:`controller.table.state.TableState.checkpoint` builds a :class:`Saved` and
writes it with :func:`controller.events.codec.record_json`; ``from_checkpoint``
reads one back with :func:`~controller.events.codec.from_json`. Each record's
fields are the checkpoint's keys in the order written (docs/architecture.md,
"Checkpoint"); a key an older checkpoint does not have reads as its default,
and ``books`` is left out while the books hold nothing (``tray_chips`` before a
reading gave them), so a checkpoint of a table without them reads as it always did.

>>> from controller.events.codec import from_json, record_json
>>> saved = Saved(12, 3, ((1, "main", 500),), SavedShoe(42, 6, 9, {"Ah": 1}, False),
...               {"shoe": (True, "1.0", "SH-1", None)}, (), {})
>>> data = record_json(saved)
>>> data["bets"], data["tray"], data["floor"], "books" in data
([[1, 'main', 500]], [None, None], {'closed': False, 'message': None, 'limits': None}, False)
>>> from_json(Saved, data) == saved
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.events.codec import OMIT_NONE
from controller.events.picture import TableAlert
from controller.table.books import BooksState


@dataclass(frozen=True)
class SavedShoe:
    """The shoe (:class:`controller.table.state.ShoeState`): ``read`` as ``(index, card)`` pairs,
    ``refused`` as ``(index, reason)`` pairs, both sorted."""

    shoe_id: int | None
    decks: int
    last_index: int
    seen: Mapping[str, int]
    cut_card_out: bool
    read: tuple[tuple[int, str | None], ...] = ()
    gaps: tuple[tuple[int, int], ...] = ()
    refused: tuple[tuple[int, str], ...] = ()
    resync: bool = False


@dataclass(frozen=True)
class SavedFloor:
    """What the pit set: ``limits`` as ``(min_bet, max_bet)``, None while as configured."""

    closed: bool = False
    message: str | None = None
    limits: tuple[int, int] | None = None


@dataclass(frozen=True)
class Saved:
    """The table's state between hands: ``bets`` as ``(seat, spot, cents)``; each board's
    ``(online, firmware, serial, reason)``; the session's parts by name; the tray's
    ``(amount, expected)``, and its chips as ``(value, count)`` pairs by value once a reading gave
    them."""

    seq: int
    hand_no: int
    bets: tuple[tuple[int, str, int], ...]
    shoe: SavedShoe
    devices: Mapping[str, tuple[bool, str | None, str | None, str | None]]
    alerts: tuple[TableAlert, ...]
    session: Mapping[str, object]
    tray: tuple[int | None, int | None] = (None, None)
    floor: SavedFloor = field(default_factory=SavedFloor)
    books: BooksState | None = field(default=None, metadata=OMIT_NONE)
    tray_chips: tuple[tuple[int, int], ...] | None = field(default=None, metadata=OMIT_NONE)
