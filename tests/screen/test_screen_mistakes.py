"""What the dealer sees for each ordinary mistake (issue 33, the dealer-mistake model's set through
the daemon and the screen), in Chromium over a real Easy Jack table with simulated boards.

One hand, dealt with the catalogue's mistakes one after another (tests/model/catalogue.py names
them), each caught on the screen before the hand moves on, in the table's words with money in
dollars, and each put right the way the screen says:

- ``add_chips``: a chip added to a wager after bets closed: a ``past_post`` banner naming the spot,
  what it reads and what it should hold;
- ``double_action``: STAND touched twice: the second touch, with the next seat in turn, refused;
- ``extra_card``: a card drawn when no hand takes one: a ``card_out_of_turn`` banner;
- ``unplug_reader_paid``: the reader unplugged while the dealer pays: the instruction says to wait,
  NEXT is refused in the same words and checks nothing stale;
- ``underpay``: a winner paid short: the payout box turns red and says what is missing;
- ``next_early``: NEXT touched with the box still short: the ``payout_mismatch`` banner.

With ``SCREENSHOTS`` set, each is taken at 800x480 into docs/ (docs/dealer-screen.md, "When the
dealer makes a mistake").
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.simulated import antenna
from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for

DOCS = Path(__file__).parents[2] / "docs"


@pytest.fixture
def station(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, repeat_window_ms=10_000)


def shot(station: Station, mistake: str) -> None:
    """What the dealer sees now, at 800x480, into docs/ when ``SCREENSHOTS`` is set."""
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / f"dealer-screen-mistake-{mistake}.png", 800, 480)
        station.resize(1280, 800)


def banner(station: Station, words: str) -> str:
    """The text of the first banner saying ``words``, once the page shows it."""
    found: str = station.until(f"a banner saying {words!r}", lambda: station.page(
        "return [...document.querySelectorAll('#banners .banner')].map(b => b.textContent)"
        ".find(t => t.includes(arguments[0])) || ''", words))
    return found


def notice(station: Station) -> str:
    """The table's answer to the last touch, once the page shows one."""
    text: str = station.until("the table's answer", lambda: station.page(
        "return document.getElementById('notice').textContent"))
    return text


def test_each_mistake_is_caught_on_the_screen_in_the_dealers_words(station: Station) -> None:
    rig = station.rig
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh", "8h"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))                       # $10.00
    rig.bet(3, "main", chip("b", 1))                                     # $25.00
    rig.next("bet.placed", seat=3)
    station.touch("deal")
    rig.next("bets.closed")
    for _ in range(3):
        rig.draw()

    rig.add(1, "main", chip("a", 3))                                     # add_chips: $5.00 more
    raised = rig.next("alert", code="past_post")["data"]
    assert raised["message"] == "seat 1 main changed from $10.00 to $15.00; it should hold $10.00"
    assert any(a["code"] == "past_post" for a in station.check()["alerts"])
    banner(station, "it should hold $10.00")
    shot(station, "past-post")
    rig.rfid.cmd("remove", antenna=antenna(1, "main"), uids=[chip("a", 3)[0]])   # taken off again
    rig.rfid.cmd("wait_idle")

    rig.draw()
    station.touch("stand")                                               # double_action: STAND twice
    rig.next("player.action", seat=1)
    station.touch("stand")
    assert notice(station) == ("Stand: pressed again just after seat 1's stand: seat 3 is in turn now; "
                               "press stand again to take it for seat 3")
    assert station.check()["seats"][2]["in_turn"]                        # nothing taken for seat 3
    shot(station, "double-press")
    rig.draw()
    station.touch("stand")
    rig.next("hand.settled")

    extra = rig.draw()                                                   # extra_card
    assert extra["type"] == "alert" and extra["data"]["code"] == "card_out_of_turn", extra
    station.check()
    banner(station, extra["data"]["message"])
    shot(station, "extra-card")

    rig.bet(1, "main")                                                   # the loser collected
    rig.rfid.cmd("wait_idle")
    rig.rfid.cmd("unplug")                                               # unplug_reader_paid
    assert rig.next("device.offline", timeout=8)["data"]["device"] == "rfid"
    rig.rfid.cmd("place", antenna=antenna(3, "main"), chips=[chip("a", 4)])   # $5.00, not $25.00
    state = station.check()
    wait = "the rfid is offline: pay and collect as shown; NEXT checks the spots once it is back"
    assert state["instruction"] == f"Wait: {wait}."
    assert "next" not in [a["name"] for a in state["actions"]]          # no NEXT to touch, and sent anyway:
    assert rig.pit.press("next") == {"ok": False, "error": f"next: {wait}"}
    shot(station, "reader-offline")
    rig.rfid.cmd("replug")
    assert rig.next("device.online", timeout=8)["data"]["device"] == "rfid"
    rig.add(3, "main")

    def box() -> dict[str, str]:                                         # underpay: the box turns red
        found: dict[str, str] = station.page(
            "const p = document.querySelector(\"[data-payout='3:main']\");"
            "return p && {state: p.dataset.state, text: p.textContent}")
        return found
    short = station.until("the short payout", lambda: (b := box()) and b["state"] == "short" and b)
    assert "Short $20.00" in short["text"]
    shot(station, "underpay")

    station.touch("next")                                                # next_early: NEXT anyway
    mismatch = rig.next("alert", code="payout_mismatch")["data"]
    assert mismatch["message"] == ("seat 3 main reads $30.00 at NEXT, should read $50.00 once paid and "
                                   "collected: $20.00 short")
    rig.next("hand.ended")
    banner(station, "$20.00 short")
    shot(station, "payout-mismatch")
