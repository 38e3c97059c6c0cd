"""The alerts a spot's rejected chips raise: what each rejection is called, and which were raised already.

The RFID driver rejects every chip that does not count (see
:class:`~drivers.inputs.RejectedChip`); :func:`chip_alerts` turns a spot's
rejections into pit alerts, once per chip while it stays rejected on that
antenna:

- ``counterfeit_chip`` (critical): not in the chip registry, marked void there,
  or a ``duplicate``, a uid read twice on one spot (two tags with one id: one is
  a clone; the alert says so and carries ``reason: "duplicate"``);
- ``chip_value_mismatch`` (critical): the value written in the chip is not the
  registry's;
- ``chip_crosstalk`` (warning, an extension of docs/pit-events.md section 3, "Alerts"):
  one uid read by two or more antennas at once; it counts on none of them until
  it settles. One alert names every spot, however many of their wagers list it.

Pure: the wager and the set of ``(antenna, uid)`` already alerted in, the
alerts and the new set out.
"""

from __future__ import annotations

from dataclasses import replace

from controller.events.alerts import alert
from controller.events.hand import Alerted
from drivers.inputs import RejectedChip, SpotWager
from firmware_bridge.kernel.json import JsonObject

CODES = {"counterfeit": "counterfeit_chip", "void": "counterfeit_chip", "duplicate": "counterfeit_chip",
         "value_mismatch": "chip_value_mismatch", "crosstalk": "chip_crosstalk"}
"""Rejection reason -> alert code (registered in :mod:`controller.events.alerts`, with its severity)."""

Flagged = set[tuple[int, str]]
"""``(antenna, uid)`` of each rejected chip already alerted."""


def _spots(chip: RejectedChip, wager: SpotWager) -> list[tuple[int, str]]:
    """Every spot reading a crosstalk chip, in seat order."""
    return sorted([(wager.seat, wager.spot), *((seat, spot) for _, seat, spot in chip.elsewhere)])


def _place(seat: int, spot: str) -> str:
    """A spot in words: the chip tray is at seat 0 (:data:`controller.table.tray.TRAY`)."""
    return "the tray" if seat == 0 else f"seat {seat} {spot}"


def _words(chip: RejectedChip, wager: SpotWager) -> str:
    where = _place(wager.seat, wager.spot)
    if chip.reason == "value_mismatch":
        return f"chip {chip.uid} says {chip.value} cents, the registry {chip.registry_value}: not counted"
    if chip.reason == "void":
        return f"chip {chip.uid} is marked void in the registry: not counted"
    if chip.reason == "duplicate":
        return f"chip {chip.uid} is read twice on {where}: one of the two is a clone, counted once"
    if chip.reason == "crosstalk":
        spots = " and ".join(_place(seat, spot) for seat, spot in _spots(chip, wager))
        return (f"chip {chip.uid} is read on {spots} at once (antenna crosstalk, or a chip across two "
                "spots): counted on neither until it settles")
    return f"chip {chip.uid} is not in the chip registry: not counted"


def chip_alerts(wager: SpotWager, flagged: Flagged) -> tuple[list[Alerted], Flagged]:
    """The alerts the rejected chips of ``wager`` raise,
    and the new set of alerted chips: a chip alerted before on this antenna (or, for crosstalk, on any
    antenna reading it) raises nothing again while it stays rejected."""
    alerts: list[Alerted] = []
    for chip in wager.rejected:
        if (wager.antenna, chip.uid) in flagged:
            continue
        more: JsonObject = {}
        if chip.reason == "duplicate":
            more["reason"] = "duplicate"
        if chip.reason == "crosstalk":
            if any((antenna, chip.uid) in flagged for antenna, _, _ in chip.elsewhere):
                continue
            more["spots"] = [{"seat": seat, "spot": spot} for seat, spot in _spots(chip, wager)]
        seat = None if wager.seat == 0 else wager.seat          # the tray is no seat's
        raised = alert(CODES[chip.reason], _words(chip, wager), seat=seat, spot=wager.spot, uid=chip.uid)
        alerts.append(replace(raised, about={**raised.about, **more}))
    present = {(wager.antenna, chip.uid) for chip in wager.rejected}
    return alerts, {chip for chip in flagged if chip[0] != wager.antenna} | present
