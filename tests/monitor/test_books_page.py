"""The table's books on the pit monitor, in a real headless Chromium over a real daemon.

T07 (Easy Jack, a tray on antenna 32, dealers D1 and D2, supervisor S101, its control socket in the
floor file) and one ``pit-monitor serve`` with a password file, Chromium signed in as anna. The dealer
signs in and signs the opener through the control socket (as the dealer screen sends them); the
supervisor signs the slips and enters the drop on the table's page, refused without the right PIN. The
page, the tile and the pit's line give the count room's win and hold of the count, worked by hand:
win = closer - opener + credits - fills + drop = 12500 - 10000 + 0 - 2500 + 3000 = 3000; hold 100 %.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.security.supervisor_pins import hash_pin
from tests.monitor.conftest import Monitor
from tests.monitor.test_floor_page import css, wait
from tests.monitor.test_pit_actions_page import AUTH, PASSWORD, PIN, WRONG_PIN, Floor
from tests.rigs.daemon_rig import TableRig, chip

TRAY = 32
DEALER_PIN = "1357"


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[Floor]:
    folder = tmp_path
    (folder / "T07").mkdir()
    t07 = TableRig(folder / "T07", table="T07", supervisors={"S101": hash_pin(PIN)}, tray=TRAY,
                   dealers={"D1": hash_pin(DEALER_PIN)})
    (folder / "floor.toml").write_text(
        f'[tables.T07]\npublish = "{t07.endpoints[0]}"\nsync = "{t07.endpoints[1]}"\n'
        f'control = "{t07.endpoints[2]}"\npit = "Pit 1"\n')
    (folder / "passwords").write_text(f"anna:{hash_pin(PASSWORD)}\n")
    monitor = None
    try:
        t07.start()
        monitor = Monitor("serve", [], "--port=0", f"--tables={folder / 'floor.toml'}", "--silence=3",
                          f"--password-file={folder / 'passwords'}", f"--acks={folder / 'acks.jsonl'}",
                          f"--actions={folder / 'actions.jsonl'}", log=folder / "monitor.log")
        yield Floor(t07, t07, monitor, folder)
    finally:
        if monitor is not None:
            monitor.stop()
        t07.close()


@pytest.fixture
def signed_in(browser: Any) -> Any:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": AUTH}})
    return browser


def sign(floor: Floor, driver: Any, selector: str, *, pin: str = PIN, drop: str | None = None) -> str:
    """Press the books' button ``selector`` as S101 with ``pin``, confirm; the table's answer shown."""
    supervisor, typed = driver.find_element("id", "supervisor"), driver.find_element("id", "pin")
    supervisor.clear()
    supervisor.send_keys("S101")
    typed.send_keys(pin)
    if drop is not None:
        box = driver.find_element("id", "drop")
        box.clear()
        box.send_keys(drop)
    answer = driver.find_element("id", "pit-answer")
    driver.execute_script("arguments[0].dataset.ok = ''; arguments[0].textContent = ''", answer)
    driver.find_element("css selector", selector).click()
    wait(driver, lambda d: d.find_element("id", "pit-confirm-text").text, "the confirmation", floor)
    driver.find_element("id", "pit-yes").click()
    shown: str = wait(driver, lambda d: answer.get_attribute("data-ok") and answer.text, "the answer", floor)
    return shown


def test_the_supervisor_signs_the_slips_and_enters_the_drop_on_the_table_s_page(
        floor: Floor, signed_in: Any) -> None:
    rig = floor.t07
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    rig.next("tray.counted", amount=10000)
    assert rig.pit.control({"cmd": "dealer_in", "dealer": "D1", "dealer_pin": DEALER_PIN}) == {"ok": True}
    assert rig.pit.control({"cmd": "opener", "dealer_pin": DEALER_PIN}) == {"ok": True}
    signed_in.get(floor.monitor.url + "table/T07")
    books = signed_in.find_element("id", "books-now")
    wait(signed_in, lambda d: "the opener waits for a supervisor's signature" in books.text, "the opener",
         floor)
    assert "dealer D1 signed in" in books.text

    opener = "button[data-cmd='sign_slip'][data-slip='opener']"
    assert sign(floor, signed_in, opener, pin=WRONG_PIN) == "Refused: wrong supervisor id or PIN"
    assert sign(floor, signed_in, opener) == "T07 did it."
    assert rig.next("table.slip_signed")["data"] == {"slip": "opener", "amount": 10000, "supervisor": "S101"}
    wait(signed_in, lambda d: "opener $100.00 (D1, signed S101)" in books.text, "the signature", floor)

    assert rig.pit.control({"cmd": "tray_fill", "amount": 2500, "supervisor": "S101", "pin": PIN})["ok"]
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", 20)])
    rig.next("tray.counted", amount=12500)
    assert rig.pit.control({"cmd": "closer", "dealer_pin": DEALER_PIN}) == {"ok": True}
    closer = "button[data-cmd='sign_slip'][data-slip='closer']"
    assert sign(floor, signed_in, closer) == "T07 did it."
    assert sign(floor, signed_in, "button[data-cmd='enter_drop']", drop="30") == "T07 did it."
    assert rig.next("table.drop")["data"] == {"amount": 3000, "supervisor": "S101"}
    count = wait(signed_in, lambda d: css(d, "#books-now .count[data-win='3000']"), "the win", floor)[0]
    assert count.get_attribute("data-hold") == "100"
    assert "win +$30.00, hold 100 %" in count.text
    assert "D1: 0 hands" in books.text
    # the slips by denomination: the opener 4 x $25.00; the closer with the fill's b20, 5 x $25.00
    assert [[cell.text for cell in row.find_elements("css selector", "td, th")]
            for row in css(signed_in, "#books-now table.slip[data-slip='closer'] tr")] == [
        ["chip", "count", "amount"], ["$25.00", "5", "$125.00"], ["total", "", "$125.00"]]
    assert css(signed_in, "#books-now table.slip[data-slip='opener'] tr[data-value='2500'] td")[1].text == "4"

    signed_in.get(floor.monitor.url)
    wait(signed_in, lambda d: css(d, ".pit-figures .count[data-win='3000']"), "the pit's line", floor)
    wait(signed_in, lambda d: css(d, ".shift-line .count[data-win='3000']"), "the tile", floor)
    detail = floor.detail()["books"]
    assert (detail["dealer"], detail["count"]["win"], detail["count"]["hold_percent"]) == ("D1", 3000, 100.0)
    assert (detail["count"]["opener_chips"], detail["count"]["closer_chips"]) == (
        [{"value": 2500, "count": 4, "amount": 10000}], [{"value": 2500, "count": 5, "amount": 12500}])
