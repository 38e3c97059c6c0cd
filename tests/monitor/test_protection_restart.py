"""A monitor started again reads game protection back from the store: the stored events of the tables
where a player is rated, so the rated counter's figures and alert are those of a monitor that ran all
along; the live events the store held already are not counted twice."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from controller.devkit.protection_sim import Counter, FlatBettor, SimTable
from controller.events.envelope import encode_event
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.protection_load import replay_stored
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.stores.events import Row, open_store
from controller.podium.protection.watch import CODE, Protection
from controller.podium.ratings.figures import edges_of
from controller.podium.ratings.shift import Shifts
from tests.rigs.followed import followed


def stored(event: dict[str, Any]) -> Row:
    """An event as the recorder stores it (epoch 1)."""
    topic, body = encode_event("T01", event["seq"], event["ts"], event["type"], event["hand"], event["data"],
                               epoch=1)
    return Row("T01", "1", event["seq"], event["ts"], event["type"], event["hand"], topic.decode(),
               body.decode())


async def test_the_rated_players_figures_are_read_back_and_nothing_is_counted_twice(tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    table = SimTable({1: FlatBettor(), 2: Counter()}, seed=1, on_event=events.append)
    for _ in range(90):
        table.hand()
    store = open_store(str(tmp_path / "pit.sqlite"))
    store.open_rating("P-1001", "T01", 2, "2026-11-21T07:59:00.000Z", "alice", None)
    store.add([stored(e) for e in events])
    opened = next(e for e in events if e["type"] == "table.opened")
    store.put_edges(edges_of("easy-jack", opened["data"]["rules"]))    # as a monitor cached them before

    def who(name: str, seat: int, ts: str) -> tuple[str, str] | None:
        return ("P-1001", "1") if seat == 2 else None

    all_along = Protection(who=who)
    raised = [r for e in events for r in all_along.feed("T01", "1", followed(e, "T01"))]
    later = datetime.datetime(2026, 11, 21, 12, tzinfo=datetime.UTC)
    rated = Rated(store, ["T01"], Shifts(), {}, clock=lambda: later)
    try:
        await rated.load()
        floor = Floor(["T01"], AlertBook(tmp_path / "acks.jsonl"))
        floor.rate(rated)
        floor.protect(Protection())
        assert await replay_stored(rated, floor) > len(events) // 2
        protection = floor.protection
        assert protection is not None
        again = protection.subject("player:P-1001")
        assert again == all_along.subject("player:P-1001")
        assert again is not None and again["figures"]["reasons"] == ["bets"] and again["ratings"] == [1]
        alerts = [a for a in floor.book.open("T01") if a.data["code"] == CODE]
        assert [(a.seq, a.data["player"]) for a in alerts] == [
            (r.seq, "P-1001") for r in raised if r.data.get("player") == "P-1001"]
        for event in events[-60:]:                  # a follower's last few, heard again live
            assert protection.feed("T01", "1", followed(event, "T01")) == []
        assert protection.subject("player:P-1001") == again
    finally:
        rated.let_go()
        store.close()


async def test_a_rating_opened_shoes_after_the_table_opened_is_read_back_with_the_table_s_game(
        tmp_path: Path) -> None:
    events: list[dict[str, Any]] = []
    table = SimTable({1: FlatBettor(), 2: Counter()}, seed=3, on_event=events.append)
    for _ in range(200):
        table.hand()
    loads = [e for e in events if e["type"] == "shoe.loaded"]
    assert len(loads) >= 4
    # rated from the middle of the third shoe on: its read back starts at that shoe, after the opening
    opening = next(e for e in events if e["type"] == "bets.closed" and e["seq"] > loads[2]["seq"] + 200)["ts"]
    store = open_store(str(tmp_path / "pit.sqlite"))
    store.open_rating("P-1001", "T01", 2, opening, "alice", None)
    store.add([stored(e) for e in events])
    opened = next(e for e in events if e["type"] == "table.opened")
    store.put_edges(edges_of("easy-jack", opened["data"]["rules"]))

    def who(name: str, seat: int, ts: str) -> tuple[str, str] | None:
        return ("P-1001", "1") if seat == 2 and ts >= opening else None

    all_along = Protection(who=who)
    for event in events:
        all_along.feed("T01", "1", followed(event, "T01"))
    later = datetime.datetime(2026, 11, 21, 23, tzinfo=datetime.UTC)
    rated = Rated(store, ["T01"], Shifts(), {}, clock=lambda: later)
    try:
        await rated.load()
        floor = Floor(["T01"], AlertBook(tmp_path / "acks.jsonl"))
        floor.rate(rated)
        floor.protect(Protection())
        assert await replay_stored(rated, floor) < len(events) // 2       # the third shoe on, not all
        protection = floor.protection
        assert protection is not None
        again = protection.subject("player:P-1001")
        assert again is not None and again == all_along.subject("player:P-1001")
        assert again["figures"]["hands"] > 50 and again["figures"]["decisions"] > 50
        assert protection.count_of("T01") == all_along.count_of("T01")
    finally:
        rated.let_go()
        store.close()
