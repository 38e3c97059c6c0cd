"""Alerts as the dealer's banners: what happened and what to do, in words, and when each one goes.

Every alert the table holds in its picture (``alerts``, the last 20) is a
banner until it is resolved, as its registration says
(:mod:`controller.events.alerts`, ``clears``):

* ``condition``: the banner goes by itself when the condition the picture shows
  ends, and cannot be dismissed before: ``device_offline`` (the board is online
  again), ``progressive_hit`` (the picture's ``jackpots`` no longer lists one waiting at the seat);
* ``dealer``: it stays until the dealer touches its DONE (having done what it says);
* ``supervisor`` (and a critical alert the registry does not know): DONE takes
  two steps, checked by the screen's server
  (:meth:`ScreenTable.dismiss <controller.screen.table.ScreenTable.dismiss>`).

Registered codes get the registry's words saying what to do (remove the chip,
call a supervisor); any other shows the alert's own message. The alert's
message is always shown below the words, so no banner is a raw code or chip id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypedDict

from controller.events import alerts
from controller.events.picture import Picture, TableAlert

SEVERITY_ORDER: dict[str, int] = {severity: rank for rank, severity in enumerate(alerts.SEVERITIES)}


class Banner(TypedDict):
    """A banner as the page draws it (:func:`banners`)."""

    key: str
    severity: str
    todo: str
    message: str
    dismissable: bool
    confirm: bool
    armed: bool
    seq: int


def key_of(alert: TableAlert, epoch: str) -> str:
    """The banner's name: the alert's epoch and seq (one alert for ever)."""
    return f"{epoch}:{alert.seq}"


def _offline(alert: TableAlert, picture: Picture) -> bool:
    device = picture.devices.get(str(alert.about.get("device")))
    return device is None or not device.online


def _unpaid(alert: TableAlert, picture: Picture) -> bool:
    return any(jackpot.waiting and jackpot.seat == alert.seat for jackpot in picture.jackpots)


CONDITIONS: dict[str, Callable[[TableAlert, Picture], bool]] = {
    "device_offline": _offline,
    "progressive_hit": _unpaid,
}
"""How the picture shows the condition of each alert that clears by itself (``clears: condition``)."""


def still_on(alert: TableAlert, picture: Picture) -> bool | None:
    """Whether the alert's condition, as the picture shows it, still holds (None: not shown there).

    >>> import json
    >>> from dataclasses import replace
    >>> from controller.events.codec import from_json
    >>> from controller.events.picture import DevicePicture, Jackpot
    >>> from controller.follow.picture import PICTURE
    >>> picture = from_json(Picture, json.loads(PICTURE))
    >>> offline = TableAlert(12, None, "device_offline", "warning", "rfid off", about={"device": "rfid"})
    >>> still_on(offline, replace(picture, devices={"rfid": DevicePicture(True, None, None, None)}))
    False
    >>> hit = TableAlert(40, 7, "progressive_hit", "info", "a jackpot", 3)
    >>> still_on(hit, replace(picture, jackpots=(Jackpot(seat=3, amount=100005, waiting=True),)))
    True
    >>> still_on(hit, replace(picture, jackpots=(Jackpot(seat=3, amount=100005, supervisor="S1",
    ...                                                  waiting=False),)))
    False
    >>> still_on(TableAlert(41, 7, "past_post", "warning", "chips after the deal"), picture) is None
    True
    >>> still_on(replace(offline, cleared=13), replace(picture, devices={
    ...     "rfid": DevicePicture(False, None, None, "gone again")}))     # a new offline is a new alert
    False
    """
    if alert.cleared is not None:
        return False                            # that occurrence is over, whatever holds now
    condition = CONDITIONS.get(alert.code)
    return None if condition is None else condition(alert, picture)


def banners(picture: Picture, epoch: str, dismissed: Collection[str],
            armed: Collection[str] = ()) -> list[Banner]:
    """The banners to show now, most severe first, newest first within a severity: each
    ``key``, ``severity``, ``todo`` (what to do), ``message`` (the alert's own), ``dismissable``,
    ``confirm`` (its dismissal takes two steps) and ``armed`` (the first step is taken: ``armed``
    holds the keys of those)."""
    shown: list[Banner] = []
    for alert in picture.alerts:
        key = key_of(alert, epoch)
        condition = still_on(alert, picture)
        if condition is False or (condition is None and key in dismissed):
            continue
        data = alert.json_form()
        advice = alerts.todo(data)
        message = alert.message or alert.code or "an alert"
        shown.append({"key": key, "severity": alert.severity or "warning",
                      "todo": advice if advice is not None else message,
                      "message": message if advice is not None else "",
                      "dismissable": condition is None, "confirm": alerts.two_steps(data),
                      "armed": key in armed, "seq": alert.seq})
    shown.sort(key=lambda b: (SEVERITY_ORDER.get(b["severity"], 1), -b["seq"]))
    return shown
