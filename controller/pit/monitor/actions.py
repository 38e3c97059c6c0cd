"""The pit's actions from the monitor: a signed-in user's command, carried out by the table, recorded.

A pit boss closes or opens a table, sets its limits or sends its dealer a
message (docs/control.md, "The pit's commands") from the table's page. The
monitor decodes the request as the table does (:func:`parse_order`, from the
command registry: :mod:`controller.commands`), sends it through the
table's control socket (the floor file's ``control``, with the table's CURVE
keys) with the supervisor's id and PIN, and gives back the table's reply as it
is: the table checks the PIN, the phase and the figures, and a refusal is its
own words. Every attempt of a signed-in user at a table is appended (and
fsynced) to the action record, a JSON-lines file (:class:`ActionBook`)::

    {"at": "...Z", "who": "anna", "table": "T07", "cmd": "set_limits", "supervisor": "S101",
     "fields": {"min_bet": 2000, "max_bet": 10000}, "ok": true, "error": null, "request_id": "9c1f..."}

The PIN goes to the table and nowhere else: it is in no record, no log line,
no reply and no ``repr``.
"""

from __future__ import annotations

import json
import os
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.commands.registry import Command, decode
from controller.commands.table import CloseTable, DealerMessage, OpenTable, SetLimits
from controller.pit.events import now_timestamp
from controller.pit.follow.control import Control

COMMANDS: tuple[type[Command], ...] = (CloseTable, OpenTable, SetLimits, DealerMessage)
"""The pit's commands the monitor sends, each a record of the command registry (docs/control.md)."""

_BY_NAME = {cls.name: cls for cls in COMMANDS}

LONGEST = 256
"""Characters at most in a supervisor id or a PIN (the table has its own, tighter, bounds; this one
keeps the record's lines short)."""

KEPT = 10_000
"""Records held in memory (the newest) for ``GET /api/actions``; the file keeps every one."""


@dataclass(frozen=True)
class Order:
    """One pit command as asked: the command's record, the supervisor, the PIN (never shown) and
    the page's request id (one per person's action, the same for its retries: docs/control.md)."""

    command: Command
    supervisor: str
    pin: str = field(repr=False)
    request_id: str | None = None

    @property
    def cmd(self) -> str:
        """The command's name."""
        return self.command.name

    @property
    def fields(self) -> dict[str, object]:
        """The command's own fields."""
        return self.command.fields()

    def request(self) -> dict[str, object]:
        """The control request for the table (with the PIN), built from the record."""
        return self.command.to_request(supervisor=self.supervisor, pin=self.pin,
                                       request_id=self.request_id)


def _text(body: Mapping[str, Any], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} is missing (text)")
    if len(value) > LONGEST:
        raise ValueError(f"{key} is longer than {LONGEST} characters")
    return value


def parse_order(body: Any) -> Order:
    """The order in a request's JSON body, decoded as the table decodes it
    (:func:`controller.commands.registry.decode`); ``ValueError`` says what is wrong, one field at a
    time in the table's words (and never quotes the PIN).

    >>> parse_order({"cmd": "set_limits", "supervisor": "S101", "pin": "1234", "min_bet": 500,
    ...              "max_bet": 50000, "request_id": "r1"})
    Order(command=SetLimits(min_bet=500, max_bet=50000), supervisor='S101', request_id='r1')
    >>> parse_order({"cmd": "close_table", "supervisor": "S101", "pin": "1234", "text": "x"})
    Traceback (most recent call last):
    ...
    ValueError: close_table takes no field 'text'
    >>> parse_order({"cmd": "set_limits", "supervisor": "S101", "pin": "1234", "min_bet": "5"})
    Traceback (most recent call last):
    ...
    ValueError: set_limits: min_bet must be a whole number of cents
    """
    if not isinstance(body, dict):
        raise ValueError("send a JSON object: {\"cmd\", \"supervisor\", \"pin\", and the command's fields}")
    if body.get("cmd") not in _BY_NAME:
        raise ValueError(f"cmd is one of {', '.join(_BY_NAME)}")
    supervisor, pin = _text(body, "supervisor"), _text(body, "pin")
    decoded = decode(body)
    if isinstance(decoded, str):
        raise ValueError(decoded)
    return Order(decoded.command, supervisor, pin, decoded.request_id)


class ActionBook:
    """Every pit action tried from this monitor: the record file, and its newest lines in memory."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self._records: deque[dict[str, Any]] = deque(maxlen=KEPT)
        if path is not None and path.exists():
            for line in path.read_text(errors="replace").splitlines():
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a torn last line after a crash: that attempt's outcome was not recorded
                if isinstance(record, dict) and isinstance(record.get("table"), str):
                    self._records.append(record)

    def record(self, who: str, table: str, order: Order, reply: Mapping[str, Any]) -> dict[str, Any]:
        """Append one attempt and its outcome (durably, before answering); the record."""
        record = {"at": now_timestamp(), "who": who, "table": table, "cmd": order.cmd,
                  "supervisor": order.supervisor, "fields": order.fields, "ok": bool(reply.get("ok")),
                  "error": None if reply.get("ok") else str(reply.get("error", "")),
                  "request_id": order.request_id}
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as file:
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
                file.flush()
                os.fsync(file.fileno())
        self._records.append(record)
        return record

    def records(self, table: str | None = None) -> list[dict[str, Any]]:
        """The attempts recorded (of one table, or all), the newest first."""
        return [r for r in reversed(self._records) if table is None or r["table"] == table]


class PitActions:
    """Each table's control socket (None: the floor file gives it none) and the action record."""

    def __init__(self, controls: Mapping[str, Control | None], book: ActionBook) -> None:
        self.controls = dict(controls)
        self.book = book

    def controlled(self) -> list[str]:
        """The tables whose control socket is known."""
        return [name for name, control in self.controls.items() if control is not None]

    async def carry_out(self, who: str, table: str, order: Order) -> dict[str, Any]:
        """Send ``order`` to ``table`` as ``who`` and record it; ``{"ok", "error", "record"}`` with the
        table's reply (a refusal as the table words it), or the monitor's own when the table has no
        control socket."""
        control = self.controls.get(table)
        if control is None:
            reply: dict[str, Any] = {
                "ok": False, "error": f"table {table} has no control socket here: give it "
                                      "control = \"tcp://HOST:PORT\" in the floor file (--tables)"}
        else:
            reply = await control.send(order.request())
        record = self.book.record(who, table, order, reply)
        return {"ok": record["ok"], "error": record["error"], "record": record}
