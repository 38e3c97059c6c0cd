"""The project's pit client follows epochs: a rewound sequence is taken up again, never discarded.

A real PitServer on 127.0.0.1 serves a journal stand-in; the blocking client runs in a thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import zmq

from controller.events.envelope import encode_event, encode_heartbeat
from controller.follow.blocking import PitClient
from controller.pit.server import PitServer

TS = "2026-11-21T22:14:05.123Z"
E1, E2, E3 = 1795000000, 1795000100, 1795000200


class Journal:
    """Held events, as the daemon's journal would hand them to the sync socket."""

    def __init__(self) -> None:
        self.events: list[tuple[bytes, bytes]] = []

    def append(self, epoch: int, kind: str = "bet.placed") -> tuple[bytes, bytes]:
        event = encode_event("T07", len(self.events) + 1, TS, kind, None, {"n": len(self.events)},
                             epoch=epoch)
        self.events.append(event)
        return event

    def cut(self, lines: int) -> None:
        del self.events[lines:]

    def history(self, from_seq: int) -> list[tuple[bytes, bytes]]:
        return self.events[max(from_seq, 1) - 1:]


@pytest.fixture
async def served() -> AsyncIterator[tuple[Journal, PitServer, PitClient]]:
    journal = Journal()

    async def no_command(request: dict[str, object], client: str | None) -> dict[str, object]:
        return {"ok": False}

    server = PitServer("T07", publish="tcp://127.0.0.1:*", sync="tcp://127.0.0.1:*",
                       control="tcp://127.0.0.1:*", snapshot=lambda: {"seq": 0, "state": {}},
                       history=journal.history, last_seq=lambda: len(journal.events),
                       on_command=no_command, heartbeat_interval=60.0)
    await server.start()
    endpoints = server.endpoints
    client = PitClient("T07", endpoints["publish"], endpoints["sync"], endpoints["control"],
                       context=zmq.Context())
    try:
        yield journal, server, client
    finally:
        client.close()
        client.context.destroy(linger=0)
        await server.close()


async def take(client: PitClient, count: int) -> None:
    """Let the client take events (in a thread: it blocks) until it holds ``count``."""
    while len(client.events) < count:
        assert await asyncio.to_thread(client.poll, 5.0), f"only {len(client.events)} events came"


async def publish(server: PitServer, event: tuple[bytes, bytes]) -> None:
    server.publish(*event)
    await asyncio.sleep(0)


async def test_a_rewound_sequence_over_two_epochs_is_taken_from_where_the_table_lost_it(
        served: tuple[Journal, PitServer, PitClient]) -> None:
    journal, server, client = served
    for _ in range(42):
        journal.append(E1)
    await asyncio.to_thread(client.catch_up)
    assert (client.last_seq, client.epoch) == (42, str(E1))
    journal.cut(21)                                  # the journal lost 22..42, then two restarts
    journal.append(E2, "table.opened")               # 22
    for _ in range(3):
        journal.append(E2)                           # 23..25
    journal.cut(24)                                  # and lost 25 again
    journal.append(E3, "table.opened")               # 25
    for _ in range(5):
        journal.append(E3)                           # 26..30
    await asyncio.sleep(0.2)                         # the SUB connection is up before the publish
    await publish(server, journal.events[-1])        # the client hears only the last one
    await take(client, 42 + 9)
    taken = [(e["seq"], e["epoch"]) for e in client.events[42:]]
    assert taken == [(22, E2), (23, E2), (24, E2), (25, E3), *((seq, E3) for seq in range(26, 31))]
    assert (client.last_seq, client.epoch, client.rewinds) == (30, str(E3), 1)
    await publish(server, journal.events[-1])        # the same event again: a duplicate now
    await asyncio.to_thread(client.poll, 0.3)
    assert len(client.events) == 51


async def test_a_heartbeat_of_a_newer_epoch_makes_the_client_catch_up(
        served: tuple[Journal, PitServer, PitClient]) -> None:
    journal, server, client = served
    for _ in range(10):
        journal.append(E1)
    await asyncio.to_thread(client.catch_up)
    journal.cut(4)
    journal.append(E2, "table.opened")               # 5, which the client never hears on PUB
    await asyncio.sleep(0.2)                         # the SUB connection is up before the publish
    server.publish(*encode_heartbeat("T07", 5, TS, epoch=E2))   # as the table's heartbeat timer would
    await take(client, 11)
    assert (client.events[-1]["seq"], client.events[-1]["type"], client.epoch) == (5, "table.opened", str(E2))
