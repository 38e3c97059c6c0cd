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
from tests.rigs.walk import pay_line, paying
from tests.screen.conftest import Station, station_for
from tests.screen.fit import assert_fits
from tests.screen.test_screen_mistake_model import Layout

DOCS = Path(__file__).parents[2] / "docs"
PIN = "60417293"
WRONG_PIN = "86420975"


def screenshots(station: Station, name: str, boxes: int) -> None:
    """The page checked to fit 800x480 and 1280x800 with ``boxes`` payout boxes (tests/screen/fit.py),
    then at 1280x800 and 800x480 into docs/, when ``SCREENSHOTS`` is set."""
    assert_fits(station, boxes)
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / f"dealer-screen-{name}-1280.png", 1280, 800)
        station.screenshot(DOCS / f"dealer-screen-{name}-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)


SIZES = ((800, 480), (720, 1280))
"""The Raspberry Pi touch displays: every box of money is checked readable at each."""

PLUS, MINUS = "+", "\u2212"
"""The signs of a stack's change as the page writes them (a minus sign, not a hyphen)."""

HOLDEM_RAKED = HOLDEM_GAME + "rake_percent = 5\nrake_cap = 500\n"
"""$10 big blind, $5 chips; a rake of 5%, at most $5.00."""


@pytest.fixture
def holdem(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, game=HOLDEM_RAKED, game_name="holdem-blackjack",
                           spots=("bet",), buttons=(), screen=8070)


def money_shown(station: Station) -> dict[str, Any]:
    """The settlement as the page draws it, checked readable at 800x480 and 720x1280: the moves
    (seat or table, text), the boxes to pay or collect, the stacks' changes."""
    drawn: dict[str, Any] = {}
    for width, height in SIZES:
        station.resize(width, height)
        drawn = station.page("""
            const where = (e) => e.closest('[data-seat]') ? Number(e.closest('[data-seat]').dataset.seat)
                                                          : null;
            const all = (selector) => [...document.querySelectorAll(selector)];
            return {moves: all('.move').map(m => [where(m), m.textContent])
                              .sort((a, b) => parseInt(a[1]) - parseInt(b[1])),
                    boxes: all('.payout').map(b => [b.dataset.payout, b.dataset.state, b.textContent]),
                    stacks: all('.stack-change').map(c => [where(c), c.textContent])};
        """)
        for selector in (".move", ".payout", ".stack-change"):
            station.readable(selector)
    station.resize(1280, 800)
    return drawn


def test_a_holdem_blackjack_hand_with_a_side_pot_and_the_rake_then_one_won_by_folds(holdem: Station) -> None:
    station, rig = holdem, holdem.rig
    spots = Spots(rig)
    rig.load(["Th", "Ah", "9c", "Qd", "Kd", "Kc", "2h", "3h", "4h"])
    for seat, stack in ((1, 20000), (2, 20000), (3, 5000)):
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": stack}) == {"ok": True}
    spots.push(2, 500)
    spots.push(3, 1000)
    state = station.check()
    assert [s.get("stack") for s in state["seats"][:3]] == [20000, 20000, 5000]
    station.step("deal")
    for _ in range(3):
        rig.draw()
    state = station.check()
    assert state["seats"][0]["in_turn"] and state["seats"][0]["cards"] == [None]
    spots.push(1, 1000)
    station.step("call")
    spots.push(2, 500)
    station.step("call")
    state = station.step("check")
    assert [p["amount"] for p in state["pots"]] == [3000]
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    station.check()
    assert station.page("return document.querySelectorAll('.spot.moved').length") == 0   # nothing stale
    for _ in range(3):
        station.step("check")                          # the second round
    for _ in range(3):
        state = station.step("stand")
    opening = "bet" if "bet" in [a["name"] for a in state["actions"]] else "raise"
    assert_fits(station, boxes=0)                      # the second round's bar: every button on the panel
    spots.push(2, 5000)
    station.step(opening)
    spots.push(3, 4000)                                # all in for $40.00
    station.step("call")
    spots.push(1, 5000)
    state = station.step("call")
    assert state["table_phase"] == "settled" and state["checks"] == []

    drawn = money_shown(station)
    assert drawn["boxes"] == []                        # NEXT checks no spot: the pots go to the stacks
    assert drawn["moves"] == [
        [1, "1. Gather the bet $50.00 into the pot"], [2, "2. Gather the bet $50.00 into the pot"],
        [3, "3. Gather the bet $40.00 into the pot"], [None, "4. Rake $5.00 to the drop box"],
        [3, "5. Main pot: push $145.00 to seat 3"], [2, "6. Side pot 1: push $20.00 to seat 2"],
        [1, "7. Muck the hand unseen"]]
    assert [m[1][3:] for m in drawn["moves"]] == [m["words"] for m in state["moves"]]
    assert drawn["stacks"] == [[1, "Stack \u2212$60.00 → $140.00 at NEXT"],   # a minus sign
                               [2, "Stack \u2212$40.00 → $160.00 at NEXT"],
                               [3, "Stack +$95.00 → $145.00 at NEXT"]]
    screenshots(station, "holdem-blackjack", boxes=0)
    spots.gather(1, 2, 3)
    state = station.step("next")
    assert [s.get("stack") for s in state["seats"][:3]] == [14000, 16000, 14500]
    assert not [a for a in state["alerts"] if a["code"] == "payout_mismatch"]

    spots.push(3, 500)                                 # the button at 2: blinds 3 and 1
    spots.push(1, 1000)
    station.step("deal")
    for _ in range(3):
        rig.draw()
    station.step("fold")
    state = station.step("fold")                       # the big blind takes the blinds
    assert state["table_phase"] == "settled"
    drawn = money_shown(station)
    assert drawn["boxes"] == []                        # no "Paid" at once, no "Over" once moved
    assert drawn["moves"] == [
        [1, "1. Give back the uncalled $5.00"], [1, "2. Gather the bet $5.00 into the pot"],
        [3, "3. Gather the bet $5.00 into the pot"], [1, "4. Push $10.00 to seat 1 (the others folded)"]]
    spots.gather(3)                                    # the small blind moved over to seat 1
    spots.push(1, 500)
    station.until("the blinds moved", lambda: station.page(
        "return document.querySelector('[data-seat=\"1\"] [data-spot=bet]').dataset.live") == "1500")
    assert station.page("return document.querySelectorAll('.payout').length") == 0
    spots.gather(1)
    state = station.step("next")
    assert [s.get("stack") for s in state["seats"][:3]] == [14500, 16000, 14000]
    assert not [a for a in state["alerts"] if a["code"] == "payout_mismatch"]


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
    screenshots(station, "blackjack-extreme", boxes=0)
    state = station.step("leave")
    chips_left = paying()
    while state["table_phase"] != "settled":
        pay_line(rig, chips_left)                                  # each payment line, in order
        state = station.step("next")
    assert state["checks"] == [] and state["stack_changes"]
    drawn = money_shown(station)
    assert drawn["boxes"] == []                                    # every seat's money is its stack
    assert drawn["stacks"] == [
        [c["seat"], f"Stack {PLUS if c['change'] > 0 else MINUS}${abs(c['change']) / 100:,.2f} → "
                    f"${c['stack'] / 100:,.2f} at NEXT"] for c in state["stack_changes"]]
    assert_fits(station, boxes=0)
    stacks = {c["seat"]: c["stack"] for c in state["stack_changes"]}
    state = station.step("next")
    assert state["table_phase"] == "betting" and state["session"]["button"] == 2
    assert all(state["seats"][seat - 1].get("stack", 0) == stack for seat, stack in stacks.items())


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
    assert banner[0] == "warning" and "Jackpot $1,000.25 at seat 1! Call a supervisor" in banner[1]
    assert "not paid from the tray" in banner[1]
    assert banner[2] is False                                     # it goes once confirmed, not before
    state = station.check()
    assert {(c["seat"], c["spot"]) for c in state["checks"]} == {(1, "main"), (1, "progressive")}
    drawn = money_shown(station)
    assert sorted(b[0] for b in drawn["boxes"]) == ["1:main", "1:progressive"]   # a box iff NEXT checks it
    (wager,) = [b for b in drawn["boxes"] if b[0] == "1:progressive"]
    assert wager[1] == "collect" and "Collect $5.00" in wager[2]
    assert "Jackpot $1,000.25 (three suited 7s) waits for a supervisor: pay nothing from the tray" in wager[2]
    screenshots(station, "buster-blackjack-x", boxes=2)

    station.open("meter")                                         # the players see it waiting
    hit = station.until("the hit on the meter page", lambda: station.page(
        "const h = document.querySelector('.hit'); return h && [h.dataset.waiting, h.textContent]"))
    assert hit[0] == "yes" and "waiting for confirmation" in hit[1]
    station.open()

    assert station.supervisor("S101", PIN, "confirm_progressive", 1, None) == "Confirm jackpot: done"
    assert rig.next("progressive.paid")["data"]["supervisor"] == "S101"
    station.until("the banner gone", lambda: station.page(
        "return ![...document.querySelectorAll('.banner')].some(b => b.textContent.includes('Jackpot'))"))
    station.key("#panel-cancel")
    paid = station.until("the jackpot confirmed in its box", lambda: station.page(
        "const j = document.querySelector(\"[data-payout='1:progressive'] .jackpot\");"
        "return j && j.dataset.jackpot === 'paid' && j.textContent"))
    assert paid == "Jackpot $1,000.25 confirmed by S101: paid by the supervisor, not from the tray"
    station.readable("[data-payout='1:progressive']")
    rig.bet(1, "main")                                            # the lost wagers collected
    rig.bet(1, "progressive")
    station.until("the wagers collected", lambda: station.page(
        "return [...document.querySelectorAll('.payout')].every(b => b.dataset.state === 'paid')"))
    state = station.step("next")
    assert not [a for a in state["alerts"] if a["code"] == "payout_mismatch"]
    assert state["table_phase"] == "betting"
    for log in (station.screen.log, rig.log):              # the PINs, right or wrong, in no log line
        numbers = set(re.findall(r"\d+", log.read_text(errors="replace")))   # whole numbers, not parts
        assert not {PIN, WRONG_PIN} & numbers, log

    station.open("meter")
    shown = station.until("the meter", lambda: station.page(
        "const m = document.querySelector('[data-meter]'); const h = document.querySelector('.hit');"
        "return m && h && [m.dataset.meter, m.textContent, h.textContent, h.dataset.waiting]"))
    assert shown[0] == "blazing_7s" and "$1,000.00" in shown[1]
    assert "seat 1" in shown[2] and "three suited 7s" in shown[2] and "$1,000.25" in shown[2]
    assert shown[3] == "no"                                       # confirmed
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-meter.png", 800, 480)
    station.open()


@pytest.fixture
def buster_full(tmp_path: Path, browser: Any) -> Iterator[Station]:
    """A Buster table of its own, the house banking every seat: its hand is left settled."""
    yield from station_for(tmp_path, browser, game=BUSTER_GAME + 'banker = "house"\n',
                           game_name="buster-blackjack-x",
                           spots=BUSTER_SPOTS, buttons=(), screen=8071)


def test_buster_s_fullest_settled_hand_fits_the_panel(buster_full: Station) -> None:
    """Six seats, each with the main wager, the Buster side wager, the progressive and insurance
    (the dealer's ace up), seat 1's main split: twenty-four payout boxes, every one of them, the
    instruction and every button on the 800x480 and 1280x800 screens unscrolled."""
    station, rig = buster_full, buster_full.rig
    eights = [f"8{suit}" for suit in "cdhs"] * 4
    rig.load([*eights[:6], "Ah", *eights[6:12], "5d", "9h", "Td", "Kc", "2s", "3d", "4c", "5h", "6s", "Jd",
              "Qc"] * 2, decks=8)
    made = 0

    def chips(count: int) -> list[list[Any]]:
        nonlocal made
        made += count
        return [chip("a", n) for n in range(made - count + 1, made + 1)]
    for seat in range(1, 7):
        rig.bet(seat, "main", *chips(2))                         # $10.00: insurance up to $5.00
        rig.bet(seat, "side", *chips(1))
        rig.bet(seat, "progressive", *chips(1))
    rig.rfid.cmd("wait_idle")
    station.step("deal")
    split, insured = False, set()
    for _ in range(80):
        state = station.check()
        if state["table_phase"] != "in_hand":
            break
        offered = {a["name"]: a for a in state["actions"]}
        if "insurance" in offered:
            seat = offered["insurance"]["seat"]
            rig.add(seat, "insurance", *chips(1))
            station.step("insurance")
            insured.add(seat)
        elif "split" in offered and offered["split"]["seat"] == 1 and not split:
            rig.add(1, "main", *chips(2))                        # the split's wager beside the first
            station.step("split")
            split = True
        elif "stand" in offered:
            station.step("stand")
        else:
            rig.draw()
    state = station.until("the hand settled",
                          lambda: (s := station.check())["table_phase"] == "settled" and s)
    assert split, "seat 1 was never offered the split"
    assert insured == set(range(1, 7)), insured
    assert len(state["checks"]) == 24, state["checks"]
    assert_fits(station, boxes=24)
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-buster-blackjack-x-full-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)


@pytest.fixture
def holdem_full(tmp_path: Path, browser: Any) -> Iterator[Station]:
    """A Hold'em table of its own: its hand is left settled."""
    yield from station_for(tmp_path, browser, game=HOLDEM_RAKED, game_name="holdem-blackjack",
                           spots=("bet",), buttons=(), screen=8072)


def test_holdem_s_fullest_settled_hand_fits_the_panel(holdem_full: Station) -> None:
    """Six seats of six stacks, every one all in by the second round: a side pot for each stack,
    every bet to gather, the rake, each pot pushed, the hands mucked, what each stack gains or loses;
    every move, the instruction and every button on the 800x480 and 1280x800 screens unscrolled."""
    station, rig = holdem_full, holdem_full.rig
    layout = Layout(station)                            # six seats: more chips than Spots gives each
    stacks = {1: 2000, 2: 3000, 3: 4000, 4: 5000, 5: 6000, 6: 7000}
    for seat, stack in stacks.items():
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": stack}) == {"ok": True}
    deck = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
    rig.load(deck[7:] + deck[:7])
    state = station.check()
    for seat, _, cents in re.findall(r"seat (\d) posts the (small blind|big blind|ante) \$(\d+)\.00",
                                     state["instruction"]):
        layout.bring((int(seat), "bet"), int(cents) * 100)
    station.step("deal")
    for _ in range(120):
        state = station.check()
        if state["table_phase"] != "in_hand":
            break
        if state["instruction"].startswith("Gather the bets"):
            for seat in re.findall(r"seat (\d) bet \$", state["instruction"]):   # the spots it names
                layout.bring((int(seat), "bet"), 0)
            continue
        offered = {a["name"]: a for a in state["actions"]}
        pick = next((offered[n] for n in ("raise", "bet", "call", "check", "stand") if n in offered), None)
        if pick is None:
            rig.draw()
            continue
        if pick["low"] is not None:                      # the chips of the bet on its spot first
            target = pick["high"] if pick["name"] in ("raise", "bet") and pick["high"] else pick["low"]
            layout.bring((pick["seat"], "bet"), target)
        station.step(pick["name"])
    state = station.until("the hand settled",
                          lambda: (s := station.check())["table_phase"] == "settled" and s)
    assert len(state["pots"]) >= 4, state["pots"]
    assert len(state["stack_changes"]) == 6, state["stack_changes"]
    assert_fits(station, boxes=0)
    if os.environ.get("SCREENSHOTS"):
        station.screenshot(DOCS / "dealer-screen-holdem-blackjack-full-800.png", 800, 480)
        station.browser.set_window_size(1280, 800)
