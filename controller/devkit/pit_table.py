"""A table that only speaks the pit sockets: events made up by the caller, served by the real PitServer.

For tests and benchmarks of pit clients (the monitor, the recorder) that need
many tables, or a table that does what a real one should never do: skip a
publish (a gap the client must fill from the sync socket), restart its
sequence, change its ``epoch``. Every event is kept (the sync socket replays
all of them) and encoded with :func:`controller.events.envelope.encode_event`;
with ``epoch`` set, the envelope carries ``"epoch"`` after ``"v"``.

Its state is what its events say by themselves (``controller/devkit/sim_state.py``);
a caller that makes up a game's hands passes ``game_view``, which writes the
game's part into the state (totals, the game's phase, whose turn it is), as a
real table's game would. Like the daemon, it publishes that state as its
picture (``table.view``) after every event it publishes, and its snapshot is
the same state.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import zmq.asyncio

from controller.devkit.sim_state import SimulatedState
from controller.events.envelope import VIEW_TYPE, compact_json, encode_event, now_timestamp
from controller.pit.server import CurveKeys, PitServer


class EnvelopeTable:
    """One simulated table's pit sockets and its event history."""

    def __init__(self, table_id: str, *, game: str = "easy-jack", seats: int = 6,
                 epoch: str | int | None = None, heartbeat: float = 2.0, curve: CurveKeys | None = None,
                 context: zmq.asyncio.Context | None = None, host: str = "127.0.0.1",
                 game_view: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.table_id = table_id
        self.game = game
        self.seats = seats
        self.epoch = epoch
        self.game_view = game_view
        self.history: list[tuple[bytes, bytes]] = []
        self.alerts: list[dict[str, Any]] = []
        self.hand: int | None = None
        self.picture = SimulatedState(table_id, game, seats)
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

    def emit(self, type: str, hand: int | None = None, data: dict[str, Any] | None = None, *,
             publish: bool = True, ts: str | None = None) -> dict[str, Any]:
        """Add the next event to the history and publish it and the table's picture after it, unless
        ``publish`` is False (both lost)."""
        event, picture = self.prepare(type, hand, data, ts or now_timestamp())
        self.send(event, picture if publish else None)
        sent: dict[str, Any] = json.loads(event[1])
        return sent

    def prepare(self, type: str, hand: int | None, data: dict[str, Any] | None,
                ts: str) -> tuple[tuple[bytes, bytes], tuple[bytes, bytes]]:
        """The next event after those prepared so far, and the table's picture after it, encoded
        (``(topic, body)`` each), the table's state moved on; :meth:`send` adds the event to the history
        (a benchmark prepares what it will publish later, so as to measure the client, not this)."""
        self.prepared += 1
        seq = len(self.history) + self.prepared
        topic, body = self._encode(seq, ts, type, hand, data or {})
        event: dict[str, Any] = json.loads(body)
        if type == "alert":
            self.alerts.append({"seq": seq, "hand": hand, **(data or {})})
        if type == "hand.started":
            self.hand = hand
        elif type in ("hand.ended", "hand.voided"):
            self.hand = None
        self.picture.apply(event)
        return (topic, body), self._encode(seq, ts, VIEW_TYPE, self.hand, self.state())

    def send(self, event: tuple[bytes, bytes], picture: tuple[bytes, bytes] | None) -> None:
        """Add the next event prepared to the history and publish it, and the picture (if given)."""
        self.prepared -= 1
        self.history.append(event)
        if picture is not None:
            self.server.publish(*event)
            self.server.publish(*picture)

    def _encode(self, seq: int, ts: str, type: str, hand: int | None,
                data: dict[str, Any]) -> tuple[bytes, bytes]:
        """A message's frames, with ``"epoch"`` after ``"v"`` when the table has one."""
        topic, body = encode_event(self.table_id, seq, ts, type, hand, data)
        if self.epoch is None:
            return topic, body
        message = json.loads(body)
        return topic, compact_json({"v": message.pop("v"), "epoch": self.epoch, **message})

    def restart_sequence(self, epoch: str | int | None) -> None:
        """Forget every event and start again at seq 1 (with a new ``epoch``, or none)."""
        self.history.clear()
        self.prepared = 0
        self.alerts.clear()
        self.hand = None
        self.epoch = epoch
        self.picture = SimulatedState(self.table_id, self.game, self.seats)

    def state(self) -> dict[str, Any]:
        """The state the events built (with the game's part from ``game_view``) and the last alerts:
        the table's picture. Not a copy: it is the table's own state, to be encoded at once."""
        if self.game_view is not None:  # the game's part of the table's own state, as of now
            self.game_view(self.picture.state)
        return {**self.picture.state, "live_buttons": [], "alerts": self.alerts[-20:]}

    def snapshot(self) -> dict[str, Any]:
        """The table's state as of its last event (:meth:`state`)."""
        self.snapshots += 1
        snapshot: dict[str, Any] = {"seq": len(self.history), "state": self.state()}
        if self.epoch is not None:
            snapshot["epoch"] = self.epoch
        return snapshot

    def replay(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        return self.history[max(from_seq, 1) - 1:]

    async def _command(self, request: dict[str, Any], client: str | None) -> dict[str, Any]:
        return {"ok": False, "error": f"unknown command {request.get('cmd')!r}"}
