"""Request ids: a command carried out once is answered, not applied again, when it is sent again.

A client that got no answer in time (``the table did not answer tray_fill within 5 s: ...``)
cannot tell whether its command was carried out; sending it again with the same
``request_id`` is safe. The daemon marks the step a command makes with its id
(``"request": {"id": ..., "digest": ...}`` in the private part of the step's
first journal record: :data:`PRIVATE_KEY`), so the journal is the record of
which ids were carried out; :class:`RequestIds` keeps the ids of the latest
:data:`WINDOW` events, and is rebuilt from the journal's held records when the
daemon starts (:meth:`RequestIds.rebuild`). A repeat of an id carried out within
that window is answered ``{"ok": true}``, the first answer, and changes nothing;
the same id with another command or other fields is refused. A command that was
refused made no step: its id is not kept, and a retry is taken afresh.

>>> from controller.commands.table import TrayFill
>>> ids = RequestIds()
>>> first = Request(TrayFill(5000), "S101", "1234", "fill-1")
>>> ids.repeat(first) is None
True
>>> ids.note(mark(first), 7)
>>> ids.repeat(first)
{'ok': True}
>>> ids.repeat(Request(TrayFill(6000), "S101", "1234", "fill-1"))
{'ok': False, 'error': "request_id 'fill-1' was used for another command: send this one with a new id"}
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Iterable, Mapping

from controller.commands.registry import SECRET_FIELDS, Request
from controller.journal.lines import Record

WINDOW = 10_000
"""Events: a request id is remembered while fewer than this many events were written after the step
it marked (the journal's replay window, which the daemon holds after a restart too)."""

MOST = 10_000
"""Ids kept at most (the oldest forgotten first), whatever the window."""

Reply = dict[str, object]
"""A control reply: ``{"ok": true, ...}`` or ``{"ok": false, "error": ...}``."""

PRIVATE_KEY = "request"
"""The key of the mark in a journal record's private part (absent in journals written before)."""


def digest(request: Request) -> str:
    """What the id stands for: the command and its fields (never a PIN: not the supervisor's, nor
    a field of :data:`SECRET_FIELDS`), as 16 hex digits."""
    sent = request.command.to_request(supervisor=request.supervisor)
    kept = {key: value for key, value in sent.items() if key not in SECRET_FIELDS}
    shown = json.dumps(kept, sort_keys=True)
    return hashlib.sha256(shown.encode()).hexdigest()[:16]


def mark(request: Request) -> dict[str, str]:
    """The mark journaled with the step ``request`` makes (it needs a ``request_id``)."""
    assert request.request_id is not None
    return {"id": request.request_id, "digest": digest(request)}


class RequestIds:
    """The request ids carried out in the latest :data:`WINDOW` events, with their digests."""

    def __init__(self) -> None:
        self._done: OrderedDict[str, tuple[str, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._done)

    def repeat(self, request: Request) -> Reply | None:
        """The answer to ``request`` when its id was carried out already (the first answer, or a
        refusal when the id came with another command); None when it is to be taken now."""
        rid = request.request_id
        held = self._done.get(rid) if rid is not None else None
        if held is None:
            return None
        if held[0] != digest(request):
            return {"ok": False, "error": f"request_id {rid!r} was used for another command: send "
                                          "this one with a new id"}
        return {"ok": True}

    def note(self, marked: Mapping[str, object], seq: int) -> None:
        """Remember the mark of a step journaled at ``seq``, and forget what left the window."""
        rid, made = marked.get("id"), marked.get("digest")
        if not isinstance(rid, str) or not isinstance(made, str):
            return
        self._done.pop(rid, None)
        self._done[rid] = (made, seq)
        while self._done:
            oldest = next(iter(self._done.values()))
            if len(self._done) <= MOST and oldest[1] > seq - WINDOW:
                break
            self._done.popitem(last=False)

    def rebuild(self, records: Iterable[Record]) -> None:
        """Remember every mark in ``records`` (the journal's held records, oldest first)."""
        for record in records:
            marked = record.private.get(PRIVATE_KEY)
            if isinstance(marked, dict):
                self.note(marked, record.seq)
