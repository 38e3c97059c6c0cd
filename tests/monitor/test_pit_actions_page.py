"""The pit's actions and the floor's organisation, in a real headless Chromium over real daemons.

One module, one floor: T07 (Easy Jack, supervisor S101, in "Pit 1", with its
control socket in the floor file), T05 (in "Pit 1", nobody there: never
heard) and T08 (Hold'em Blackjack, in no pit, no control socket); one
``pit-monitor serve`` on that floor file with a password file, Chromium
signed in as anna (an ``Authorization`` header on every request). The
actions are taken on the table's page as a pit boss would: supervisor id and
PIN, the action, its confirmation; the table's answer is checked on the page,
in the table's picture and in the action record, and no PIN anywhere. The
monitor keeps the recorder's database (``--db``): a player cannot be rated
at a closed table, and can once it is open again.
"""

from __future__ import annotations

import base64
import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.e2e.test_e2e_holdem_blackjack import BUTTONS, GAME
from tests.monitor.conftest import Monitor
from tests.monitor.test_floor_page import click, css, strings, tile, wait
from tests.rigs.daemon_rig import TableRig, chip, free_ports

PIN = "60417293"
WRONG_PIN = "86420975"
PASSWORD = "s3cret words"
AUTH = "Basic " + base64.b64encode(f"anna:{PASSWORD}".encode()).decode()
COUNTERFEIT = "ffffffffffffff0"


@dataclass
class Floor:
    t07: TableRig
    t08: TableRig
    monitor: Monitor
    folder: Path

    def api(self, path: str, body: dict[str, Any] | None = None, *, auth: bool = True,
            monitor: Monitor | None = None) -> tuple[int, Any]:
        """``(status, JSON or text)`` of a GET (or a POST of ``body``)."""
        headers = {"Authorization": AUTH} if auth else {}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        request = urllib.request.Request((monitor or self.monitor).url + path, data, headers)
        try:
            with urllib.request.urlopen(request, timeout=10) as reply:
                status, raw, kind = reply.status, reply.read(), reply.headers.get_content_type()
        except urllib.error.HTTPError as error:
            status, raw, kind = error.code, error.read(), error.headers.get_content_type()
        return status, json.loads(raw) if kind == "application/json" else raw.decode()

    def detail(self) -> dict[str, Any]:
        found: dict[str, Any] = self.api("api/tables/T07")[1]
        return found


@pytest.fixture
def floor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Floor]:
    """Two tables and the monitor over them, new for each test (so that each holds alone and in any
    order: the tables' state, the action record and the browser's choices, kept by the monitor's
    address, start afresh)."""
    folder = tmp_path_factory.mktemp("pit-actions")
    (folder / "T07").mkdir()
    (folder / "T08").mkdir()
    t07 = TableRig(folder / "T07", table="T07", supervisors={"S101": hash_pin(PIN)})
    t08 = TableRig(folder / "T08", table="T08", game=GAME, game_name="holdem-blackjack", spots=("bet",),
                   buttons=BUTTONS)
    nobody = [f"tcp://127.0.0.1:{port}" for port in free_ports(2)]
    (folder / "floor.toml").write_text(
        '[shifts]\nstarts = ["06:00", "14:00", "22:00"]\n'
        f'[tables.T07]\npublish = "{t07.endpoints[0]}"\nsync = "{t07.endpoints[1]}"\n'
        f'control = "{t07.endpoints[2]}"\npit = "Pit 1"\n'
        f'[tables.T08]\npublish = "{t08.endpoints[0]}"\nsync = "{t08.endpoints[1]}"\n'
        f'[tables.T05]\npublish = "{nobody[0]}"\nsync = "{nobody[1]}"\npit = "Pit 1"\n')
    (folder / "passwords").write_text(f"anna:{hash_pin(PASSWORD)}\n")
    monitor = None
    try:
        t07.start()
        t08.start()
        monitor = Monitor("serve", [], "--port=0", f"--tables={folder / 'floor.toml'}", "--silence=3",
                          f"--password-file={folder / 'passwords'}", f"--acks={folder / 'acks.jsonl'}",
                          f"--actions={folder / 'actions.jsonl'}", f"--db={folder / 'pit.sqlite'}",
                          log=folder / "monitor.log")
        yield Floor(t07, t08, monitor, folder)
    finally:
        if monitor is not None:
            monitor.stop()
        t07.close()
        t08.close()


@pytest.fixture(scope="module")
def signed_in(browser: Any) -> Any:
    """The browser, signed in as anna on every request (the page's, its fetches, its event stream)."""
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": AUTH}})
    return browser


def table_page(floor: Floor, driver: Any) -> None:
    driver.get(floor.monitor.url + "table/T07")
    wait(driver, lambda d: d.find_element("id", "detail").get_attribute("data-link") == "live", "live", floor)
    wait(driver, lambda d: css(d, "#pit-record li"), "the action record", floor)


def act(floor: Floor, driver: Any, command: str, *, pin: str = PIN, **fields: str) -> str:
    """Take an action on the table's page as S101 with ``pin``; the table's answer as shown."""
    supervisor, typed = driver.find_element("id", "supervisor"), driver.find_element("id", "pin")
    supervisor.clear()
    supervisor.send_keys("S101")
    typed.send_keys(pin)
    for field, value in fields.items():
        box = driver.find_element("id", field)
        box.clear()
        box.send_keys(value)
    driver.find_element("css selector", f"button[data-cmd='{command}']").click()
    asked = wait(driver, lambda d: d.find_element("id", "pit-confirm-text").text, "the confirmation", floor)
    assert "T07" in asked and "S101" in asked
    answer = driver.find_element("id", "pit-answer")
    driver.find_element("id", "pit-yes").click()
    shown: str = wait(driver, lambda d: answer.get_attribute("data-ok") and answer.text, "the answer", floor)
    assert typed.get_attribute("value") == ""                               # the PIN is cleared
    return shown


def test_pit_actions_need_a_sign_in(floor: Floor, signed_in: Any) -> None:
    order = {"cmd": "close_table", "supervisor": "S101", "pin": PIN}
    plain = Monitor("serve", [], "--port=0", f"--tables={floor.folder / 'floor.toml'}",
                    f"--actions={floor.folder / 'unsigned.jsonl'}",
                    f"--acks={floor.folder / 'unsigned-acks'}", log=floor.folder / "unsigned.log")
    try:
        status, text = floor.api("api/tables/T07/command", order, auth=False, monitor=plain)
        assert status == 403 and "--password-file" in text
        signed_in.get(plain.url + "table/T07")
        refusal = wait(signed_in, lambda d: d.find_element("id", "pit-refusal").text, "the refusal", floor)
        assert "signed-in user" in refusal and "--password-file" in refusal
        assert css(signed_in, "button[data-cmd='close_table']")[0].get_attribute("disabled")
    finally:
        plain.stop()
    assert not (floor.folder / "unsigned.jsonl").exists()
    assert floor.api("api/tables/T07/command", order, auth=False)[0] == 401   # with passwords: sign in


def test_a_wrong_pin_is_the_table_s_refusal_and_no_pin_is_recorded(floor: Floor, signed_in: Any) -> None:
    table_page(floor, signed_in)
    assert act(floor, signed_in, "close_table", pin=WRONG_PIN) == "Refused: wrong supervisor id or PIN"
    wait(signed_in, lambda d: css(d, "#pit-record li[data-ok='false'][data-cmd='close_table']"), "the record",
         floor)
    status, outcome = floor.api("api/tables/T08/command", {"cmd": "open_table", "supervisor": "S101",
                                                           "pin": PIN})
    assert status == 409 and "T08 has no control socket" in outcome["error"]
    assert floor.api("api/tables/T07/command", {"cmd": "reboot", "supervisor": "S101", "pin": PIN})[0] == 400
    records = floor.api("api/actions")[1]["actions"]
    assert [(r["table"], r["who"], r["cmd"], r["supervisor"], r["ok"]) for r in records] == [
        ("T08", "anna", "open_table", "S101", False), ("T07", "anna", "close_table", "S101", False)]
    assert records[1]["error"] == "wrong supervisor id or PIN" and records[1]["at"].endswith("Z")
    assert floor.api("api/actions?table=T07")[1]["actions"] == records[1:]
    assert [json.loads(line) for line in (floor.folder / "actions.jsonl").read_text().splitlines()] == \
        records[::-1]


def test_a_limit_change_is_refused_in_a_hand_and_taken_between_hands(floor: Floor, signed_in: Any) -> None:
    rig = floor.t07
    table_page(floor, signed_in)
    assert signed_in.find_element("id", "min-bet").get_attribute("value") == "5.00"      # the picture's
    assert signed_in.find_element("id", "max-bet").get_attribute("value") == "500.00"
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed", seat=1)
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("hand.started")
    limits = {"min-bet": "20", "max-bet": "100.00"}
    assert act(floor, signed_in, "set_limits", **limits) == (
        "Refused: set_limits: only between hands: finish the hand (NEXT) or void it first")
    assert rig.pit.press("void") == {"ok": True}
    rig.next("hand.voided")
    assert act(floor, signed_in, "set_limits", **limits) == "T07 did it."
    assert rig.next("table.limits")["data"] == {"min_bet": 2000, "max_bet": 10000, "supervisor": "S101"}
    wait(signed_in, lambda d: "limits $20.00 \u2013 $100.00" in d.find_element("id", "pit-now").text,
         "the new limits", floor)
    assert floor.detail()["state"]["limits"] == {"min_bet": 2000, "max_bet": 10000}
    assert floor.detail()["limits"] == {"min_bet": 2000, "max_bet": 10000}


def test_a_table_closed_then_opened_from_its_page(floor: Floor, signed_in: Any) -> None:
    table_page(floor, signed_in)
    now = signed_in.find_element("id", "pit-now")
    assert act(floor, signed_in, "close_table") == "T07 did it."
    floor.t07.next("table.closed")
    wait(signed_in, lambda d: now.get_attribute("data-closed") == "true", "the table closed", floor)
    assert floor.detail()["closed"] is True
    assert act(floor, signed_in, "close_table") == "Refused: close_table: the table is closed already"
    assert floor.api("api/tables/T07/ratings", {"seat": 1, "player": "P-1001"}) == (
        409, "table T07 is closed: open it (Pit actions) before rating a player there")
    signed_in.get(floor.monitor.url)
    wait(signed_in, lambda d: "CLOSED" in tile(d, "T07").text, "CLOSED on the tile", floor)
    table_page(floor, signed_in)
    assert act(floor, signed_in, "open_table") == "T07 did it."
    floor.t07.next("table.reopened")
    wait(signed_in, lambda d: d.find_element("id", "pit-now").get_attribute("data-closed") == "false",
         "the table open", floor)
    status, opened = floor.api("api/tables/T07/ratings", {"seat": 1, "player": "P-1001"})
    assert status == 200 and opened["rating"]["opened_by"] == "anna", opened
    assert floor.api(f"api/ratings/{opened['rating']['id']}/close", {})[0] == 200


def test_a_message_reaches_the_dealer(floor: Floor, signed_in: Any) -> None:
    table_page(floor, signed_in)
    assert act(floor, signed_in, "dealer_message", **{"dealer-text": "Fill on the way"}) == "T07 did it."
    assert floor.t07.next("dealer.message")["data"] == {"text": "Fill on the way", "supervisor": "S101"}
    wait(signed_in, lambda d: "Fill on the way" in d.find_element("id", "pit-now").text, "the message", floor)
    assert floor.detail()["state"]["message"] == "Fill on the way"
    wait(signed_in, lambda d: "anna (supervisor S101): dealer message “Fill on the way”" in
         css(d, "#pit-record li[data-ok='true']")[0].text, "the action recorded", floor)


def test_a_dealer_s_call_stays_on_the_monitor_until_acknowledged(floor: Floor, signed_in: Any) -> None:
    assert floor.t07.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}
    floor.t07.next("alert", code="floor_called")
    signed_in.get(floor.monitor.url)
    wait(signed_in, lambda d: css(tile(d, "T07"), ".alert.warning[data-code='floor_called']"), "the call",
         floor)
    for n in range(2):                                  # still there after other events and a reload
        floor.t07.bet(2, "main", chip("a", 5 + n))
        floor.t07.next("bet.placed", seat=2)
        table_page(floor, signed_in)
        wait(signed_in, lambda d: css(d, "#detail .alert[data-code='floor_called'] button.ack"), "the call",
             floor)
    signed_in.find_element("id", "who").send_keys("anna")
    wait(signed_in, lambda d: click(css(d, "#detail .alert[data-code='floor_called'] button.ack")[0]),
         "ack", floor)
    wait(signed_in, lambda d: css(d, "#detail .acked-list .alert[data-code='floor_called']"), "acked", floor)
    signed_in.get(floor.monitor.url)
    wait(signed_in, lambda d: tile(d, "T07").get_attribute("data-link") == "live"
         and not css(tile(d, "T07"), ".alert[data-code='floor_called']"), "the tile without the call", floor)
    acks = floor.api("api/acks")[1]
    assert [(a["table"], a["code"], a["who"]) for a in acks] == [("T07", "floor_called", "anna")]
    wait(signed_in, lambda d: floor.t07.pit.control({"cmd": "state"})["state"]["floor_call"] is None,
         "the table told the call was answered", floor)
    assert floor.t07.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}
    floor.t07.next("alert", code="floor_called")                    # the dealer's next call: a new alert


def test_the_floor_by_pit_filtered_sorted_and_a_sound_on_a_new_critical_alert(
        floor: Floor, signed_in: Any) -> None:
    view = floor.api("api/floor")[1]
    assert [(pit["pit"], pit["tables"]) for pit in view["pits"]] == [("Pit 1", ["T07", "T05"]),
                                                                     (None, ["T08"])]
    signed_in.get(floor.monitor.url)
    wait(signed_in, lambda d: len(css(d, "section.tile[data-link='live']")) == 2, "two live tiles", floor)

    def order() -> list[list[str]]:
        return [[t.get_attribute("data-table") for t in css(pit, "section.tile") if t.is_displayed()]
                for pit in css(signed_in, "section.pit") if pit.is_displayed()]

    def shows(expected: list[list[str]]) -> None:
        wait(signed_in, lambda d: order() == expected, f"the tiles {expected}", floor)

    def choose(select: str, value: str) -> None:
        from selenium.webdriver.support.ui import Select

        Select(signed_in.find_element("id", select)).select_by_value(value)

    shows([["T05", "T07"], ["T08"]])
    from selenium.webdriver.support.ui import Select

    shown = [Select(signed_in.find_element("id", s)).first_selected_option.text
             for s in ("filter-pit", "filter-game", "filter-alert", "sort")]
    assert shown == ["all pits", "all games", "any table", "by name"]
    heads = [" ".join(h.text.split()) for h in css(signed_in, ".pit-head")]
    assert [head.split(" shift: ")[0] for head in heads] == ["Pit 1 2 tables, 0 alerts open",
                                                             "No pit 1 table, 0 alerts open"]
    assert "shift: 0 hands · wagered $0.00 · house $0.00" in heads[0]          # the pit's shift (--db)
    # A warning at T07.
    floor.t07.shoe.cmd("fault", code=2, text="lid opened during draw")
    wait(signed_in, lambda d: tile(d, "T07").get_attribute("data-worst") == "warning", "the fault", floor)
    choose("sort", "severity")
    shows([["T07", "T05"], ["T08"]])
    choose("sort", "game")
    shows([["T07", "T05"], ["T08"]])                     # T05 has no game yet: last
    choose("sort", "")
    choose("filter-pit", "Pit 1")
    shows([["T05", "T07"]])
    assert "pit=Pit+1" in signed_in.current_url
    choose("filter-pit", "-")
    shows([["T08"]])
    choose("filter-pit", "")
    choose("filter-game", "holdem-blackjack")
    shows([["T08"]])
    choose("filter-game", "")
    choose("filter-alert", "warning")
    shows([["T07"]])
    signed_in.get(floor.monitor.url + "?alert=critical&sort=severity")     # the choice in the address
    wait(signed_in, lambda d: d.find_element("id", "filter-alert").get_attribute("value") == "critical",
         "the choice kept", floor)
    shows([])

    body = signed_in.find_element("tag name", "body")
    floor.t08.bet(2, "bet", [COUNTERFEIT + "1", 500])                       # sound off: no sound
    shows([["T08"]])
    assert (body.get_attribute("data-sounds"), body.get_attribute("data-sound")) == ("0", "off")
    signed_in.find_element("id", "sound").click()
    assert body.get_attribute("data-sound") == "on"
    floor.t08.bet(3, "bet", [COUNTERFEIT + "2", 500])
    wait(signed_in, lambda d: len(css(tile(d, "T08"), ".alert.critical")) == 2, "a second alert", floor)
    wait(signed_in, lambda d: body.get_attribute("data-sounds") == "1", "one sound", floor)
    signed_in.get(floor.monitor.url)                                        # the choice kept in the browser
    wait(signed_in, lambda d: d.find_element("id", "sort").get_attribute("value") == "severity", "kept",
         floor)


def test_no_pin_in_any_record_or_log(floor: Floor) -> None:
    """The PINs sent here (right and wrong) are in no record's field and are no number in any log
    line."""
    for pin, ok in ((WRONG_PIN, False), (PIN, True)):
        status, reply = floor.api("api/tables/T07/command", {"cmd": "dealer_message", "text": "Coffee",
                                                             "supervisor": "S101", "pin": pin})
        assert (status, reply["ok"]) == (200, ok), reply
    pins = {PIN, WRONG_PIN}
    records = [json.loads(line) for line in (floor.folder / "actions.jsonl").read_text().splitlines()]
    acks = floor.folder / "acks.jsonl"                                    # when an alert was acknowledged
    records += [json.loads(line) for line in acks.read_text().splitlines()] if acks.exists() else []
    records.append(floor.api("api/actions")[1])
    assert all("pin" not in fields and not pins & set(strings(fields)) for fields in records)
    logs = [floor.folder / "monitor.log", floor.t07.log, floor.t08.log, floor.folder / "unsigned.log"]
    for log in (path for path in logs if path.exists()):                  # unsigned: the first test's
        assert not pins & set(re.findall(r"\d+", log.read_text(errors="replace"))), log
