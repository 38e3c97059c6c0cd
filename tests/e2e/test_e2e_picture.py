"""End to end: after every step the daemon publishes the table's picture (``table.view``), and a
consumer can draw the table from it alone: it is the snapshot's state, hidden cards stay hidden, and
it says what may be done now."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import zmq.asyncio

from controller.events.hand import DealtInPublic
from controller.events.picture import Picture
from controller.follow.aio import Follower
from controller.follow.records import FollowedEvent, Records
from controller.follow.sources import TableSource
from tests.rigs.daemon_rig import TIMEOUT, TableRig, chip


def picture_at(rig: TableRig, seq: int) -> dict[str, Any]:
    """The latest ``table.view`` message once one reflects the events up to ``seq`` (waits)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        rig.pit.poll(0)
        view = rig.pit.view
        if view is not None and view["seq"] >= seq:
            return view
        assert time.monotonic() < deadline, f"no table.view for seq {seq}; last: {view}"
        rig.pit.poll(0.1)


def names(view: dict[str, Any]) -> list[str]:
    return [action["name"] for action in view["data"]["actions"]]


def test_every_step_publishes_the_picture_a_consumer_draws_from(rig: TableRig) -> None:
    rig.start()
    loaded = rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    view = picture_at(rig, loaded["seq"])
    assert view["type"] == "table.view" and view["hand"] is None and view["epoch"] is not None
    assert view["data"]["table_phase"] == "betting" and "deal" not in names(view)
    assert view["data"]["instruction"].startswith("Betting is open. Before the deal")

    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    bet = rig.next("bet.placed")
    view = picture_at(rig, bet["seq"])
    assert view["data"]["seats"][0]["bets"] == {"main": 1000}
    assert view["data"]["live"] == {"1": {"main": 1000}}
    assert names(view) == ["deal", "call_floor"]     # the dealer may call the floor at any time
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3, spot="main")

    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    for _ in range(3):
        dealt = rig.draw()
    view = picture_at(rig, dealt["seq"])
    assert view["hand"] == 1 and view["data"]["dealer"]["cards"] == [None]
    assert "9d" not in json.dumps(view)                           # the hole card stays hidden
    seat_one = view["data"]["seats"][0]
    assert seat_one["in_turn"] and seat_one["cards"] == ["5h"]
    assert {"name": "stand", "seat": 1, "hand_index": 0, "low": None, "high": None,
            "spot": None} in view["data"]["actions"]
    assert "void" in names(view) and "deal" not in names(view)

    state = rig.pit.control({"cmd": "state"})
    assert state["seq"] == view["seq"] and state["state"] == view["data"]    # the snapshot's state

    refused = rig.pit.press("next")
    assert refused["ok"] is False
    deadline = time.monotonic() + TIMEOUT
    while view["data"]["notice"] is None and time.monotonic() < deadline:
        view = picture_at(rig, dealt["seq"])    # a refusal changes the picture, not the sequence
    assert view["data"]["notice"] == refused["error"] and view["seq"] == dealt["seq"]

    rig.draw()
    rig.pit.press("stand")
    rig.draw()
    rig.pit.press("stand")
    settled = rig.next("hand.settled")
    view = picture_at(rig, settled["seq"])
    assert view["data"]["table_phase"] == "settled" and names(view) == ["next", "call_floor"]
    assert view["data"]["results"] == settled["data"]["results"]
    assert view["data"]["dealer"]["cards"] == ["9d"]                  # turned up at the end


class Drawn:
    """A consumer told in records (:class:`controller.follow.records.RecordListener`)."""

    def __init__(self) -> None:
        self.pictures: list[tuple[int, Picture | None]] = []
        self.events: list[FollowedEvent] = []
        self.woken = asyncio.Event()

    def snapshot(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        self.pictures.append((seq, picture))
        self.woken.set()

    def refreshed(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        self.snapshot(follower, seq, picture)

    def event(self, follower: Follower, event: FollowedEvent, live: bool) -> None:
        self.events.append(event)
        self.woken.set()

    def picture(self, follower: Follower, seq: int, picture: Picture | None) -> None:
        self.snapshot(follower, seq, picture)

    def link(self, follower: Follower) -> None:
        """Nothing to draw."""

    async def until_seq(self, seq: int) -> Picture:
        """The first picture as of event ``seq`` or later (waits)."""
        async with asyncio.timeout(TIMEOUT):
            while True:
                for at, picture in self.pictures:
                    if at >= seq and picture is not None:
                        return picture
                self.woken.clear()
                await self.woken.wait()


def test_a_consumer_follows_the_daemon_in_records_the_picture_and_each_event(rig: TableRig) -> None:
    rig.start()
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed")
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3, spot="main")
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    dealt = [rig.draw() for _ in range(3)]

    async def follow() -> tuple[Picture, Picture, list[FollowedEvent]]:
        drawn = Drawn()
        context = zmq.asyncio.Context()
        publish, sync, _ = rig.endpoints
        follower = Follower(TableSource(rig.table, publish, sync), Records(drawn), context=context)
        task = asyncio.create_task(follower.run())
        try:
            before = await drawn.until_seq(dealt[-1]["seq"])
            stood = await asyncio.to_thread(rig.pit.press, "stand")
            assert stood == {"ok": True}
            after = await drawn.until_seq(dealt[-1]["seq"] + 1)
            return before, after, drawn.events
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            context.destroy(linger=0)

    before, after, events = asyncio.run(follow())
    assert before.hand == 1 and before.dealer.cards == (None,) and before.seats[0].in_turn
    assert before.seats[0].cards == ("5h",) and before.seats[0].bets == {"main": 1000}
    assert [a.name for a in before.actions if a.seat == 1] == ["stand"]
    assert not after.seats[0].in_turn and after.seats[0].cards == ("5h",)
    by_seq = {event.seq: event for event in events}
    hole = by_seq[dealt[2]["seq"]].event
    assert isinstance(hole, DealtInPublic) and hole.card is None and hole.target.to == "dealer"
    up = by_seq[dealt[0]["seq"]].event
    assert isinstance(up, DealtInPublic) and str(up.card) == "5h"
    assert by_seq[dealt[0]["seq"]].body in {body for _, body in rig.pit.raw}     # byte for byte
