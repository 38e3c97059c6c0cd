"""The live monitor's figures (``Rated``): a tile drawn again shows what was worked out, and they are
worked out again when a hand settles, a rating opens, the edges are found or a shift begins."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path
from typing import Any

from controller.follow.records import FollowedEvent
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.stores.events import open_store
from controller.podium.ratings.shift import Shifts
from tests.monitor.ratings_script import EASY_JACK, EJ_MAIN, result
from tests.rigs.followed import followed

UTC = datetime.UTC


def event(seq: int, minute: int, kind: str, data: dict[str, Any], hand: int | None = 1) -> FollowedEvent:
    return followed({"seq": seq, "ts": f"2026-11-21T17:{minute:02d}:00.000Z", "type": kind, "hand": hand,
                     "data": data}, "T1")


def test_the_figures_are_kept_until_what_they_come_from_changes(tmp_path: Path) -> None:
    now = [datetime.datetime(2026, 11, 21, 17, 0, tzinfo=UTC)]
    store = open_store(str(tmp_path / "pit.sqlite"))
    store.put_edges(EASY_JACK)

    async def run() -> None:
        rated = Rated(store, ["T1"], Shifts((datetime.time(6), datetime.time(18))), {"T1": "Pit 1"},
                      clock=lambda: now[0])
        try:
            await rated.load()
            empty = rated.tile("T1")
            assert empty["shift"]["hands"] == 0 and empty["rated"] == 0
            assert rated.tile("T1") is empty                        # drawn again: nothing worked out
            await rated.open("T1", 2, "P-1", "pit")
            assert rated.tile("T1")["rated"] == 1
            rated.feed("T1", "", event(1, 1, "table.opened", {"game": "easy-jack", "seats": 7, "limits": {},
                                                            "recovered": False, "rules": EASY_JACK.rules},
                                       hand=None))
            rated.feed("T1", "", event(2, 2, "bets.closed", {"bets": []}))
            rated.feed("T1", "", event(3, 3, "hand.settled", {"results": [result(2, "main", 1000, -1000)]}))
            settled = rated.tile("T1")["shift"]
            assert settled["hands"] == 1 and settled["wagered"] == 1000
            assert settled["theo"]["cents"] is None                # the edges are still being looked up
            while rated.edges("easy-jack", EASY_JACK.rules) is None:
                await asyncio.sleep(0.01)
            assert rated.tile("T1")["shift"]["theo"]["cents"] == round(1000 * EJ_MAIN, 2)
            (rating,) = rated.open_ratings("T1")
            assert rating["figures"]["hands"] == 1
            now[0] = datetime.datetime(2026, 11, 21, 18, 30, tzinfo=UTC)   # the night shift begins
            assert rated.tile("T1")["shift"]["hands"] == 0 and rated.tile("T1")["rated"] == 1
            assert rated.shift_json("T1")["shift"] == "2026-11-21 18:00 UTC"
        finally:
            rated.let_go()

    try:
        asyncio.run(run())
    finally:
        store.close()
