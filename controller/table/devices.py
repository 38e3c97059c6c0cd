"""What the table decides about its boards coming and going: online, offline (the hand in play
waits), a fault, their STATUS flags (live, not journaled: boards repeat them every second), and
whether the spot reader, back after a gap, has read every spot again (:data:`SPOT_READER`).

While the spot reader is away nobody sees the chips move, so the spots' readings the table holds
may be stale: from its ``device.offline`` until its :class:`~drivers.inputs.SpotsRead` (every
antenna read since it came back) the table checks no payout and takes no amount from a spot
(:func:`controller.table.buttons.wait_words`). Live, not journaled: a restart starts with no
reading at all, and every spot holding chips is read again as the reader comes online."""

from __future__ import annotations

from controller.events import table as events
from controller.table.facing import TableFacing
from controller.table.writer import Decided, Step, alert
from drivers.inputs import DeviceFault, DeviceOffline, DeviceOnline, DeviceStatus, SpotsRead
from drivers.rfid import SpotReader

SPOT_READER = SpotReader.device
"""The board that reads the spots (``rfid``): its gaps make the spots' readings stale."""


def on_online(table: TableFacing, item: DeviceOnline) -> Decided:
    """A board answered: ``device.online`` with its firmware and serial."""
    yield Step([events.DeviceOnline(item.device, item.firmware, item.serial)])
    return None


def on_offline(table: TableFacing, item: DeviceOffline) -> Decided:
    """A board stopped answering: ``device.offline`` and its alert (critical while a hand waits);
    the spot reader's readings are stale from now until it has read every spot again."""
    if item.device == SPOT_READER:
        table.spots_unread = True
    device = table.state.devices.get(item.device)
    if device is None or not device.online:
        return None
    yield Step([events.DeviceOffline(item.device, item.reason)])
    waiting = " The hand waits until it is back." if table.phase == "in_hand" else ""
    yield alert("device_offline", f"the {item.device} is offline: {item.reason}.{waiting}",
                severity="critical" if waiting else "warning", device=item.device)
    return None


def on_spots_read(table: TableFacing, item: SpotsRead) -> Decided:
    """The spot reader has read every antenna since it came online: its readings are current."""
    if item.device == SPOT_READER:
        table.spots_unread = False
    yield from ()
    return None


def on_fault(table: TableFacing, item: DeviceFault) -> Decided:
    """A board reported a fault: ``device_fault``."""
    yield alert("device_fault", f"{item.device} fault {item.code}: {item.text}",
                device=item.device, fault=item.code)
    return None


def on_status(table: TableFacing, item: DeviceStatus) -> Decided:
    """A board's STATUS flags in words, kept live (no step)."""
    table.device_status[item.device] = item.flags
    yield from ()
    return None
