"""The simulated floor (``controller/devkit/floor_sim.py``) gives the monitor pictures that agree with
its events: after every event and its picture the monitor's state is the simulated table's, and the
table's snapshot is its picture. A banked table has stacks, a moving player-dealer and tournament
levels. Its tables take the pit's commands through their control socket as a real table words them,
and its players are rated from the hands the floor plays before it is shown
(``controller/devkit/sim_pit.py``)."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import zmq.asyncio

from controller.devkit.floor_sim import (
    BANKED_GAME,
    EASY_JACK_RULES,
    HAND_SECONDS,
    HOUSE_GAME,
    Dealer,
    back_dated,
    game_view,
    openings,
)
from controller.devkit.pit_table import EnvelopeTable
from controller.devkit.sim_pit import PIT_USER, SUPERVISOR, SUPERVISOR_PIN, PitTable, rated_floor, sim_shifts
from controller.events.codec import record_json
from controller.events.envelope import compact_json
from controller.follow.control import Control
from controller.follow.records import FollowedEvent
from controller.podium.monitor.models.floor import SKIPPED, TableModel
from controller.podium.monitor.stores.events import open_store
from controller.podium.ratings.edges import Edge, Edges


def sent(table: EnvelopeTable) -> dict[str, Any]:
    """The table's snapshot as it goes over the wire: encoded, then read."""
    found: dict[str, Any] = json.loads(compact_json(table.snapshot()))
    return found


def pictured(table: EnvelopeTable) -> dict[str, Any]:
    """The table's picture (``table.view``) as it goes over the wire."""
    found: dict[str, Any] = json.loads(compact_json({"seq": len(table.history),
                                                          "data": record_json(table.picture())}))
    return found


@pytest.fixture
def context() -> Iterator[zmq.asyncio.Context]:
    made = zmq.asyncio.Context()
    yield made
    made.destroy(linger=0)


@pytest.mark.parametrize("banker", [False, True])
def test_a_simulated_table_s_snapshots_agree_with_its_events(context: zmq.asyncio.Context,
                                                             banker: bool) -> None:
    dealer = Dealer(random.Random(3), banker=banker, progressive=not banker)
    table = EnvelopeTable("T02", game=dealer.game, game_view=game_view, context=context)
    model = TableModel("T02")
    model.load_snapshot(sent(table), "")
    phases = set()
    for kind, hand, data in dealer.events(hands=8):
        event = table.emit(kind, hand, data, publish=False)
        model.apply(FollowedEvent.of(event, f"T02/{kind}".encode(), compact_json(event)), live=True)
        assert model.stale
        model.view(pictured(table))
        assert not model.stale and model.seq == event["seq"]
        assert model.state == {k: v for k, v in sent(table)["state"].items() if k not in SKIPPED}
        phases.add(model.state["phase"])
    assert phases == {"betting", "dealing", "players", "dealer", "settled"}
    if banker:
        assert model.tournament() is not None and model.tournament()["level"] == 2  # type: ignore[index]
        assert sum(s["stack"] for s in model.occupied()) == 6 * 50_000 and model.tile([])["button"] == 3
    else:
        assert model.meters()["progressive"] > 1_250_000


async def test_a_simulated_table_carries_out_the_pit_s_commands_as_a_real_table_words_them(
        context: zmq.asyncio.Context) -> None:
    table = PitTable("T01", context=context, game_view=game_view)
    await table.start()
    control = Control(table.control_endpoint, context)

    async def order(cmd: str, pin: str = SUPERVISOR_PIN, **fields: Any) -> dict[str, Any]:
        return await control.send({"cmd": cmd, "supervisor": SUPERVISOR, "pin": pin, **fields})

    try:
        assert await order("close_table", pin="0000") == {"ok": False, "error": "wrong supervisor id or PIN"}
        table.emit("hand.started", 1, {"seats": [1], "dealer_seat": None})
        assert (await order("set_limits", min_bet=1000, max_bet=20000))["error"] == (
            "set_limits: only between hands: finish the hand (NEXT) or void it first")
        assert await order("dealer_message", text="Fill on its way") == {"ok": True}   # at any time
        table.emit("hand.ended", 1, {"hand": 1})
        assert (await order("set_limits", min_bet=5000, max_bet=2000))["ok"] is False
        assert await order("set_limits", min_bet=1000, max_bet=20000) == {"ok": True}
        assert await order("close_table") == {"ok": True}
        assert not table.open_again.is_set()                            # no hand is dealt while closed
        assert (await order("close_table"))["error"] == "close_table: the table is closed already"
        picture = table.picture()
        assert picture.closed is True and picture.limits == {"min_bet": 1000, "max_bet": 20000}
        assert picture.message == "Fill on its way"
        assert await order("open_table") == {"ok": True}
        assert table.open_again.is_set() and table.picture().closed is False
        assert await order("hit") == {"ok": False, "error": "unknown command 'hit'"}
        kinds = [json.loads(body)["type"] for _, body in table.history]
        assert kinds[-5:] == ["dealer.message", "hand.ended", "table.limits", "table.closed",
                              "table.reopened"]
    finally:
        await table.close()


async def test_the_players_are_rated_from_a_hand_played_before_the_floor_is_shown(tmp_path: Path) -> None:
    now = datetime.datetime(2026, 11, 21, 14, 37, tzinfo=datetime.UTC)
    dealers = [Dealer(random.Random(0), progressive=True, regulars=frozenset({2, 5})),
               Dealer(random.Random(1), banker=True, regulars=frozenset({3}))]
    played = [back_dated([*d.events(hands=6), *d.play(7, 7)][:-8], now) for d in dealers]
    stamps = [ts for ts, _ in played[0]]
    assert stamps == sorted(stamps) and stamps[-1] < "2026-11-21T14:37:00.000Z"
    begun = now - datetime.timedelta(seconds=7 * HAND_SECONDS)        # 7 hands begun, spread before now
    assert stamps[0] == begun.strftime("%Y-%m-%dT%H:%M:%S.000Z")

    def first_of(steps: list[tuple[str, Any]], hand: int) -> str:
        return next(ts for ts, (_, number, _) in steps if number == hand)

    rated = openings(["T01", "T02"], played)
    assert rated == {"T01": [(2, "P-1001", first_of(played[0], 1)), (5, "P-1002", first_of(played[0], 6))],
                     "T02": [(3, "P-1003", first_of(played[1], 2))]}
    store = open_store(str(tmp_path / "floor.sqlite"))
    edges = Edges(HOUSE_GAME, EASY_JACK_RULES, {"main": Edge(0.01, "exact")}, frozenset(), False)
    store.put_edges(edges)             # cached, as the real figures would be after a first run
    games = {"T01": HOUSE_GAME, "T02": BANKED_GAME}
    floor = await rated_floor(store, games, dict.fromkeys(games, "Pit 1"), sim_shifts(now), rated,
                              (HOUSE_GAME, EASY_JACK_RULES), BANKED_GAME)
    try:
        found = {(r.table, r.seat): r for r in store.ratings(open_only=True)}
        assert sorted(found) == [("T01", 2), ("T01", 5), ("T02", 3)]
        assert all(r.opened_by == PIT_USER for r in found.values())
        assert found["T01", 2].edges == edges and found["T02", 3].edges is not None
        assert found["T02", 3].edges.player_banked == {"main"}    # no house edge where a player banks
        assert [r["player"] for r in floor.open_ratings("T01")] == ["P-1001", "P-1002"]
    finally:
        floor.let_go()
        store.close()
