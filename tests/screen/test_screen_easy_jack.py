"""The dealer screen over a real Easy Jack table: a whole hand played by touching the screen, the
payout checked by the RFID reading (short, then right), the daemon killed and the screen recovering,
and the screenshots of docs/dealer-screen.md."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for
from tests.screen.fit import assert_fits

DOCS = Path(__file__).parents[2] / "docs"


@pytest.fixture(scope="module")
def station(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path_factory.mktemp("easy-jack"), browser)


def test_a_hand_played_from_the_screen_with_its_payout_checked(station: Station) -> None:
    rig = station.rig
    for seat in range(1, 7):                                  # whatever the module's other test left
        for spot in ("main", "side"):
            rig.bet(seat, spot)
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    state = station.check()
    assert [a["name"] for a in state["actions"]] == ["call_floor"]
    assert "Betting is open" in state["instruction"]

    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    assert [a["name"] for a in station.check()["actions"]] == ["deal", "call_floor"]
    station.touch("deal")
    rig.next("bets.closed")
    for _ in range(3):
        rig.draw()
    state = station.check()
    assert state["seats"][0]["in_turn"] and state["dealer"]["cards"] == [None]
    assert station.page("return document.querySelector('#dealer .card').classList.contains('back')")

    rig.draw()
    station.touch("stand")
    rig.next("player.action", seat=1)
    state = station.check()
    assert state["seats"][2]["in_turn"]
    rig.draw()
    station.touch("stand")
    settled = rig.next("hand.settled")["data"]["results"]
    win = next(r for r in settled if r["payout"] > 0)
    assert (win["seat"], win["spot"], win["wager"], win["payout"]) == (3, "main", 2500, 2500)
    state = station.check()
    assert state["table_phase"] == "settled"

    def payout() -> dict[str, str]:
        found: dict[str, str] = station.page(
            "const p = document.querySelector(\"[data-payout='3:main']\");"
            "return p && {state: p.dataset.state, text: p.textContent}")
        return found

    shown = station.until("the payout to make", lambda: payout())
    assert shown["state"] == "pay" and "Pay $25.00" in shown["text"] and "1 \u00d7 $25.00" in shown["text"]
    loser = station.page("const p = document.querySelector(\"[data-payout='1:main']\");"
                         "return [p.dataset.state, p.textContent]")
    assert loser[0] == "collect" and "Collect $10.00" in loser[1]      # NEXT checks the loser's spot too
    rig.bet(1, "main")                                                 # collected
    station.until("the loser's chips collected", lambda: station.page(
        "return document.querySelector(\"[data-payout='1:main']\").textContent"
    ).startswith("main: Collected"))

    rig.add(3, "main", chip("a", 3))                                   # paid short: $5 instead of $25
    short = station.until("a short payout", lambda: (p := payout())["state"] == "short" and p)
    assert "Short $20.00" in short["text"]
    assert station.page("return getComputedStyle(document.querySelector(\"[data-payout='3:main']\"))"
                        ".backgroundColor") == "rgb(198, 40, 40)"              # red
    rig.rfid.cmd("remove", antenna=11, uids=[chip("a", 3)[0]])
    rig.add(3, "main", chip("b", 2))                                   # corrected
    paid = station.until("the payout right", lambda: (p := payout())["state"] == "paid" and p)
    assert "Paid" in paid["text"] and "reads $50.00" in paid["text"]
    assert station.page("return getComputedStyle(document.querySelector(\"[data-payout='3:main']\"))"
                        ".backgroundColor") == "rgb(29, 122, 55)"              # green
    assert_fits(station, boxes=2)
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-easy-jack-1280.png", 1280, 800)
        station.screenshot(DOCS / "dealer-screen-easy-jack-800.png", 800, 480)
        station.screenshot(DOCS / "dealer-screen-easy-jack-portrait.png", 720, 1280)
        station.browser.set_window_size(1280, 800)
    station.touch("next")
    rig.next("hand.ended")
    state = station.check()
    assert state["table_phase"] == "betting"
    assert not [a for a in state["alerts"] if a["code"] == "payout_mismatch"]


def test_the_daemon_killed_mid_hand_shows_reconnecting_then_the_table_as_it_is(station: Station) -> None:
    rig = station.rig
    rig.load(["7h", "8c", "2d", "Qs", "Jd"])
    rig.bet(1, "main")
    rig.bet(3, "main")
    rig.bet(2, "main", chip("a", 10))
    rig.next("bet.placed", seat=2)
    station.touch("deal")
    rig.next("bets.closed")
    rig.draw()
    before = station.check()
    assert rig.kill() == -9
    station.until("the reconnecting notice", lambda: station.page(
        "return !document.getElementById('link').hidden && "
        "document.getElementById('link').textContent.includes('Reconnecting')"))
    assert station.screen.proc.poll() is None                        # the screen is still up
    rig.start()
    after = station.check()                                           # the table as it is, same hand
    assert station.page("return document.getElementById('link').hidden")
    assert after["hand"] == before["hand"] and after["seats"][1]["cards"] == before["seats"][1]["cards"]
    station.touch("void")                                             # VOID: a second touch takes it
    station.touch("void")
    rig.next("hand.voided")
    assert station.check()["table_phase"] == "betting"


@pytest.fixture
def full(tmp_path: Path, browser: Any) -> Iterator[Station]:
    """A table of its own: its hand is left settled."""
    yield from station_for(tmp_path, browser)


def test_the_fullest_settled_hand_fits_the_panel(full: Station) -> None:
    """Six seats, each with a main wager and the Dealer Bust side wager: twelve payout boxes, and every
    one of them, the instruction and every button on the 800x480 and 1280x800 screens unscrolled."""
    station, rig = full, full.rig
    rig.load(["5h", "4c", "Th", "2s", "6d", "3c", "9d", "Kh", "Kd", "Kc"])
    for seat in range(1, 7):
        rig.bet(seat, "main", chip("a", 2 * seat))
        rig.bet(seat, "side", chip("a", 2 * seat + 1))
    rig.rfid.cmd("wait_idle")
    station.touch("deal")
    rig.next("bets.closed")
    for _ in range(7):
        rig.draw()
    for _ in range(6):
        station.step("stand")
    state = station.until("the hand settled",
                          lambda: (s := station.check())["table_phase"] == "settled" and s)
    assert len(state["checks"]) == 12, state["checks"]
    assert_fits(station, boxes=12)
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-easy-jack-full-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)
