"""The one reducer from a table's stream to its state: the last picture the table drew.

The table publishes its whole public state after every change (``table.view``,
docs/pit-events.md "The table's picture"), so a consumer derives nothing from
the events: the state is the snapshot's at the start (and after a gap was
repaired), then the ``data`` of each ``table.view``. The events only say how
far the stream has gone, so that a picture older than the last event is known
to be behind (:attr:`TablePicture.stale`) until the next one comes. What no
picture holds (a hands log, results over time, alerts waiting for an
acknowledgement) is each consumer's own business.
"""

from __future__ import annotations

import json
import logging
from typing import Any

log = logging.getLogger(__name__)


class TablePicture:
    """A table's state as last drawn, and how far the stream has gone."""

    def __init__(self) -> None:
        self._state: dict[str, Any] | None = None
        self._raw: bytes | None = None
        """The last picture's state as JSON text, until it is asked for."""
        self._read: bytes | None = None
        """The text :attr:`_state` was read from (None: it came decoded), to read again once let go."""
        self.message: dict[str, Any] | None = None
        """The last ``table.view`` message itself (None before the first)."""
        self.seq = 0
        """The seq of the last event the state reflects."""
        self.last_seq = 0
        """The seq of the last event of the stream."""
        self.version = 0
        """Counts the states taken: a consumer that draws at its own pace redraws when it changed."""

    def snapshot(self, snapshot: dict[str, Any]) -> None:
        """A snapshot ``{"seq": S, "state": {...}}`` (at the start, or after a gap was repaired)."""
        self._state, self._raw, self._read, self.seq = snapshot["state"], None, None, snapshot["seq"]
        self.last_seq = max(self.last_seq, self.seq)
        self.version += 1

    def restart(self, snapshot: dict[str, Any]) -> None:
        """A snapshot of a new sequence: nothing of the old one counts."""
        self.last_seq = 0
        self.snapshot(snapshot)

    def event(self, message: dict[str, Any]) -> None:
        """An event: the stream went on (the picture of it follows)."""
        self.last_seq = message["seq"]

    def view(self, message: dict[str, Any]) -> None:
        """A ``table.view`` message: the table's picture as of the event whose seq it carries (its
        state in ``data``, or as JSON text in ``raw``: decoded when first asked for)."""
        self.message = message
        if "raw" in message:
            self._raw = message["raw"]
        else:
            self._state, self._raw, self._read = message["data"], None, None
        self.seq = message["seq"]
        self.version += 1

    @property
    def state(self) -> dict[str, Any] | None:
        """The state of the last snapshot or ``table.view`` (None before either); a picture whose
        state cannot be read leaves the last one (logged)."""
        if self._raw is not None:
            raw, self._raw = self._raw, None
            try:
                state = json.loads(raw)
                if not isinstance(state, dict):
                    raise ValueError("a state that is not a JSON object")
                self._state, self._read = state, raw
            except (ValueError, RecursionError) as exc:
                log.warning("a picture whose state cannot be read: %s", exc)
        if self._state is None and self._read is not None:     # let go: the same text read again
            self._state = json.loads(self._read)
        return self._state

    def let_go(self) -> None:
        """Forget the decoded state of a picture that came as text: it is read again when next asked
        for. A consumer that draws at its own pace lets go once it has drawn, so that a big floor's
        states die young (a state kept until the next picture outlives the collector's young
        generations, and every full collection would walk thousands of them)."""
        if self._read is not None:
            self._state = None

    @property
    def stale(self) -> bool:
        """An event came after the picture: its picture is on the way (or was lost with a gap)."""
        return self.seq < self.last_seq
