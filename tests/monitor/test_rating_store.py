"""The ratings and the edges cache in the recorder's database, SQLite and a real PostgreSQL server.

Then ``pit-monitor report --by player`` and ``--by shift`` from what a store holds, in its three
formats, the edges-free fallback among them.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from controller.podium.monitor.cli import main
from controller.podium.monitor.stores.events import Store, open_store
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.rating import PIT, REPLACED, TABLE_CLOSED, RatingError
from tests.monitor.ratings_script import BUSTER, EASY_JACK, EJ_MAIN, EJ_SIDE, Script, result


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "pit.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url


def test_ratings_open_close_and_survive_the_store(target: str) -> None:
    s = Script()
    store = open_store(target)
    try:
        first, none = store.open_rating(" P-1001\n", "T07", 3, s.ts("10:00:00"), "alice", EASY_JACK)
        assert none is None and (first.id, first.player, first.edges) == (1, "P-1001", EASY_JACK)
        _, replaced = store.open_rating("P-2002", "T07", 3, s.ts("10:10:00"), "bob", None)
        assert replaced is not None
        assert (replaced.id, replaced.closed, replaced.closed_by, replaced.reason) == (
            1, s.ts("10:10:00"), "bob", REPLACED)
        store.open_rating("P-1001", "T07", 4, s.ts("10:11:00"), "alice", EASY_JACK)
        store.open_rating("P-3003", "T08", 3, s.ts("10:12:00"), "alice", BUSTER)
        closed = store.close_rating(3, s.ts("10:30:00"), "alice")
        assert (closed.closed, closed.reason) == (s.ts("10:30:00"), PIT)
        with pytest.raises(RatingError, match=r"rating 3 was closed already, at 2026-11-21T10:30:00\.000Z "
                                              r"by alice"):
            store.close_rating(3, s.ts("10:31:00"), "bob")
        with pytest.raises(RatingError, match="there is no rating 99"):
            store.close_rating(99, s.ts("10:31:00"), "bob")
        for args, why in (((" ", "T07", 1), "a player id is needed"), (("P", "T/7", 1), "not a table name"),
                          (("P", "T07", 0), "a seat is a whole number from 1 to 32, not 0"),
                          (("P", "T07", 10 ** 30), "a seat is a whole number from 1 to 32")):
            with pytest.raises(RatingError, match=why):
                store.open_rating(*args, s.ts("10:40:00"), "alice", None)  # type: ignore[arg-type]
        for when in ("yesterday", "2026-11-21T10:40:00"):                    # no zone: no time
            with pytest.raises(RatingError, match="not a time"):
                store.open_rating("P", "T07", 1, when, "alice", None)
        with pytest.raises(RatingError, match="who opens"):
            store.open_rating("P", "T07", 1, s.ts("10:40:00"), " ", None)
        store.open_rating("P-4004", "T07", 5, "2026-11-21T11:50+01:00", "alice", None)  # after it closes
        s.add("10:45:00", "table.closed", None, {"supervisor": "S101"})
        store.add(s.rows())
        store.add(s.rows())                                                    # stored again: no change
    finally:
        store.close()
    store = open_store(target)                                                 # the monitor restarted
    try:
        ratings = store.ratings()
        assert [(r.id, r.player, r.seat, r.closed, r.reason) for r in ratings] == [
            (1, "P-1001", 3, s.ts("10:10:00"), REPLACED), (2, "P-2002", 3, s.ts("10:45:00"), TABLE_CLOSED),
            (3, "P-1001", 4, s.ts("10:30:00"), PIT), (4, "P-3003", 3, None, None),
            (5, "P-4004", 5, None, None)]
        assert ratings[1].closed_by == "S101" and ratings[3].edges == BUSTER and ratings[1].edges is None
        assert ratings[4].opened == s.ts("10:50:00")                                 # as a pit ts
        assert [r.id for r in store.ratings(open_only=True)] == [4, 5]
        assert [r.id for r in store.ratings(player="P-1001")] == [1, 3]
        assert [r.id for r in store.ratings(table="T08")] == [4]
        assert [r.id for r in store.ratings(since=s.ts("10:11:00"), until=s.ts("10:50:00"))] == [3, 4]
        assert store.rating(4) == ratings[3] and store.rating(42) is None
        assert [r.id for r in store.close_table_ratings("T08", s.ts("11:00:00"), "S102")] == [4]
    finally:
        store.close()


def test_edges_are_cached_by_game_and_rules(target: str) -> None:
    store = open_store(target)
    try:
        assert store.edges("easy-jack", {"decks": 6}) is None
        store.put_edges(EASY_JACK)
        assert store.edges("easy-jack", {"decks": 6}) == EASY_JACK
        assert store.edges("easy-jack", {"decks": 8}) is None and store.edges("easy-jack", None) is None
        better = Edges("easy-jack", {"decks": 6}, {}, frozenset(), False)
        store.put_edges(better)
        assert store.edges("easy-jack", {"decks": 6}) == better
        before = {k: v for k, v in better.to_json().items() if k != "bank_fee"}
        with store._transaction():                                        # as cached before the bank's fee
            store._run("UPDATE edges SET body = ?", (json.dumps(before),))
        assert store.edges("easy-jack", {"decks": 6}) is None             # was counted: worked out again
    finally:
        store.close()


def recorded(db: Path) -> Script:
    """Two ratings at T07 (one without edges) and the hands of a day, stored in ``db``."""
    s = Script()
    s.add("08:00:00", "table.opened", None, {"game": "easy-jack", "seats": 7, "limits": {},
                                             "recovered": False, "rules": {"decks": 6}})
    s.play("10:00:00", "10:00:30", [result(3, "main", 1000, 1000), result(2, "main", 500, -500)])
    s.play("10:20:00", "10:20:30", [result(3, "main", 2000, -2000), result(3, "side", 500, 1500)])
    s.play("22:10:00", "22:10:30", [result(3, "main", 4000, 4000)])
    store = open_store(str(db))
    store.open_rating("P-1001", "T07", 3, s.ts("09:59:00"), "alice", EASY_JACK)
    store.open_rating("P-2002", "T07", 2, s.ts("09:59:00"), "alice", None)
    store.add(s.rows())
    store.close_rating(1, s.ts("10:30:00"), "alice")
    store.close_rating(2, s.ts("10:30:00"), "alice")
    store.put_edges(EASY_JACK)
    store.close()
    return s


def test_the_report_by_player(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pit.sqlite"
    recorded(db)
    theo = 3000 * EJ_MAIN + 500 * EJ_SIDE
    assert main(["report", f"--db={db}", "--by=player", "--format=json"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [p["player"] for p in players] == ["P-1001", "P-2002"]
    one = players[0]["ratings"][0]
    assert (one["id"], one["seat"], one["closed"], one["edges"]["spots"]["main"]["house_edge"]) == (
        1, 3, "2026-11-21T10:30:00.000Z", EJ_MAIN)
    f = one["figures"]
    assert (f["hands"], f["wagered"], f["average_bet"], f["actual"]) == (2, 3500, 1750, 500)
    assert f["seconds"] == 31 * 60
    assert f["spots"] == {"main": {"hands": 2, "wagered": 3000, "average_bet": 1500},
                          "side": {"hands": 1, "wagered": 500, "average_bet": 500}}
    assert f["theo"]["cents"] == round(theo, 2) and f["theo"]["interval"] is None
    assert [(t["spot"], t["wagered"], t["house_edge"]) for t in f["theo"]["terms"]] == [
        ("main", 3000, EJ_MAIN), ("side", 500, EJ_SIDE)]
    assert players[0]["total"]["theo"]["cents"] == round(theo, 2)
    assert players[1]["ratings"][0]["figures"]["theo"]["cents"] is None           # no edges: unknown
    assert players[1]["total"]["actual"] == -500

    assert main(["report", f"--db={db}", "--by=player"]) == 0
    text = capsys.readouterr().out
    assert ("Player P-1001: 1 ratings, 2 hands, 0h31 played, wagered $35.00, average bet $17.50, "
            f"actual $5.00, theo $0.{round(theo):02d}") in text
    assert "Player P-2002: 1 ratings, 1 hands" in text and "theo unknown (no edges recorded)" in text
    assert "theo side: $5.00 x 9.497599% (exact)" in text

    assert main(["report", f"--db={db}", "--by=player", "--format=csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["kind"], r["player"], r["spot"]) for r in rows] == [
        ("rating", "P-1001", "all"), ("spot", "P-1001", "main"), ("spot", "P-1001", "side"),
        ("total", "P-1001", "all"), ("rating", "P-2002", "all"), ("spot", "P-2002", "main"),
        ("total", "P-2002", "all")]
    assert rows[0]["theo_cents"] == str(round(theo, 2)) and rows[0]["wagered_cents"] == "3500"
    assert rows[1]["house_edge"] == str(EJ_MAIN) and rows[4]["theo_cents"] == ""

    assert main(["report", f"--db={db}", "--by=player", "--from=2026-11-22"]) == 0
    assert "No rating in this period." in capsys.readouterr().out


def test_the_report_by_shift(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pit.sqlite"
    recorded(db)
    floor = tmp_path / "floor.toml"
    floor.write_text('[shifts]\nstarts = ["06:00", "14:00", "22:00"]\nzone = "UTC"\n\n'
                     '[tables.T07]\npublish = "tcp://10.1.0.7:5556"\npit = "Pit 1"\n')
    assert main(["report", f"--db={db}", "--by=shift", f"--tables={floor}", "--format=json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["shifts"] == {"starts": ["06:00", "14:00", "22:00"], "zone": "UTC"}
    day, night = out["report"]
    assert (day["shift"], day["start"], day["end"]) == (
        "2026-11-21 06:00 UTC", "2026-11-21T06:00:00.000Z", "2026-11-21T14:00:00.000Z")
    (t07,) = day["tables"]
    assert (t07["table"], t07["pit"], t07["hands"], t07["wagered"], t07["house_result"]) == (
        "T07", "Pit 1", 2, 4000, -1000 + 500 + 2000 - 1500)
    assert t07["theo"]["cents"] == round(3500 * EJ_MAIN + 500 * EJ_SIDE, 2)
    assert day["pits"] == [{"pit": "Pit 1", **{k: v for k, v in t07.items() if k not in ("table", "pit")}}]
    assert night["all"]["hands"] == 1 and night["all"]["house_result"] == -4000

    assert main(["report", f"--db={db}", "--by=shift", "--format=csv", "--from=2026-11-21T22:00"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["kind"], r["shift"], r["table"], r["hands"]) for r in rows] == [
        ("table", "2026-11-21 00:00 UTC", "T07", "1"), ("all", "2026-11-21 00:00 UTC", "", "1")]
    assert main(["report", f"--db={db}", "--by=shift", f"--tables={floor}"]) == 0
    text = capsys.readouterr().out
    assert "Shift 2026-11-21 06:00 UTC to 2026-11-21 14:00" in text and "pit Pit 1" in text

    floor.write_text('[shifts]\nstarts = ["6am"]\n')
    assert main(["report", f"--db={db}", "--by=shift", f"--tables={floor}"]) == 2
    assert "a start is \"HH:MM\"" in capsys.readouterr().err
    assert main(["report", f"--db={db}", f"--tables={floor}"]) == 2
    assert "--tables is for --by shift" in capsys.readouterr().err


def test_a_store_without_edges_shows_theo_unknown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pit.sqlite"
    recorded(db)
    store: Store = open_store(str(db))
    store._run("DELETE FROM edges")
    store.close()
    assert main(["report", f"--db={db}", "--by=shift"]) == 0
    text = capsys.readouterr().out
    assert "theo unknown at T07: no edges cached for their game and rules" in text
