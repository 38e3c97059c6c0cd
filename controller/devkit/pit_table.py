"""A table that only speaks the pit sockets: events made up by the caller, served by the real PitServer.

For tests and benchmarks of pit clients (the monitor, the recorder) that need
many tables, or a table that does what a real one should never do: skip a
publish (a gap the client must fill from the sync socket), restart its
sequence, change its ``epoch``. Every event is kept (the sync socket replays
all of them) and encoded with :func:`controller.events.envelope.encode_event`;
with ``epoch`` set, the envelope carries ``"epoch"`` after ``"v"``.

Its state is what its events say by themselves, each read as its registered
record (``controller/devkit/sim_state.py``; an event that does not read as one
is published all the same and leaves the state as it was, logged); a caller
that makes up a game's hands passes ``game_view``, which writes the game's part
into the state (totals, the game's phase, whose turn it is), as a real table's
game would. Like the daemon, it publishes that state as its picture
(:meth:`EnvelopeTable.picture`, a :class:`~controller.events.picture.Picture`,
as ``table.view``) after every event it publishes, and its snapshot is the same
picture.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

import zmq.asyncio

from controller.devkit.sim_state import SimulatedState
from controller.events.codec import decode_public, record_json
from controller.events.envelope import VIEW_TYPE, compact_json, decode_body, encode_event, now_timestamp
from controller.events.picture import Picture, TableAlert
from controller.pit.server import CurveKeys, PitServer
from firmware_bridge.kernel.json import JsonObject

log = logging.getLogger(__name__)


class EnvelopeTable:
    """One simulated table's pit sockets and its event history."""

    def __init__(self, table_id: str, *, game: str = "easy-jack", seats: int = 6,
                 epoch: str | int | None = None, heartbeat: float = 2.0, curve: CurveKeys | None = None,
                 context: zmq.asyncio.Context | None = None, host: str = "127.0.0.1",
                 game_view: Callable[[SimulatedState], None] | None = None) -> None:
        self.table_id = table_id
        self.game = game
        self.seats = seats
        self.epoch = epoch
        self.game_view = game_view
        self.history: list[tuple[bytes, bytes]] = []
        self.alerts: list[TableAlert] = []
        self.hand: int | None = None
        self.simulated = SimulatedState(table_id, game, seats)
        """The table's state, as its events made it."""
        self.snapshots = 0
        """Snapshots served."""
        self.prepared = 0
        """Events prepared (:meth:`prepare`) but not yet sent."""
        self.server = PitServer(
            table_id, publish=f"tcp://{host}:*", sync=f"tcp://{host}:*", control="tcp://127.0.0.1:*",
            snapshot=self.snapshot, history=self.replay, last_seq=lambda: len(self.history),
            on_command=self._command, heartbeat_interval=heartbeat, curve=curve, context=context)

    async def start(self) -> None:
        """Bind the sockets (on any free port) and start the heartbeat."""
        await self.server.start()

    async def close(self) -> None:
        await self.server.close()

    @property
    def publish_endpoint(self) -> str:
        return self.server.endpoints["publish"]

    @property
    def sync_endpoint(self) -> str:
        return self.server.endpoints["sync"]

    def argument(self) -> str:
        """This table as ``pit-monitor --table`` takes it."""
        return f"{self.table_id}={self.publish_endpoint},{self.sync_endpoint}"

    def emit(self, type: str, hand: int | None = None, data: JsonObject | None = None, *,
             publish: bool = True, ts: str | None = None) -> JsonObject:
        """Add the next event to the history and publish it and the table's picture after it, unless
        ``publish`` is False (both lost); the event as published."""
        event, picture = self.prepare(type, hand, data, ts or now_timestamp())
        self.send(event, picture if publish else None)
        return decode_body(event[1])

    def prepare(self, type: str, hand: int | None, data: JsonObject | None,
                ts: str) -> tuple[tuple[bytes, bytes], tuple[bytes, bytes]]:
        """The next event after those prepared so far, and the table's picture after it, encoded
        (``(topic, body)`` each), the table's state moved on; :meth:`send` adds the event to the history
        (a benchmark prepares what it will publish later, so as to measure the client, not this)."""
        self.prepared += 1
        seq = len(self.history) + self.prepared
        event = self._encode(seq, ts, type, hand, data or {})
        self.follow(seq, type, hand, data or {})
        return event, self._encode(seq, ts, VIEW_TYPE, self.hand, record_json(self.picture()))

    def follow(self, seq: int, type: str, hand: int | None, data: JsonObject) -> None:
        """Move the table's state on by event ``seq`` (its ``type``, ``hand`` and ``data``), read as
        the registered record it is; one that does not read as one leaves it (logged)."""
        try:
            record = decode_public(type, data)
            if type == "alert":
                self.alerts.append(TableAlert.from_json_form({"seq": seq, "hand": hand, **data}))
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("%s seq %d: %s is not a %s: %s", self.table_id, seq, json.dumps(data)[:200],
                        type, exc)
            return
        if type == "hand.started":
            self.hand = hand
        elif type in ("hand.ended", "hand.voided"):
            self.hand = None
        if record is not None:
            self.simulated.apply(record, hand)

    def send(self, event: tuple[bytes, bytes], picture: tuple[bytes, bytes] | None) -> None:
        """Add the next event prepared to the history and publish it, and the picture (if given)."""
        self.prepared -= 1
        self.history.append(event)
        if picture is not None:
            self.server.publish(*event)
            self.server.publish(*picture)

    def _encode(self, seq: int, ts: str, type: str, hand: int | None,
                data: JsonObject) -> tuple[bytes, bytes]:
        """A message's frames, with ``"epoch"`` after ``"v"`` when the table has one."""
        topic, body = encode_event(self.table_id, seq, ts, type, hand, data)
        if self.epoch is None:
            return topic, body
        message = decode_body(body)
        return topic, compact_json({"v": message.pop("v"), "epoch": self.epoch, **message})

    def restart_sequence(self, epoch: str | int | None) -> None:
        """Forget every event and start again at seq 1 (with a new ``epoch``, or none)."""
        self.history.clear()
        self.prepared = 0
        self.alerts.clear()
        self.hand = None
        self.epoch = epoch
        self.simulated = SimulatedState(self.table_id, self.game, self.seats)

    def picture(self) -> Picture:
        """The table's picture: the state the events built (with the game's part from ``game_view``)
        and the last alerts."""
        if self.game_view is not None:  # the game's part of the table's own state, as of now
            self.game_view(self.simulated)
        return self.simulated.picture(self.alerts)

    def snapshot(self) -> JsonObject:
        """The table's state as of its last event (:meth:`picture`)."""
        self.snapshots += 1
        snapshot: JsonObject = {"seq": len(self.history), "state": record_json(self.picture())}
        if self.epoch is not None:
            snapshot["epoch"] = self.epoch
        return snapshot

    def replay(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        return self.history[max(from_seq, 1) - 1:]

    async def _command(self, request: dict[str, object], client: str | None) -> dict[str, object]:
        return {"ok": False, "error": f"unknown command {request.get('cmd')!r}"}
