"""The monitor's live rated play (:class:`controller.podium.monitor.models.rated.Rated`) in process,
fast: a real SQLite store in a temporary folder and hand-made events (:mod:`tests.monitor.ratings_script`),
stored as the recorder stores them and fed as the monitor's followers feed them.

Ratings opened, replaced by another player at the seat, closed by the pit and by the table's closing
(stored by the monitor itself, the recorder behind); a monitor started again on the same store reads
back the same open ratings with the same figures; a table whose rules are unknown gives theo unknown,
never 0; the edges are worked out once and cached in the store, where a monitor started again finds
them.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.pages.floor import make_app
from controller.podium.monitor.stores.events import Store, open_store
from controller.podium.ratings.edges import Edge, Edges
from controller.podium.ratings.rating import MAX_SEAT, PIT, REPLACED, TABLE_CLOSED, RatingError
from controller.podium.ratings.shift import Shifts
from tests.monitor.ratings_script import EASY_JACK, EJ_MAIN, EJ_SIDE, Script, result
from tests.rigs.followed import followed

RULES = {"decks": 6, "peek_for_ace": False, "natural_pays_6_5": False, "stand_on_11": False,
         "dealer_bust_pays": {"2": 3, "3": 4, "4": 10, "5": 50, "6": 500}}
"""Easy Jack's rules as the daemon publishes them in ``table.opened`` (every option in force)."""

CACHED = Edges("easy-jack", RULES, EASY_JACK.spots, frozenset(), False)
"""Easy Jack's edges under :data:`RULES` (``table-controller math --json``), cached in the store as a
monitor caches them once worked out (the math takes seconds)."""

HOLDEM_RULES = {"stakes": "2/4/4-20", "ante": 0, "chip_unit": 100, "decks": 6, "raise_cap": 3,
                "all_in_reopens": "full", "big_blind_option": True, "heads_up_button_small_blind": True,
                "odd_chip": "left_of_button", "charlie_ties": "split", "showdown_order": "last_aggressor",
                "muck_losing_hands": True, "rake_percent": 5, "rake_cap": 1000, "rake_first_round": False}
"""A Hold'em Blackjack table's rules with a 5% rake (its edges take no time to work out)."""

DAY = "2026-11-21"


@dataclass
class Clock:
    now: datetime.datetime = datetime.datetime(2026, 11, 21, 9, 0, tzinfo=datetime.UTC)

    def __call__(self) -> datetime.datetime:
        return self.now

    def at(self, time: str) -> None:
        self.now = datetime.datetime.fromisoformat(f"{DAY}T{time}+00:00")


@dataclass
class Pit:
    """Two tables' events, stored and fed to the monitor's :class:`Rated` as they happen."""

    path: Path
    store: Store
    clock: Clock = field(default_factory=Clock)
    scripts: dict[str, Script] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)
    rated: Rated | None = None

    def __post_init__(self) -> None:
        self.scripts = {name: Script(name, DAY) for name in ("T07", "T08")}
        self.sent = dict.fromkeys(self.scripts, 0)

    async def start(self) -> Rated:
        """A monitor (started again if one ran: its store's thread let go first), read back."""
        if self.rated is not None:
            self.rated.let_go()
        self.rated = Rated(self.store, list(self.scripts), Shifts(), {"T07": "Pit 1"}, clock=self.clock)
        await self.rated.load()
        return self.rated

    def send(self, table: str, *, stored: bool = True) -> None:
        """The events added to ``table``'s script since last sent: stored (unless the recorder is
        behind), and fed live."""
        script = self.scripts[table]
        new = script.messages[self.sent[table]:]
        if stored:
            self.store.add(script.rows()[self.sent[table]:])
        self.sent[table] = len(script.messages)
        assert self.rated is not None
        for message in new:
            self.rated.feed(table, "1", followed(message, table))

    def figures(self, table: str) -> dict[str, dict[str, Any]]:
        """The open ratings' figures by player (the time played left out)."""
        assert self.rated is not None
        return {r["player"]: {**r, "figures": {k: v for k, v in r["figures"].items() if k != "seconds"}}
                for r in self.rated.open_ratings(table)}


@pytest.fixture
async def pit(tmp_path: Path) -> AsyncIterator[Pit]:
    path = tmp_path / "pit.sqlite"
    live = Pit(path, open_store(str(path)))
    live.store.put_edges(CACHED)
    try:
        yield live
    finally:
        if live.rated is not None:
            live.rated.let_go()
        live.store.close()


def opened(script: Script, time: str, rules: dict[str, Any] | None = RULES, game: str = "easy-jack") -> None:
    script.add(time, "table.opened", None, {"game": game, "seats": 7, "limits": {}, "recovered": False,
                                            **({} if rules is None else {"rules": rules})})


def stored_ratings(path: Path, table: str) -> list[Any]:
    """The table's ratings as another reader of the database (a report) sees them."""
    other = open_store(str(path))
    try:
        return other.ratings(table=table)
    finally:
        other.close()


async def test_ratings_opened_replaced_and_closed_with_the_figures_of_their_seat_s_hands(pit: Pit) -> None:
    rated = await pit.start()
    t07 = pit.scripts["T07"]
    opened(t07, "08:00:00")
    pit.send("T07")
    pit.clock.at("09:30:00")
    first, replaced = await rated.open("T07", 1, "P-1001", "anna")
    assert replaced is None and first.edges is not None and first.edges.spots["main"].house_edge == EJ_MAIN
    await rated.open("T07", 3, "P-3003", "anna")
    t07.play("10:00:00", "10:00:30", [result(1, "main", 1000, -1000), result(3, "main", 2500, 2500),
                                      result(3, "side", 500, -500)])
    pit.send("T07")
    shown = pit.figures("T07")
    one, three = shown["P-1001"]["figures"], shown["P-3003"]["figures"]
    assert (one["hands"], one["wagered"], one["actual"]) == (1, 1000, -1000)
    assert one["theo"]["cents"] == pytest.approx(1000 * EJ_MAIN, abs=0.01)
    assert (three["hands"], three["wagered"], three["actual"], three["banked"]) == (1, 3000, 2000, 0)
    assert three["theo"]["cents"] == pytest.approx(2500 * EJ_MAIN + 500 * EJ_SIDE, abs=0.01)
    assert three["spots"]["side"] == {"hands": 1, "wagered": 500, "average_bet": 500}

    pit.clock.at("10:05:00")                                # another player rated at seat 1
    second, replaced = await rated.open("T07", 1, "P-9009", "bob")
    assert replaced is not None and (replaced.id, replaced.reason, replaced.closed_by) == (first.id, REPLACED,
                                                                                            "bob")
    assert sorted(pit.figures("T07")) == ["P-3003", "P-9009"]
    assert pit.figures("T07")["P-9009"]["figures"]["hands"] == 0
    pit.clock.at("10:06:00")
    closed = await rated.close(second.id, "anna")
    assert (closed.closed, closed.reason) == (f"{DAY}T10:06:00.000Z", PIT)
    with pytest.raises(RatingError, match="closed already"):
        await rated.close(second.id, "anna")
    assert sorted(pit.figures("T07")) == ["P-3003"] and rated.tile("T07")["rated"] == 1

    t07.add("10:30:00", "table.closed", None, {"supervisor": "S101"})
    pit.send("T07", stored=False)                           # the recorder has not stored it yet
    assert pit.figures("T07") == {}
    for _ in range(200):                                    # the monitor stores the closing itself
        found = stored_ratings(pit.path, "T07")
        if all(r.closed is not None for r in found):
            break
        await asyncio.sleep(0.01)
    assert [(r.player, r.closed, r.reason) for r in found] == [
        ("P-1001", f"{DAY}T10:05:00.000Z", REPLACED), ("P-3003", f"{DAY}T10:30:00.000Z", TABLE_CLOSED),
        ("P-9009", f"{DAY}T10:06:00.000Z", PIT)]
    assert found[1].closed_by == "S101"


async def test_a_monitor_started_again_reads_back_the_same_open_ratings_and_figures(pit: Pit) -> None:
    rated = await pit.start()
    t07, t08 = pit.scripts["T07"], pit.scripts["T08"]
    opened(t07, "08:00:00")
    opened(t08, "08:00:00", rules=None)
    pit.send("T07")
    pit.send("T08")
    pit.clock.at("09:30:00")
    await rated.open("T07", 3, "P-3003", "anna")
    await rated.open("T08", 2, "P-2008", "anna")
    t07.play("10:00:00", "10:00:30", [result(3, "main", 2500, 2500), result(3, "side", 500, -500)])
    t07.play("10:10:00", "10:10:30", [result(3, "main", 1000, -1000), result(2, "main", 500, 500)])
    t08.play("10:00:00", "10:00:30", [result(2, "main", 1500, 1500)])
    pit.send("T07")
    pit.send("T08")
    pit.clock.at("10:20:00")
    before = {t: pit.figures(t) for t in ("T07", "T08")}
    shift = rated.shift_json("T07")
    assert before["T07"]["P-3003"]["figures"]["hands"] == 2
    assert before["T08"]["P-2008"]["figures"]["hands"] == 1

    again = await pit.start()                               # from the store alone
    assert {t: pit.figures(t) for t in ("T07", "T08")} == before
    assert again.shift_json("T07") == shift
    assert {p["pit"]: p["hands"] for p in again.pit_figures()} == {"": 1, "Pit 1": 2}
    pit.send("T07")                                         # nothing new: the followers' replay adds nothing
    for message in t07.messages[-4:]:
        again.feed("T07", "1", followed(message))
    assert pit.figures("T07") == before["T07"]
    t07.play("10:30:00", "10:30:30", [result(3, "main", 500, 500)])
    pit.send("T07")                                         # and play goes on
    assert pit.figures("T07")["P-3003"]["figures"]["hands"] == 3


async def test_a_table_whose_rules_are_unknown_gives_theo_unknown_never_zero(pit: Pit) -> None:
    rated = await pit.start()
    t08 = pit.scripts["T08"]
    await rated.open("T08", 2, "P-2008", "anna")            # nothing heard from the table
    opened(t08, "08:00:00", rules=None)                     # a table that publishes no rules
    pit.send("T08")
    await rated.open("T08", 3, "P-3008", "anna")
    t08.play("10:00:00", "10:00:30", [result(2, "main", 1500, 1500), result(3, "main", 500, -500)])
    pit.send("T08")
    for player, figures in pit.figures("T08").items():
        assert figures["edges"] is None, player
        assert figures["figures"]["hands"] == 1 and figures["figures"]["theo"]["cents"] is None, player
    assert rated.shift("T08").theo.value is None and rated.shift_json("T08")["theo"]["cents"] is None
    pits = {p["pit"]: p for p in rated.pit_figures()}
    assert pits[""]["hands"] == 1 and pits[""]["theo"]["cents"] is None      # T08's pit: none


async def test_a_game_not_installed_gives_theo_unknown_and_is_said_each_time_its_edges_are_wanted(
        pit: Pit, caplog: pytest.LogCaptureFixture) -> None:
    rated = await pit.start()
    opened(pit.scripts["T07"], "08:00:00", {"decks": 6}, "no-such-game")
    pit.send("T07")
    assert await rated.table_edges("T07") is None
    rating, _ = await rated.open("T07", 1, "P-1001", "anna")     # the edges are tried again, in vain
    assert rating.edges is None and rated.edges("no-such-game", {"decks": 6}) is None
    said = [r.getMessage() for r in caplog.records if "could not be found" in r.getMessage()]
    assert len(said) == 2 and "no-such-game" in said[0]


async def test_edges_are_worked_out_once_cached_in_the_store_and_taken_from_there(pit: Pit) -> None:
    rated = await pit.start()
    assert pit.store.edges("holdem-blackjack", HOLDEM_RULES) is None
    opened(pit.scripts["T08"], "08:00:00", HOLDEM_RULES, "holdem-blackjack")
    pit.send("T08")                                         # the table's opening: its edges worked out
    found = await rated.table_edges("T08")
    assert found is not None and (found.rake, dict(found.spots)) == (True, {})
    assert pit.store.edges("holdem-blackjack", HOLDEM_RULES) == found == rated.edges("holdem-blackjack",
                                                                                      HOLDEM_RULES)
    doctored = Edges("holdem-blackjack", HOLDEM_RULES, {"bet": Edge(0.5, "exact")}, frozenset(), False)
    pit.store.put_edges(doctored)                           # what the store holds is what is used
    again = await pit.start()
    assert await again.table_edges("T08") == doctored
    pit.clock.at("09:30:00")
    rating, _ = await again.open("T08", 1, "P-1008", "anna")
    assert rating.edges == doctored


async def test_the_floor_s_pits_carry_their_shift_and_a_shift_over_is_let_go(pit: Pit) -> None:
    rated = await pit.start()
    floor = Floor(list(pit.scripts), AlertBook(), {"T07": "Pit 1"})
    floor.rate(rated)
    t07 = pit.scripts["T07"]
    opened(t07, "08:00:00")
    t07.play("09:00:00", "09:00:30", [result(1, "main", 1000, -1000)])
    pit.send("T07")
    pits = {p["pit"]: p for p in floor.view()["pits"]}
    assert pits["Pit 1"]["shift"]["hands"] == 1 and pits["Pit 1"]["shift"]["house_result"] == 1000
    assert pits[None]["shift"]["hands"] == 0
    assert floor.tile("T07")["shift"]["wagered"] == 1000
    pit.clock.now = datetime.datetime(2026, 11, 22, 9, 0, tzinfo=datetime.UTC)   # the next day's shift
    t07.play("2026-11-22T09:00:00.000Z", "2026-11-22T09:00:30.000Z", [result(1, "main", 500, 500)])
    pit.send("T07")
    assert floor.tile("T07")["shift"]["hands"] == 1 and floor.tile("T07")["shift"]["house_result"] == -500
    assert len(rated.figures["T07"].by_start) == 1                  # yesterday's figures are let go


async def test_when_a_shift_ends_every_table_shows_the_new_one_dealing_or_not(pit: Pit) -> None:
    changed: asyncio.Queue[str] = asyncio.Queue()
    pit.clock.at("13:59:59.700")                            # 0.3 s before the 14:00 shift (real time)
    pit.rated = Rated(pit.store, list(pit.scripts), Shifts((datetime.time(6), datetime.time(14))), {},
                      clock=pit.clock)
    rated = pit.rated
    rated.on_change = changed.put_nowait
    await rated.load()
    t07 = pit.scripts["T07"]
    opened(t07, "13:00:00")
    t07.play("13:30:00", "13:30:30", [result(1, "main", 1000, -1000)])
    pit.send("T07")
    await rated.table_edges("T07")                          # found in the store's cache (a change told)
    assert rated.tile("T07")["shift"]["hands"] == 1
    assert rated.shift_bounds()["start"] == f"{DAY}T06:00:00.000Z"
    while not changed.empty():
        changed.get_nowait()
    pit.clock.at("14:00:00.100")                            # the monitor's clock passes 14:00; no table deals
    shown = [await asyncio.wait_for(changed.get(), 5) for _ in pit.scripts]
    assert sorted(shown) == ["T07", "T08"]                  # each table once: its tile is drawn again
    assert rated.tile("T07")["shift"]["hands"] == 0
    assert rated.shift_bounds()["start"] == f"{DAY}T14:00:00.000Z"
    assert len(rated.figures["T07"].by_start) <= 1          # the shift over is let go



async def test_a_seat_beyond_any_table_s_is_refused_before_the_table_is_heard(
        pit: Pit, tmp_path: Path) -> None:
    """Issue 26 item 7: before the monitor has heard a table it knows none of its seats; a seat past
    the most any table has (or past the database's integers) is refused 400 with the reason, never
    stored, and a plausible one is taken."""
    rated = await pit.start()
    floor = Floor(["T07", "T08"], AlertBook(tmp_path / "acks"))
    floor.rate(rated)
    assert floor.tables["T07"].state["seats"] == []                  # not heard from: seats unknown
    client = TestClient(TestServer(make_app(floor)))
    await client.start_server()
    try:
        for seat in (0, MAX_SEAT + 1, 2 ** 63, 10 ** 30, True, "3"):
            reply = await client.post("/api/tables/T07/ratings", json={"seat": seat, "player": "P-1",
                                                                       "who": "anna"})
            assert reply.status == 400, seat
            assert (await reply.text()).startswith(("a seat is a whole number from 1 to 32, not",
                                                    "a rating needs a seat")), seat
        assert stored_ratings(pit.path, "T07") == []
        taken = await client.post("/api/tables/T07/ratings", json={"seat": MAX_SEAT, "player": "P-1",
                                                                   "who": "anna"})
        assert taken.status == 200 and (await taken.json())["rating"]["seat"] == MAX_SEAT
    finally:
        await client.close()
    with pytest.raises(RatingError, match="a seat is a whole number from 1 to 32, not 33"):
        pit.store.open_rating("P-2", "T08", MAX_SEAT + 1, "2026-11-21T09:00:00.000Z", "anna", None)


def test_the_highest_seat_rated_is_the_most_seats_a_table_may_have() -> None:
    from controller.config.loader import MAX_SEATS

    assert MAX_SEAT == MAX_SEATS
