"""The simulated floor (``controller/devkit/floor_sim.py``) gives the monitor pictures that agree with
its events: after every event and its picture the monitor's state is the simulated table's, and the
table's snapshot is its picture. A banked table has stacks, a moving player-dealer and tournament
levels."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
import zmq.asyncio

from controller.devkit.floor_sim import Dealer, game_view
from controller.devkit.pit_table import EnvelopeTable
from controller.pit.events import compact_json
from controller.pit.monitor.floor import SKIPPED, TableModel


def sent(table: EnvelopeTable) -> dict[str, Any]:
    """The table's snapshot as it goes over the wire: encoded, then read."""
    found: dict[str, Any] = json.loads(compact_json(table.snapshot()))
    return found


def pictured(table: EnvelopeTable) -> dict[str, Any]:
    """The table's picture (``table.view``) as it goes over the wire."""
    found: dict[str, Any] = json.loads(compact_json({"seq": len(table.history), "data": table.state()}))
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
        model.apply(event, live=True)
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
