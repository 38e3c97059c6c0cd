"""The chip tray: the antenna configured as ``"tray"``, its fills and credits, and its checks.

The RFID driver reads the tray like any spot; the configuration puts it at
:data:`TRAY` (seat 0, spot ``tray``), which no seat has, and the table takes its
readings apart (``tray.counted`` after every change). Two checks, both pure:

- **fills and credits** (:func:`transfer`): a supervisor enters one with its
  amount; it is recorded with the reading it was entered at and the reading
  the tray should come to once its chips are moved (a second one while the
  first still waits adds to it). The reading reaching that amount clears it;
  if the tray still reads otherwise when the next hand is dealt (or the table
  closes), :func:`fill_verdict` raises ``tray_fill_mismatch`` with both figures.
- **the hand** (:func:`variance`): at ``hand.ended`` the tray's change since
  ``hand.started`` must be the house's result of the hand
  (:meth:`Hand.house_result <controller.games.interface.Hand.house_result>`: collected minus paid on the
  wagers the house
  banks); otherwise ``tray_variance``, with both figures.

>>> variance(at_start=10_000, now=8_500, house=-1_500) is None
True
>>> variance(at_start=10_000, now=8_000, house=-1_500).about
{'tray_change': -2000, 'house_result': -1500}
"""

from __future__ import annotations

from controller.events.alerts import alert
from controller.events.hand import Alerted
from controller.events.tray import TrayCredited, TrayFilled, TrayTransfer
from controller.table.state import TRAY_CHECKED, TrayState
from firmware_bridge.kernel.money import dollars

TRAY = (0, "tray")
"""Where the configuration puts the tray's antenna: seat 0, which no seat is, spot ``tray``."""

TRAY_WORD = "tray"
"""What ``[antennas] N = "tray"`` says."""


def transfer(kind: str, amount: int, supervisor: str, tray: TrayState) -> TrayTransfer | str:
    """The ``tray.fill`` (``kind`` ``"fill"``) or ``tray.credit`` event for ``amount`` cents (above
    0, bounded where the command was decoded: :mod:`controller.commands.table`), or why it is
    refused."""
    if tray.amount is None:
        return "the tray has not been read yet"
    base = tray.expected if tray.expected is not None else tray.amount
    if kind == "fill":
        return TrayFilled(amount, supervisor, tray.amount, base + amount)
    if amount > base:
        return f"the tray holds {dollars(base)}: a credit of {dollars(amount)} cannot come from it"
    return TrayCredited(amount, supervisor, tray.amount, base - amount)


def fill_verdict(tray: TrayState) -> Alerted | None:
    """``tray_fill_mismatch`` (warning) when a fill or credit still waits: the tray never came to
    the reading it should hold once its chips were moved."""
    if tray.expected is None or tray.amount is None:
        return None
    gap = tray.amount - tray.expected
    words = f"{dollars(-gap)} short" if gap < 0 else f"{dollars(gap)} over"
    return alert(TRAY_CHECKED, f"the tray reads {dollars(tray.amount)}, but the fills and credits entered "
                               f"make it {dollars(tray.expected)}: {words}",
                 expected=tray.expected, read=tray.amount)


def variance(at_start: int | None, now: int | None, house: int) -> Alerted | None:
    """``tray_variance`` (warning) when the tray's change over a hand (``now`` less ``at_start``)
    is not the house's result of the hand (``house``: collected minus paid); None when they agree
    or the tray was not read at both ends."""
    if at_start is None or now is None or now - at_start == house:
        return None
    change = now - at_start
    return alert("tray_variance",
                 f"the tray changed by {_signed(change)} over the hand, but the house's result "
                 f"of the hand is {_signed(house)}: {dollars(abs(change - house))} "
                 f"{'short' if change < house else 'over'}", tray_change=change, house_result=house)


def _signed(cents: int) -> str:
    return f"{'-' if cents < 0 else '+'}{dollars(abs(cents))}"
