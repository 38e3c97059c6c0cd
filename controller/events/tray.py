"""The events of the chip tray: its reading, and the fills and credits the pit enters.

The tray is an antenna configured as ``"tray"`` (``[antennas]``): the chips the
house pays from and collects into. The table publishes its value after every
change (``tray.counted``); a fill (chips brought to the tray) or a credit (chips
taken from it) is a supervisor's command, recorded with the reading it is
checked against (:mod:`controller.table.tray`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from controller.events.codec import OMIT_NONE
from controller.events.registry import Event, event

ChipCounts = Mapping[int, int]
"""Chips by denomination: a chip's value in cents -> how many of them."""


@event("tray.counted")
@dataclass(frozen=True)
class TrayCounted(Event):
    """The tray's chips are worth ``amount`` cents now, as the RFID reader reads them; ``chips``: how
    many of each value the tray's antenna read (None in a journal written before it was kept)."""

    amount: int
    chips: ChipCounts | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True)
class TrayTransfer(Event):
    """Chips the pit moves to or from the tray: ``amount`` cents, entered by ``supervisor`` when the
    tray read ``reading``; once the chips are moved it should read ``expected``."""

    amount: int
    supervisor: str
    reading: int
    expected: int


@event("tray.fill")
@dataclass(frozen=True)
class TrayFilled(TrayTransfer):
    """A fill: ``amount`` cents of chips brought to the tray (``expected`` = the reading it waits
    for, counting any fill or credit still waiting)."""


@event("tray.credit")
@dataclass(frozen=True)
class TrayCredited(TrayTransfer):
    """A credit: ``amount`` cents of chips taken from the tray to the cage."""
