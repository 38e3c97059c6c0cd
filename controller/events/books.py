"""The events of the table's books: the dealer signed in, the table inventory slips, the drop.

A dealer signs in on the dealer screen with an id and PIN (``[dealers]``) and
out at the rotation: the next dealer signing in signs the last one out in the
same step (``dealer.out`` then ``dealer.in``), or the dealer signs out. At
opening and at closing the tray's reading is the table inventory slip (the
opener, the closer), signed by the dealer signed in (PIN) and then by a
supervisor (PIN); the drop is entered by the supervisor at close. The count
room's formula over one shift (opener to closer) is in :mod:`controller.table.books`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.events.codec import OMIT_NONE
from controller.events.registry import Event, event
from controller.events.tray import ChipCounts


@event("dealer.in")
@dataclass(frozen=True)
class DealerIn(Event):
    """``dealer`` signed in at the table (id and PIN checked against ``[dealers]``)."""

    dealer: str


@event("dealer.out")
@dataclass(frozen=True)
class DealerOut(Event):
    """``dealer`` signed out: ``reason`` ``"rotation"`` (the next dealer signed in) or
    ``"signed_out"``."""

    dealer: str
    reason: str


@dataclass(frozen=True)
class Slip(Event):
    """A table inventory slip: the tray held ``amount`` cents, signed by ``dealer`` (with PIN);
    ``chips``: the tray's chips by denomination (value in cents -> count) as its last
    ``tray.counted`` gave them (None where it gave none: a journal written before they were kept)."""

    amount: int
    dealer: str
    chips: ChipCounts | None = field(default=None, metadata=OMIT_NONE)


@event("table.opener")
@dataclass(frozen=True)
class Opener(Slip):
    """The opener: the tray's reading when the shift opens, signed by the dealer."""


@event("table.closer")
@dataclass(frozen=True)
class Closer(Slip):
    """The closer: the tray's reading when the shift closes, signed by the dealer."""


@event("table.slip_signed")
@dataclass(frozen=True)
class SlipSigned(Event):
    """``supervisor`` signed the last ``slip`` (``"opener"`` or ``"closer"``) of ``amount`` cents."""

    slip: str
    amount: int
    supervisor: str


@event("table.drop")
@dataclass(frozen=True)
class DropEntered(Event):
    """The shift's drop, ``amount`` cents (the drop box as the count room counts it), entered by
    ``supervisor`` after the closer."""

    amount: int
    supervisor: str
