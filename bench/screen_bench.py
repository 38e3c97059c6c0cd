"""Dealer screen figures: RFID and shoe input to the page showing it, a touch to the table's event,
and the screen server's memory.

The table is the test rig (``tests/rigs/daemon_rig.py``): the daemon as
``table-controller run``, its shoe and RFID reader simulated by ``firmware-bridge
simulate`` processes on ptys. The screen runs as ``table-controller screen`` and
headless Chromium shows it. Easy Jack hands, one seat that stands on its first card while the dealer
draws to her total:

* **RFID to page**: the bench asks the simulated reader to place a chip (wall
  clock before the request) until the page has drawn the picture of the
  ``bet.placed`` it caused (a MutationObserver on the page notes the wall clock
  at the next animation frame after the DOM changed, with the picture's seq);
* **shoe to page**: the same for a card drawn and its ``card.dealt``;
* **touch to event**: the wall clock before the bench clicks an action button
  (``deal``, ``stand``, ``next``) until the bench's pit subscriber holds the
  event it caused.

Both ends of each figure are read with the same wall clock on this machine;
the input figures include the simulator's own handling of the request and the
serial link; the touch figure includes WebDriver's call into the page.

    .venv/bin/python bench/screen_bench.py [--hands 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.devkit.browser import chromium, missing  # noqa: E402
from tests.rigs.daemon_rig import TableRig, chip  # noqa: E402
from tests.screen.conftest import Screen  # noqa: E402

WATCH = """
window.__marks = [];
new MutationObserver(() => requestAnimationFrame(() =>
    window.__marks.push([Date.now(), Number(document.body.dataset.seq)])))
  .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
"""

CARDS = [f"{rank}{suit}" for suit in "cdhs" for rank in "23456789TJQKA"] * 6
"""Six decks, in order."""


def shown_at(browser: Any, seq: int, timeout: float = 10.0) -> float:
    """The wall clock (s) at which the page first drew a picture of ``seq`` or later."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        marks = browser.execute_script("return window.__marks.splice(0)")
        for at, drawn in marks:
            if drawn >= seq:
                browser.execute_script("window.__marks = []")
                return float(at) / 1000
        time.sleep(0.005)
    raise AssertionError(f"the page never drew seq {seq}")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def run(hands: int) -> dict[str, Any]:
    """Play ``hands`` hands from the screen; the figures."""
    rfid: list[float] = []
    shoe: list[float] = []
    touch: list[float] = []
    with tempfile.TemporaryDirectory(prefix="screen-bench-") as name:
        folder = Path(name)
        rig = TableRig(folder)
        screen = None
        browser = chromium(folder / "profile", width=1280, height=800)
        try:
            rig.start()
            screen = Screen(rig.config, folder / "screen.log")
            browser.get(screen.url)
            time.sleep(1.0)
            browser.execute_script(WATCH)
            rig.load(CARDS, cut_at=len(CARDS) - 1)
            rss_start = rss_kib(screen.proc.pid)

            def pressed(action: str, kind: str) -> None:
                offered = [a["name"] for a in rig.pit.control({"cmd": "state"})["state"]["actions"]]
                if action not in offered:
                    return                                # a hand that needs no stand
                button = f"#actions [data-action='{action}']"
                deadline = time.monotonic() + 5
                while not browser.execute_script(f"return !!document.querySelector(\"{button}\")"):
                    assert time.monotonic() < deadline, f"no {action} button"
                    time.sleep(0.005)
                before = time.time()
                browser.execute_script(f"document.querySelector(\"{button}\").click()")
                rig.next(kind)
                touch.append(time.time() - before)

            def drawn() -> None:
                before = time.time()
                rig.shoe.cmd("draw")
                dealt = rig.next("card.dealt")
                shoe.append(shown_at(browser, dealt["seq"]) - before)

            for hand in range(hands):
                rig.rfid.cmd("clear", antenna=1)
                if hand:
                    rig.next("bet.placed", amount=0)
                before = time.time()
                rig.rfid.cmd("place", antenna=1, chips=[chip("a", 1 + hand % 30)])
                placed = rig.next("bet.placed")
                rfid.append(shown_at(browser, placed["seq"]) - before)
                pressed("deal", "bets.closed")
                drawn()                                   # the seat's card
                drawn()                                   # the dealer's, face down
                pressed("stand", "player.action")
                while rig.pit.control({"cmd": "state"})["state"]["table_phase"] != "settled":
                    drawn()                               # the dealer draws to her total
                pressed("next", "hand.ended")
            rss_end = rss_kib(screen.proc.pid)
        finally:
            browser.quit()
            if screen is not None:
                screen.stop()
            rig.close()

    def ms(values: list[float]) -> dict[str, float]:
        return {"n": len(values), "p50_ms": round(statistics.median(values) * 1000, 1),
                "p99_ms": round(percentile(values, 0.99) * 1000, 1)}

    return {"rfid_to_page": ms(rfid), "shoe_to_page": ms(shoe), "touch_to_event": ms(touch),
            "screen_rss_mib": [round(rss_start / 1024, 1), round(rss_end / 1024, 1)]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30, help="Easy Jack hands to play (at most 32)")
    args = parser.parse_args()
    why = missing()
    if why is not None:
        print(f"screen bench: no headless Chromium: {why}", file=sys.stderr)
        return 1
    figures = run(min(args.hands, 32))
    for name, value in figures.items():
        print(f"{name:16} {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
