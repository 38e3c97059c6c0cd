"""A Blackjack Extreme tournament on the dealer screen (issue 25 item 3), in Chromium over a real
daemon with a screen and no button: the level, its blinds and the time left always on screen, a new
level announced with its blinds, the header's hand number, and a chip count's answer shown.
``SCREENSHOTS=1`` writes the tournament's screenshot of docs/dealer-screen.md."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for
from tests.screen.fit import assert_fits
from tests.screen.sight import CONTRAST

DOCS = Path(__file__).parents[2] / "docs"
TOURNAMENT = 'format = "tournament"\nstarting_stack = 1000\n[game.levels]\n"1" = 500\n"2" = 1000\n'


@pytest.fixture
def station(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, game=TOURNAMENT, game_name="blackjack-extreme",
                           spots=("main",), buttons=(), screen=8070, limits=(500, 50000))


def text(station: Station, selector: str) -> str:
    found: str = station.page("const e = document.querySelector(arguments[0]);"
                              "return e && !e.hidden ? e.textContent : ''", selector)
    return found


def test_the_clock_a_new_level_the_hand_number_and_a_chip_count(station: Station) -> None:
    rig = station.rig
    for seat in (1, 2, 3):
        assert rig.pit.control({"cmd": "buy_in", "seat": seat}) == {"ok": True}
    assert text(station, "#clock") == ""                            # no level yet: no clock
    assert rig.pit.control({"cmd": "button", "seat": 1}) == {"ok": True}
    level = rig.next("tournament.level")["data"]
    clock = station.until("the tournament clock", lambda: text(station, "#clock"))
    assert re.fullmatch(r"Level 1 · blinds \$5\.00 / \$10\.00 / \$15\.00 · \d+:\d\d left", clock), clock
    assert level["blinds"] == [500, 1000, 1500]
    assert text(station, "#hand-no") == "Hand 1 next"
    assert text(station, "#level-news") == "Level 1 now: blinds $5.00 / $10.00 / $15.00"   # it starts
    station.key("#level-news")                                       # a touch takes it away
    assert text(station, "#level-news") == ""

    # A new level is announced: the page drawing the same picture with the next level's session.
    station.page("draw({...model, picture: {...model.picture, session: {...model.picture.session, "
                 "level: 2, blinds: [1000, 2000, 3000]}}})")
    assert text(station, "#level-news") == "Level 2 now: blinds $10.00 / $20.00 / $30.00"
    assert text(station, "#clock").startswith("Level 2 · blinds $10.00 / $20.00 / $30.00")
    station.key("#level-news")                                       # a touch takes it away
    assert text(station, "#level-news") == ""

    rig.shoe.cmd("load", decks=2, cards=["Th", "Ts", "6h", "9s", "Kc", "9c", "8d"])
    rig.next("shoe.loaded")
    rig.bet(2, "main", chip("a", 1))
    rig.bet(3, "main", chip("a", 2))
    rig.rfid.cmd("wait_idle")
    state = station.step("deal")
    assert text(station, "#hand-no") == "Hand 1" and state["hand"] == 1
    assert text(station, "#clock").startswith("Level 1 · blinds $5.00")      # the table's level again
    assert "count" in [a["name"] for a in state["actions"]]
    station.touch("count")
    station.key("#amount [data-value='2']")
    asked = rig.next("player.action")["data"]
    assert (asked["action"], asked["seat"], asked["amount"]) == ("count", 2, 1000)
    assert station.until("the count's answer", lambda: text(station, "#answers")) == (
        "Seat 2 asked: the dealer has $10.00")
    station.page("draw({...model, picture: {...model.picture, session: {...model.picture.session, "
                 "level: 2, blinds: [1000, 2000, 3000]}}})")          # the clock, the news, the answer
    checked, low = station.page(CONTRAST)
    assert checked > 10 and low == [], low
    assert_fits(station, boxes=0)                                    # the header's button not cut
    station.page("document.getElementById('level-news').hidden = true")
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-tournament-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)
