"""Easy Jack dealt through the real daemon with the optical shoe: the shoe board's beam (a simulated board
whose house cards carry no code: CARD_UNREADABLE for each) and the frames of Debian's standard design
rendered for the cards the dealer deals, through the same capture interface a camera has, the design
taught first with ``table-controller teach``. The cards reach the table as the marked shoe's do; a card the
camera cannot read is the table's unreadable card (the dealer puts it aside, confirms the banner on the
screen in its two steps, and draws again), and so is a card shown more often than the six-deck shoe holds.
Skipped, saying why, when the deck designs cannot be had."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from tests.optical.conftest import deck_design
from tests.rigs.daemon_rig import TIMEOUT, TableRig, chip
from tests.screen.conftest import Screen, dismiss

UNREADABLE_WORDS = "The shoe could not read a card"
"""What the card_unreadable banner tells the dealer (controller/events/alerts.py)."""


class OpticalTable:
    """The daemon on the optical shoe, its screen, and the camera's script of the cards dealt."""

    def __init__(self, rig: TableRig, screen: Screen) -> None:
        self.rig = rig
        self.screen = screen
        self.script = rig.folder / "frames.txt"

    def show(self, line: str) -> None:
        """A card through the beam, the camera seeing ``line`` (``Kc``, or ``Kc hidden``)."""
        with self.script.open("a") as script:
            script.write(line + "\n")
        self.rig.shoe.cmd("unreadable")          # a house card: the board's scanner reads no code
        self.rig.shoe.cmd("draw")

    def deal(self, line: str) -> dict[str, Any]:
        """Show a card; the event it caused (``card.dealt`` or a card alert)."""
        self.show(line)
        while True:
            event = self.rig.next()
            if "index" in event["data"] and event["type"] in ("card.dealt", "alert"):
                return event

    def banner(self) -> dict[str, Any] | None:
        model = self.screen.model()
        return next((b for b in model["banners"] if UNREADABLE_WORDS in b["todo"]), None)

    def confirm_unreadable(self) -> None:
        """The dealer, the card put aside, touches the banner's Done and confirms it (two steps)."""
        deadline = time.monotonic() + TIMEOUT
        while (shown := self.banner()) is None:
            assert time.monotonic() < deadline, f"no unreadable banner\n{self.screen.log_text()}"
            time.sleep(0.05)
        assert shown["confirm"] is True
        first = dismiss(self.screen, {"key": shown["key"]})
        assert first["ok"] is False and first["armed"] is True
        assert dismiss(self.screen, {"key": shown["key"], "confirm": True}) == {"ok": True}
        assert self.banner() is None


@pytest.fixture
def table(tmp_path: Path) -> Iterator[OpticalTable]:
    deck_design("standard")
    rig = TableRig(tmp_path, payout_check=False, devices={"shoe": 'driver = "optical"\n'
                                                                   'camera = "rendered:standard:frames.txt"\n'
                                                                   'designs = ["standard.npz"]'})
    screen = None
    try:
        assert main(["teach", "--config", str(rig.config), "--design", "standard"]) == 0
        rig.start()
        screen = Screen(rig.config, tmp_path / "screen.log")
        yield OpticalTable(rig, screen)
    finally:
        if screen is not None:
            screen.stop()
        rig.close()


def test_hands_of_easy_jack_are_dealt_through_the_optical_shoe(table: OpticalTable) -> None:
    rig = table.rig
    links = rig.pit.control({"cmd": "links"})["links"]
    assert links["shoe"]["online"] and links["shoe"]["cards_read"] == 0
    loaded = rig.load(["2c"] * 40, cut_at=0)                   # the board's cards play no part
    assert loaded["data"]["decks"] == 6

    # hand 1: the camera cannot read seat 3's first card; the dealer puts it aside, confirms it on the
    # screen, and draws again
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.next("bet.placed", seat=1)
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    assert table.deal("5h")["data"]["card"] == "5h"
    unreadable = table.deal("Qs hidden")
    assert (unreadable["type"], unreadable["data"]["code"], unreadable["data"]["index"]) == (
        "alert", "card_unreadable", 2)
    table.confirm_unreadable()
    dealt = [table.deal(card) for card in ("4c", "9d")]
    assert [(d["type"], d["data"]["to"], d["data"]["seat"], d["data"]["card"]) for d in dealt] == [
        ("card.dealt", "seat", 3, "4c"), ("card.dealt", "dealer", None, None)]
    assert table.deal("3s")["data"]["card"] == "3s"             # seat 1 hits
    assert rig.pit.press("stand") == {"ok": True}
    assert table.deal("6d")["data"]["card"] == "6d"             # seat 3 hits
    assert rig.pit.press("stand") == {"ok": True}
    assert rig.next("card.revealed")["data"]["card"] == "9d"
    settled = rig.next("hand.settled")
    assert [(r["seat"], r["outcome"]) for r in settled["data"]["results"]] == [(1, "lose"), (3, "win")]
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")

    # hand 2: a king of clubs to each of six seats, then a seventh: a six-deck shoe holds six
    for seat, uid in ((2, 3), (4, 4), (5, 5), (6, 6)):
        rig.bet(seat, "main", chip("a", uid))
        rig.next("bet.placed", seat=seat)
    assert rig.pit.press("deal") == {"ok": True}
    rig.next("bets.closed")
    kings = [table.deal("Kc") for _ in range(6)]
    assert [(k["data"]["seat"], k["data"]["card"]) for k in kings] == [(seat, "Kc") for seat in range(1, 7)]
    seventh = table.deal("Kc")
    assert (seventh["type"], seventh["data"]["code"], seventh["data"]["index"]) == (
        "alert", "card_unreadable", 13)
    table.confirm_unreadable()
    hole = table.deal("8d")
    assert (hole["data"]["to"], hole["data"]["index"]) == ("dealer", 14)
    for _ in range(6):
        assert rig.pit.press("stand") == {"ok": True}
    assert rig.next("card.revealed")["data"]["card"] == "8d"
    settled = rig.next("hand.settled")
    assert {r["outcome"] for r in settled["data"]["results"]} == {"win"}
    assert rig.pit.press("next") == {"ok": True}
    rig.next("hand.ended")

    state = rig.pit.control({"cmd": "state"})["state"]
    assert [(a["code"], a.get("index")) for a in state["alerts"]] == [
        ("card_unreadable", 2), ("card_unreadable", 13)]          # never card_over_count: no seventh Kc dealt
    links = rig.pit.control({"cmd": "links"})["links"]
    assert (links["shoe"]["cards_read"], links["shoe"]["cards_unreadable"]) == (12, 2)
    assert "shoe card 13 unreadable: read as Kc, one more than the 6 its 6-deck shoe holds" in rig.log_text()
