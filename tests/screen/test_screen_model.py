"""The screen's model of every golden picture (each game walked through its phases, the pit's and the
books' doings: ``tests/data/pictures.jsonl.gz``), told to the screen in records as a follower tells it:
the page gets the picture byte for byte as the table published it, and the banners, payout boxes,
reasons and forms are read from the record for every one of them."""

from __future__ import annotations

import json

from controller.events.envelope import compact_json
from controller.follow.records import Records
from controller.games.catalog import load_games
from controller.screen.table import ScreenTable
from tests.table.picture_scenarios import read_golden


def test_the_page_gets_every_picture_as_published_and_the_model_reads_the_record() -> None:
    load_games()
    screen = ScreenTable("T07", (2500, 500, 100))
    told = Records(screen)
    for seq, (name, _, published) in enumerate(read_golden(), start=1):
        data = json.loads(published)
        told.picture(None, {"seq": seq, "data": data})
        model = screen.model()
        assert compact_json(model["picture"]) == published, name
        assert json.loads(json.dumps(model)) == model, name         # all of it is JSON for the page
        assert [(box["seat"], box["spot"], box["expected"]) for box in model["payouts"]] == [
            (check["seat"], check["spot"], check["expected"]) for check in data["checks"]], name
        shown = {alert["seq"] for alert in data["alerts"]}
        assert {banner["seq"] for banner in model["banners"]} <= shown, name
        won = {f"{r['seat']}:{r['spot']}" for r in data["results"] or [] if r["payout"] > 0}
        assert set(model["reasons"]) == won, name
        assert set(data["commands"]) <= set(model["forms"]), name
        assert model["denominations"] == sorted(data["chips"] or (2500, 500, 100), reverse=True), name


def test_a_picture_that_is_not_one_leaves_the_last_and_the_page_still_draws_it() -> None:
    screen = ScreenTable("T07", (500,))
    told = Records(screen)
    _, _, published = read_golden()[0]
    told.picture(None, {"seq": 1, "data": json.loads(published)})
    told.picture(None, {"seq": 2, "data": {"table": "T07"}})
    assert compact_json(screen.model()["picture"]) == published
    assert screen.model()["seq"] == 2 and not screen.stale
