"""Alerts as the dealer's banners: what happened and what to do, in words, and when each one goes.

Every alert the table holds in its picture (``alerts``, the last 20) is a
banner until it is resolved, as its registration says
(:mod:`controller.events.alerts`, ``clears``):

* ``condition``: the banner goes by itself when the condition the picture shows
  ends, and cannot be dismissed before: ``device_offline`` (the board is online
  again), ``progressive_hit`` (the picture's ``jackpots`` no longer lists one waiting at the seat);
* ``dealer``: it stays until the dealer touches its DONE (having done what it says);
* ``supervisor`` (and a critical alert the registry does not know): DONE takes
  two steps, checked by the screen's server (:meth:`ScreenTable.dismiss`).

Registered codes get the registry's words saying what to do (remove the chip,
call a supervisor); any other shows the alert's own message. The alert's
message is always shown below the words, so no banner is a raw code or chip id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from controller.events import alerts

SEVERITY_ORDER = {severity: rank for rank, severity in enumerate(alerts.SEVERITIES)}


def key_of(alert: Mapping[str, Any], epoch: str) -> str:
    """The banner's name: the alert's epoch and seq (one alert for ever)."""
    return f"{epoch}:{alert.get('seq')}"


def _offline(alert: Mapping[str, Any], picture: Mapping[str, Any]) -> bool:
    device = picture.get("devices", {}).get(alert.get("device"), {})
    return not device.get("online", False)


def _unpaid(alert: Mapping[str, Any], picture: Mapping[str, Any]) -> bool:
    return any(j.get("waiting") and j.get("seat") == alert.get("seat") for j in picture.get("jackpots") or [])


CONDITIONS: dict[str, Callable[[Mapping[str, Any], Mapping[str, Any]], bool]] = {
    "device_offline": _offline,
    "progressive_hit": _unpaid,
}
"""How the picture shows the condition of each alert that clears by itself (``clears: condition``)."""


def still_on(alert: Mapping[str, Any], picture: Mapping[str, Any]) -> bool | None:
    """Whether the alert's condition, as the picture shows it, still holds (None: not shown there).

    >>> still_on({"code": "device_offline", "device": "rfid"}, {"devices": {"rfid": {"online": True}}})
    False
    >>> hit = {"code": "progressive_hit", "seat": 3, "seq": 40}
    >>> still_on(hit, {"jackpots": [{"seat": 3, "amount": 100005, "waiting": True}]})
    True
    >>> still_on(hit, {"jackpots": [{"seat": 3, "amount": 100005, "supervisor": "S1", "waiting": False}]})
    False
    >>> still_on({"code": "past_post"}, {}) is None
    True
    """
    condition = CONDITIONS.get(str(alert.get("code")))
    return None if condition is None else condition(alert, picture)


def banners(picture: Mapping[str, Any], epoch: str, dismissed: Collection[str],
            armed: Collection[str] = ()) -> list[dict[str, Any]]:
    """The banners to show now, most severe first, newest first within a severity: each
    ``key``, ``severity``, ``todo`` (what to do), ``message`` (the alert's own), ``dismissable``,
    ``confirm`` (its dismissal takes two steps) and ``armed`` (the first step is taken: ``armed``
    holds the keys of those)."""
    shown = []
    for alert in picture.get("alerts") or []:
        key = key_of(alert, epoch)
        condition = still_on(alert, picture)
        if condition is False or (condition is None and key in dismissed):
            continue
        advice = alerts.todo(alert)
        message = str(alert.get("message") or alert.get("code") or "an alert")
        shown.append({"key": key, "severity": alert.get("severity", "warning"),
                      "todo": advice if advice is not None else message,
                      "message": message if advice is not None else "",
                      "dismissable": condition is None, "confirm": alerts.two_steps(alert),
                      "armed": key in armed, "seq": alert.get("seq") or 0})
    shown.sort(key=lambda b: (SEVERITY_ORDER.get(b["severity"], 1), -b["seq"]))
    return shown
