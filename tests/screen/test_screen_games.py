"""Every game run from the dealer screen alone: a whole hand of Hold'em Blackjack, Blackjack Extreme
and Buster Blackjack X played by touching the screen's buttons on real daemons (Easy Jack's is in
test_screen_easy_jack.py), the page checked against the table's state after every step; Blackjack
Extreme's ``turn_up`` and its dealer's re-buy-or-leave prompt; a buy-in through the supervisor panel
with a wrong PIN then the right one; a Blazing 7's jackpot confirmed on the screen and shown on the
meter page. These tables have a screen (``[screen]``) and no button at all: the screen is their
only way to act. ``SCREENSHOTS=1`` writes the screenshots of docs/dealer-screen.md."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.e2e.test_e2e_buster import GAME as BUSTER_GAME
from tests.e2e.test_e2e_buster import SPOTS as BUSTER_SPOTS
from tests.e2e.test_e2e_holdem_blackjack import GAME as HOLDEM_GAME
from tests.e2e.test_e2e_holdem_blackjack import Spots
from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for

DOCS = Path(__file__).parents[2] / "docs"
PIN = "60417293"
WRONG_PIN = "86420975"


def screenshots(station: Station, name: str) -> None:
    """The page at 1280x800 and 800x480 into docs/, when ``SCREENSHOTS`` is set."""
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / f"dealer-screen-{name}-1280.png", 1280, 800)
        station.screenshot(DOCS / f"dealer-screen-{name}-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)


@pytest.fixture
def holdem(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, game=HOLDEM_GAME, game_name="holdem-blackjack",
                           spots=("bet",), buttons=(), screen=8070)


def test_a_holdem_blackjack_hand_from_the_screen(holdem: Station) -> None:
    station, rig = holdem, holdem.rig
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    for seat in (1, 2, 3):
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": 20000}) == {"ok": True}
    spots.push(2, 500)
    spots.push(3, 1000)
    state = station.check()
    assert [s.get("stack") for s in state["seats"][:3]] == [20000, 20000, 20000]
    state = station.step("deal")
    for _ in range(3):
        rig.draw()
    state = station.check()
    assert state["seats"][0]["in_turn"] and state["seats"][0]["cards"] == [None]
    assert station.page("return document.querySelector('[data-seat=\"1\"]').classList.contains('in-turn')")
    spots.push(1, 1000)
    state = station.step("call")
    spots.push(2, 500)
    state = station.step("call")
    state = station.step("check")
    assert [p["amount"] for p in state["pots"]] == [3000]
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    for _ in range(3):
        state = station.step("check")                  # the second round
    for _ in range(3):
        state = station.step("stand")                  # every seat keeps its cards
    while state["table_phase"] != "settled":
        state = station.step("check")                  # the final round, then the showdown
    checks = station.screen.model()["payouts"]
    assert [(c["seat"], c["state"], c["to_pay"]) for c in checks] == [
        (r["seat"], "pay", 3000) for r in state["results"] if r["payout"] > 0]
    winner = checks[0]["seat"]
    assert station.until("the pot to push", lambda: station.page(
        f"return document.querySelector(\"[data-payout='{winner}:bet']\").textContent")).startswith(
        "bet: Pay $30.00")
    spots.push(winner, 3000)
    station.until("the pot pushed", lambda: station.page(
        f"return document.querySelector(\"[data-payout='{winner}:bet']\").dataset.state") == "paid")
    screenshots(station, "holdem-blackjack")
    state = station.step("next")
    assert state["table_phase"] == "betting" and sum(s.get("stack", 0) for s in state["seats"]) == 60000


@pytest.fixture
def extreme(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, game_name="blackjack-extreme", spots=("main",),
                           buttons=(), screen=8070, limits=(500, 50000))


def spot(station: Station, seat: int, *chips: list[Any]) -> None:
    station.rig.bet(seat, "main", *chips)
    station.rig.rfid.cmd("wait_idle")


def test_a_blackjack_extreme_hand_with_turn_up_and_the_re_buy_prompt_from_the_screen(
        extreme: Station) -> None:
    station, rig = extreme, extreme.rig
    for seat, amount in ((1, 3000), (2, 20000), (3, 20000), (4, 20000), (5, 20000)):
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}) == {"ok": True}
    rig.shoe.cmd("load", decks=2, cards=["Ah", "9c", "Td", "Th", "Ts", "Kh", "9d", "6c", "9s", "6s",
                                         "Tc", "Jc", "Kc", "9h"])
    rig.next("shoe.loaded")
    spot(station, 2, chip("a", 1), chip("a", 2))
    spot(station, 3, chip("a", 3), chip("a", 4), chip("a", 5))
    spot(station, 4, chip("a", 6), chip("a", 7))
    spot(station, 5, chip("a", 8), chip("a", 9), chip("a", 10))
    state = station.step("deal")
    assert state["dealer"]["seat"] == 1
    for _ in range(10):
        rig.draw()
    state = station.check()
    turn_up = next(a for a in state["actions"] if a["name"] == "turn_up")
    assert (turn_up["low"], turn_up["high"], turn_up["spot"]) == (1, 2, None)
    assert station.page("return document.querySelector('#dealer').textContent").startswith("Seat 1 banks")

    station.touch("turn_up")                        # an amount without a spot: one button per value
    station.key("#amount [data-value='2']")
    assert rig.next("card.revealed")["data"]["card"] == "6s"
    state = station.check()
    assert "6s" in state["dealer"]["cards"]
    station.step("check")
    rig.add(3, "main", *(chip("a", n) for n in (11, 12, 13)))     # raised to $30.00
    station.step("raise")
    station.step("check")
    station.step("check")
    station.step("play")
    rig.add(3, "main", chip("a", 14), chip("b", 1))                # another $30.00 to split

    def label(action: str) -> str:
        text: str = station.page(f"return document.querySelector('#actions [data-action=\"{action}\"]')"
                                 ".textContent")
        return text

    assert label("split") == "Split · seat 3 · main spot"          # its label; one hand: no number
    station.step("split")
    rig.draw()
    station.check()
    assert label("stand") == "Stand · seat 3 hand 1"               # split: every hand from 1
    station.step("stand")
    rig.draw()
    station.check()
    assert label("stand") == "Stand · seat 3 hand 2"               # hand_index 1
    station.step("stand")
    rig.draw()                                                     # seat 4 busts
    station.step("stand")                                          # seat 5 stands on 19
    rig.draw()                                                     # the dealer busts with $30.00
    state = station.check()
    assert state["phase"] == "paying"
    prompt = [a["name"] for a in state["actions"]]
    assert "rebuy" in prompt and "leave" in prompt                # the re-buy-or-leave prompt
    assert not [a for a in state["alerts"] if a["severity"] == "critical"]
    assert station.page("return [...document.querySelectorAll('#actions [data-action]')]"
                        ".map(b => b.dataset.action)") == prompt
    screenshots(station, "blackjack-extreme")
    state = station.step("leave")
    while state["table_phase"] != "settled":
        state = station.step("next")                               # each payment line, in order
    state = station.step("next")
    assert state["table_phase"] == "betting" and state["session"]["button"] == 2


@pytest.fixture
def buster(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, game=BUSTER_GAME, game_name="buster-blackjack-x",
                           spots=BUSTER_SPOTS, buttons=(), screen=8070,
                           supervisors={"S101": hash_pin(PIN)})


def test_a_buster_jackpot_confirmed_on_the_screen_after_a_buy_in_through_the_supervisor_panel(
        buster: Station) -> None:
    station, rig = buster, buster.rig
    assert station.supervisor("S101", WRONG_PIN, "buy_in", 6, "500") == "wrong supervisor id or PIN"
    assert rig.pit.control({"cmd": "state"})["state"]["seats"][5].get("stack") is None
    assert station.supervisor("S101", PIN, "buy_in", 6, "500") == "Buy in: done"
    assert rig.next("seat.stack", seat=6)["data"]["amount"] == 50_000
    assert station.check()["seats"][5]["stack"] == 50_000
    station.key("#panel-cancel")

    rig.load(["7c", "7c", "7c", "Td", "9h"], decks=8)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(1, "progressive", chip("a", 3))
    rig.next("bet.placed", spot="progressive")
    station.step("deal")
    for _ in range(4):
        rig.draw()
    station.check()
    station.step("stand")
    rig.next("progressive.hit")
    banner = station.until("the jackpot's banner", lambda: station.page(
        "const b = [...document.querySelectorAll('.banner')].find(b => b.textContent.includes('Jackpot'));"
        "return b && [b.dataset.severity, b.textContent, !!b.querySelector('.done')]"))
    assert banner[0] == "warning" and "Jackpot at seat 1! Call a supervisor" in banner[1]
    assert banner[2] is False                                     # it goes once confirmed, not before
    screenshots(station, "buster-blackjack-x")

    assert station.supervisor("S101", PIN, "confirm_progressive", 1, None) == "Confirm jackpot: done"
    assert rig.next("progressive.paid")["data"]["supervisor"] == "S101"
    station.until("the banner gone", lambda: station.page(
        "return ![...document.querySelectorAll('.banner')].some(b => b.textContent.includes('Jackpot'))"))
    station.key("#panel-cancel")
    state = station.step("next")
    assert state["table_phase"] == "betting"
    for log in (station.screen.log, rig.log):              # the PINs, right or wrong, in no log line
        numbers = set(re.findall(r"\d+", log.read_text(errors="replace")))   # whole numbers, not parts
        assert not {PIN, WRONG_PIN} & numbers, log

    station.open("meter")
    shown = station.until("the meter", lambda: station.page(
        "const m = document.querySelector('[data-meter]'); const h = document.querySelector('.hit');"
        "return m && h && [m.dataset.meter, m.textContent, h.textContent]"))
    assert shown[0] == "blazing_7s" and "$1,000.00" in shown[1]
    assert "seat 1" in shown[2] and "three suited 7s" in shown[2] and "$1,000.25" in shown[2]
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-meter.png", 800, 480)
    station.open()
