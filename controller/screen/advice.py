"""Alerts as the dealer's banners: what happened and what to do, in words, and when each one goes.

Every alert the table holds in its picture (``alerts``, the last 20) is a
banner until it is resolved:

* an alert whose condition the picture shows goes by itself when the condition
  ends, and cannot be dismissed before: ``device_offline`` (the board is online
  again), ``progressive_hit`` (a ``progressive.paid`` for the seat came after it);
* any other alert stays until the dealer touches its DONE (having done what it
  says); a critical one asks for a second touch to confirm.

Known codes get words saying what to do (remove the chip, call a supervisor);
a code the screen does not know shows the alert's own message. The alert's
message is always shown below the words, so no banner is a raw code or chip id.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from controller.games.parts.money import dollars

SEVERITY_ORDER = {"critical": 0, "warning": 1, "info": 2}


def _where(alert: Mapping[str, Any]) -> str:
    seat, spot = alert.get("seat"), alert.get("spot")
    if seat is None:
        return "the table"
    return f"seat {seat} {spot}" if spot else f"seat {seat}"


def _money(alert: Mapping[str, Any], key: str) -> str:
    value = alert.get(key)
    return dollars(value) if isinstance(value, int) else "?"


ADVICE: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "counterfeit_chip": lambda a: f"Remove the chip from {_where(a)}: it is not a chip of this table. "
                                  "Keep it aside and call a supervisor.",
    "chip_value_mismatch": lambda a: f"Remove the chip from {_where(a)}: its value is not the "
                                     "registry's. Keep it aside and call a supervisor.",
    "chip_crosstalk": lambda a: f"Move the chip at {_where(a)} so it lies on one spot only.",
    "past_post": lambda a: f"Chips moved on {_where(a)} after betting closed: it should hold "
                           f"{_money(a, 'closed')}, it reads {_money(a, 'amount')}. "
                           "Put it back and call a supervisor.",
    "card_gap": lambda a: "Cards left the shoe unseen. Stop and call a supervisor.",
    "card_unreadable": lambda a: "The shoe could not read a card. Call a supervisor before going on.",
    "card_out_of_turn": lambda a: "A card was drawn out of turn. Call a supervisor.",
    "card_over_count": lambda a: "More copies of a card than the shoe holds. Stop and call a supervisor.",
    "card_implausible": lambda a: "The shoe reported a card it cannot hold. Call a supervisor "
                                  "(a new shoe, or a shoe resync).",
    "device_offline": lambda a: f"The {a.get('device', 'board')} is not answering: check its cable and "
                                "power. The table waits for it.",
    "device_fault": lambda a: f"The {a.get('device', 'board')} reports a fault. Call a technician.",
    "progressive_hit": lambda a: f"Jackpot at {_where(a)}! Call a supervisor to confirm it "
                                 "(supervisor panel) before paying.",
    "software_integrity": lambda a: "The table's software was changed. Call a supervisor and a "
                                    "technician; do not deal.",
    "journal_corrupt": lambda a: "The table's record was damaged and repaired. Call a supervisor.",
    "shoe_resync": lambda a: f"A supervisor ({a.get('supervisor', '?')}) let the shoe go on from its "
                             "next card.",
    "payout_mismatch": lambda a: f"{_where(a).capitalize()}: pay {_money(a, 'expected')}, it reads "
                                 f"{_money(a, 'read')}. Correct the payout.",
}
"""What to do, by alert code."""


def key_of(alert: Mapping[str, Any], epoch: str) -> str:
    """The banner's name: the alert's epoch and seq (one alert for ever)."""
    return f"{epoch}:{alert.get('seq')}"


def still_on(alert: Mapping[str, Any], picture: Mapping[str, Any], paid: Collection[tuple[int, int]]) -> \
        bool | None:
    """Whether the alert's condition, as the picture shows it, still holds (None: not shown there).

    >>> still_on({"code": "device_offline", "device": "rfid"}, {"devices": {"rfid": {"online": True}}}, ())
    False
    >>> still_on({"code": "progressive_hit", "seat": 3, "seq": 40}, {}, {(3, 41)})
    False
    >>> still_on({"code": "past_post"}, {}, ()) is None
    True
    """
    code = alert.get("code")
    if code == "device_offline":
        device = picture.get("devices", {}).get(alert.get("device"), {})
        return not device.get("online", False)
    if code == "progressive_hit":
        return not any(seat == alert.get("seat") and seq > (alert.get("seq") or 0) for seat, seq in paid)
    return None


def banners(picture: Mapping[str, Any], epoch: str, dismissed: Collection[str],
            paid: Collection[tuple[int, int]]) -> list[dict[str, Any]]:
    """The banners to show now, most severe first, newest first within a severity: each
    ``key``, ``severity``, ``todo`` (what to do), ``message`` (the alert's own), ``dismissable``."""
    shown = []
    for alert in picture.get("alerts") or []:
        key = key_of(alert, epoch)
        condition = still_on(alert, picture, paid)
        if condition is False or (condition is None and key in dismissed):
            continue
        advice = ADVICE.get(str(alert.get("code")))
        message = str(alert.get("message") or alert.get("code") or "an alert")
        shown.append({"key": key, "severity": alert.get("severity", "warning"),
                      "todo": advice(alert) if advice is not None else message,
                      "message": message if advice is not None else "",
                      "dismissable": condition is None, "seq": alert.get("seq") or 0})
    shown.sort(key=lambda b: (SEVERITY_ORDER.get(b["severity"], 1), -b["seq"]))
    return shown
