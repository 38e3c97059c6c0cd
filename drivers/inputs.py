"""Plain domain inputs that drivers hand to the controller.

Every input is a small frozen record. The controller receives them one at a
time on its asyncio loop, in the order they happened, and never sees link
frames, pins or bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.kernel.cards import Card


@dataclass(frozen=True, slots=True)
class DeviceOnline:
    """A board's link session started (``device`` is ``"shoe"`` or ``"rfid"``)."""

    device: str
    firmware: str
    serial: str


@dataclass(frozen=True, slots=True)
class DeviceOffline:
    """A board stopped answering, or its port failed."""

    device: str
    reason: str


@dataclass(frozen=True, slots=True)
class DeviceFault:
    """A board reported a FAULT (repeats of the same fault within 10 s are already folded away)."""

    device: str
    code: int
    text: str


@dataclass(frozen=True, slots=True)
class DeviceStatus:
    """A board's STATUS flags changed: ``flags`` are the flags now raised, in words
    (``("lid open",)``; the bits: docs/protocol.md section 3)."""

    device: str
    flags: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpotsRead:
    """The spot reader ``device`` has read every antenna since it came online: the wagers the
    table holds are the reader's now (a spot whose chips did not change while it was away sent
    none, and still holds what it held)."""

    device: str


@dataclass(frozen=True, slots=True)
class ShoeLoaded:
    """A new shuffle was loaded into the shoe."""

    shoe_id: int
    decks: int


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """A card left the shoe and was read. ``(shoe_id, index)`` is its identity."""

    shoe_id: int
    index: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardUnreadable:
    """A card left the shoe at ``index`` but could not be read."""

    shoe_id: int
    index: int


@dataclass(frozen=True, slots=True)
class CutCard:
    """The cut card came out after card ``index``."""

    shoe_id: int
    index: int


@dataclass(frozen=True, slots=True)
class RejectedChip:
    """A chip on a spot that does not count as a wager.

    ``reason`` is ``"counterfeit"`` (uid not in the registry), ``"void"`` (marked
    void in the registry), ``"value_mismatch"`` (the value written in the chip
    differs from the registry's ``registry_value``), ``"duplicate"`` (a uid
    already read on this spot: one of the two tags is a clone) or
    ``"crosstalk"`` (a good chip whose uid other antennas read at the same time:
    ``elsewhere`` lists them as ``(antenna, seat, spot)``; it counts on none
    until it is read on one only).
    """

    uid: str
    value: int
    reason: str
    registry_value: int | None = None
    elsewhere: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SpotWager:
    """The complete chip contents of one betting spot, as a wager.

    ``amount`` counts only good chips, in cents. ``rejected`` lists the chips
    that were not counted. ``complete`` is False when the reader reported more
    chips than one INVENTORY can list. ``values`` holds the good chips' values
    in cents, in no order (empty when the reading was not made through the chip
    registry): :attr:`by_value` counts them by denomination where it is asked
    for (the tray), so a spot's reading pays nothing for it.
    """

    seat: int
    spot: str
    antenna: int
    amount: int
    chips: tuple[str, ...]
    rejected: tuple[RejectedChip, ...] = ()
    complete: bool = True
    values: tuple[int, ...] = ()

    @property
    def by_value(self) -> dict[int, int]:
        """The good chips by denomination: value in cents -> how many, by value."""
        counted: dict[int, int] = {}
        for value in sorted(self.values):
            counted[value] = counted.get(value, 0) + 1
        return counted


DriverInput = (
    DeviceOnline
    | DeviceOffline
    | DeviceFault
    | DeviceStatus
    | SpotsRead
    | ShoeLoaded
    | CardDrawn
    | CardUnreadable
    | CutCard
    | SpotWager
)
"""Everything a driver can hand to the controller."""
