"""The floor page in a real headless Chromium, over two real daemons on simulated boards.

``pit-monitor serve`` runs as a subprocess following two tables (T07 and T08,
each the daemon as a subprocess with its simulated shoe and RFID reader). The
page is loaded once per view and must change by itself as the tables play:
tiles appear, a hand shows on its tile and its cards as cards in the detail
view, an alert shows and is acknowledged (recorded with who and when), a
table killed goes silent and comes back when it restarts.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.monitor.conftest import Monitor, sources_of
from tests.rigs.daemon_rig import TableRig, chip

WAIT = 15.0


@dataclass
class FloorRig:
    t07: TableRig
    t08: TableRig
    monitor: Monitor
    folder: Path


@pytest.fixture(scope="module")
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FloorRig]:
    folder = tmp_path_factory.mktemp("floor")
    tables = []
    for name in ("T07", "T08"):
        (folder / name).mkdir()
        tables.append(TableRig(folder / name, table=name))
    monitor = None
    try:
        for table in tables:
            table.start()
        monitor = Monitor("serve", sources_of(*tables), "--port=0", "--silence=3",
                          f"--acks={folder / 'acks.jsonl'}", log=folder / "monitor.log")
        yield FloorRig(tables[0], tables[1], monitor, folder)
    finally:
        if monitor is not None:
            monitor.stop()
        for table in tables:
            table.close()


def wait(driver: Any, condition: Callable[[Any], Any], what: str, floor: FloorRig) -> Any:
    """``condition`` once it holds; an element redrawn under it (stale) or not there yet is tried again."""
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait

    try:
        return WebDriverWait(driver, WAIT, poll_frequency=0.05,
                             ignored_exceptions=(StaleElementReferenceException, IndexError)).until(condition)
    except TimeoutException:
        raise AssertionError(f"the page did not show {what} within {WAIT} s; monitor log:\n"
                             f"{floor.monitor.log_text()}") from None


def strings(value: Any) -> list[str]:
    """Every text in a JSON value (keys and values, at any depth), each whole."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [*value, *(s for item in value.values() for s in strings(item))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def click(element: Any) -> bool:
    """Click ``element``; True once done (for :func:`wait`, which tries again if it was redrawn)."""
    element.click()
    return True


def tile(driver: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, f"section.tile[data-table='{name}']")


def css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    found: list[Any] = driver.find_elements(By.CSS_SELECTOR, selector)
    return found


def test_a_tile_per_table_and_a_hand_followed_live_on_the_tile_and_in_the_detail_view(
        floor: FloorRig, browser: Any) -> None:
    browser.get(floor.monitor.url)
    wait(browser, lambda d: len(css(d, "section.tile[data-link='live']")) == 2, "two live tiles", floor)
    assert [t.get_attribute("data-table") for t in css(browser, "section.tile")] == ["T07", "T08"]
    assert "easy-jack" in tile(browser, "T07").text

    rig = floor.t07
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    wait(browser, lambda d: "$35.00" in tile(d, "T07").text, "the wagers on the spots", floor)
    rig.pit.press("deal")
    for _ in range(3):
        rig.draw()
    wait(browser, lambda d: "hand 1" in tile(d, "T07").text and "PLAYERS" in tile(d, "T07").text.upper(),
         "hand 1 in the players' turn", floor)
    assert [s.get_attribute("data-seat") for s in css(tile(browser, "T07"), ".seat")] == ["1", "3"]

    browser.get(floor.monitor.url + "table/T07")
    wait(browser, lambda d: css(d, ".seat-box[data-seat='1'] .card"), "seat 1's card", floor)
    assert [c.get_attribute("data-card") for c in css(browser, ".seat-box[data-seat='1'] .card")] == ["5h"]
    (hole,) = css(browser, ".dealer .card.back")             # the hole card, face down: nothing of it
    assert (hole.get_attribute("data-card"), hole.text, hole.get_attribute("title")) == (
        None, "", "face down")
    shown = [(c.get_attribute("data-card"), c.get_attribute("title"), c.text.replace("\n", ""))
             for c in css(browser, ".card")]                  # every card drawn: 9d's code, title or face
    assert all("9d" not in (card, title) and text != "9\u2666" for card, title, text in shown), shown
    with urllib.request.urlopen(floor.monitor.url + "api/tables/T07") as reply:
        assert "9d" not in strings(json.loads(reply.read()))      # nor any value the page is sent
    rig.draw()                                                # seat 1 hits: 3s
    wait(browser, lambda d: len(css(d, ".seat-box[data-seat='1'] .card")) == 2
         and css(d, ".seat-box[data-seat='1'] .total")[0].text == "8", "seat 1's second card, total 8", floor)
    rig.pit.press("stand")
    rig.draw()                                                # 6d to seat 3
    rig.pit.press("stand")                                    # the dealer's 9d is turned up; settled
    wait(browser, lambda d: css(d, ".dealer .card[data-card='9d']"), "the dealer's card turned up", floor)
    wait(browser, lambda d: "seat 3 main win +$25.00" in d.find_element("id", "detail").text,
         "the results", floor)
    steps = browser.find_element("css selector", ".hand-log[data-hand='1']").text
    assert "seat 1: 5h" in steps and "dealer turns up 9d" in steps and "seat 1 stand" in steps

    browser.get(floor.monitor.url)
    wait(browser, lambda d: "hand 1: house pays $15.00" in tile(d, "T07").text, "the last result", floor)


def test_an_alert_is_shown_with_its_seat_until_a_pit_boss_acknowledges_it(
        floor: FloorRig, browser: Any) -> None:
    browser.get(floor.monitor.url)
    wait(browser, lambda d: len(css(d, "section.tile[data-link='live']")) == 2, "two live tiles", floor)
    floor.t08.bet(2, "main", ["ffffffffffffffff", 500])       # a counterfeit chip at seat 2
    wait(browser, lambda d: css(tile(d, "T08"), ".alert.critical[data-code='counterfeit_chip']"),
         "the alert", floor)
    wait(browser, lambda d: tile(d, "T08").get_attribute("data-worst") == "critical", "critical", floor)
    wait(browser, lambda d: "seat 2 main" in css(tile(d, "T08"), ".alert")[0].text, "its seat", floor)
    wait(browser, lambda d: click(css(tile(d, "T08"), ".alert button.ack")[0]), "ack", floor)
    assert "wanted" in browser.find_element("id", "who").get_attribute("class")   # no name: not sent
    browser.find_element("id", "who").send_keys("Pat Boss")
    wait(browser, lambda d: click(css(tile(d, "T08"), "button.ack")[0]), "ack with a name", floor)
    wait(browser, lambda d: not css(tile(d, "T08"), ".alert"), "the alert gone once acknowledged", floor)

    with urllib.request.urlopen(floor.monitor.url + "api/acks") as reply:
        acks = json.loads(reply.read())
    assert [(a["table"], a["code"], a["who"]) for a in acks] == [("T08", "counterfeit_chip", "Pat Boss")]
    assert acks[0]["at"].endswith("Z")
    recorded = json.loads((floor.folder / "acks.jsonl").read_text())
    assert recorded == acks[0]
    browser.get(floor.monitor.url + "table/T08")
    wait(browser, lambda d: "acknowledged by Pat Boss" in d.find_element("id", "detail").text,
         "who acknowledged it, in the detail view", floor)


def test_a_table_killed_goes_silent_and_comes_back_when_it_restarts(floor: FloorRig, browser: Any) -> None:
    browser.get(floor.monitor.url)
    wait(browser, lambda d: tile(d, "T08").get_attribute("data-link") == "live", "T08 live", floor)
    floor.t08.kill()
    wait(browser, lambda d: tile(d, "T08").get_attribute("data-link") == "silent", "T08 silent", floor)
    assert "SILENT" in tile(browser, "T08").text
    assert tile(browser, "T07").get_attribute("data-link") == "live"
    before = int(tile(browser, "T08").get_attribute("data-seq"))
    opened = floor.t08.start()
    assert opened["data"]["recovered"] is True
    wait(browser, lambda d: tile(d, "T08").get_attribute("data-link") == "live"
         and int(tile(d, "T08").get_attribute("data-seq")) >= opened["seq"], "T08 back", floor)
    assert opened["seq"] > before
