"""End to end: Buster Blackjack X through the real daemon, boards simulated on ptys, the pit checked
event by event: a player-dealer's bank, splits and doubles, surrender, insurance, the Buster bonus,
the Blazing 7's meter and a jackpot confirmed by a supervisor, and SIGKILL at the moments that
matter for the meter."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.simulated import antenna
from controller.security.supervisor_pins import hash_pin
from tests.rigs.daemon_rig import TableRig, chip

GAME = """\
progressive_wager = 500
progressive_increment = 25
collection_fee = 100
"""
SPOTS = ("main", "side", "progressive", "insurance")
BUTTONS = ("deal", "stand", "next", "void", "double", "split", "surrender", "insurance")
PIN = "60417293"


@pytest.fixture(scope="module")
def supervisors() -> dict[str, str]:
    return {"S101": hash_pin(PIN)}


@pytest.fixture
def buster(tmp_path: Path, supervisors: dict[str, str]) -> Iterator[TableRig]:
    table = TableRig(tmp_path, game=GAME, game_name="buster-blackjack-x", spots=SPOTS, buttons=BUTTONS,
                     payout_check=False,
                     supervisors=supervisors)
    try:
        yield table
    finally:
        table.close()


def until(rig: TableRig, kind: str) -> list[dict[str, Any]]:
    """Every event up to and including the next one of ``kind``."""
    events = []
    while True:
        events.append(rig.next())
        if events[-1]["type"] == kind:
            return events


def ok(reply: dict[str, Any]) -> None:
    assert reply == {"ok": True}, reply


def results(settled: dict[str, Any]) -> list[tuple[int, str, int, str, int]]:
    return [(r["seat"], r["spot"], r["hand_index"], r["outcome"], r["payout"])
            for r in settled["data"]["results"]]


def cli(rig: TableRig, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args, "--config", str(rig.config)],
                          capture_output=True, text=True, timeout=60)


def test_a_banked_table_plays_split_double_surrender_bonus_and_insurance(buster: TableRig) -> None:
    rig = buster
    opened = rig.start()
    assert opened["data"]["game"] == "buster-blackjack-x"
    assert rig.next("meter")["data"] == {"name": "blazing_7s", "value": 100_000}
    ok(rig.pit.control({"cmd": "buy_in", "seat": 5, "amount": 20_000}))
    assert rig.next("seat.stack")["data"] == {"seat": 5, "amount": 20_000, "reason": "buy_in"}
    rig.load(["8h", "Tc", "4d", "8c", "9d", "2s", "3h", "Kc", "7s", "3d", "5h", "Ts",
              "9h", "Tc", "Ac", "9s", "8d", "Kd"], decks=8)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.bet(3, "side", chip("a", 3))
    for _ in range(3):
        rig.next("bet.placed")

    # Hand 1: seat 1 splits 8s, doubles the first hand, surrenders the second; seat 3 stands on 19
    # with a bonus; the player-dealer (seat 5) goes 4 2 3 5 10: a bust in five cards.
    ok(rig.pit.press("deal"))
    started = rig.next("hand.started")
    assert started["data"] == {"seats": [1, 3], "dealer_seat": 5}
    assert rig.next("button.moved")["data"] == {"seat": 5}          # the first hand sets the button
    for _ in range(6):
        rig.draw()
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["dealer"]["cards"] == ["4d", None] and state["dealer"]["seat"] == 5
    assert state["live_buttons"] == ["stand", "void", "double", "split", "surrender"]
    assert rig.pit.press("split")["error"].startswith("split: seat 1: a split needs exactly $10.00 more")
    rig.add(1, "main", chip("a", 4), chip("a", 5))
    ok(rig.pit.press("split"))
    split = rig.next("player.action")["data"]
    assert split == {"seat": 1, "hand_index": 0, "action": "split", "amount": 1000}
    assert rig.draw()["data"]["card"] == "3h"
    rig.add(1, "main", chip("a", 6), chip("a", 7))
    ok(rig.pit.press("double"))
    assert rig.next("player.action")["data"]["amount"] == 1000
    dealt = rig.draw()
    assert (dealt["data"]["seat"], dealt["data"]["hand_index"], dealt["data"]["card"]) == (1, 0, "Kc")
    assert rig.draw()["data"]["hand_index"] == 1                          # 8 7: 15
    ok(rig.pit.press("surrender"))
    ok(rig.pit.press("stand"))                                           # seat 3
    revealed = rig.next("card.revealed")
    assert revealed["data"]["card"] == "2s" and revealed["data"]["seat"] == 5
    for _ in range(3):
        rig.draw()
    settled = rig.next("hand.settled")
    assert results(settled) == [(1, "main", 0, "win", 2000), (1, "main", 1, "surrender", -500),
                                (3, "main", 0, "win", 2500), (3, "side", 0, "win", 2000)]
    assert settled["data"]["results"][3]["label"] == "bust in 5 cards pays 4 to 1"
    assert not [e for e in rig.pit.taken() if e["type"] == "alert"]        # the split and double chips
    ok(rig.pit.press("next"))
    ended = until(rig, "hand.ended")
    assert [(e["type"], e["data"]) for e in ended[:2]] == [         # the only bank keeps the deal
        ("seat.stack", {"seat": 5, "amount": 20_000 - 100 + 500 - 2000 - 2500, "reason": "result"}),
        ("hand.ended", {"hand": 1})]
    assert "Bank at seat 5: $200.00 -> $159.00, fee $1.00" in rig.log_text()

    # Hand 2: an ace up; seat 1 insures, seat 3 does not; the hole card makes a Natural 31.
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "side")
    rig.pit.drain()
    ok(rig.pit.press("deal"))
    for _ in range(6):
        rig.draw()
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["live_buttons"] == ["next", "void", "insurance"] and state["seats"][0]["in_turn"]
    rig.add(1, "insurance", chip("a", 8))
    ok(rig.pit.press("insurance"))
    ok(rig.pit.press("next"))                                            # seat 3: no insurance
    settled = rig.next("hand.settled")
    assert results(settled) == [(1, "main", 0, "lose", -1000), (1, "insurance", 0, "win", 1000),
                                (3, "main", 0, "lose", -2500)]
    events = rig.pit.taken()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def test_a_jackpot_survives_a_crash_and_is_paid_once_a_supervisor_confirms(buster: TableRig) -> None:
    rig = buster
    rig.start()
    rig.next("meter")
    ok(rig.pit.control({"cmd": "buy_in", "seat": 6, "amount": 50_000}))
    rig.load(["7c", "7c", "7c", "Td", "9h"], decks=8)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(1, "progressive", chip("a", 3))
    rig.next("bet.placed", spot="progressive")
    ok(rig.pit.press("deal"))
    assert rig.next("meter")["data"]["value"] == 100_025
    for _ in range(4):
        rig.draw()
    ok(rig.pit.press("stand"))
    hit = rig.next("progressive.hit")
    assert hit["data"] == {"seat": 1, "hand_index": 0, "prize": "three suited 7s", "amount": 100_025}
    alert = rig.next("alert")
    assert (alert["data"]["code"], alert["data"]["seat"]) == ("progressive_hit", 1)
    assert rig.next("meter")["data"]["value"] == 100_000
    settled = rig.next("hand.settled")
    assert results(settled)[1] == (1, "progressive", 0, "waiting", -500)     # paid by progressive.paid
    ok(rig.pit.press("next"))
    rig.next("hand.ended")

    assert rig.kill() == -9                               # between the hit and its confirmation
    rig.start()
    waiting = cli(rig, "progressive")
    assert waiting.returncode == 0, waiting.stderr
    assert "blazing_7s meter: $1,000.00" in waiting.stdout
    assert "seat 1 $1,000.25 (three suited 7s) [hand 1," in waiting.stdout
    refused = rig.pit.press("deal")
    assert "jackpot $1,000.25 waits for a supervisor" in refused["error"]

    wrong = rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101", "pin": "0000"})
    assert wrong == {"ok": False, "error": "wrong supervisor id or PIN"}
    nobody = rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S999", "pin": PIN})
    assert nobody == {"ok": False, "error": "wrong supervisor id or PIN"}
    assert rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101"})["ok"] is False
    ok(rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101", "pin": PIN}))
    paid = rig.next("progressive.paid")
    assert paid["data"] == {"seat": 1, "amount": 100_025, "supervisor": "S101"}
    again = rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101", "pin": PIN})
    assert again == {"ok": False, "error": "confirm_progressive: seat 1 has no Blazing 7's jackpot waiting"}
    assert "'S999'" in rig.log_text() and PIN not in rig.log_text()
    for _ in range(3):                                                    # three wrong PINs lock
        rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101", "pin": "1"})
    locked = rig.pit.control({"cmd": "confirm_progressive", "seat": 1, "supervisor": "S101", "pin": PIN})
    assert locked["error"].startswith("too many wrong supervisor PINs")

    report = json.loads(cli(rig, "progressive", "--json").stdout)
    assert report["meters"] == {"blazing_7s": 100_000} and report["unpaid"] == []
    assert [(h["seat"], h["amount"], h["supervisor"], h["prize"]) for h in report["hits"]] == [
        (1, 100_025, "S101", "three suited 7s")]
    assert [e["type"] for e in rig.pit.taken()].count("progressive.paid") == 1


def test_sigkill_never_loses_nor_doubles_a_meter_increment(buster: TableRig) -> None:
    rig = buster
    rig.start()
    rig.next("meter")
    ok(rig.pit.control({"cmd": "buy_in", "seat": 6, "amount": 50_000}))
    rig.load(["9h", "8c", "5d", "Th", "Tc", "Ts", "9d", "8s", "5c", "Tc", "Td", "Ts"], decks=8)
    rig.add(1, "main")
    lit = rig.rfid.cmd("status")["spot_lights"]
    assert lit == sum(1 << (antenna(seat, "progressive") - 1) for seat in range(1, 7))
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(1, "progressive", chip("a", 3))
    rig.bet(2, "main", chip("a", 4), chip("a", 5))
    rig.bet(2, "progressive", chip("a", 6))
    rig.next("bet.placed", seat=2, spot="progressive")

    assert rig.kill() == -9                                              # wagers placed, no increment yet
    rig.start()
    assert rig.pit.control({"cmd": "state"})["state"]["meters"]["blazing_7s"] == 100_000
    ok(rig.pit.press("deal"))
    assert rig.next("meter")["data"]["value"] == 100_050
    assert rig.kill() == -9                                              # the increments are journaled
    rig.start()
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["meters"]["blazing_7s"] == 100_050 and state["hand"] == 1
    for _ in range(6):
        rig.draw()
    rig.add(1, "main")
    assert rig.rfid.cmd("status")["spot_lights"] == sum(
        1 << (antenna(1, spot) - 1) for spot in SPOTS)                   # the seat in turn's spots
    ok(rig.pit.press("stand"))
    ok(rig.pit.press("stand"))
    rig.draw()                                                           # the player-dealer: 15 + 9
    rig.next("hand.settled")
    ok(rig.pit.press("next"))
    rig.next("hand.ended")
    ok(rig.pit.press("deal"))
    assert rig.next("meter")["data"]["value"] == 100_100
    replay = rig.pit.sync(b"replay", b"1")
    values = [json.loads(body)["data"]["value"] for _, topic, body in replay[:-1]
              if topic.endswith(b"/meter")]
    assert values == [100_000, 100_050, 100_100]
