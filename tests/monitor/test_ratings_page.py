"""Rated play on the monitor's pages, in a real headless Chromium over a real Easy Jack daemon.

One table (T07, in "Pit 1"), one ``pit-monitor record`` into SQLite and one ``pit-monitor serve
--db`` on the same database. Two players are rated from the table's page (the id typed and Enter
pressed, as a card reader types it); a hand whose results are known is played; the open ratings show
its figures (theo: the wagers times the exact edges ``table-controller math`` prints for Easy Jack);
the floor's tile and the pit's header show the shift's figures; a rating closed on the page is gone
from it and stored closed, and ``pit-monitor report --by player`` gives the same figures.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.pit.monitor.store import open_store
from tests.monitor.conftest import Monitor
from tests.monitor.ratings_script import EJ_MAIN, EJ_SIDE
from tests.monitor.test_floor_page import css, wait
from tests.monitor.test_recorder import play_first_hand
from tests.rigs.daemon_rig import TableRig


@dataclass
class Rated:
    rig: TableRig
    recorder: Monitor
    monitor: Monitor
    db: Path


@pytest.fixture(scope="module")
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rated]:
    folder = tmp_path_factory.mktemp("rated")
    (folder / "T07").mkdir()
    rig = TableRig(folder / "T07", table="T07", payout_check=False)
    db = folder / "pit.sqlite"
    (folder / "floor.toml").write_text(
        '[shifts]\nstarts = ["06:00", "18:00"]\n'
        f'[tables.T07]\npublish = "{rig.endpoints[0]}"\nsync = "{rig.endpoints[1]}"\npit = "Pit 1"\n')
    recorder = monitor = None
    try:
        rig.start()
        floor = f"--tables={folder / 'floor.toml'}"
        recorder = Monitor("record", [], f"--db={db}", floor, log=folder / "recorder.log")
        monitor = Monitor("serve", [], "--port=0", f"--db={db}", floor, f"--acks={folder / 'acks.jsonl'}",
                          log=folder / "monitor.log")
        yield Rated(rig, recorder, monitor, db)
    finally:
        for process in (monitor, recorder):
            if process is not None:
                process.stop()
        rig.close()


def rate(driver: Any, rated: Rated, seat: int, player: str) -> None:
    """Rate ``player`` at ``seat`` as a card reader would: the id typed, then Enter."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "rate-seat")).select_by_value(str(seat))
    driver.find_element("id", "rate-player").send_keys(player + Keys.ENTER)
    wait(driver, lambda d: css(d, f"tr[data-seat='{seat}'][data-player='{player}']"), f"{player} rated",
         rated)


def row(driver: Any, seat: int) -> dict[str, str]:
    found = css(driver, f"tr[data-seat='{seat}']")[0]
    return {k: found.get_attribute(f"data-{k}") for k in ("rating", "player", "hands", "wagered", "actual",
                                                          "theo")}


def test_players_rated_on_the_table_page_with_their_figures_and_the_shift_on_the_floor(
        rated: Rated, browser: Any) -> None:
    browser.get(rated.monitor.url + "table/T07")
    wait(browser, lambda d: d.find_element("id", "detail").get_attribute("data-link") == "live", "live",
         rated)
    wait(browser, lambda d: d.find_element("id", "ratings").get_attribute("data-enabled") == "true",
         "ratings on", rated)
    browser.find_element("id", "who").send_keys("anna")
    rate(browser, rated, 1, "P-1001")
    rate(browser, rated, 3, "P-3003")
    play_first_hand(rated.rig)        # seat 1 main $10 loses; seat 3 main $25 wins, side $5 loses
    wait(browser, lambda d: row(d, 1)["hands"] == "1" and row(d, 3)["hands"] == "1", "a hand rated", rated)
    one, three = row(browser, 1), row(browser, 3)
    assert (one["player"], one["wagered"], one["actual"]) == ("P-1001", "1000", "-1000")
    assert float(one["theo"]) == pytest.approx(1000 * EJ_MAIN, abs=0.01)
    assert (three["wagered"], three["actual"]) == ("3000", "2000")
    assert float(three["theo"]) == pytest.approx(2500 * EJ_MAIN + 500 * EJ_SIDE, abs=0.01)
    shift = browser.find_element("id", "shift-figures").text
    assert "1 hands" in shift and "wagered $40.00" in shift and "house result -$10.00" in shift

    browser.find_element("css selector", f"button.rate-close[data-rating='{one['rating']}']").click()
    wait(browser, lambda d: not css(d, "tr[data-seat='1']"), "the rating closed", rated)
    store = open_store(str(rated.db))
    try:
        closed = store.rating(int(one["rating"]))
        assert closed is not None and closed.closed is not None and closed.closed_by == "anna"
        assert closed.edges is not None and closed.edges.spots["main"].house_edge == EJ_MAIN
    finally:
        store.close()

    browser.get(rated.monitor.url)
    wait(browser, lambda d: css(d, "section.tile[data-table='T07'] .shift-line[data-hands='1']"),
         "the shift on the tile", rated)
    assert "1 rated" in css(browser, "section.tile[data-table='T07'] .shift-line")[0].text
    head = css(browser, "section.pit[data-pit='Pit 1'] .shift-figures")[0]
    assert (head.get_attribute("data-hands"), head.get_attribute("data-wagered")) == ("1", "4000")

    done = subprocess.run([sys.executable, "-m", "controller.pit.monitor.cli", "report", f"--db={rated.db}",
                           "--by=player", "--format=json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    players = {p["player"]: p for p in json.loads(done.stdout)["players"]}
    assert players["P-1001"]["total"]["actual"] == -1000
    assert players["P-1001"]["total"]["theo"]["cents"] == pytest.approx(1000 * EJ_MAIN, abs=0.01)
