"""Touch and sight on the dealer screen (issue 25 items 5 and 7), in Chromium over a real Easy Jack
table with a screen and no button, at 800x480 and 720x1280:

- every action button, the boards' status and the Supervisor button at least 64 px tall (48 px on
  a screen less than 521 px high, where the seats need the room), each action's label on one line;
- every visible text at a contrast of at least 4.5:1 (WCAG 2.x AA) against what is behind it, from
  the page's computed colours;
- the PIN pad a phone's 3x4;
- VOID set apart and taken only by a second touch (a touch elsewhere between disarms it);
- with the reader unplugged mid-hand the screen offers no STAND, says "Wait", and the table refuses
  a STAND sent anyway, with the reason;
- a payout box says why it pays.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.rigs.daemon_rig import chip
from tests.screen.conftest import Station, station_for
from tests.screen.sight import CONTRAST

SIZES = ((800, 480), (720, 1280))

SIZES_JS = """
const found = [];
for (const b of document.querySelectorAll("#actions .action, #devices .device, #supervisor-open")) {
  const r = b.getBoundingClientRect();
  found.push({what: b.dataset.action || b.dataset.device || b.id, height: r.height,
              nowrap: getComputedStyle(b).whiteSpace === "nowrap", fits: b.scrollWidth <= b.clientWidth + 1,
              inside: r.right <= window.innerWidth + 1 && r.bottom <= window.innerHeight + 1});
}
return found;
"""


@pytest.fixture
def station(tmp_path: Path, browser: Any) -> Iterator[Station]:
    yield from station_for(tmp_path, browser, buttons=(), screen=8070)


def size(station: Station, width: int, height: int) -> None:
    """The page's inner size ``width`` x ``height``."""
    station.browser.set_window_size(width, height)
    inner = station.page("return [window.innerWidth, window.innerHeight]")
    station.browser.set_window_size(2 * width - inner[0], 2 * height - inner[1])
    station.until(f"the page at {width}x{height}", lambda: station.page(
        "return [window.innerWidth, window.innerHeight]") == [width, height])


def looks_right(station: Station, where: str) -> None:
    """At each size: the touch targets and every visible text's contrast."""
    for width, height in SIZES:
        size(station, width, height)
        targets = station.page(SIZES_JS)
        assert {t["what"] for t in targets} >= {"supervisor-open", "rfid", "shoe"}, targets
        for target in targets:
            least = 48 if height <= 520 else 64              # a short screen gives the seats the room
            assert target["height"] >= least and target["nowrap"] and target["fits"] and target["inside"], (
                where, width, height, target)
        checked, low = station.page(CONTRAST)
        assert checked > 10 and low == [], (where, width, height, low)
    size(station, 1280, 800)


def act(station: Station, action: str) -> dict[str, Any]:
    """``POST /api/act`` straight to the screen's server (as a page would), and its reply."""
    request = urllib.request.Request(station.screen.url + "api/act", method="POST",
                                     data=json.dumps({"action": action}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
        return answer


def test_touch_targets_contrast_void_twice_a_board_offline_and_why_a_payout_pays(station: Station) -> None:
    rig = station.rig
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh", "8h", "8c", "9s", "Td", "7c"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    station.check()
    looks_right(station, "betting")

    station.key("#supervisor-open")                                # the PIN pad: a phone's 3x4
    station.key("#panel-body [data-key='S']")
    station.key("#panel-ok")
    pad = station.page("return [...document.querySelectorAll('#panel-body button')].map(b => "
                       "({key: b.dataset.key, x: Math.round(b.getBoundingClientRect().left), "
                       "y: Math.round(b.getBoundingClientRect().top)}))")
    assert [k["key"] for k in pad] == [*"123456789", "\u232b", "0", "Clear"]
    assert len({k["x"] for k in pad}) == 3 and len({k["y"] for k in pad}) == 4
    looks_right(station, "the PIN pad")
    station.key("#panel-cancel")

    station.touch("deal")
    rig.next("bets.closed")
    for _ in range(4):
        rig.draw()
    state = station.check()
    assert "stand" in [a["name"] for a in state["actions"]]
    assert "\u201cStand\u201d" in state["instruction"] and "by control" not in state["instruction"]
    looks_right(station, "a decision")
    void = station.page("const b = document.querySelector(\"#actions [data-action='void']\");"
                        "return [b.classList.contains('danger'), getComputedStyle(b).order, b.textContent]")
    assert void == [True, "1", "Void the hand"]                   # set apart, at the end

    rig.rfid.cmd("unplug")                                        # the reader offline mid-hand
    rig.next("device.offline", timeout=8)
    state = station.check()
    assert [a["name"] for a in state["actions"]] == ["void", "call_floor"]
    assert state["instruction"].startswith("Wait: the rfid is offline")
    assert station.page("return document.querySelector(\"[data-device='rfid']\").classList.contains('bad')")
    looks_right(station, "the reader offline")
    refused = act(station, "stand")
    assert refused == {"ok": False, "error": "stand: the rfid is offline: the hand waits until it is back"}
    assert station.until("the refusal in the dealer's words", lambda: station.page(
        "return document.getElementById('notice').textContent")) == (
        "Stand: the rfid is offline: the hand waits until it is back")
    rig.rfid.cmd("replug")
    rig.next("device.online", timeout=8)
    assert "stand" in [a["name"] for a in station.check()["actions"]]

    station.touch("void")                                          # armed, not sent ...
    assert station.page("return document.querySelector(\"#actions [data-action='void']\").textContent"
                        ) == "Void the hand: touch again"
    station.touch("stand")                                         # ... and disarmed by another touch
    rig.next("player.action", seat=1)
    state = station.check()
    assert state["table_phase"] == "in_hand" and state["hand"] == 1   # the first VOID was never sent
    assert station.page("return document.querySelector(\"#actions [data-action='void']\").textContent"
                        ) == "Void the hand"
    rig.draw()
    station.check()
    station.touch("stand")
    settled = rig.next("hand.settled")["data"]["results"]
    win = next(r for r in settled if r["payout"] > 0)
    why = station.until("why the payout pays", lambda: station.page(
        f"const w = document.querySelector(\"[data-payout='{win['seat']}:main'] .why\");"
        "return w && w.textContent"))
    assert why == (win.get("label") or f"{win['outcome']} 1:1"), (why, win)
    looks_right(station, "settled")
