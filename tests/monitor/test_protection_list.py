"""``GET /api/protection`` on a floor of many subjects, over real HTTP on 127.0.0.1.

Without ``limit`` (the export): ``json.dumps`` of every subject (:meth:`Protection.subjects`, the most
suspicious first), each table's count and the settings, written a share of the subjects at a time, each
subject worked out again only after it changed, before and after the tables dealt on.

With ``limit`` (what the page asks for): one page of the list, sorted by the column asked for (either
way round) and filtered by player or table and to the flagged alone, with the total that pass the
filter and the count at every table they sat at; the pages, end to end, are the whole list's rows in
that order (ties in the list's own order), and follow the floor as it deals on. The order is kept
between two asks while nothing changed."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.floor import make_app, make_runner
from controller.podium.monitor.pages.protection import OFF, SHARE
from controller.podium.monitor.pages.protection_list import SORTS, ProtectionList
from controller.podium.protection.watch import Protection
from tests.rigs.protected_floor import LENIENT, ProtectedFloor, protected_floor

TABLES = 100


@dataclass
class Served:
    """A floor of simulated tables, its ``/api/protection`` served on 127.0.0.1."""

    dealt: ProtectedFloor
    url: str

    @property
    def floor(self) -> Floor:
        return self.dealt.floor

    @property
    def protection(self) -> Protection:
        return self.dealt.protection


@asynccontextmanager
async def serve(dealt: ProtectedFloor) -> AsyncIterator[Served]:
    """``dealt``'s ``/api/protection`` served on 127.0.0.1 meanwhile."""
    runner = make_runner(make_app(dealt.floor))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield Served(dealt, f"http://127.0.0.1:{runner.addresses[0][1]}/api/protection")
    finally:
        await runner.cleanup()


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[Served]:
    async with serve(protected_floor(tmp_path, TABLES)) as found:
        yield found


@pytest.fixture
async def lenient(tmp_path: Path) -> AsyncIterator[Served]:
    """60 tables that dealt 300 events each, flagged by :data:`LENIENT`: some of their players."""
    async with serve(protected_floor(tmp_path, 60, 300, LENIENT)) as found:
        yield found


def expected(floor: Floor) -> str:
    protection = floor.protection
    assert protection is not None
    return json.dumps({"subjects": protection.subjects(),
                       "counts": {name: protection.count_of(name) for name in floor.tables},
                       "settings": protection.settings.to_json()})


def shown_name(subject: dict[str, Any]) -> str:
    return f"player {subject['player']}" if subject["player"] else str(subject["label"])


def searched(subject: dict[str, Any]) -> str:
    """What the filter searches in a subject: its player or "unrated", and its seats."""
    who = f"player {subject['player']}" if subject["player"] else "unrated"
    return f"{who}\n{where(subject)}".casefold()


def where(subject: dict[str, Any]) -> str:
    return ", ".join(f"{seat['table']} seat {seat['seat']}" for seat in subject["seats"])


def tables_of(subjects: list[Any]) -> list[str]:
    """The tables ``subjects`` sat at, A to Z."""
    return sorted({seat["table"] for s in subjects for seat in s["seats"]})


def unknown_last(value: float | None) -> tuple[bool, float]:
    return (value is None, -(value or 0.0))


COLUMNS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "flagged": lambda s: 0,                                  # the list's own order
    "suspicion": lambda s: -s["figures"]["suspicion"],
    "who": lambda s: shown_name(s).casefold(),
    "where": lambda s: [(seat["table"], seat["seat"]) for seat in s["seats"]],
    "hands": lambda s: -s["figures"]["hands"],
    "bets": lambda s: -s["figures"]["correlation"],
    "spread": lambda s: unknown_last(s["figures"]["spread"]),
    "high": lambda s: -s["figures"]["high_hands"],
    "strategy": lambda s: unknown_last(s["figures"]["accuracy"]),
}
"""The page's columns as the page shows them, each the largest first (names and seats A to Z)."""


def in_order(subjects: list[Any], sort: str, reverse: bool) -> list[Any]:
    """The whole list's subjects by ``sort`` (a stable sort: ties in the list's own order)."""
    found = sorted(subjects, key=COLUMNS[sort])
    return found[::-1] if reverse else found


async def ask(session: aiohttp.ClientSession, url: str, **query: str | int) -> Any:
    async with session.get(url, params={k: str(v) for k, v in query.items()}) as reply:
        assert reply.status == 200, await reply.text()
        assert reply.content_type == "application/json"
        return await reply.json()


async def test_the_list_of_a_big_floor_is_every_subject_as_it_is_now(served: Served) -> None:
    assert len(served.protection.tallies) > SHARE      # more than one share
    async with aiohttp.ClientSession() as session:
        async with session.get(served.url) as reply:
            first = await reply.text()
            assert reply.content_type == "application/json"
        assert first == expected(served.floor)
        served.dealt.deal(40)                                      # every table deals on: its subjects change
        async with session.get(served.url) as reply:
            again = await reply.text()
        assert again == expected(served.floor) and again != first
        shown = json.loads(again)
        assert len(shown["subjects"]) == len(served.protection.tallies)
        assert all(count is not None for count in shown["counts"].values())


async def test_every_column_either_way_round_pages_through_the_whole_list(served: Served) -> None:
    whole = served.protection.subjects()
    flagged = sum(s["flagged"] for s in whole)
    assert len(SORTS) == len(COLUMNS) and set(SORTS) == set(COLUMNS)
    assert len({s["figures"]["correlation"] for s in whole}) > 100       # the columns sort something
    assert len({s["figures"]["spread"] for s in whole}) > 3
    assert len({s["figures"]["hands"] for s in whole}) > 1
    limit = 150
    async with aiohttp.ClientSession() as session:
        for sort, reverse in itertools.product(SORTS, (False, True)):
            pages = []
            for offset in range(0, len(whole) + limit, limit):
                page = await ask(session, served.url, limit=limit, offset=offset, sort=sort,
                                 reverse=int(reverse))
                assert (page["total"], page["listed"], page["flagged"]) == (len(whole), len(whole), flagged)
                assert (page["offset"], page["limit"], page["sort"], page["reverse"]) == (
                    offset, limit, sort, reverse)
                assert len(page["subjects"]) == max(0, min(limit, len(whole) - offset))
                assert list(page["counts"]) == tables_of(page["subjects"]) and not page["flagged_only"]
                assert page["settings"] == served.protection.settings.to_json()
                pages += page["subjects"]
            assert pages == in_order(whole, sort, reverse), (sort, reverse)


async def test_the_filter_finds_a_player_or_a_table_in_any_case(served: Served) -> None:
    whole = served.protection.subjects()
    async with aiohttp.ClientSession() as session:
        for words in ("t07", "T07 SEAT 3", "seat 6", "T1", "unrated", "nobody at all"):
            page = await ask(session, served.url, limit=1000, sort="hands", reverse=1, filter=words)
            found = [s for s in in_order(whole, "hands", True)
                     if words.casefold() in searched(s)]
            assert page["subjects"] == found and page["total"] == len(found), words
            assert page["filter"] == words and page["listed"] == len(whole)
            assert list(page["counts"]) == tables_of(found), words
        table = await ask(session, served.url, limit=3, offset=2, filter="T07")
        at_t07 = [s for s in whole if any(seat["table"] == "T07" for seat in s["seats"])]
        assert len(at_t07) > 4 and table["total"] == len(at_t07)
        assert table["subjects"] == at_t07[2:5] and list(table["counts"]) == ["T07"]
        sixth = await ask(session, served.url, limit=2, filter="seat 6")   # the counts of the rows shown,
        at_six = [s for s in whole if any(seat["seat"] == 6 for seat in s["seats"])]   # not every one found
        assert len(tables_of(at_six)) > 2 * len(tables_of(sixth["subjects"]))
        assert list(sixth["counts"]) == tables_of(sixth["subjects"])
        assert sixth["counts"] == {name: served.protection.count_of(name)
                                   for name in tables_of(sixth["subjects"])}
        unrated = next(s for s in whole if s["player"] is None)          # "T03 seat 2 (unrated, from <time>)"
        opened = unrated["label"].split("from ", 1)[1].rstrip(")")
        by_time = await ask(session, served.url, limit=100, filter=opened)   # the time is no table nor seat
        assert by_time["total"] == 0 and unrated["label"].casefold().find(opened.casefold()) > 0
        nobody = await ask(session, served.url, limit=100, filter="nobody at all")
        assert nobody["subjects"] == [] and nobody["total"] == 0 and nobody["counts"] == {}


async def test_the_flagged_alone_by_any_column_filtered_or_not(lenient: Served) -> None:
    served = lenient
    whole = served.protection.subjects()
    flagged = [s for s in whole if s["flagged"]]
    assert 10 < len(flagged) < len(whole) // 2
    limit = 7
    async with aiohttp.ClientSession() as session:
        for sort, reverse, words in (("flagged", False, ""), ("hands", True, ""), ("who", False, "seat 2"),
                                     ("bets", True, "t0")):
            found = [s for s in in_order(flagged, sort, reverse)
                     if words.casefold() in searched(s)]
            assert found, (sort, words)
            pages = []
            for offset in range(0, len(found), limit):
                page = await ask(session, served.url, limit=limit, offset=offset, sort=sort,
                                 reverse=int(reverse), filter=words, flagged=1)
                assert page["flagged_only"] and page["total"] == len(found)
                assert (page["listed"], page["flagged"]) == (len(whole), len(flagged))
                assert list(page["counts"]) == tables_of(page["subjects"])
                pages += page["subjects"]
            assert pages == found, (sort, reverse, words)
        everyone = await ask(session, served.url, limit=limit, flagged=0)
        assert everyone["total"] == len(whole) and not everyone["flagged_only"]


async def test_a_page_follows_the_floor_as_it_deals_on(served: Served) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(served.url, params={"limit": "100"}) as reply:
            first = await reply.read()
        async with session.get(served.url, params={"limit": "100"}) as reply:
            assert await reply.read() == first                       # nothing changed meanwhile
        assert json.loads(first)["subjects"] == served.protection.subjects()[:100]
        served.dealt.deal(40)
        for sort in ("flagged", "hands"):
            page = await ask(session, served.url, limit=100, offset=100, sort=sort)
            assert page["subjects"] == in_order(served.protection.subjects(), sort, False)[100:200]
            assert page["total"] == len(served.protection.tallies)


async def test_the_order_is_kept_until_a_subject_changes(tmp_path: Path) -> None:
    dealt = protected_floor(tmp_path, 10)
    rows = ProtectionList()
    await rows.refresh(dealt.protection)
    by_hands = rows.order("hands")
    assert [row.tally.subject for row in by_hands] == [
        s["subject"] for s in in_order(dealt.protection.subjects(), "hands", False)]
    await rows.refresh(dealt.protection)
    assert rows.order("hands") is by_hands                          # nothing read since: the same
    dealt.deal(40)
    await rows.refresh(dealt.protection)
    again = rows.order("hands")
    assert again is not by_hands
    assert [row.tally.subject for row in again] == [
        s["subject"] for s in in_order(dealt.protection.subjects(), "hands", False)]


async def test_a_page_asked_for_wrongly_is_refused_saying_why(served: Served) -> None:
    wrong = {"limit=0": "limit is 0", "limit=ten": "limit is not a whole number",
             "limit=1001": "limit is 1001",
             "limit=10&offset=-1": "offset is -1", "limit=10&sort=colour": "no column 'colour'",
             "limit=10&reverse=yes": "reverse is 0 or 1",
             "limit=10&flagged=yes": "flagged is 0 or 1, not 'yes'",
             "limit=10&flagged=2": "flagged is 0 or 1, not '2'",
             "limit=10&flagged=": "flagged is 0 or 1, not ''",
             "limit=10&filter=" + "x" * 201: "longer than 200"}
    async with aiohttp.ClientSession() as session:
        for query, words in wrong.items():
            async with session.get(f"{served.url}?{query}") as reply:
                assert reply.status == 400 and words in await reply.text(), query


async def test_a_monitor_keeping_no_protection_says_so(tmp_path: Path) -> None:
    runner = make_runner(make_app(Floor(["T00"], AlertBook(tmp_path / "acks.jsonl"))))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}/api/protection"
    try:
        async with aiohttp.ClientSession() as session:
            for query in ("", "?limit=100"):
                async with session.get(url + query) as reply:
                    assert reply.status == 409 and await reply.text() == OFF
    finally:
        await runner.cleanup()
