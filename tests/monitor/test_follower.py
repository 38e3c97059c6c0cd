"""The follower against a table's real pit sockets (PitServer) that misbehaves on purpose.

``EnvelopeTable`` publishes what the test says, skips publishing when told (a
lost message), restarts its sequence and changes its ``epoch``; the follower
must deliver every event of the current sequence once and in order, byte for
byte, and say when the table is silent.
"""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
import zmq.asyncio
import zmq.auth

from controller.devkit.pit_table import EnvelopeTable
from controller.follow.aio import Follower
from controller.follow.core import Position
from controller.follow.sources import TableSource
from controller.pit.server import CurveKeys

WAIT = 10.0


class Collector:
    """A listener that keeps what it is told and lets the test wait for a condition."""

    def __init__(self) -> None:
        self.snapshots: list[tuple[str, dict[str, Any]]] = []
        self.refreshes: list[dict[str, Any]] = []
        self.events: list[tuple[str, dict[str, Any], bytes, bool]] = []
        self.pictures: list[dict[str, Any]] = []
        self.links: list[tuple[str, str]] = []
        self._poked = asyncio.Event()

    def snapshot(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        self.snapshots.append((follower.epoch, snapshot))
        self._poked.set()

    def refreshed(self, follower: Follower, snapshot: dict[str, Any]) -> None:
        self.refreshes.append(snapshot)
        self._poked.set()

    def event(self, follower: Follower, message: dict[str, Any], topic: bytes, body: bytes,
              live: bool) -> None:
        self.events.append((follower.epoch, message, body, live))
        self._poked.set()

    def picture(self, follower: Follower, message: dict[str, Any]) -> None:
        self.pictures.append(message)
        self._poked.set()

    def link(self, follower: Follower) -> None:
        self.links.append((follower.link_state, follower.reason))
        self._poked.set()

    async def until(self, condition: Callable[[], bool], what: str) -> None:
        async def wait() -> None:
            while not condition():
                self._poked.clear()
                await self._poked.wait()
        try:
            await asyncio.wait_for(wait(), WAIT)
        except TimeoutError:
            raise AssertionError(f"not {what} within {WAIT} s; links {self.links[-3:]}, "
                                 f"events {[e[1]['seq'] for e in self.events]}") from None

    def seqs(self) -> list[int]:
        return [message["seq"] for _, message, _, _ in self.events]

    def bodies(self) -> list[bytes]:
        return [body for _, _, body, _ in self.events]


class Rig:
    """Tables and followers on one context; everything closed at the end."""

    def __init__(self) -> None:
        self.context = zmq.asyncio.Context()
        self.tables: list[EnvelopeTable] = []
        self.tasks: list[asyncio.Task[None]] = []

    async def table(self, name: str = "T01", **options: Any) -> EnvelopeTable:
        table = EnvelopeTable(name, context=self.context, **{"heartbeat": 0.2, **options})
        await table.start()
        self.tables.append(table)
        return table

    def follow(self, table: EnvelopeTable, *, name: str | None = None, curve: Any = None,
               collector: Collector | None = None, **options: Any) -> tuple[Follower, Collector]:
        collector = collector or Collector()
        source = TableSource(name or table.table_id, table.publish_endpoint, table.sync_endpoint, curve)
        follower = Follower(source, collector, context=self.context, **options)
        self.tasks.append(asyncio.create_task(follower.run()))
        return follower, collector

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for table in self.tables:
            await table.close()
        self.context.destroy(linger=0)


@pytest.fixture
async def rig() -> AsyncIterator[Rig]:
    made = Rig()
    try:
        yield made
    finally:
        await made.close()


def emit(table: EnvelopeTable, count: int, *, publish: bool = True, tag: str = "") -> None:
    for n in range(count):
        table.emit("bet.placed", 1, {"seat": 1, "spot": "main", "amount": 500 * (n + 1), "tag": tag},
                   publish=publish)


async def test_a_gap_is_replayed_from_the_sync_socket_and_a_heartbeat_reveals_a_lost_last_event(
        rig: Rig) -> None:
    table = await rig.table()
    follower, seen = rig.follow(table)
    await seen.until(lambda: follower.link_state == "live", "live")
    emit(table, 3)
    emit(table, 3, publish=False)               # lost on the way
    emit(table, 1)
    await seen.until(lambda: seen.seqs() == list(range(1, 8)), "events 1..7")
    assert follower.replays == 1 and all(live for *_, live in seen.events)
    emit(table, 1, publish=False)               # the last event is lost: only the heartbeat tells
    await seen.until(lambda: seen.seqs() == list(range(1, 9)), "event 8")
    assert seen.bodies() == [body for _, body in table.history]   # byte for byte, each once
    assert follower.replays == 2 and follower.resyncs == 0


async def test_a_late_monitor_takes_a_snapshot_and_the_events_before_it_for_the_hands_log(
        rig: Rig) -> None:
    table = await rig.table()
    emit(table, 10)
    _follower, seen = rig.follow(table, history=4)
    await seen.until(lambda: seen.seqs() == [7, 8, 9, 10], "the history before the snapshot")
    assert seen.snapshots[0][1]["seq"] == 10 and not any(live for *_, live in seen.events)
    emit(table, 1)
    await seen.until(lambda: seen.seqs()[-1:] == [11], "event 11")
    assert seen.events[-1][3] is True


class BrokenTable(EnvelopeTable):
    """A table whose sync socket answers a snapshot with an error while ``broken``."""

    broken = False

    def snapshot(self) -> dict[str, Any]:
        if self.broken:
            raise RuntimeError("the state cannot be read")
        return super().snapshot()


async def test_pictures_come_with_the_events_and_a_snapshot_only_after_a_gap(rig: Rig) -> None:
    table = BrokenTable("T01", context=rig.context, heartbeat=0.2)
    await table.start()
    rig.tables.append(table)
    follower, seen = rig.follow(table)
    await seen.until(lambda: follower.link_state == "live", "live")
    emit(table, 20)
    await seen.until(lambda: seen.pictures and seen.pictures[-1]["seq"] == 20, "the picture at seq 20")
    assert [p["seq"] for p in seen.pictures] == list(range(1, 21)) and all(live for *_, live in seen.events)
    assert seen.pictures[-1]["data"]["seats"][0]["bets"] == {"main": 10000}
    assert table.snapshots == 1 and seen.refreshes == []       # the one at the start, no other

    emit(table, 2, publish=False)                # lost, with their pictures: a gap, then a snapshot
    emit(table, 1)
    await seen.until(lambda: seen.refreshes and seen.seqs()[-1:] == [23], "events 21..23 and a snapshot")
    assert seen.seqs() == list(range(1, 24)) and seen.refreshes[-1]["seq"] == 23
    assert table.snapshots == 2 and follower.replays == 1 and follower.resyncs == 0

    table.broken = True                          # the sync socket answers with an error
    emit(table, 1, publish=False)
    await seen.until(lambda: follower.link_state == "error", "an error")
    assert "sync error from the table" in follower.reason
    table.broken = False
    await seen.until(lambda: follower.link_state == "live", "live again")   # tried again, and it works
    assert seen.seqs()[-1] == 24 and seen.refreshes[-1]["seq"] == 24


@pytest.mark.parametrize("epoch", [None, "e2"])
async def test_a_table_whose_sequence_restarts_is_taken_afresh(rig: Rig, epoch: str | None) -> None:
    table = await rig.table(epoch=None if epoch is None else "e1")
    monitor, on_floor = rig.follow(table)
    recorder, recorded = rig.follow(table, snapshots=False)
    await on_floor.until(lambda: monitor.link_state == "live", "live")
    emit(table, 5)
    await recorded.until(lambda: recorded.seqs() == [1, 2, 3, 4, 5], "the first sequence")
    table.restart_sequence(epoch)               # a new journal: seq 1 again
    emit(table, 3, tag="new")
    await recorded.until(lambda: recorded.seqs() == [1, 2, 3, 4, 5, 1, 2, 3], "the new sequence")
    await on_floor.until(lambda: len(on_floor.snapshots) == 2, "a fresh snapshot")
    new_label = "e2" if epoch else recorder.epoch
    assert epoch or new_label.startswith("restart@")
    assert [e[0] for e in recorded.events] == ["e1" if epoch else ""] * 5 + [new_label] * 3
    assert recorded.bodies()[5:] == [body for _, body in table.history]
    assert monitor.resyncs == recorder.resyncs == 1
    assert on_floor.snapshots[1][0] == new_label and monitor.last_seq == 3


async def test_an_epoch_that_appears_on_a_continuing_sequence_duplicates_nothing(rig: Rig) -> None:
    table = await rig.table()
    recorder, recorded = rig.follow(table, snapshots=False)
    emit(table, 3)
    await recorded.until(lambda: recorded.seqs() == [1, 2, 3], "events 1..3")
    table.epoch = "e1"                           # the table was upgraded: same journal, epoch now sent
    emit(table, 2)
    await recorded.until(lambda: recorded.seqs() == [1, 2, 3, 4, 5], "events 4 and 5")
    assert [e[0] for e in recorded.events] == ["", "", "", "e1", "e1"] and recorder.resyncs == 0


async def test_a_recorder_resumes_after_its_last_stored_event_and_proves_it_is_the_same(rig: Rig) -> None:
    table = await rig.table()
    emit(table, 6)
    _topic, body = table.history[2]
    _, resumed = rig.follow(table, snapshots=False, position=Position("", 3, body))
    await resumed.until(lambda: resumed.seqs() == [4, 5, 6], "events 4..6")
    stranger, replayed = rig.follow(table, snapshots=False, position=Position("", 3, b"{}"))
    await replayed.until(lambda: replayed.seqs() == [1, 2, 3, 4, 5, 6], "the whole sequence again")
    assert stranger.epoch.startswith("restart@") and stranger.resyncs == 1


async def test_a_quiet_table_is_silent_until_it_is_heard_again(rig: Rig) -> None:
    table = await rig.table(heartbeat=30)
    follower, seen = rig.follow(table, silence=0.3)
    await seen.until(lambda: follower.link_state == "silent", "silent")
    assert "no event or heartbeat for 0.3 s" in follower.reason
    emit(table, 1)
    await seen.until(lambda: follower.link_state == "live" and seen.seqs() == [1], "live again")


async def test_a_table_that_is_not_the_one_named_is_an_error(rig: Rig) -> None:
    table = await rig.table("T01")
    follower, seen = rig.follow(table, name="T99")
    await seen.until(lambda: follower.link_state == "error", "an error")
    assert "is 'T01', not 'T99'" in follower.reason


async def test_curve_tables_are_followed_with_the_monitor_keys_and_refuse_others(
        rig: Rig, tmp_path: Path) -> None:
    clients = tmp_path / "clients"
    clients.mkdir()
    table_public_file, table_secret_file = zmq.auth.create_certificates(tmp_path, "table")
    monitor_public_file, monitor_secret_file = zmq.auth.create_certificates(tmp_path, "monitor")
    shutil.copy(monitor_public_file, clients)
    server, _ = zmq.auth.load_certificate(table_public_file)
    public, secret = zmq.auth.load_certificate(monitor_secret_file)
    assert secret is not None
    table = await rig.table(curve=CurveKeys(Path(table_secret_file), clients))
    emit(table, 2)
    _follower, seen = rig.follow(table, curve=(server, public, secret))
    await seen.until(lambda: seen.seqs() == [1, 2], "the events, with the keys")
    plain, unseen = rig.follow(table, name="T01", sync_timeout=0.3)
    await unseen.until(lambda: plain.link_state == "error", "refused without keys")
    assert unseen.events == [] and "no sync reply" in plain.reason
