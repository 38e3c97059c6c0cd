"""Alerts on the floor: each kept until a pit boss acknowledges it, each acknowledgement recorded.

An alert is known by its table, the table's ``epoch`` label and its ``seq``
(``"T07//42"`` when the envelope has no epoch). Acknowledgements are appended
(and fsynced) as JSON lines to the acknowledgement log, with who and when; the
log is read back at start, so an alert acknowledged before a restart of the
monitor stays acknowledged when the table's snapshot brings it back.

What the registry (:mod:`controller.events.alerts`) knows of a code goes with
it to the page: what the dealer was told to do, and how the table clears it.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from controller.events import alerts as registry
from controller.events.envelope import now_timestamp
from firmware_bridge.kernel.json import JsonObject, JsonValue

SEVERITIES = registry.SEVERITIES
"""From the most to the least urgent; an unknown severity sorts after ``info``."""

ABOUT = ("seat", "spot", "index", "device", "card", "uid", "player")
"""Alert data fields that say what the alert concerns, in the order shown."""

KEPT_ACKNOWLEDGED = 100
"""Acknowledged alerts still shown (the newest), besides those in the log."""


def alert_key(table: str, epoch: str, seq: int) -> str:
    """The id of an alert.

    >>> alert_key("T07", "", 42), alert_key("T07", "3", 42)
    ('T07//42', 'T07/3/42')
    """
    return f"{table}/{epoch}/{seq}"


def concerns(data: Mapping[str, JsonValue]) -> str:
    """What an alert is about, in words.

    >>> concerns({"seat": 2, "spot": "main", "uid": "ffee"})
    'seat 2 main, chip ffee'
    >>> concerns({"index": 14, "card": "Kc"}), concerns({"device": "shoe"}), concerns({})
    ('card 14, Kc', 'the shoe', '')
    >>> concerns({"seat": 3, "player": "P-1001"})
    'seat 3, player P-1001'
    """
    words = []
    if "seat" in data:
        words.append(f"seat {data['seat']}" + (f" {data['spot']}" if "spot" in data else ""))
    if "index" in data:
        words.append(f"card {data['index']}")
    if "card" in data:
        words.append(str(data["card"]))
    if "device" in data:
        words.append(f"the {data['device']}")
    if "uid" in data:
        words.append(f"chip {data['uid']}")
    if "player" in data:
        words.append(f"player {data['player']}")
    return ", ".join(words)


@dataclass
class Alert:
    """One alert of one table, and its acknowledgement once given."""

    table: str
    epoch: str
    seq: int
    hand: int | None
    ts: str | None
    data: JsonObject = field(default_factory=dict)
    """The alert's data as published (``code``, ``severity``, ``message``, ``seat`` and what it
    concerns): what the registry's words read."""
    acked_by: str | None = None
    acked_at: str | None = None

    @property
    def key(self) -> str:
        return alert_key(self.table, self.epoch, self.seq)

    @property
    def severity(self) -> str:
        return str(self.data.get("severity", "info"))

    def rank(self) -> tuple[int, int]:
        """Sort order: most severe first, then the newest first."""
        severity = SEVERITIES.index(self.severity) if self.severity in SEVERITIES else len(SEVERITIES)
        return (severity, -self.seq)

    @property
    def code(self) -> str | None:
        """The alert's code (None: its data has none)."""
        code = self.data.get("code")
        return code if isinstance(code, str) else None

    def to_json(self) -> JsonObject:
        """The alert as the page shows it: with ``todo``, what the dealer was told (None: the
        message says it), and ``clears``, how the table resolves it (None: a code not registered)."""
        registered = registry.kind(self.code)
        return {"key": self.key, "table": self.table, "epoch": self.epoch, "seq": self.seq,
                "hand": self.hand, "ts": self.ts, "code": self.data.get("code"),
                "severity": self.severity, "message": self.data.get("message", ""),
                "concerns": concerns(self.data),
                "about": {k: self.data[k] for k in ABOUT if k in self.data},
                "todo": registry.todo(self.data), "clears": registered.clears if registered else None,
                "acked_by": self.acked_by, "acked_at": self.acked_at}


class AlertBook:
    """Open alerts of every table, their acknowledgements, and the acknowledgement log."""

    def __init__(self, log_path: Path | None = None) -> None:
        self.log_path = log_path
        self._acks: dict[str, JsonObject] = {}
        self._open: dict[str, Alert] = {}
        self._by_table: dict[str, dict[str, Alert]] = {}
        """The open alerts again, by table: a table's are found without looking at the others'."""
        self._shown: dict[str, list[JsonValue]] = {}
        """Each table's open alerts as :meth:`open_json` gives them, until they change."""
        self._acked: deque[Alert] = deque(maxlen=KEPT_ACKNOWLEDGED)
        self._known: set[str] = set()
        if log_path is not None and log_path.exists():
            for line in log_path.read_text(errors="replace").splitlines():
                try:
                    record = json.loads(line)
                    if not isinstance(record, dict):
                        raise ValueError("not an acknowledgement")
                    key = alert_key(str(record["table"]), str(record["epoch"]), int(record["seq"]))
                    self._acks[key] = record
                except (ValueError, KeyError, TypeError):
                    continue  # a torn last line after a crash: that acknowledgement was not given

    def add(self, table: str, epoch: str, seq: int, hand: int | None, ts: str | None,
            data: Mapping[str, JsonValue]) -> Alert | None:
        """Record an alert; None if it was already known (from a snapshot and a replay, say)."""
        key = alert_key(table, epoch, seq)
        if key in self._known:
            return None
        self._known.add(key)
        alert = Alert(table, epoch, seq, hand, ts, dict(data))
        ack = self._acks.get(key)
        if ack is not None:
            alert.acked_by, alert.acked_at = str(ack["who"]), str(ack["at"])
            self._acked.append(alert)
        else:
            self._open[key] = alert
            self._by_table.setdefault(table, {})[key] = alert
            self._shown.pop(table, None)
        return alert

    def open(self, table: str | None = None) -> list[Alert]:
        """Alerts not yet acknowledged (of one table, or all), most severe and newest first."""
        alerts = self._open if table is None else self._by_table.get(table, {})
        return sorted(alerts.values(), key=Alert.rank)

    def open_json(self, table: str) -> list[JsonValue]:
        """One table's open alerts as JSON (:meth:`Alert.to_json`), most severe and newest first;
        worked out again only after they changed."""
        shown = self._shown.get(table)
        if shown is None:
            shown = self._shown[table] = [a.to_json() for a in self.open(table)]
        return shown

    def acknowledged(self, table: str | None = None) -> list[Alert]:
        """The newest acknowledged alerts, newest acknowledgement first."""
        return [a for a in reversed(self._acked) if table is None or a.table == table]

    def ack(self, key: str, who: str) -> Alert:
        """Acknowledge an open alert as ``who``; record it durably before answering.

        ``KeyError`` for an alert that is not open; ``ValueError`` for an empty name.
        """
        who = who.strip()
        if not who:
            raise ValueError("say who acknowledges the alert")
        alert = self._open[key]
        record: JsonObject = {"table": alert.table, "epoch": alert.epoch, "seq": alert.seq,
                  "code": alert.data.get("code"), "who": who, "at": now_timestamp()}
        if self.log_path is not None:
            line = json.dumps(record, ensure_ascii=False) + "\n"
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(line)
                log.flush()
                os.fsync(log.fileno())
        self._acks[key] = record
        del self._open[key]
        del self._by_table[alert.table][key]
        self._shown.pop(alert.table, None)
        alert.acked_by, alert.acked_at = who, str(record["at"])
        self._acked.append(alert)
        return alert

    def records(self) -> list[JsonValue]:
        """Every acknowledgement given (this run and before), in the order given."""
        return list(self._acks.values())
