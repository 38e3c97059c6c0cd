"""A table that only speaks the pit sockets: events made up by the caller, served by the real PitServer.

For tests and benchmarks of pit clients (the monitor, the recorder) that need
many tables, or a table that does what a real one should never do: skip a
publish (a gap the client must fill from the sync socket), restart its
sequence, change its ``epoch``. Every event is kept (the sync socket replays
all of them) and encoded with :func:`controller.pit.events.encode_event`;
with ``epoch`` set, the envelope carries ``"epoch"`` after ``"v"``.

Its snapshot is the state its events build, as the monitor's model applies
them (what the events say by themselves); a caller that makes up a game's
hands passes ``game_view``, which writes the game's part into each snapshot's
state (totals, the game's phase, whose turn it is), as a real table's game
would.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import zmq.asyncio

from controller.pit.events import compact_json, encode_event, now_timestamp
from controller.pit.monitor.floor import TableModel
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
        self.picture = self._fresh_picture()
        self.snapshots = 0
        """Snapshots served."""
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
        """Add the next event to the history; publish it unless ``publish`` is False (a lost message)."""
        topic, body = encode_event(self.table_id, len(self.history) + 1, ts or now_timestamp(), type,
                                   hand, data or {})
        if self.epoch is not None:
            message = json.loads(body)
            message = {"v": message.pop("v"), "epoch": self.epoch, **message}
            body = compact_json(message)
        self.history.append((topic, body))
        event: dict[str, Any] = json.loads(body)
        if type == "alert":
            self.alerts.append({"seq": event["seq"], "hand": hand, **(data or {})})
        if type == "hand.started":
            self.hand = hand
        elif type in ("hand.ended", "hand.voided"):
            self.hand = None
        self.picture.apply(event, live=True)
        if publish:
            self.server.publish(topic, body)
        return event

    def restart_sequence(self, epoch: str | int | None) -> None:
        """Forget every event and start again at seq 1 (with a new ``epoch``, or none)."""
        self.history.clear()
        self.alerts.clear()
        self.hand = None
        self.epoch = epoch
        self.picture = self._fresh_picture()

    def _fresh_picture(self) -> TableModel:
        picture = TableModel(self.table_id)
        seats: list[dict[str, Any]] = [
            {"seat": n, "bets": {}, "cards": [], "total": None, "hands": [], "in_turn": False}
            for n in range(1, self.seats + 1)]
        picture.load_snapshot({"seq": 0, "state": {
            "table": self.table_id, "game": self.game, "phase": "betting", "table_phase": "betting",
            "next_hand": 1, "seats": seats, "meters": {"hands": 0}}}, "")
        return picture

    def snapshot(self) -> dict[str, Any]:
        """The state the events built (with the game's part from ``game_view``) and the last alerts.

        Not a copy: it is the table's own state, to be sent (encoded) at once."""
        self.snapshots += 1
        if self.game_view is not None:  # the game's part of the table's own state, as of now
            self.game_view(self.picture.state)
        state: dict[str, Any] = {**self.picture.state, "live_buttons": [], "alerts": self.alerts[-20:]}
        snapshot: dict[str, Any] = {"seq": len(self.history), "state": state}
        if self.epoch is not None:
            snapshot["epoch"] = self.epoch
        return snapshot

    def replay(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        return self.history[max(from_seq, 1) - 1:]

    async def _command(self, request: dict[str, Any], client: str | None) -> dict[str, Any]:
        return {"ok": False, "error": f"unknown command {request.get('cmd')!r}"}
