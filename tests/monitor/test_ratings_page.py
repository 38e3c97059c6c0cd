"""Rated play on the monitor's pages, in a real headless Chromium over real daemons of every game.

Four tables, one daemon each: T07 Easy Jack (in "Pit 1"); T08 Blackjack Extreme, T09 Hold'em
Blackjack with a rake and T10 Buster Blackjack X banked by the house (in "Pit 2"). One ``pit-monitor
record`` into SQLite and one ``pit-monitor serve --db`` on the same database follow them all. At each
table players are rated from the table's page (the id typed and Enter pressed, as a card reader types
it), a hand whose results are known is played through the daemon, and the open ratings must show its
figures, theo checked against the figures ``table-controller math --json`` prints for the same rules
(:mod:`tests.monitor.ratings_script`): Easy Jack's exact edges; Buster's simulated main edge with its
interval and its exact bonus edge; nothing for Blackjack Extreme, whose wagers a player-dealer banks
(her hands counted apart, with the bank's result); the seat's share of the rake at Hold'em. The floor's
tile and the pit's header show the shift's figures; a rating closed on the page is gone from it and
stored closed, and ``pit-monitor report --by player`` gives the same figures. Last, the monitor is
SIGKILLed with ratings open and started again on the same database: the same open ratings, with the
same figures, read back from the store.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.podium.monitor.stores.events import open_store
from tests.e2e.test_e2e_blackjack_extreme import BUTTONS as EXTREME_BUTTONS
from tests.e2e.test_e2e_blackjack_extreme import act as extreme_act
from tests.e2e.test_e2e_blackjack_extreme import spot as extreme_spot
from tests.e2e.test_e2e_buster import BUTTONS as BUSTER_BUTTONS
from tests.e2e.test_e2e_buster import SPOTS as BUSTER_SPOTS
from tests.e2e.test_e2e_buster import ok, results
from tests.e2e.test_e2e_holdem_blackjack import BUTTONS as HOLDEM_BUTTONS
from tests.e2e.test_e2e_holdem_blackjack import GAME as HOLDEM_GAME
from tests.e2e.test_e2e_holdem_blackjack import Spots, act, buy_in, post_blinds
from tests.monitor.conftest import Monitor
from tests.monitor.ratings_script import BBX_MAIN, BUSTER, EJ_MAIN, EJ_SIDE
from tests.monitor.test_floor_page import css, wait
from tests.monitor.test_recorder import play_first_hand
from tests.rigs.daemon_rig import TableRig, chip

BBX_SIDE = BUSTER.spots["side"].house_edge
HOLDEM_RULES = HOLDEM_GAME + "rake_percent = 5\nrake_cap = 1000\n"
"""The rake: 5% of the pots, at most $10.00, in whole $5.00 chips (``table-controller math``)."""


@dataclass
class Rated:
    rigs: dict[str, TableRig]
    recorder: Monitor
    monitor: Monitor
    db: Path
    folder: Path

    @property
    def rig(self) -> TableRig:
        """The Easy Jack table."""
        return self.rigs["T07"]

    def serve(self) -> Monitor:
        """``pit-monitor serve --db`` on the floor file and the database."""
        return Monitor("serve", [], "--port=0", f"--db={self.db}", f"--tables={self.folder / 'floor.toml'}",
                       f"--acks={self.folder / 'acks.jsonl'}", log=self.folder / "monitor.log")


def make_rigs(folder: Path) -> dict[str, TableRig]:
    """The four tables' daemons (not started), each in its own folder."""
    made: dict[str, dict[str, Any]] = {
        "T07": dict(payout_check=False),
        "T08": dict(game_name="blackjack-extreme", spots=("main",), buttons=EXTREME_BUTTONS,
                    limits=(500, 50000)),
        "T09": dict(game=HOLDEM_RULES, game_name="holdem-blackjack", spots=("bet",), buttons=HOLDEM_BUTTONS),
        "T10": dict(game='banker = "house"\n', game_name="buster-blackjack-x", spots=BUSTER_SPOTS,
                    buttons=BUSTER_BUTTONS, payout_check=False),
    }
    rigs = {}
    for table, config in made.items():
        (folder / table).mkdir()
        rigs[table] = TableRig(folder / table, table=table, **config)
    return rigs


@pytest.fixture
def rated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rated]:
    """The tables, the recorder and the monitor, new for each test (each holds alone and in any order:
    the shift's figures and the ratings open start afresh)."""
    folder = tmp_path_factory.mktemp("rated")
    db = folder / "pit.sqlite"
    rigs: dict[str, TableRig] = {}
    recorder = monitor = None
    try:
        rigs = make_rigs(folder)
        with ThreadPoolExecutor(len(rigs)) as starting:     # each daemon's own pit client, one thread each
            list(starting.map(TableRig.start, rigs.values()))
        floor = '[shifts]\nstarts = ["06:00", "18:00"]\n' + "".join(
            f'[tables.{name}]\npublish = "{rig.endpoints[0]}"\nsync = "{rig.endpoints[1]}"\n'
            f'pit = "{"Pit 1" if name == "T07" else "Pit 2"}"\n' for name, rig in rigs.items())
        (folder / "floor.toml").write_text(floor)
        recorder = Monitor("record", [], f"--db={db}", f"--tables={folder / 'floor.toml'}",
                           log=folder / "recorder.log")
        shown = Rated(rigs, recorder, recorder, db, folder)
        monitor = shown.monitor = shown.serve()
        yield shown
        monitor = shown.monitor                             # the one started again, if it was
    finally:
        for process in (monitor, recorder):
            if process is not None:
                process.stop()
        for rig in rigs.values():
            rig.close()


def open_page(driver: Any, rated: Rated, table: str) -> None:
    """The table's page, live, its ratings on."""
    driver.get(rated.monitor.url + f"table/{table}")
    wait(driver, lambda d: d.find_element("id", "detail").get_attribute("data-link") == "live", "live",
         rated)
    wait(driver, lambda d: d.find_element("id", "ratings").get_attribute("data-enabled") == "true",
         "ratings on", rated)
    who = driver.find_element("id", "who")
    if not who.get_attribute("value"):
        who.send_keys("anna")


def rate(driver: Any, rated: Rated, seat: int, player: str) -> None:
    """Rate ``player`` at ``seat`` as a card reader would: the id typed, then Enter."""
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    wait(driver, lambda d: css(d, f"#rate-seat option[value='{seat}']"), f"seat {seat} to rate at", rated)
    Select(driver.find_element("id", "rate-seat")).select_by_value(str(seat))
    driver.find_element("id", "rate-player").send_keys(player + Keys.ENTER)
    wait(driver, lambda d: css(d, f"tr[data-seat='{seat}'][data-player='{player}']"), f"{player} rated",
         rated)


FIELDS = ("rating", "player", "hands", "wagered", "actual", "theo", "interval", "banked", "bank-result")


def row(driver: Any, seat: int) -> dict[str, str]:
    found = css(driver, f"tr[data-seat='{seat}']")[0]
    return {k: found.get_attribute(f"data-{k}") for k in FIELDS}


def rows(driver: Any) -> dict[str, dict[str, str]]:
    """Every rating shown on the page, by rating id."""
    return {r.get_attribute("data-rating"): {k: r.get_attribute(f"data-{k}") for k in FIELDS}
            for r in css(driver, "tr[data-rating]")}


def shift_numbers(text: str) -> tuple[int, int, int]:
    """The hands, the cents wagered and the house's result in cents of a shift line (0 each without one).

    >>> shift_numbers("3 hands · 45.1 hands/h · wagered $1,120.00 · house result -$30.00 · theo $2.40")
    (3, 112000, -3000)
    """
    def cents(pattern: str) -> int:
        found = re.search(pattern, text)
        if found is None:
            return 0
        sign, amount = found.groups()
        return (-1 if sign else 1) * round(float(amount.replace(",", "")) * 100)
    hands = re.search(r"(\d+) hands", text)
    return (int(hands[1]) if hands else 0, cents(r"wagered (-?)\$([\d,]+\.\d\d)"),
            cents(r"house result (-?)\$([\d,]+\.\d\d)"))


def test_players_rated_on_the_table_page_with_their_figures_and_the_shift_on_the_floor(
        rated: Rated, browser: Any) -> None:
    open_page(browser, rated, "T07")
    rate(browser, rated, 1, "P-1001")
    rate(browser, rated, 3, "P-3003")
    before = shift_numbers(browser.find_element("id", "shift-figures").text)   # the module's other hands
    play_first_hand(rated.rig)        # seat 1 main $10 loses; seat 3 main $25 wins, side $5 loses
    wait(browser, lambda d: row(d, 1)["hands"] == "1" and row(d, 3)["hands"] == "1", "a hand rated", rated)
    one, three = row(browser, 1), row(browser, 3)
    assert (one["player"], one["wagered"], one["actual"]) == ("P-1001", "1000", "-1000")
    assert float(one["theo"]) == pytest.approx(1000 * EJ_MAIN, abs=0.01)
    assert (three["wagered"], three["actual"], three["interval"], three["banked"]) == (
        "3000", "2000", "", "0")                               # exact edges: no interval
    assert float(three["theo"]) == pytest.approx(2500 * EJ_MAIN + 500 * EJ_SIDE, abs=0.01)
    shift = browser.find_element("id", "shift-figures").text
    after = shift_numbers(shift)
    assert tuple(a - b for a, b in zip(after, before, strict=True)) == (1, 4000, -1000), shift
    refused = post(rated, "api/tables/T07/ratings", {"seat": 9, "player": "P-9", "who": "anna"})
    assert refused == (400, "table T07 has no seat 9 (its seats: 1, 2, 3, 4, 5, 6)")

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
    # The pit's header is drawn again after the tile: wait for its figures, then read them (the element
    # found before it was redrawn is stale: run seed 3904412257).
    pit = "section.pit[data-pit='Pit 1'] .shift-figures"
    wait(browser, lambda d: css(d, f"{pit}[data-hands='1'][data-wagered='4000']"), "the shift on the pit",
         rated)
    head = css(browser, pit)[0]
    assert (head.get_attribute("data-hands"), head.get_attribute("data-wagered")) == ("1", "4000")

    done = subprocess.run([sys.executable, "-m", "controller.podium.monitor.cli", "report",
                           f"--db={rated.db}", "--by=player", "--format=json"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    players = {p["player"]: p for p in json.loads(done.stdout)["players"]}
    assert players["P-1001"]["total"]["actual"] == -1000
    assert players["P-1001"]["total"]["theo"]["cents"] == pytest.approx(1000 * EJ_MAIN, abs=0.01)


def play_buster_hand(rig: TableRig) -> None:
    """The house banks. Seat 1: $10 main, stands on 16; seat 3: $25 main and $5 on the Buster bonus,
    stands on 19; the dealer goes 4 2 3 5 10, a bust in five cards (the bonus pays 4 to 1)."""
    rig.load(["8h", "Tc", "4d", "8c", "9d", "2s", "3d", "5h", "Ts"], decks=8)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.bet(3, "side", chip("a", 3))
    rig.next("bet.placed", seat=3, spot="side")
    ok(rig.pit.press("deal"))
    assert rig.next("hand.started")["data"]["dealer_seat"] is None
    for _ in range(6):
        rig.draw()
    ok(rig.pit.press("stand"))
    ok(rig.pit.press("stand"))
    for _ in range(3):
        rig.draw()
    assert results(rig.next("hand.settled")) == [(1, "main", 0, "win", 1000), (3, "main", 0, "win", 2500),
                                                 (3, "side", 0, "win", 2000)]
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def test_buster_theo_uses_the_simulated_main_edge_with_its_interval_and_the_exact_bonus_edge(
        rated: Rated, browser: Any) -> None:
    open_page(browser, rated, "T10")
    rate(browser, rated, 1, "P-1010")
    rate(browser, rated, 3, "P-3010")
    play_buster_hand(rated.rigs["T10"])
    wait(browser, lambda d: row(d, 1)["hands"] == "1" and row(d, 3)["hands"] == "1", "a hand rated", rated)
    one, three = row(browser, 1), row(browser, 3)
    assert (one["wagered"], one["actual"]) == ("1000", "1000")
    assert (three["wagered"], three["actual"]) == ("3000", "4500")
    low, high = BBX_MAIN.interval or (0.0, 0.0)
    assert float(one["theo"]) == pytest.approx(1000 * BBX_MAIN.house_edge, abs=0.01)
    assert [float(x) for x in one["interval"].split()] == pytest.approx([1000 * low, 1000 * high], abs=0.01)
    assert float(three["theo"]) == pytest.approx(2500 * BBX_MAIN.house_edge + 500 * BBX_SIDE, abs=0.01)
    assert [float(x) for x in three["interval"].split()] == pytest.approx(
        [2500 * low + 500 * BBX_SIDE, 2500 * high + 500 * BBX_SIDE], abs=0.01)
    assert css(browser, "tr[data-seat='3'] .interval")[0].text == "($1.01 to $1.04)"    # 101.12 to 103.62


def play_extreme_hand(rig: TableRig) -> None:
    """Seat 1 deals as the player-dealer and banks seats 2 to 4: seat 2 raises to $30 and splits, winning
    both hands (+$60), seat 3 wins $10, seat 4 folds ($5 lost); the bank loses $65."""
    def stake(seat: int, count: int) -> None:
        extreme_spot(rig, seat, *(chip("a", 13 * (seat - 2) + n + 1) for n in range(count)))

    rig.shoe.cmd("load", decks=2, cards=["8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s", "3c", "Tc", "Kc"])
    rig.next("shoe.loaded")
    for seat in (2, 3, 4):
        stake(seat, 2)
    ok(rig.pit.press("deal"))
    assert rig.next("hand.started")["data"]["dealer_seat"] == 1
    for _ in range(8):
        rig.draw()
    extreme_act(rig, "turn_up", 2)
    rig.next("card.revealed")
    stake(2, 6)
    ok(rig.pit.press("raise"))
    ok(rig.pit.press("check"))
    ok(rig.pit.press("fold"))
    rig.next("player.action", seat=4)
    stake(4, 0)
    ok(rig.pit.press("play"))
    rig.next("card.revealed")
    stake(2, 12)
    ok(rig.pit.press("split"))
    for _ in range(3):
        rig.draw()
    ok(rig.pit.press("stand"))
    ok(rig.pit.press("stand"))
    settled = rig.next("hand.settled")["data"]["results"]
    assert [(r["seat"], r["wager"], r["payout"]) for r in settled] == [
        (2, 3000, 3000), (2, 3000, 3000), (3, 1000, 1000), (4, 1000, -500)]
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def test_blackjack_extreme_the_house_has_no_edge_and_the_player_dealer_s_hands_count_apart(
        rated: Rated, browser: Any) -> None:
    rig = rated.rigs["T08"]
    for seat, amount in ((1, 50000), (2, 20000), (3, 20000), (4, 20000)):
        ok(rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}))
        rig.next("seat.stack", seat=seat)
    open_page(browser, rated, "T08")
    rate(browser, rated, 1, "P-1008")
    rate(browser, rated, 2, "P-2008")
    play_extreme_hand(rig)
    wait(browser, lambda d: row(d, 2)["hands"] == "1" and row(d, 1)["banked"] == "1", "a hand rated", rated)
    dealer, player = row(browser, 1), row(browser, 2)
    assert (player["hands"], player["wagered"], player["actual"]) == ("1", "6000", "6000")
    assert player["banked"] == "0"
    assert float(player["theo"]) == 0.0                       # the house banks nothing: theo $0.00, known
    assert (dealer["hands"], dealer["wagered"], dealer["actual"]) == ("0", "0", "0")
    assert (dealer["banked"], dealer["bank-result"], float(dealer["theo"])) == ("1", "-6500", 0.0)
    assert "1 (bank -$65.00)" in css(browser, "tr[data-seat='1']")[0].text
    shift = browser.find_element("id", "shift-figures").text
    assert "theo $0.00" in shift and "bank result -$65.00 (1 hands banked)" in shift


def play_holdem_hand(rig: TableRig) -> None:
    """The hand of tests/e2e/test_e2e_holdem_blackjack.py with a side pot, at a raked table: $210.00
    in the pots (seats 1 and 2 $90.00 each, seat 3 all in with $30.00), a $10.00 rake (the cap)."""
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    post_blinds(rig, spots, small=2, big=3)
    ok(rig.pit.press("deal"))
    for _ in range(3):
        rig.draw()
    act(rig, spots, 1, "raise", 2000)
    act(rig, spots, 2, "call", 1500)
    act(rig, spots, 3, "raise", 2000)                       # all in
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 1000)
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    act(rig, spots, 2, "bet", 2000)
    act(rig, spots, 1, "call", 2000)
    spots.gather(1, 2)
    rig.draw()
    act(rig, spots, 2, "stand")
    act(rig, spots, 3, "stand")
    rig.draw()
    act(rig, spots, 1, "stand")
    act(rig, spots, 2, "bet", 4000)
    act(rig, spots, 1, "call", 4000)
    assert sum(rig.next("pot.awarded")["data"]["rake"] for _ in range(2)) == 1000
    settled = rig.next("hand.settled")["data"]["results"]
    assert [(r["seat"], r["wager"]) for r in settled] == [(1, 9000), (2, 9000), (3, 3000)]
    spots.gather(1, 2)
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def test_holdem_blackjack_theo_is_the_seat_s_share_of_the_rake(rated: Rated, browser: Any) -> None:
    rig = rated.rigs["T09"]
    buy_in(rig, {1: 20000, 2: 20000, 3: 3000})
    open_page(browser, rated, "T09")
    rate(browser, rated, 1, "P-1009")
    rate(browser, rated, 3, "P-3009")
    play_holdem_hand(rig)
    wait(browser, lambda d: row(d, 1)["hands"] == "1" and row(d, 3)["hands"] == "1", "a hand rated", rated)
    one, three = row(browser, 1), row(browser, 3)
    assert (one["wagered"], three["wagered"]) == ("9000", "3000")
    assert float(one["theo"]) == pytest.approx(1000 * 9000 / 21000, abs=0.01)   # rake x chips / pot
    assert float(three["theo"]) == pytest.approx(1000 * 3000 / 21000, abs=0.01)
    assert int(one["actual"]) + int(three["actual"]) > 0 and one["interval"] == ""
    shift = browser.find_element("id", "shift-figures").text
    assert "rake $10.00" in shift and "theo $10.00" in shift


def post(rated: Rated, path: str, body: dict[str, Any]) -> tuple[int, str]:
    """The status and text of a JSON POST to the monitor."""
    request = urllib.request.Request(rated.monitor.url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def api(rated: Rated, path: str) -> Any:
    with urllib.request.urlopen(rated.monitor.url + path, timeout=5) as reply:
        return json.loads(reply.read())


def figures(rated: Rated) -> dict[int, dict[str, Any]]:
    """Every open rating's figures from the monitor (the time played left out: it runs)."""
    return {r["id"]: {**r, "figures": {k: v for k, v in r["figures"].items() if k != "seconds"}}
            for r in api(rated, "api/ratings")["ratings"]}


SHIFT_FIGURES = ("hands", "banked", "wagered", "house_result", "theo", "rake", "bank_result", "jackpots")


def live(rated: Rated) -> dict[str, dict[str, Any]]:
    """Each table's detail once every table is live (and so caught up)."""
    deadline = time.monotonic() + 15
    while True:
        details = {t: api(rated, f"api/tables/{t}") for t in rated.rigs}
        if all(d["link"]["state"] == "live" for d in details.values()):
            return details
        assert time.monotonic() < deadline, f"not every table is live; log:\n{rated.monitor.log_text()}"
        time.sleep(0.05)


def shifts(details: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {t: {k: d["shift"][k] for k in SHIFT_FIGURES} for t, d in details.items()}


def test_the_monitor_killed_mid_rating_shows_the_same_ratings_once_started_again(
        rated: Rated, browser: Any) -> None:
    open_page(browser, rated, "T07")
    rate(browser, rated, 1, "P-1007")
    play_first_hand(rated.rig)
    wait(browser, lambda d: row(d, 1)["hands"] == "1", "the hand rated", rated)
    before, shifted = figures(rated), shifts(live(rated))
    assert any(r["player"] == "P-1007" and r["figures"]["actual"] == -1000 for r in before.values())

    rated.monitor.kill()
    rated.monitor = rated.serve()
    assert shifts(live(rated)) == shifted
    assert figures(rated) == before

    open_page(browser, rated, "T07")
    wait(browser, lambda d: {k: (r["player"], r["hands"], r["theo"]) for k, r in rows(d).items()} == {
        str(n): (r["player"], str(r["figures"]["hands"]), str(r["figures"]["theo"]["cents"]))
        for n, r in before.items() if r["table"] == "T07"}, "the same ratings", rated)
    play_first_hand(rated.rig)                              # and the rating goes on, each hand once
    wait(browser, lambda d: row(d, 1)["hands"] == "2", "the next hand rated", rated)
    assert (row(browser, 1)["wagered"], row(browser, 1)["actual"]) == ("2000", "-2000")
