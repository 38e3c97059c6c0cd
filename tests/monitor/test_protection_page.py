"""Game protection's pages in headless Chromium: the list, the most suspicious first, and a player's page
with the bets drawn against the count; over a monitor fed the events of simulated players at the real
Easy Jack table core (a counter at seat 2, a flat bettor at seat 1)."""

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
from controller.podium.monitor.alerts import AlertBook
from controller.podium.monitor.floor import Floor
from controller.podium.monitor.web import make_app, make_runner
from controller.podium.protection.watch import Protection
from tests.rigs.browser import headless_chromium


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
