"""The dealer screen's tests: ``table-controller screen`` as a subprocess over a real daemon, in Chromium.

The daemon and its simulated boards are :class:`tests.rigs.daemon_rig.TableRig`;
the screen runs as it is deployed, ``table-controller screen --config`` on the
table's own configuration, in its own process. The page is driven in Debian's
headless Chromium (``controller/devkit/browser.py``) by touching its buttons.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.commands.registry import by_name
from controller.games.catalog import load_games
from tests.rigs.browser import headless_chromium
from tests.rigs.daemon_rig import TIMEOUT, TableRig
from tests.rigs.served import Served

load_games()                         # every game's commands, for their labels

WAIT = 15.0


class Screen(Served):
    """``table-controller screen --config ... --port 0`` as a subprocess; ``url`` once it listens."""

    what = "the screen"

    def __init__(self, config: Path, log: Path) -> None:
        super().__init__([sys.executable, "-m", "controller.cli", "screen", "--config", str(config),
                          "--port", "0"], log)
        self.url = self.served_url

    def model(self) -> dict[str, Any]:
        """What the page draws now, as the server has it."""
        with urllib.request.urlopen(self.url + "api/model", timeout=5) as reply:
            found: dict[str, Any] = json.loads(reply.read())
            return found


def dismiss(screen: Screen, body: dict[str, Any]) -> dict[str, Any]:
    """The screen server's Done on a banner (``POST /api/dismiss``, as the page sends it): its answer."""
    request = urllib.request.Request(screen.url + "api/dismiss", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=5) as reply:
        answer: dict[str, Any] = json.loads(reply.read())
        return answer


class Station:
    """A table (daemon, boards), its screen, and Chromium showing the screen."""

    def __init__(self, rig: TableRig, screen: Screen, browser: Any) -> None:
        self.rig = rig
        self.screen = screen
        self.browser = browser

    def open(self, path: str = "") -> None:
        self.browser.get(self.screen.url + path)

    def page(self, script: str, *args: Any) -> Any:
        return self.browser.execute_script(script, *args)

    def until(self, what: str, check: Callable[[], Any], timeout: float = WAIT) -> Any:
        """Wait until ``check()`` is truthy; fail saying ``what`` and the screen's log."""
        deadline = time.monotonic() + timeout
        while True:
            found = check()
            if found:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"the page never showed {what}\n--- screen log ---\n"
                                     f"{self.screen.log_text()}\n--- daemon log ---\n"
                                     f"{self.rig.log_text()[-3000:]}")
            time.sleep(0.03)

    def caught_up(self) -> dict[str, Any]:
        """The table's state once the page draws the picture of its last event, and every picture
        published since (the page's seq is the table's and its instruction the table's). The table is
        asked again each time: a reading still on its way moves it on while the page catches up. The
        browser is brought back to this station's screen first if another station took it (a station
        of a module's tests shares the browser with those of single tests)."""
        table: dict[str, Any] = {}
        if not self.browser.current_url.startswith(self.screen.url):
            self.open()                        # another test's station took the browser meanwhile

        def drawn() -> bool:
            table.update(self.rig.pit.control({"cmd": "state"}))
            state = table["state"]
            shown = self.page("return [document.body.dataset.seq, "
                              "document.getElementById('instruction').textContent, "
                              "[...document.querySelectorAll('#actions [data-action]')]"
                              ".map(b => b.dataset.action)]")
            return bool(shown[0] == str(table["seq"]) and shown[1] == state["instruction"]
                        and shown[2] == [a["name"] for a in state["actions"]])
        self.until("the table's last event drawn", drawn)
        return dict(table["state"])

    def check(self) -> dict[str, Any]:
        """The page once caught up, against the table's state: seats in turn, cards, totals, stacks,
        bets, the dealer's hand, pots and the action buttons. Returns the table's state."""
        state = self.caught_up()
        shown = self.page("""
            const seats = {};
            for (const s of document.querySelectorAll('#seats .seat')) {
              seats[s.dataset.seat] = {
                in_turn: s.classList.contains('in-turn'),
                cards: [...s.querySelectorAll('.hand .card')].map(c => c.dataset.card),
                stack: s.querySelector('.stack') ? Number(s.querySelector('.stack').dataset.stack) : null,
                bets: Object.fromEntries([...s.querySelectorAll('.spot')].filter(x => x.dataset.bet !== '0')
                                         .map(x => [x.dataset.spot, Number(x.dataset.bet)])),
              };
            }
            return {seats, dealer: [...document.querySelectorAll('#dealer .card')].map(c => c.dataset.card),
                    pots: document.querySelectorAll('#dealer .pot').length,
                    notice: document.getElementById('notice').textContent};
        """)
        for seat in state["seats"]:
            drawn = shown["seats"][str(seat["seat"])]
            cards = [c if c is not None else "down" for h in seat["hands"] for c in h["cards"]]
            assert drawn["in_turn"] == seat["in_turn"], (seat, drawn)
            assert drawn["cards"] == cards, (seat, drawn)
            assert drawn["stack"] == seat.get("stack"), (seat, drawn)
            assert drawn["bets"] == {k: v for k, v in seat["bets"].items() if v}, (seat, drawn)
        assert shown["dealer"] == [c if c is not None else "down" for c in state["dealer"]["cards"]]
        assert shown["pots"] == len(state["pots"])
        return state

    def touch(self, action: str) -> None:
        """Touch the action's button (it must be on the page) once the page draws the table as it is
        now: a button of the picture before (a card just drawn) may be redrawn under the touch."""
        self.caught_up()
        self.until(f"a {action!r} button", lambda: self.page(
            "return !!document.querySelector(`#actions [data-action='${arguments[0]}']`)", action))
        self.page("document.querySelector(`#actions [data-action='${arguments[0]}']`).click()", action)

    def step(self, action: str) -> dict[str, Any]:
        """Touch an action's button (twice for a dangerous one), wait until the table took it (its seq
        moved on), and check the page against the table's state, which is returned."""
        before = self.rig.pit.control({"cmd": "state"})["seq"]
        self.touch(action)
        if self.page("return !!document.querySelector(`#actions .danger[data-action='${arguments[0]}']`)",
                     action):
            self.touch(action)                     # a dangerous action (VOID, leave) takes a second touch
        self.until(f"{action!r} taken by the table",
                   lambda: self.rig.pit.control({"cmd": "state"})["seq"] > before)
        return self.check()

    def supervisor(self, who: str, pin: str, cmd: str, seat: int | None, dollars: str | None) -> str:
        """Open the supervisor panel, type the id and PIN on its keypads, choose the command, the
        seat (None: the command takes none) and the amount (``""``: none; None: the command takes
        none), check the confirmation (the command's label) and send; the panel's reply."""
        if self.page("return document.getElementById('panel').hidden"):
            self.key("#supervisor-open")
            for key in who:
                self.key(f"#panel-body [data-key='{key}']")
            self.key("#panel-ok")
        for key in pin:
            self.key(f"#panel-body [data-key='{key}']")
        assert pin not in self.page("return document.body.innerHTML")      # only dots are shown
        assert self.page("return document.getElementById('panel-shown').textContent") == "\u2022" * len(pin)
        self.key("#panel-ok")
        self.key(f"#panel-body [data-choice='{cmd}']")
        if seat is not None:
            self.key(f"#panel-body [data-choice='{seat}']")
        if dollars is not None:
            self.type_amount(dollars)
        confirm = self.page("return document.getElementById('panel-shown').textContent")
        record = by_name(cmd)
        label = record.label if record is not None else cmd
        assert confirm.startswith(label) and (seat is None or f"seat {seat}" in confirm), confirm
        assert not dollars or f"${dollars}" in confirm.replace(",", ""), confirm
        self.page("document.getElementById('panel-reply').textContent = ''")
        self.key("#panel-ok")
        reply: str = self.until("the supervisor command's reply", lambda: self.page(
            "return document.getElementById('panel-reply').textContent"))
        assert pin not in self.page("return document.body.innerHTML")
        return reply

    def key(self, selector: str) -> None:
        """Touch a key of a keypad or panel."""
        self.until(f"the key {selector}", lambda: self.page(
            "const k = document.querySelector(arguments[0]); return !!k && k.offsetParent !== null",
            selector))
        self.page("document.querySelector(arguments[0]).click()", selector)

    def type_amount(self, dollars: str) -> None:
        """Type an amount in dollars on the open amount keypad and touch OK."""
        for digit in dollars:
            self.key(f"#amount [data-digit='{digit}']")
        self.key("#amount [data-key=ok]")

    def resize(self, width: int, height: int) -> None:
        """The page's viewport made ``width`` x ``height`` (the window's frame allowed for)."""
        outer = [width, height]
        for _ in range(10):
            self.browser.set_window_size(*outer)
            time.sleep(0.2)                                   # the window manager's resize
            inner = self.page("return [window.innerWidth, window.innerHeight]")
            if inner == [width, height]:
                return
            outer = [outer[0] + width - inner[0], outer[1] + height - inner[1]]
        raise AssertionError(f"the page never became {width}x{height}: {inner}")

    def screenshot(self, path: Path, width: int, height: int) -> None:
        self.resize(width, height)
        time.sleep(0.3)
        self.browser.save_screenshot(str(path))

    def readable(self, selector: str) -> list[str]:
        """The text of every element matching ``selector``, each checked readable on the screen as it
        is now: scrolled into view, it lies wholly inside the page, with a width and height."""
        found: list[list[Any]] = self.page("""
            return [...document.querySelectorAll(arguments[0])].map((e) => {
              e.scrollIntoView({block: "nearest"});
              const r = e.getBoundingClientRect();
              return [e.textContent, r.width > 0 && r.height > 0 && r.left >= 0 && r.top >= 0 &&
                      r.right <= window.innerWidth + 0.5 && r.bottom <= window.innerHeight + 0.5];
            });""", selector)
        for text, inside in found:
            assert inside, f"{selector} {text!r} is not wholly on the screen"
        return [text for text, _ in found]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium (one per test module, with a fresh profile) at 1280x800."""
    with headless_chromium(tmp_path_factory.mktemp("chromium-profile"), width=1280, height=800) as driver:
        yield driver


def station_for(folder: Path, browser: Any, **config: Any) -> Iterator[Station]:
    """A started table with ``config`` (as :class:`TableRig` takes it), its screen and the browser."""
    rig = TableRig(folder, **config)
    screen = None
    try:
        rig.start()
        screen = Screen(rig.config, folder / "screen.log")
        station = Station(rig, screen, browser)
        station.open()
        yield station
    finally:
        if screen is not None:
            screen.stop()
        rig.close()


__all__ = ["TIMEOUT", "Screen", "Station", "dismiss", "station_for"]
