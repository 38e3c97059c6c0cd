"""Pictures of the simulated floor's pages in headless Chromium: one page, or those of docs/pit-monitor.md.

Run by ``python -m controller.devkit.floor_sim`` (``--screenshot FILE [--page
P]``, ``--docs FOLDER``) once its monitor serves the floor. Signed in (the
``Authorization`` header on every request of the page), the browser works the
page as a pit boss would for the pictures of docs/pit-monitor.md: it rates a
player (the id typed and Enter pressed, as a card reader does), sends the
dealer a message as supervisor S101, and turns the sound on.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from controller.devkit.sim_pit import SUPERVISOR, SUPERVISOR_PIN

if TYPE_CHECKING:
    from selenium.webdriver import Chrome

T = TypeVar("T")

WIDTH = 1500
HEIGHT = 1000

DOCS = ("pit-monitor.png", "pit-monitor-table.png", "pit-monitor-rated.png", "pit-monitor-alerts.png")
"""The pictures :func:`docs_shots` writes."""


def _browser(folder: Path, auth: str | None) -> Chrome:
    from controller.devkit.browser import chromium

    driver = chromium(folder / "chromium", width=WIDTH, height=HEIGHT)
    if auth is not None:
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Authorization": auth}})
    return driver


def _wait(driver: Chrome, what: Callable[[Chrome], T], words: str, within: float = 20.0) -> T:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, within, 0.1).until(what, f"waited {within:g} s for {words}")


def _drawn(driver: Chrome) -> None:
    """Wait for the page's tiles or felt, and half a second for the rest to settle."""
    driver.execute_async_script(
        "const done = arguments[0]; const wait = () => document.querySelectorAll('.tile').length"
        " || document.querySelectorAll('.seat-box').length ? setTimeout(done, 500)"
        " : setTimeout(wait, 100); wait();")


def _whole_page(driver: Chrome) -> None:
    """Make the viewport as tall as the page, so a picture holds all of it."""
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": WIDTH, "height": int(height), "deviceScaleFactor": 1, "mobile": False})


def _down_to(driver: Chrome, element: str, path: Path) -> None:
    """A PNG of the page from its top down to the element of id ``element``."""
    _whole_page(driver)
    bottom = driver.execute_script(
        "return document.getElementById(arguments[0]).getBoundingClientRect().bottom + 12", element)
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {
        "format": "png", "clip": {"x": 0, "y": 0, "width": WIDTH, "height": int(bottom), "scale": 1}})
    path.write_bytes(base64.b64decode(shot["data"]))
    _viewport(driver)


def _viewport(driver: Chrome) -> None:
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def one_shot(page: str, path: Path, url: str, folder: Path, auth: str | None) -> None:
    """A PNG of ``page`` (``""``: the floor) once its tiles or its felt are drawn, as the window shows it."""
    driver = _browser(folder, auth)
    try:
        driver.get(url + page)
        _drawn(driver)
        driver.save_screenshot(str(path))
    finally:
        driver.quit()


def docs_shots(target: Path, url: str, folder: Path, auth: str | None) -> None:
    """The pictures of docs/pit-monitor.md (:data:`DOCS`) into ``target``: the floor by pit with its
    shift figures; a player-banked table's page down to its rated play; a house-banked table's page
    down to its pit actions, after a player is rated and the dealer sent a message; the floor
    filtered to its critical alerts, sound on."""
    target.mkdir(parents=True, exist_ok=True)
    driver = _browser(folder, auth)
    try:
        driver.get(url)
        _drawn(driver)
        _wait(driver, lambda d: d.find_elements("css selector", ".pit-head .shift-figures"),
              "the pits' figures")
        _whole_page(driver)
        driver.save_screenshot(str(target / DOCS[0]))
        _viewport(driver)

        driver.get(url + "table/T06")
        _drawn(driver)
        _wait(driver, lambda d: d.find_elements("css selector", "#rating-rows tr"), "the open rating")
        _down_to(driver, "ratings", target / DOCS[1])

        driver.get(url + "table/T01")
        _drawn(driver)
        _wait(driver, lambda d: d.find_elements("css selector", "#rating-rows tr"), "the open ratings")
        _wait(driver, lambda d: d.find_elements("css selector", "#pit-record li"), "the action record")
        _rate(driver, "1", "P-1009")
        _dealer_message(driver, "Fill of $2,000 in reds on its way")
        _down_to(driver, "pit-actions", target / DOCS[2])

        driver.get(url + "?alert=critical&sort=severity")
        _drawn(driver)
        driver.find_element("id", "sound").click()
        _wait(driver, lambda d: d.find_element("tag name", "body").get_attribute("data-sound") == "on",
              "the sound on")
        driver.save_screenshot(str(target / DOCS[3]))
    finally:
        driver.quit()


def _rate(driver: Chrome, seat: str, player: str) -> None:
    """Rate ``player`` at ``seat``: the id typed and Enter pressed, as a card or barcode reader does."""
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "rate-seat")).select_by_value(seat)
    driver.find_element("id", "rate-player").send_keys(player + "\n")
    _wait(driver, lambda d: player in d.find_element("id", "rate-answer").text, "the rating opened")
    _wait(driver, lambda d: d.find_elements("css selector", f"#rating-rows tr[data-player='{player}']"),
          "the new rating's row")


def _dealer_message(driver: Chrome, text: str) -> None:
    """Send the table's dealer ``text`` as the simulated floor's supervisor, confirmed."""
    driver.find_element("id", "supervisor").send_keys(SUPERVISOR)
    driver.find_element("id", "pin").send_keys(SUPERVISOR_PIN)
    driver.find_element("id", "dealer-text").send_keys(text)
    driver.find_element("css selector", "button[data-cmd='dealer_message']").click()
    _wait(driver, lambda d: d.find_element("id", "pit-confirm-text").text, "the confirmation")
    driver.find_element("id", "pit-yes").click()
    _wait(driver, lambda d: d.find_element("id", "pit-answer").get_attribute("data-ok") == "true",
          "the table's answer")
    _wait(driver, lambda d: d.find_elements("css selector", "#pit-record li[data-cmd='dealer_message']"),
          "the action recorded")
