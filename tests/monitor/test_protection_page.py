"""Game protection's pages in headless Chromium: the list, the most suspicious first, and a player's page
with the bets drawn against the count; over a monitor fed the events of simulated players at the real
Easy Jack table core (a counter at seat 2, a flat bettor at seat 1). And the list of a floor of more
subjects than a page shows: paged, sorted by a column either way round, filtered by table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web

from controller.devkit.protection_sim import Counter, FlatBettor, SimTable
from controller.events.envelope import compact_json
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.pages.floor import make_app, make_runner
from controller.podium.protection.watch import Protection
from tests.rigs.browser import headless_chromium
from tests.rigs.protected_floor import LENIENT, protected_floor


def where(subject: dict[str, Any]) -> str:
    """A subject's seats as the filter reads them (``T07 seat 2, ...``)."""
    return ", ".join(f"{seat['table']} seat {seat['seat']}" for seat in subject["seats"])


@dataclass
class Heard:
    """Where an event was heard from, as a follower tells the floor (its table and epoch)."""

    name: str
    epoch: str = ""


@pytest.fixture
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with headless_chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[str]:
    """The monitor's web app over a floor that heard 80 hands of T01; its address."""
    floor = Floor(["T01"], AlertBook(tmp_path / "acks.jsonl"))
    floor.protect(Protection())
    heard: Any = Heard("T01")

    def event(message: dict[str, Any]) -> None:
        floor.event(heard, message, b"T01/" + message["type"].encode(), compact_json(message), True)

    table = SimTable({1: FlatBettor(), 2: Counter()}, seed=1, on_event=event)
    for _ in range(80):
        table.hand()
    runner = make_runner(make_app(floor))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/"
    finally:
        await runner.cleanup()


async def test_the_list_and_a_players_page_with_the_bets_drawn_against_the_count(served: str,
                                                                               browser: Any) -> None:
    def look() -> tuple[list[str], int, str, str]:
        from selenium.webdriver.support.ui import WebDriverWait

        browser.get(served + "protection")
        WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "tr[data-subject]"))
        rows = browser.find_elements("css selector", "tr[data-subject]")
        order = [row.get_attribute("data-flagged") for row in rows]
        rows[0].find_element("css selector", "a").click()
        WebDriverWait(browser, 20).until(lambda d: d.find_elements("css selector", "svg.plot circle"))
        dots = len(browser.find_elements("css selector", "svg.plot circle"))
        return order, dots, browser.find_element("id", "bet-figures").text, browser.current_url

    order, dots, words, url = await asyncio.to_thread(look)
    assert order == ["true", "false"]                         # the counter first, flagged
    assert dots == 80 and "80 hands" in words and "spread 8x" in words
    assert "subject=seat%3AT01%3A2%3A" in url


@pytest.fixture
async def big_floor(tmp_path: Path) -> AsyncIterator[tuple[str, Protection]]:
    """The monitor's web app over 30 simulated tables that dealt 300 events each (180 subjects, more
    than a page of the list, a dozen flagged by lenient settings); its address and its game protection."""
    dealt = protected_floor(tmp_path, 30, 300, LENIENT)
    runner = make_runner(make_app(dealt.floor))
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/", dealt.protection
    finally:
        await runner.cleanup()


async def test_the_list_pages_sorts_by_a_column_and_filters_by_table(big_floor: tuple[str, Protection],
                                                                     browser: Any) -> None:
    served, protection = big_floor
    whole = protection.subjects()
    assert len(whole) > 150
    by_bets = sorted(whole, key=lambda s: -s["figures"]["correlation"])     # ties in the list's own order
    at_t03 = [s["subject"] for s in by_bets[::-1]                 # the tables, not a label's time
              if "t03" in where(s).casefold()]

    def look() -> list[tuple[str, list[str]]]:
        from selenium.webdriver.support.ui import WebDriverWait

        def shown(place: str) -> tuple[str, list[str]]:
            WebDriverWait(browser, 20).until(
                lambda d: d.find_element("id", "list-place").text.startswith(place))
            rows = browser.find_elements("css selector", "#list-rows tr[data-subject]")
            subjects = [row.get_attribute("data-subject") for row in rows]
            return browser.find_element("id", "list-place").text, subjects

        def head(sort: str) -> None:
            browser.find_element("css selector", f'#list-heads button[data-sort="{sort}"]').click()

        browser.get(served + "protection")
        seen = [shown("1 - 100 of")]
        browser.find_element("id", "list-next").click()
        seen.append(shown("101 - "))
        seen.append((browser.current_url, []))
        head("bets")
        seen.append(shown("1 - 100 of"))
        seen.append((browser.current_url, []))
        head("bets")                                                      # turned round
        WebDriverWait(browser, 20).until(lambda d: d.find_elements(
            "css selector", '#list-heads th[aria-sort="ascending"] button[data-sort="bets"]'))
        seen.append(shown("1 - 100 of"))
        browser.find_element("id", "list-filter").send_keys("t03")
        seen.append(shown(f"1 - {len(at_t03)} of {len(at_t03)} matching"))
        seen.append((browser.find_element("id", "summary").text, []))
        return seen

    first, second, (next_url, _), bets, (bets_url, _), turned, t03, summary = await asyncio.to_thread(look)
    subjects = [s["subject"] for s in whole]
    assert first == (f"1 - 100 of {len(whole)}", subjects[:100])
    assert second == (f"101 - {min(200, len(whole))} of {len(whole)}", subjects[100:200])
    assert next_url == served + "protection?offset=100" and bets_url == served + "protection?sort=bets"
    assert bets[1] == [s["subject"] for s in by_bets[:100]]
    assert turned[1] == [s["subject"] for s in by_bets[::-1][:100]]
    assert t03 == (f'1 - {len(at_t03)} of {len(at_t03)} matching "t03"', at_t03)
    assert summary[0] == f"{sum(s['flagged'] for s in whole)} flagged of {len(whole)}"


async def test_the_view_is_in_the_address_a_link_shows_it_and_back_returns(big_floor: tuple[str, Protection],
                                                                           browser: Any) -> None:
    served, protection = big_floor
    whole = protection.subjects()
    flagged = [s for s in whole if s["flagged"]]
    by_bets = sorted(flagged, key=lambda s: -s["figures"]["correlation"])[::-1]   # turned round
    found = [s for s in by_bets if any(seat["seat"] == 5 for seat in s["seats"])]   # no player rated here
    by_hands = sorted((s for s in flagged if s in found), key=lambda s: -s["figures"]["hands"])
    tables = sorted({seat["table"] for s in found for seat in s["seats"]})
    assert all(s["player"] is None for s in whole)
    assert 2 < len(found) < len(flagged) < len(whole) and len(tables) > 1
    link = served + "protection?sort=bets&reverse=1&flagged=1&filter=Seat+5"

    def look() -> dict[str, Any]:
        from selenium.webdriver.support.ui import WebDriverWait

        seen: dict[str, Any] = {}

        def view(place: str) -> dict[str, Any]:
            WebDriverWait(browser, 20).until(lambda d: d.find_element("id", "list-place").text == place)
            return {"rows": [row.get_attribute("data-subject")
                             for row in browser.find_elements("css selector", "#list-rows tr[data-subject]")],
                    "title": browser.find_element("id", "list-title").get_attribute("textContent"),
                    "filter": browser.find_element("id", "list-filter").get_attribute("value"),
                    "flagged only": browser.find_element("id", "list-flagged").is_selected(),
                    "counts": [count.get_attribute("data-table")
                               for count in browser.find_elements("css selector", "#list-counts .count")],
                    "url": browser.current_url}

        place = f'1 - {len(found)} of {len(found)} flagged matching "Seat 5"'
        browser.get(link)                                                 # a link sent to the pit boss
        seen["linked"] = view(place)
        browser.find_element("css selector", '#list-heads button[data-sort="hands"]').click()
        seen["by hands"] = view(place)
        browser.back()
        seen["back"] = view(place)
        browser.find_element("id", "list-flagged").click()                # every player again
        WebDriverWait(browser, 20).until(lambda d: "flagged" not in d.find_element("id", "list-place").text)
        seen["everyone"] = browser.current_url
        browser.get(served + "protection?reverse=yes")
        WebDriverWait(browser, 20).until(lambda d: d.find_elements("id", "list-refused"))
        seen["refused"] = browser.find_element("id", "list-refused").text
        return seen

    seen = await asyncio.to_thread(look)
    ids = [s["subject"] for s in found]
    assert seen["linked"] == {"rows": ids, "title": "Flagged players and seats, by bet/count, turned round",
                              "filter": "Seat 5", "flagged only": True, "counts": tables, "url": link}
    assert seen["by hands"]["rows"] == [s["subject"] for s in by_hands]
    assert seen["by hands"]["url"] == served + "protection?sort=hands&flagged=1&filter=Seat+5"
    assert seen["by hands"]["title"] == "Flagged players and seats, by hands"
    assert seen["back"] == seen["linked"]
    assert seen["everyone"] == served + "protection?sort=bets&reverse=1&filter=Seat+5"
    assert seen["refused"] == "reverse is 0 or 1, not 'yes'. The whole list"
