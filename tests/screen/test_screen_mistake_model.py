"""The dealer-mistake model's smaller set through the daemon and the screen (issue 33, Deliver 4):
random Easy Jack hands on a real daemon with simulated boards, dealt from Chromium, each hand
either dealt right or with one mistake of the catalogue (tests/model/catalogue.py) that the
simulated boards can make.

The in-process model (tests/model) deals thousands of hands on the table core; this one checks
that what it finds reaches the dealer: every mistake is on the screen in the table's words (a
banner with the alert's message, or the table's answer to the touch) before the next hand, and a
hand dealt right raises no alert at all. The seed is printed; ``SCREEN_MODEL_SEED`` deals again.

The kinds made here, each once, in an order the seed draws:

- ``underpay``, ``overpay``, ``collect_winning``, ``leave_losing``: at settlement one spot of the
  table's checks brought to the wrong amount, then NEXT: a ``payout_mismatch`` banner;
- ``next_early``: NEXT touched before paying and collecting: a ``payout_mismatch`` banner;
- ``add_chips``: a player not in turn adds a chip after bets closed: a ``past_post`` banner (and
  takes it back);
- ``extra_card``: a card drawn once the hand is settled: a ``card_out_of_turn`` banner;
- ``double_action``: STAND touched twice: the second touch refused, the answer on the screen.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from controller.devkit.simulated import antenna
from tests.rigs.daemon_rig import CHIP_VALUES, chip
from tests.screen.conftest import Station, station_for

KINDS = ("underpay", "overpay", "collect_winning", "leave_losing", "next_early", "add_chips",
         "extra_card", "double_action")

Spot = tuple[int, str]


@pytest.fixture
def station(tmp_path: Any, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, repeat_window_ms=10_000)


class Layout:
    """The chips of the test's table: every registered chip on a spot or in the tray."""

    def __init__(self, station: Station) -> None:
        self.station = station
        self.tray = [chip(kind, number) for kind in CHIP_VALUES for number in range(1, 40)]
        self.spots: dict[Spot, list[list[Any]]] = {}

    def holds(self, key: Spot) -> int:
        return sum(value for _, value in self.spots.get(key, []))

    def bring(self, key: Spot, cents: int) -> None:
        """Make the spot hold ``cents``: chips added on top of what it holds (a player's bet grows,
        a winner is paid) or, to hold less, its chips back to the tray and the amount made afresh
        (largest chips first), placed and read."""
        now = self.holds(key)
        if cents > now:
            added = self._make(cents - now)
            self.spots.setdefault(key, []).extend(added)
            self.station.rig.add(key[0], key[1], *added)
            return
        self.tray.extend(self.spots.pop(key, []))
        made = self._make(cents)
        self.spots[key] = made
        self.station.rig.bet(key[0], key[1], *made)
        self.station.rig.rfid.cmd("wait_idle")

    def _make(self, cents: int) -> list[list[Any]]:
        """Chips worth ``cents`` out of the tray, largest first."""
        made: list[list[Any]] = []
        left = cents
        for value in sorted(set(CHIP_VALUES.values()), reverse=True):
            for found in [c for c in self.tray if c[1] == value]:
                if left < value:
                    break
                self.tray.remove(found)
                made.append(found)
                left -= value
        assert left == 0, f"{cents} cents cannot be made of the test's chips"
        return made

    def add(self, key: Spot, value: int) -> list[Any]:
        """One chip of ``value`` put on top of the spot; returned, to be taken back."""
        found = next(c for c in self.tray if c[1] == value)
        self.tray.remove(found)
        self.spots.setdefault(key, []).append(found)
        self.station.rig.add(key[0], key[1], found)
        return found

    def take_back(self, key: Spot, taken: list[Any]) -> None:
        self.spots[key].remove(taken)
        self.tray.append(taken)
        self.station.rig.rfid.cmd("remove", antenna=antenna(*key), uids=[taken[0]])
        self.station.rig.rfid.cmd("wait_idle")


def new_alerts(station: Station, since: int) -> list[dict[str, Any]]:
    """The alerts the table raised after event ``since``, as its state keeps them."""
    return [a for a in station.rig.pit.control({"cmd": "state"})["state"]["alerts"] if a["seq"] > since]


def banner(station: Station, words: str) -> None:
    """Wait until a banner on the page says ``words``."""
    station.until(f"a banner saying {words!r}", lambda: station.page(
        "return [...document.querySelectorAll('#banners .banner')].some(b => b.textContent"
        ".includes(arguments[0]))", words))


def seq(station: Station) -> int:
    """The table's last event."""
    return int(station.rig.pit.control({"cmd": "state"})["seq"])


def stand(station: Station) -> str:
    """Touch STAND: ``taken``, or the table's answer on the screen when it refuses the touch (a
    double press: the same action just taken for the seat before)."""
    before = seq(station)
    station.page("document.getElementById('notice').textContent = ''")
    station.touch("stand")

    def answered() -> str:
        if seq(station) > before:
            return "taken"
        text: str = station.page("return document.getElementById('notice').textContent")
        return text
    found: str = station.until("STAND taken or refused", answered)
    return found


def play(station: Station, layout: Layout, rng: random.Random, mistake: str | None) -> list[str]:
    """One hand, with ``mistake`` made where it can be; what the dealer was shown of it (each
    banner's message, each answer to a touch)."""
    rig = station.rig
    deck = [rank + suit for rank in "A23456789TJQK" for suit in "cdhs"]
    rng.shuffle(deck)
    rig.load(deck)
    for seat in sorted(rng.sample(range(1, 7), rng.randint(1, 3))):
        layout.bring((seat, "main"), rng.choice((1000, 2000, 3000, 5000)))
    station.touch("deal")
    rig.next("bets.closed")
    shown: list[str] = []
    made = False
    for _ in range(60):
        state = station.check()
        if state["table_phase"] != "in_hand":
            break
        turn = [a for a in state["actions"] if a["name"] == "stand" and a["seat"] is not None]
        in_turn = turn[0]["seat"] if turn else None
        others = [key for key in layout.spots if layout.holds(key) and key[0] != in_turn]
        if mistake == "add_chips" and not made and others and rng.random() < 0.5:
            key = rng.choice(others)
            since = seq(station)
            taken = layout.add(key, 500)
            (raised,) = station.until("the past_post alert", lambda at=since: new_alerts(station, at) or None)
            assert raised["code"] == "past_post", raised
            banner(station, raised["message"])
            shown.append(raised["message"])
            layout.take_back(key, taken)
            made = True
            continue
        if not turn or rng.random() < 0.5:
            rig.draw()
            continue
        if stand(station) != "taken":                 # a double press for the seat before: again
            assert stand(station) == "taken"
        now = station.check()
        if mistake == "double_action" and not made and any(a["name"] == "stand" for a in now["actions"]):
            answer = stand(station)
            assert "pressed again" in answer, answer
            shown.append(answer)
            made = True
    state = station.check()
    assert state["table_phase"] == "settled", state["instruction"]
    if mistake == "extra_card":
        dealt = rig.draw()
        assert dealt["type"] == "alert" and dealt["data"]["code"] == "card_out_of_turn", dealt
        banner(station, dealt["data"]["message"])
        shown.append(dealt["data"]["message"])
    checks = {(c["seat"], c["spot"]): c["expected"] for c in state["checks"]}
    since = seq(station)
    if mistake == "next_early" and any(layout.holds(key) != cents for key, cents in checks.items()):
        station.touch("next")
    else:
        spoilt = _spoil(mistake, checks, layout, rng)
        for key, cents in sorted(checks.items()):
            layout.bring(key, spoilt.get(key, cents))
        station.touch("next")
    rig.next("hand.ended")
    for raised in new_alerts(station, since):
        banner(station, raised["message"])
        shown.append(raised["message"])
    for key in list(layout.spots):                   # the players take their chips
        layout.bring(key, 0)
    return shown


def _spoil(mistake: str | None, checks: dict[Spot, int], layout: Layout,
           rng: random.Random) -> dict[Spot, int]:
    """What a payment mistake brings one spot to instead of what NEXT checks (none if the hand
    has no spot it can be made on)."""
    winners = [key for key, cents in checks.items() if cents > layout.holds(key)]
    losers = [key for key, cents in checks.items() if cents == 0 and layout.holds(key)]
    if mistake in ("underpay", "overpay", "collect_winning") and winners:
        key = rng.choice(winners)
        return {key: {"underpay": checks[key] - 500, "overpay": checks[key] + 500,
                      "collect_winning": 0}[mistake]}
    if mistake == "leave_losing" and losers:
        key = rng.choice(losers)
        return {key: layout.holds(key)}
    return {}


def test_random_hands_with_each_mistake_shown_to_the_dealer_and_none_without(station: Station) -> None:
    seed = int(os.environ.get("SCREEN_MODEL_SEED", random.randrange(2**32)))
    print(f"screen model seed {seed} (SCREEN_MODEL_SEED={seed} deals it again)")
    rng = random.Random(seed)
    layout = Layout(station)
    kinds = list(KINDS)
    rng.shuffle(kinds)
    left = list(kinds)
    for _ in range(4 * len(KINDS)):
        if not left:
            break
        assert play(station, layout, rng, None) == [], "a hand dealt right raised an alert"
        kind = left[0]
        shown = play(station, layout, rng, kind)
        if shown:
            left.pop(0)
    assert left == [], f"no moment came up for {left} (seed {seed})"
