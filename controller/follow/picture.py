"""The one reducer from a table's stream to its state: the last picture the table drew.

The table publishes its whole public state after every change (``table.view``,
docs/pit-events.md "The table's picture"), so a consumer derives nothing from
the events: the state is the snapshot's at the start (and after a gap was
repaired), then the ``data`` of each ``table.view``. The events only say how
far the stream has gone, so that a picture older than the last event is known
to be behind (:attr:`TablePicture.stale`) until the next one comes. What no
picture holds (a hands log, results over time, alerts waiting for an
acknowledgement) is each consumer's own business.

:attr:`TablePicture.picture` is the picture as a record
(:class:`controller.events.picture.Picture`), decoded once per picture when
first asked for; :attr:`TablePicture.state` is the same as the JSON object it
was published as (kept while the consumers move to the record).

>>> shown = TablePicture()
>>> shown.picture is None
True
>>> shown.view({"seq": 4, "raw": PICTURE})
>>> picture = shown.picture
>>> picture.table, picture.phase, [seat.seat for seat in picture.seats], picture.seats[0].stack
('T07', 'betting', [1, 2], 2500)
>>> shown.picture is picture, shown.stale
(True, False)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from controller.events.codec import from_json, integer
from controller.events.envelope import parse_json
from controller.events.picture import Picture
from controller.follow.core import Message
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)


class TablePicture:
    """A table's state as last drawn, and how far the stream has gone."""

    def __init__(self) -> None:
        self._state: JsonObject | None = None
        self._raw: bytes | None = None
        """The last picture's state as JSON text, until it is asked for."""
        self._read: bytes | None = None
        """The text :attr:`_state` was read from (None: it came decoded), to read again once let go."""
        self.message: Message | None = None
        """The last ``table.view`` message itself (None before the first)."""
        self.seq = 0
        """The seq of the last event the state reflects."""
        self.last_seq = 0
        """The seq of the last event of the stream."""
        self.version = 0
        """Counts the states taken: a consumer that draws at its own pace redraws when it changed."""
        self._picture: Picture | None = None
        self._picture_version = 0
        """The :attr:`version` :attr:`_picture` was decoded for."""

    def snapshot(self, snapshot: Message) -> None:
        """A snapshot ``{"seq": S, "state": {...}}`` (at the start, or after a gap was repaired)."""
        state = snapshot["state"]
        if not isinstance(state, dict):
            log.warning("a snapshot whose state is not a JSON object: left out")
            return
        self._state, self._raw, self._read, self.seq = state, None, None, integer(snapshot["seq"])
        self.last_seq = max(self.last_seq, self.seq)
        self.version += 1

    def restart(self, snapshot: Message) -> None:
        """A snapshot of a new sequence: nothing of the old one counts."""
        self.last_seq = 0
        self.snapshot(snapshot)

    def event(self, message: Mapping[str, object]) -> None:
        """An event: the stream went on (the picture of it follows)."""
        self.last_seq = integer(message["seq"])

    def view(self, message: Message) -> None:
        """A ``table.view`` message: the table's picture as of the event whose seq it carries (its
        state in ``data``, or as JSON text in ``raw``: decoded when first asked for); one that
        holds neither is left out (logged)."""
        raw, data = message.get("raw"), message.get("data")
        if isinstance(raw, bytes):
            self._raw = raw
        elif isinstance(data, dict):
            self._state, self._raw, self._read = data, None, None
        else:
            log.warning("a picture whose state is not a JSON object: left out")
            return
        self.message = message
        self.seq = integer(message["seq"])
        self.version += 1

    @property
    def state(self) -> JsonObject | None:
        """The state of the last snapshot or ``table.view`` (None before either); a picture whose
        state cannot be read leaves the last one (logged)."""
        if self._raw is not None:
            raw, self._raw = self._raw, None
            try:
                state = parse_json(raw)
                if not isinstance(state, dict):
                    raise ValueError("a state that is not a JSON object")
                self._state, self._read = state, raw
            except (ValueError, RecursionError) as exc:
                log.warning("a picture whose state cannot be read: %s", exc)
        if self._state is None and self._read is not None:     # let go: the same text read again
            state = parse_json(self._read)
            self._state = state if isinstance(state, dict) else None
        return self._state

    @property
    def picture(self) -> Picture | None:
        """The picture of the last snapshot or ``table.view`` as a record (None before either),
        decoded from its state once, when first asked for; a picture that is no
        :class:`~controller.events.picture.Picture` leaves the last one (logged)."""
        if self._picture_version != self.version:
            self._picture_version = self.version
            state = self.state
            if state is not None:
                try:
                    self._picture = from_json(Picture, state)
                except (ValueError, KeyError, TypeError) as exc:
                    log.warning("a picture that is not the table's picture: %s", exc)
        return self._picture

    def let_go(self) -> None:
        """Forget the decoded state of a picture that came as text: it is read again when next asked
        for. A consumer that draws at its own pace lets go once it has drawn, so that a big floor's
        states die young (a state kept until the next picture outlives the collector's young
        generations, and every full collection would walk thousands of them). The record
        (:attr:`picture`) is let go with it, and decoded again when next asked for."""
        if self._read is not None:
            self._state = None
            if self._picture_version == self.version:
                self._picture, self._picture_version = None, -1

    @property
    def stale(self) -> bool:
        """An event came after the picture: its picture is on the way (or was lost with a gap)."""
        return self.seq < self.last_seq


PICTURE = (b'{"table":"T07","game":"easy-jack","phase":"betting","table_phase":"betting","hand":null,'
           b'"next_hand":1,"seats":[{"seat":1,"bets":{},"cards":[],"total":null,"hands":[],"in_turn":false,'
           b'"stack":2500},{"seat":2,"bets":{"main":500},"cards":[],"total":null,"hands":[],"in_turn":false}],'
           b'"dealer":{"cards":[],"total":null,"seat":null},"pots":[],"results":null,"devices":{},'
           b'"shoe":{"shoe_id":null,"decks":0,"cards_drawn":0,"cut_card_out":false},"live_buttons":[],'
           b'"alerts":[],"session":{"button":null,"level":0,"blinds":[],"level_ends_at":null},'
           b'"meters":{"hands":0},"limits":{"min_bet":500,"max_bet":50000},"closed":false,"message":null,'
           b'"tray":null,"books":{"dealer":null,"shift_open":false,"unsigned":{},"drop_due":false},'
           b'"device_status":{},"instruction":"Betting is open.","notice":null,"actions":[],"commands":[],'
           b'"live":{},"chips":[],"floor_call":null,"checks":[],"stack_changes":[],"moves":[],'
           b'"committed":{},"jackpots":[]}')
"""A picture as a table publishes it (for the examples)."""
