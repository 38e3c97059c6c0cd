"""A critical alert's banner through the real daemon and the real screen server: one ``POST /api/dismiss``
leaves it shown, a first touch and its confirmation dismiss it; a warning goes with one touch. Then the
same touched on the page in Chromium."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.simulated import antenna
from tests.rigs.daemon_rig import TIMEOUT, TableRig
from tests.screen.conftest import Screen, Station, dismiss, station_for


@pytest.fixture
def station(tmp_path: Path) -> Iterator[tuple[TableRig, Screen]]:
    rig = TableRig(tmp_path)
    screen = None
    try:
        rig.start()
        screen = Screen(rig.config, tmp_path / "screen.log")
        yield rig, screen
    finally:
        if screen is not None:
            screen.stop()
        rig.close()


def banner(screen: Screen, code_words: str) -> dict[str, Any] | None:
    """The banner whose words say ``code_words``, as the screen's server has it now."""
    return next((b for b in screen.model()["banners"] if code_words in b["todo"]), None)


def until(what: str, check: Any, screen: Screen) -> Any:
    deadline = time.monotonic() + TIMEOUT
    while not (found := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"the screen never showed {what}\n{screen.log_text()}")
        time.sleep(0.05)
    return found


def test_one_post_leaves_a_counterfeit_chip_shown_and_the_two_steps_dismiss_it(
        station: tuple[TableRig, Screen]) -> None:
    rig, screen = station
    rig.rfid.cmd("place", antenna=antenna(2, "main"), chips=[["e000000000000001", 500]])
    raised = rig.next("alert", code="counterfeit_chip")
    assert raised["data"]["severity"] == "critical"
    shown = until("the counterfeit chip's banner", lambda: banner(screen, "Remove the chip"), screen)
    assert shown["confirm"] is True and shown["armed"] is False

    first = dismiss(screen, {"key": shown["key"]})
    assert first["ok"] is False and first["armed"] is True
    assert (banner(screen, "Remove the chip") or {}).get("armed") is True
    assert dismiss(screen, {"key": shown["key"]})["ok"] is False        # the same request again
    assert banner(screen, "Remove the chip") is not None

    assert dismiss(screen, {"key": shown["key"], "confirm": True}) == {"ok": True}
    assert banner(screen, "Remove the chip") is None
    state = rig.pit.control({"cmd": "state"})["state"]
    assert [a["code"] for a in state["alerts"]] == ["counterfeit_chip"]   # still in the table's record


def test_a_floor_call_goes_with_one_touch(station: tuple[TableRig, Screen]) -> None:
    rig, screen = station
    assert rig.pit.control({"cmd": "act", "action": "call_floor"}) == {"ok": True}
    shown = until("the floor call's banner", lambda: banner(screen, "calls the floor"), screen)
    assert shown["confirm"] is False
    assert dismiss(screen, {"key": shown["key"]}) == {"ok": True}
    assert banner(screen, "calls the floor") is None


@pytest.fixture
def page(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser)


FIND = "[...document.querySelectorAll('.banner')].find(b => b.textContent.includes(arguments[0]))"
BANNER = f"""const b = {FIND}; const done = b ? b.querySelector('.done') : null;
             return b ? [b.dataset.severity, done ? done.textContent : null] : null;"""
TOUCH = f"{FIND}.querySelector('.done').click()"
WORDS = "Remove the chip"


def test_on_the_page_a_critical_banner_asks_done_sure_and_goes_at_the_second_touch(page: Station) -> None:
    page.rig.rfid.cmd("place", antenna=antenna(3, "main"), chips=[["e000000000000002", 500]])
    page.rig.next("alert", code="counterfeit_chip")
    assert page.until("the chip's banner", lambda: page.page(BANNER, WORDS)) == ["critical", "Done"]
    page.page(TOUCH, WORDS)
    page.until("Done: sure?", lambda: page.page(BANNER, WORDS) == ["critical", "Done: sure?"])
    assert (banner(page.screen, WORDS) or {}).get("armed") is True          # armed by the server
    page.page(TOUCH, WORDS)
    page.until("the banner gone", lambda: page.page(BANNER, WORDS) is None)
    assert banner(page.screen, WORDS) is None
