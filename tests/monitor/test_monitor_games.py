"""``pit-monitor serve`` over real daemons of the games with stacks: the picture is the daemon's own state.

The daemon runs as a subprocess with its simulated shoe and RFID reader (the
bet spots read chips pushed on and gathered off as in
``tests/e2e/test_e2e_holdem_blackjack.py``); the monitor runs as it is
deployed, as a subprocess. After every step of a hand (buy-ins, blinds,
betting rounds, a side pot, the showdown, NEXT) the monitor's detail of the
table (``/api/tables/T07``), once it holds the table's last event and no newer
snapshot is pending, must be exactly the state the daemon's control socket
gives (but ``live_buttons`` and ``alerts``). Then, in headless Chromium, the
tile shows the stacks and the button and the detail view the pots. The same
for a Blackjack Extreme hand: a player-dealer, a raise, a fold and a split.
"""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.podium.monitor.models.floor import SKIPPED
from tests.e2e.test_e2e_holdem_blackjack import BUTTONS, GAME, Spots, act, buy_in, post_blinds
from tests.monitor.conftest import Monitor, sources_of
from tests.rigs.daemon_rig import TableRig, chip

WAIT = 15.0


class Watched:
    """The daemon and the monitor following it."""

    def __init__(self, rig: TableRig, monitor: Monitor) -> None:
        self.rig = rig
        self.monitor = monitor

    def detail(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.monitor.url + f"api/tables/{self.rig.table}", timeout=5) as reply:
            found: dict[str, Any] = json.loads(reply.read())
            return found

    def check(self) -> dict[str, Any]:
        """The monitor's state once it caught up, against the daemon's. The table is asked again when the
        monitor is ahead of it: an event the table made meanwhile (a board coming online after a start)."""
        table = self.rig.pit.control({"cmd": "state"})
        deadline = time.monotonic() + WAIT
        while True:
            detail = self.detail()
            if detail["seq"] > table["seq"]:
                table = self.rig.pit.control({"cmd": "state"})
            if detail["seq"] == table["seq"] and not detail["stale"] and detail["link"]["state"] == "live":
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"the monitor is at seq {detail['seq']} (stale {detail['stale']}, "
                                     f"{detail['link']}), the table at {table['seq']}; log:\n"
                                     f"{self.monitor.log_text()}")
            time.sleep(0.02)
        assert detail["state"] == {k: v for k, v in table["state"].items() if k not in SKIPPED}
        return detail


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Watched]:
    yield from holdem_table(tmp_path_factory.mktemp("holdem"))


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[Watched]:
    """A Hold'em Blackjack table of its own, for a test that must hold alone."""
    yield from holdem_table(tmp_path)


def holdem_table(folder: Path) -> Iterator[Watched]:
    """A Hold'em Blackjack table T07 in ``folder`` and a monitor following it, until closed."""
    (folder / "T07").mkdir()
    rig = TableRig(folder / "T07", game=GAME, game_name="holdem-blackjack", spots=("bet",), buttons=BUTTONS)
    monitor = None
    try:
        rig.start()
        monitor = Monitor("serve", sources_of(rig), "--port=0", f"--acks={folder / 'acks.jsonl'}",
                          log=folder / "monitor.log")
        yield Watched(rig, monitor)
    finally:
        if monitor is not None:
            monitor.stop()
        rig.close()


def test_a_holdem_blackjack_hand_through_the_daemon_is_the_daemon_s_own_state(watched: Watched) -> None:
    rig, check = watched.rig, watched.check
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    buy_in(rig, {1: 20000, 2: 20000, 3: 3000})
    assert [(s["seat"], s["stack"]) for s in check()["seats"]] == [(1, 20000), (2, 20000), (3, 3000)]
    post_blinds(rig, spots, small=2, big=3)
    check()
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("button.moved")
    detail = check()
    assert detail["button"] == 1 and detail["state"]["phase"] != "in_hand"
    for _ in range(3):                                      # first cards face down
        rig.draw()
        check()
    act(rig, spots, 1, "raise", 2000)
    check()
    act(rig, spots, 2, "call", 1500)
    act(rig, spots, 3, "raise", 2000)                       # all in
    check()
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 1000)
    rig.next("pot")
    detail = check()
    assert detail["state"]["pots"] == [{"amount": 9000, "seats": [1, 2, 3]}] and detail["pots"] == 9000
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    check()
    act(rig, spots, 2, "bet", 2000)
    act(rig, spots, 1, "call", 2000)
    rig.next("pot")
    assert check()["state"]["pots"][1] == {"amount": 4000, "seats": [1, 2]}      # a side pot
    spots.gather(1, 2)
    rig.draw()                                              # seat 2 hits, face down
    act(rig, spots, 2, "stand")
    act(rig, spots, 3, "stand")
    rig.draw()
    act(rig, spots, 1, "stand")
    detail = check()
    assert detail["state"]["phase"] == "final_round"
    act(rig, spots, 2, "bet", 4000)
    act(rig, spots, 1, "call", 4000)
    rig.next("hand.settled")
    detail = check()
    assert detail["last_result"]["results"] == ["seat 1 bet win (19) +$30.00", "seat 2 bet lose -$90.00",
                                                "seat 3 bet win (20) +$60.00"]
    spots.gather(1, 2)
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")
    detail = check()
    assert [(s["seat"], s["stack"]) for s in detail["seats"]] == [(1, 23000), (2, 11000), (3, 9000)]
    assert detail["button"] == 2 and detail["hand"] is None
    assert '"9h"' not in json.dumps(detail)                 # seat 2's hand was mucked unseen


def test_the_floor_and_the_detail_view_show_stacks_the_button_and_pots(fresh: Watched,
                                                                       browser: Any) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    watched = fresh
    rig = fresh.rig
    spots = Spots(rig)
    rig.load(["2h", "3c", "4d", "5s", "6h", "7c"])
    buy_in(rig, {1: 23000, 2: 11000, 3: 9000})
    post_blinds(rig, spots, small=2, big=3)                 # the button goes to seat 1 at the deal
    assert rig.pit.press("deal") == {"ok": True}
    for _ in range(3):
        rig.draw()
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 500)
    act(rig, spots, 3, "check")
    rig.next("pot")
    watched.check()

    def until(condition: Any, what: str) -> None:
        try:
            WebDriverWait(browser, WAIT, poll_frequency=0.05).until(condition)
        except TimeoutException:
            raise AssertionError(f"the page did not show {what}; monitor log:\n"
                                 f"{watched.monitor.log_text()}") from None

    browser.get(watched.monitor.url)
    until(lambda d: d.find_elements(By.CSS_SELECTOR, "section.tile[data-link='live']"), "a live tile")
    tile = browser.find_element(By.CSS_SELECTOR, "section.tile[data-table='T07']")
    assert "holdem-blackjack" in tile.text and "button 1" in tile.text and "pots $30.00" in tile.text
    stacks = [s.text for s in tile.find_elements(By.CSS_SELECTOR, ".seat .stack")]
    assert stacks == ["$230.00", "$110.00", "$90.00"]
    browser.get(watched.monitor.url + "table/T07")
    until(lambda d: d.find_elements(By.CSS_SELECTOR, ".pots li"), "the pots")
    pots = browser.find_element(By.CSS_SELECTOR, ".pots").text
    assert "pot 1: $30.00 (seats 1, 2, 3)" in pots
    assert "BUTTON" in browser.find_element(By.CSS_SELECTOR, ".seat-box[data-seat='1']").text
    assert "stack $230.00" in browser.find_element(By.CSS_SELECTOR, ".seat-box[data-seat='1']").text


BJX_BUTTONS = ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void")


@pytest.fixture
def extreme(tmp_path: Path) -> Iterator[Watched]:
    rig = TableRig(tmp_path, table="T08", game_name="blackjack-extreme", spots=("main",), buttons=BJX_BUTTONS,
                   limits=(500, 50000))
    monitor = None
    try:
        rig.start()
        monitor = Monitor("serve", sources_of(rig), "--port=0", f"--acks={tmp_path / 'acks.jsonl'}",
                          log=tmp_path / "monitor.log")
        yield Watched(rig, monitor)
    finally:
        if monitor is not None:
            monitor.stop()
        rig.close()


def test_a_blackjack_extreme_hand_through_the_daemon_is_the_daemon_s_own_state(extreme: Watched,
                                                                                browser: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    rig, check = extreme.rig, extreme.check

    def spot(seat: int, chips: int) -> None:
        """Chips worth ``chips`` x $5 on the seat's spot, read by the table."""
        rig.bet(seat, "main", *(chip("a", 13 * (seat - 2) + n + 1) for n in range(chips)))
        rig.rfid.cmd("wait_idle")

    def press(button: str) -> None:
        assert rig.pit.press(button) == {"ok": True}

    for seat, amount in ((1, 50000), (2, 20000), (3, 20000), (4, 20000)):
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}) == {"ok": True}
        rig.next("seat.stack", seat=seat)
    rig.shoe.cmd("load", decks=2, cards=["8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s", "3c", "Tc", "Kc"])
    rig.next("shoe.loaded")
    for seat in (2, 3, 4):
        spot(seat, 2)
    check()
    press("deal")
    rig.next("hand.started")
    detail = check()
    assert detail["dealer_seat"] == 1 and detail["seats"][0]["dealer"] is True
    for _ in range(8):
        rig.draw()
    check()
    assert rig.pit.control({"cmd": "act", "action": "turn_up", "amount": 2}) == {"ok": True}
    rig.next("card.revealed")
    check()
    spot(2, 6)
    press("raise")
    rig.next("player.action", seat=2)
    assert check()["seats"][1]["wager"] == 3000
    press("check")
    press("fold")
    rig.next("player.action", seat=4)
    spot(4, 1)
    spot(4, 0)
    check()
    press("play")
    rig.next("card.revealed")
    spot(2, 12)
    press("split")
    rig.next("player.action", seat=2)
    detail = check()
    assert [len(h["cards"]) for h in detail["state"]["seats"][1]["hands"]] == [1, 1]
    for _ in range(3):
        rig.draw()
    press("stand")
    press("stand")
    rig.next("hand.settled")
    detail = check()
    assert detail["last_result"]["bank"] == {"seat": 1, "net": -6500}
    assert [r["hand_index"] for r in detail["state"]["results"] if r["seat"] == 2] == [0, 1]
    browser.get(extreme.monitor.url + "table/T08")               # the split seat numbers both hands
    results = "[data-seat='2'] .result"
    WebDriverWait(browser, WAIT, poll_frequency=0.05).until(
        lambda d: len(d.find_elements(By.CSS_SELECTOR, results)) == 2)
    shown = [e.text for e in browser.find_elements(By.CSS_SELECTOR, results)]
    assert [text.split(" ")[:3] for text in shown] == [["main", "hand", "1"], ["main", "hand", "2"]]
    press("next")
    rig.next("hand.ended")
    detail = check()
    assert [(s["seat"], s["stack"]) for s in detail["seats"]] == [(1, 43500), (2, 26000), (3, 21000),
                                                                  (4, 19500)]
    assert detail["button"] == 2 and detail["dealer_seat"] is None
