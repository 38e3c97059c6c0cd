"""``pit-monitor record``: every event of every table into the store, each once, none lost.

One :class:`Follower` per table, started from the last event the store holds
of that table (so a recorder killed and restarted asks each table's sync
socket for what it missed, and proves with the bytes of that last event that
the table's sequence is still the one stored), and one writer task that
stores what the followers deliver in batches, one transaction per batch.
Rows are unique on ``(table, epoch, seq)``, so an event delivered twice is
stored once. If the database fails, the batch is tried again until it is
stored; nothing is dropped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import zmq.asyncio

from controller.follow.aio import SILENCE, Follower
from controller.follow.core import Message
from controller.follow.sources import TableSource
from controller.podium.monitor.stores.events import Row, Store

log = logging.getLogger(__name__)

BATCH = 5000
"""Most events stored in one transaction."""

RETRY = 1.0
"""Seconds before a batch that the database refused is tried again."""


class Recorder:
    """Followers for every table and the writer that stores what they deliver."""

    def __init__(self, store: Store, sources: Sequence[TableSource], *,
                 context: zmq.asyncio.Context, silence: float = SILENCE) -> None:
        self.store = store
        self.sources = list(sources)
        self.context = context
        self.silence = silence
        self.queue: asyncio.Queue[Row | None] = asyncio.Queue()
        """What the followers delivered, not yet stored; None tells the writer to finish."""
        self.followers: list[Follower] = []
        self.stored = 0
        """Events handed to the store (a few may have been there already)."""

    # -- Listener ---------------------------------------------------------------

    def snapshot(self, follower: Follower, snapshot: Message) -> None:
        """Not used: a recorder replays events rather than taking snapshots."""

    def refreshed(self, follower: Follower, snapshot: Message) -> None:
        """Not used: a recorder takes no snapshot."""

    def event(self, follower: Follower, message: Message, topic: bytes, body: bytes,
              live: bool) -> None:
        """Queue the event for the writer, its body as published (an envelope without its ``ts``
        is stored all the same, with ``""``: the tracker has checked its ``seq`` and ``type``)."""
        seq, kind, hand = message["seq"], message["type"], message.get("hand")
        if not isinstance(seq, int) or not isinstance(kind, str):
            raise TypeError(f"the tracker delivered an event without its seq or type: {message!r}")
        self.queue.put_nowait(Row(
            follower.name, follower.epoch, seq, str(message.get("ts", "")), kind,
            hand if isinstance(hand, int) and not isinstance(hand, bool) else None,
            topic.decode("ascii", "replace"), body.decode("utf-8")))

    def picture(self, follower: Follower, message: Message) -> None:
        """Not used: a recorder stores the events, which are what the pictures are drawn from."""

    def link(self, follower: Follower) -> None:
        log.info("table %s: %s %s", follower.name, follower.link_state, follower.reason)

    # -- running ----------------------------------------------------------------

    async def run(self) -> None:
        """Follow and store until cancelled; what was delivered is stored before returning."""
        for source in self.sources:
            position = await asyncio.to_thread(self.store.position, source.name)
            self.followers.append(Follower(source, self, context=self.context, silence=self.silence,
                                           snapshots=False, position=position))
        writer = asyncio.create_task(self._write())
        following = [asyncio.create_task(f.run(), name=f"follow-{f.name}") for f in self.followers]
        try:
            await asyncio.gather(*following)
        finally:
            for task in following:
                task.cancel()
            await asyncio.gather(*following, return_exceptions=True)
            self.queue.put_nowait(None)
            await writer

    async def _write(self) -> None:
        """Store batches until told to finish (None), with everything delivered before that."""
        done = False
        while not done:
            rows: list[Row] = []
            item = await self.queue.get()
            while True:
                if item is None:
                    done = True
                    break
                rows.append(item)
                if len(rows) >= BATCH or self.queue.empty():
                    break
                item = self.queue.get_nowait()
            if rows:
                await self._store(rows)

    async def _store(self, rows: list[Row]) -> None:
        while True:
            try:
                await asyncio.to_thread(self.store.add, rows)
            except Exception as exc:  # the database is down or refuses: keep the rows, try again
                log.error("storing %d events failed, trying again: %s", len(rows), exc)
                await asyncio.sleep(RETRY)
                continue
            self.stored += len(rows)
            return
