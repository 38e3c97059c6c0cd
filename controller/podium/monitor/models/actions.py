"""The pit's actions from the monitor: a signed-in user's command, carried out by the table, recorded.

A pit boss closes or opens a table, sets its limits or sends its dealer a
message (docs/control.md, "The pit's commands"), signs the table inventory
slip the dealer signed or enters the drop (docs/control.md, "The table's
books") from the table's page. The
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

The record is bounded by age. Once the file holds :data:`PART_BYTES`, it is closed into a part
named for the time of its last record (``actions.20261121T221403.120Z.jsonl`` for
``actions.jsonl``: renamed, the folder fsynced) and a new file is begun; a part closed more than
``keep_days`` ago (``--actions-keep-days``, :data:`KEEP_DAYS` by default) is deleted when the
monitor starts and whenever a part is closed.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from controller.commands.books import EnterDrop, SignSlip
from controller.commands.registry import Command, decode
from controller.commands.table import CloseTable, DealerMessage, OpenTable, SetLimits
from controller.events.envelope import now_timestamp
from controller.follow.control import Control

COMMANDS: tuple[type[Command], ...] = (CloseTable, OpenTable, SetLimits, DealerMessage, SignSlip, EnterDrop)
"""The pit's commands the monitor sends, each a record of the command registry (docs/control.md)."""

_BY_NAME = {cls.name: cls for cls in COMMANDS}

LONGEST = 256
"""Characters at most in a supervisor id or a PIN (the table has its own, tighter, bounds; this one
keeps the record's lines short)."""

KEPT = 10_000
"""Records held in memory (the newest) for ``GET /api/actions``; the files keep every one within
their retention."""

KEEP_DAYS = 400
"""Days a closed part of the action record is kept by default (``--actions-keep-days``): more than a
year, a few megabytes at a pit's pace."""

PART_BYTES = 1024 * 1024
"""The size at which the action record's file is closed into a part (about 4,000 actions)."""

_STAMP = "%Y%m%dT%H%M%S.%fZ"

log = logging.getLogger(__name__)


def parts(path: Path) -> list[tuple[datetime, Path]]:
    """The closed parts of the action record ``path``, oldest first, each with the time it was closed."""
    pattern = re.compile(re.escape(path.stem) + r"\.([0-9]{8}T[0-9]{6}\.[0-9]{3}Z)" + re.escape(path.suffix))
    try:
        names = os.listdir(path.parent)
    except FileNotFoundError:
        return []
    found = [(datetime.strptime(m[1], _STAMP).replace(tzinfo=UTC), path.with_name(name))
             for name in names if (m := pattern.fullmatch(name)) is not None]
    return sorted(found)


def part_path(path: Path, closed: str) -> Path:
    """The name of the part of the action record ``path`` whose last record is ``at`` ``closed``.

    >>> part_path(Path("actions.jsonl"), "2026-11-21T22:14:03.120Z").name
    'actions.20261121T221403.120Z.jsonl'
    """
    return path.with_name(f"{path.stem}.{closed.replace('-', '').replace(':', '')}{path.suffix}")


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


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


def _text(body: Mapping[str, object], key: str) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{key} is missing (text)")
    if len(value) > LONGEST:
        raise ValueError(f"{key} is longer than {LONGEST} characters")
    return value


def parse_order(body: object) -> Order:
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
    """Every pit action tried from this monitor within the retention: the record file, its closed
    parts, and the newest records in memory."""

    def __init__(self, path: Path | None = None, *, keep_days: int = KEEP_DAYS,
                 part_bytes: int = PART_BYTES) -> None:
        self.path = path
        self.keep_days = keep_days
        self.part_bytes = part_bytes
        self._records: deque[dict[str, object]] = deque(maxlen=KEPT)
        """The newest records, as written (JSON: their values only passed on)."""
        if path is None:
            return
        self._prune()
        for file in [*(part for _, part in parts(path)), path]:
            if file.exists():
                self._read(file)

    def _read(self, file: Path) -> None:
        for line in file.read_text(errors="replace").splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue  # a torn last line after a crash: that attempt's outcome was not recorded
            if isinstance(record, dict) and isinstance(record.get("table"), str):
                self._records.append(record)

    def _prune(self) -> None:
        """Delete the parts closed more than ``keep_days`` ago."""
        assert self.path is not None
        oldest = time.time() - self.keep_days * 86400
        gone = [part for closed, part in parts(self.path) if closed.timestamp() < oldest]
        for part in gone:
            part.unlink()
            log.info("action record part %s deleted: older than %d days", part.name, self.keep_days)
        if gone:
            _sync_dir(self.path.parent)

    def _close_part(self, last: str) -> None:
        """Close the file into a part named for ``last``, its last record's time, then prune."""
        assert self.path is not None
        target = part_path(self.path, last)
        if target.exists():
            return                      # two parts closed in one millisecond: the next record closes it
        os.rename(self.path, target)
        _sync_dir(self.path.parent)
        self._prune()

    def record(self, who: str, table: str, order: Order, reply: Mapping[str, object]) -> dict[str, object]:
        """Append one attempt and its outcome (durably, before answering); the record."""
        at = now_timestamp()
        record: dict[str, object] = {"at": at, "who": who, "table": table, "cmd": order.cmd,
                  "supervisor": order.supervisor, "fields": order.fields, "ok": bool(reply.get("ok")),
                  "error": None if reply.get("ok") else str(reply.get("error", "")),
                  "request_id": order.request_id}
        if self.path is not None:
            with open(self.path, "a", encoding="utf-8") as file:
                file.write(json.dumps(record, ensure_ascii=False) + "\n")
                file.flush()
                os.fsync(file.fileno())
                size = file.tell()
            if size >= self.part_bytes:
                try:
                    self._close_part(at)
                except OSError as error:
                    log.error("the action record %s could not be closed into a part (%s): it grows until "
                              "it can", self.path, error)
        self._records.append(record)
        return record

    def records(self, table: str | None = None) -> list[dict[str, object]]:
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

    async def carry_out(self, who: str, table: str, order: Order) -> dict[str, object]:
        """Send ``order`` to ``table`` as ``who`` and record it; ``{"ok", "error", "record"}`` with the
        table's reply (a refusal as the table words it), or the monitor's own when the table has no
        control socket."""
        control = self.controls.get(table)
        if control is None:
            reply: Mapping[str, object] = {
                "ok": False, "error": f"table {table} has no control socket here: give it "
                                      "control = \"tcp://HOST:PORT\" in the floor file (--tables)"}
        else:
            reply = await control.send(order.request())
        record = self.book.record(who, table, order, reply)
        return {"ok": record["ok"], "error": record["error"], "record": record}
