"""The dealer signed in on the dealer screen (issue 27 item 4), in Chromium over a real Easy Jack
table with a screen, a tray on antenna 32 and dealers D207 and D308:
- D207 signs in on the screen's keypads (the id, then the PIN); a wrong PIN is refused with the
  table's words and signs nobody in;
- D308's badge is read by a keyboard-wedge reader, which types the id and Enter into the page:
  the page asks for the PIN, typed on the keyboard with Enter; D308 signing in signs D207 out (the
  rotation);
- D308 signs the opener with the PIN: the tray's reading;
- no PIN is ever in the page once sent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for

TRAY = 32
PINS = {"D207": "4826", "D308": "7315"}


@pytest.fixture
def station(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, buttons=(), screen=8070, tray=TRAY,
                           dealers={name: hash_pin(pin) for name, pin in PINS.items()})


def shown(station: Station, element: str) -> str:
    text: str = station.page("return document.getElementById(arguments[0]).textContent", element)
    return text


def reply(station: Station) -> str:
    """The dealer panel's reply, once there is one (it is cleared first by the caller)."""
    answer: str = station.until("the dealer panel's reply", lambda: shown(station, "dealer-reply"))
    return answer


def test_a_dealer_signs_in_on_the_keypads_and_a_wrong_pin_is_refused(station: Station) -> None:
    station.caught_up()
    assert shown(station, "dealer-open") == "Dealer: sign in"
    station.key("#dealer-open")
    station.key("#dealer-keys [data-key='dealer_in']")
    for key in "D207":
        station.key(f"#dealer-keys [data-key='{key}']")
    assert station.page("return document.getElementById('dealer-id').value") == "D207"
    station.key("#dealer-ok")
    for key in "9999":
        station.key(f"#dealer-keys [data-key='{key}']")
    station.key("#dealer-ok")
    assert reply(station) == "wrong dealer id or PIN"
    assert station.rig.pit.control({"cmd": "state"})["state"]["books"]["dealer"] is None
    station.page("document.getElementById('dealer-reply').textContent = ''")
    for key in PINS["D207"]:
        station.key(f"#dealer-keys [data-key='{key}']")
    station.key("#dealer-ok")
    assert reply(station) == "Sign in: done"
    assert station.rig.next("dealer.in")["data"] == {"dealer": "D207"}
    station.until("the dealer signed in", lambda: shown(station, "dealer-open") == "Dealer D207")
    assert PINS["D207"] not in station.page("return document.body.innerHTML + "
                                            "document.getElementById('dealer-pin').value")


def test_a_badge_reader_types_the_id_and_enter_then_the_next_dealer_signs_the_opener(
        station: Station) -> None:
    rig = station.rig
    rig.rfid.cmd("place", antenna=TRAY, chips=[chip("b", n) for n in range(10, 14)])
    rig.next("tray.counted", amount=10000)
    assert rig.pit.control({"cmd": "dealer_in", "dealer": "D207", "dealer_pin": PINS["D207"]}) == {"ok": True}
    station.until("D207 signed in", lambda: shown(station, "dealer-open") == "Dealer D207")

    ActionChains(station.browser).send_keys("D308" + Keys.ENTER).perform()    # the badge reader
    station.until("the PIN asked for", lambda: station.page(
        "return !document.getElementById('dealer-pin').hidden && "
        "document.activeElement === document.getElementById('dealer-pin')"))
    assert "dealer D308" in shown(station, "dealer-title")
    ActionChains(station.browser).send_keys(PINS["D308"] + Keys.ENTER).perform()
    assert reply(station) == "Sign in: done"
    assert rig.next("dealer.out")["data"] == {"dealer": "D207", "reason": "rotation"}
    assert rig.next("dealer.in")["data"] == {"dealer": "D308"}
    station.until("D308 signed in", lambda: shown(station, "dealer-open") == "Dealer D308")

    station.page("document.getElementById('dealer-reply').textContent = ''")
    station.key("#dealer-keys [data-key='opener']")
    # the slip the dealer signs, above the PIN: 4 x $25.00 = $100.00, and the total
    station.until("the slip by denomination", lambda: station.page(
        "const s = document.getElementById('dealer-slip'); return !s.hidden && s.dataset.total === '10000'"))
    assert station.page("return [...document.querySelectorAll('#dealer-slip tr')].map("
                        "(r) => [...r.cells].map((c) => c.textContent))") == [
        ["Chip", "Count", "Amount"], ["$25.00", "4", "$100.00"], ["Total", "", "$100.00"]]
    for key in PINS["D308"]:
        station.key(f"#dealer-keys [data-key='{key}']")
    station.key("#dealer-ok")
    assert reply(station) == "Sign the opener: done"
    assert rig.next("table.opener")["data"] == {"amount": 10000, "dealer": "D308", "chips": {"2500": 4}}
    assert station.page("return document.getElementById('dealer-slip').hidden")
    station.until("the closer offered once the shift is open", lambda: station.page(
        "return !!document.querySelector(\"#dealer-keys [data-key='closer']\")"))
