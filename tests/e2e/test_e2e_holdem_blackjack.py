"""End to end: Hold'em Blackjack through the real daemon, boards simulated on ptys, the pit stream
checked event by event: buy-ins, blinds, betting rounds with chips pushed on the RFID spots, side
pots, a hand mucked unseen, the pots awarded and the stacks; and a SIGKILL in a betting round."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.simulated import antenna, write_config
from tests.rigs.daemon_rig import CHIP_VALUES, TableRig, chip

GAME = 'stakes = "10/20/20-100"\nchip_unit = 500\nmin_buy_in = 2000\n'
"""$10 big blind ($5 small), $20 in the second round, $20 to $100 in the final round; $5 chips; a
short stack may buy in for as little as $20."""

BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")
PER_SEAT = 13
"""Each seat takes its chips from its own block of 13 registry chips of each kind."""


class Spots:
    """The seats' bet spots on the simulated RFID reader: chips pushed on, taken off."""

    def __init__(self, rig: TableRig) -> None:
        self.rig = rig
        self.on: dict[int, list[list[Any]]] = {}

    def _chips(self, seat: int, cents: int) -> list[list[Any]]:
        used = {kind: sum(1 for c in self.on.get(seat, []) if c[0][0] == kind) for kind in CHIP_VALUES}
        chips = []
        for kind in ("c", "b", "a"):
            count, cents = divmod(cents, CHIP_VALUES[kind])
            for _ in range(count):
                used[kind] += 1
                assert used[kind] <= PER_SEAT
                chips.append(chip(kind, PER_SEAT * (seat - 1) + used[kind]))
        assert cents == 0
        return chips

    def push(self, seat: int, cents: int) -> None:
        """Add chips worth ``cents`` to the seat's spot; returns once the daemon has read them."""
        chips = self._chips(seat, cents)
        self.on.setdefault(seat, []).extend(chips)
        self.rig.rfid.cmd("place", antenna=antenna(seat, "bet"), chips=chips)
        self.rig.rfid.cmd("wait_idle")

    def take_last(self, seat: int) -> None:
        """Take the last chip pushed off the seat's spot."""
        last = self.on[seat].pop()
        self.rig.rfid.cmd("remove", antenna=antenna(seat, "bet"), uids=[last[0]])
        self.rig.rfid.cmd("wait_idle")

    def gather(self, *seats: int) -> None:
        """The dealer takes every chip off these spots (into the pot, or to the winner)."""
        for seat in seats:
            self.on.pop(seat, None)
            self.rig.rfid.cmd("clear", antenna=antenna(seat, "bet"))
        self.rig.rfid.cmd("wait_idle")


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, game=GAME, game_name="holdem-blackjack", spots=("bet",), buttons=BUTTONS)
    try:
        yield table
    finally:
        table.close()


def act(rig: TableRig, spots: Spots, seat: int, button: str, push: int = 0) -> dict[str, Any]:
    """Seat ``seat`` pushes ``push`` cents onto its spot and the dealer presses ``button``;
    returns the ``player.action``."""
    if push:
        spots.push(seat, push)
    assert rig.pit.press(button) == {"ok": True}
    return rig.next("player.action", seat=seat)["data"]


def buy_in(rig: TableRig, stacks: dict[int, int]) -> None:
    for seat, amount in stacks.items():
        assert rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}) == {"ok": True}
        assert rig.next("seat.stack", seat=seat)["data"] == {"seat": seat, "amount": amount,
                                                             "reason": "buy_in"}


def post_blinds(rig: TableRig, spots: Spots, small: int, big: int) -> None:
    spots.push(small, 500)
    rig.next("bet.placed", seat=small)
    spots.push(big, 1000)
    rig.next("bet.placed", seat=big)


def test_a_hand_with_a_side_pot_from_the_blinds_to_the_stacks(rig: TableRig) -> None:
    rig.start()
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    assert rig.pit.control({"cmd": "top_up", "seat": 1, "amount": 100}) == {
        "ok": False, "error": "top_up: seat 1 has no stack: buy in first"}
    buy_in(rig, {1: 20000, 2: 20000, 3: 3000})
    refused = rig.pit.press("deal")
    assert refused["error"].startswith("deal: seat 2 posts the small blind $5.00: its bet spot should read")
    post_blinds(rig, spots, small=2, big=3)
    assert rig.pit.press("deal") == {"ok": True}
    assert rig.next("hand.started")["data"] == {"seats": [1, 2, 3], "dealer_seat": None}
    assert rig.next("button.moved")["data"] == {"seat": 1}
    for seat in (2, 3, 1):                                  # first cards face down, unnamed
        dealt = rig.draw()["data"]
        assert (dealt["seat"], dealt["card"], dealt["face_up"]) == (seat, None, False)

    # First round, $10 fixed limit from the left of the big blind.
    state = rig.pit.control({"cmd": "state"})["state"]
    assert [s["seat"] for s in state["seats"] if s["in_turn"]] == [1]
    assert state["live_buttons"] == ["call", "raise", "fold", "void"]
    raised = act(rig, spots, 1, "raise", 2000)
    assert raised == {"seat": 1, "hand_index": 0, "action": "raise", "amount": 2000}
    spots.push(1, 500)                                      # seat 1 adds a chip out of turn
    alert = rig.next("alert")["data"]
    assert (alert["code"], alert["seat"], alert["amount"], alert["closed"]) == ("past_post", 1, 2500, 2000)
    spots.take_last(1)
    assert rig.pit.press("call")["error"] == (
        "call: seat 2: $15.00 to call, so the spot should read $20.00; it reads $5.00")
    act(rig, spots, 2, "call", 1500)
    assert act(rig, spots, 3, "raise", 2000)["amount"] == 3000          # all in
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 1000)
    assert rig.next("pot")["data"] == {"pots": [{"amount": 9000, "seats": [1, 2, 3]}], "rake": 0}
    spots.gather(1, 2, 3)

    assert [rig.draw()["data"]["card"] for _ in range(3)] == ["8d", "Qs", "6c"]
    act(rig, spots, 2, "bet", 2000)                         # seat 3 is all in: seat 1 is next
    act(rig, spots, 1, "call", 2000)
    assert rig.next("pot")["data"]["pots"] == [{"amount": 9000, "seats": [1, 2, 3]},
                                               {"amount": 4000, "seats": [1, 2]}]
    spots.gather(1, 2)

    assert rig.draw()["data"] == {"index": 7, "to": "seat", "seat": 2, "hand_index": 0, "card": None,
                                  "face_up": False}         # seat 2 hits: 27, over 21, and nobody knows
    assert rig.pit.control({"cmd": "state"})["state"]["live_buttons"] == ["stand", "void"]
    act(rig, spots, 2, "stand")
    act(rig, spots, 3, "stand")
    rig.draw()                                              # seat 1 hits: 19
    act(rig, spots, 1, "stand")
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["phase"] == "final_round" and state["seats"][1]["cards"] == [None, "8d", None]
    assert act(rig, spots, 2, "bet", 4000)["amount"] == 4000  # a busted seat bluffs
    act(rig, spots, 1, "call", 4000)

    revealed = [rig.next("card.revealed")["data"] for _ in range(3)]
    assert [(r["seat"], r["card"]) for r in revealed] == [(3, "Tc"), (1, "4s"), (1, "9c")]
    awarded = [rig.next("pot.awarded")["data"] for _ in range(2)]
    assert awarded == [{"pot": 0, "seats": [3], "amount": 9000, "rake": 0},
                       {"pot": 1, "seats": [1], "amount": 12000, "rake": 0}]
    results = rig.next("hand.settled")["data"]["results"]
    assert [(r["seat"], r["outcome"], r["wager"], r["payout"], r.get("label")) for r in results] == [
        (1, "win", 9000, 3000, "19"), (2, "lose", 9000, -9000, None), (3, "win", 3000, 6000, "20")]
    spots.gather(1, 2)
    assert rig.pit.press("next") == {"ok": True}
    stacks = [rig.next("seat.stack")["data"] for _ in range(3)]
    assert [(s["seat"], s["amount"], s["reason"]) for s in stacks] == [
        (1, 23000, "result"), (2, 11000, "result"), (3, 9000, "result")]
    assert rig.next("button.moved")["data"] == {"seat": 2}
    rig.next("hand.ended")
    everything = json.dumps([e["data"] for e in rig.pit.events])
    assert '"9h"' not in everything and '"Kd"' not in everything   # seat 2's hand was mucked unseen
    replay = rig.pit.sync(b"replay", b"1")
    assert "9h" not in b"".join(body for _, _, body in replay[:-1]).decode()


def test_sigkill_in_a_betting_round_resumes_at_the_same_seat_with_the_same_pots(rig: TableRig) -> None:
    rig.start()
    spots = Spots(rig)
    rig.load(["5h", "6d", "7c", "8h", "9d", "Tc", "2s", "3s"])
    buy_in(rig, {1: 20000, 2: 20000, 3: 20000})
    post_blinds(rig, spots, small=2, big=3)
    assert rig.pit.press("deal") == {"ok": True}
    for _ in range(3):
        rig.draw()
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 500)
    act(rig, spots, 3, "check")
    rig.next("pot")
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    act(rig, spots, 2, "bet", 2000)
    act(rig, spots, 3, "raise", 4000)                       # seat 1 to act: $40 to call
    rig.pit.drain()
    before = rig.pit.control({"cmd": "state"})
    last_seq = rig.pit.taken()[-1]["seq"]
    assert [s["seat"] for s in before["state"]["seats"] if s["in_turn"]] == [1]

    assert rig.kill() == -9
    opened = rig.start()
    assert opened["seq"] == last_seq + 1 and opened["data"]["recovered"] is True
    rig.rfid.cmd("wait_idle")                               # the reader has told the daemon its spots again
    after = rig.pit.control({"cmd": "state"})
    for key in ("phase", "hand", "seats", "pots", "live_buttons", "session"):
        assert after["state"][key] == before["state"][key], key
    assert after["state"]["pots"] == [{"amount": 3000, "seats": [1, 2, 3]}]
    assert not [e for e in rig.pit.drain() if e["type"] == "alert" and e["data"]["code"] == "past_post"]

    assert rig.pit.press("call")["error"] == (
        "call: seat 1: $40.00 to call, so the spot should read $40.00; it reads $0.00")
    act(rig, spots, 1, "call", 4000)
    act(rig, spots, 2, "call", 2000)
    assert rig.next("pot")["data"]["pots"] == [{"amount": 15000, "seats": [1, 2, 3]}]
    seqs = [e["seq"] for e in rig.pit.taken()]
    assert seqs == list(range(1, len(seqs) + 1))            # no gap, no repeat


def test_math_reports_the_rake_or_no_house_edge(tmp_path: Path) -> None:
    def math(game: str, *extra: str) -> subprocess.CompletedProcess[str]:
        config = write_config(tmp_path, game=game, game_name="holdem-blackjack", spots=("bet",),
                              buttons=BUTTONS)
        return subprocess.run([sys.executable, "-m", "controller.cli", "math", "--config", str(config),
                               *extra], capture_output=True, text=True, timeout=60)

    result = math(GAME)
    assert result.returncode == 0, result.stderr
    assert "none: the players bet against each other, the house only deals and takes no rake" in result.stdout
    result = math(GAME + "rake_percent = 5\nrake_cap = 1000\n", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["game"] == "holdem-blackjack"
    assert figures["wagers"]["called 6"]["cents"] == 0              # 5% of $60 is $3: no whole $5 chip
    assert figures["wagers"]["capped 6"]["cents"] == 1000           # the cap
    assert figures["wagers"]["rake"]["value"].startswith(
        "5% of the pots, at most $10.00, in whole $5.00 chips")
    assert math(GAME + "rake_percent = 101\n").stderr.strip() == (
        "config: game.rake_percent: must be 0 to 100, not 101")


def test_a_rounds_bets_left_on_the_spots_hold_the_next_round_until_they_are_gathered(rig: TableRig) -> None:
    """Issue 33's finding: round 1 ends with $20 on every spot, the dealer deals the second cards
    without gathering; round 2's bet is not taken on the same chips (the pot would count them
    twice), and the screen says to gather them."""
    rig.start()
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    buy_in(rig, {1: 20000, 2: 20000, 3: 20000})
    post_blinds(rig, spots, small=2, big=3)
    assert rig.pit.press("deal") == {"ok": True}
    for _ in range(3):
        rig.draw()
    act(rig, spots, 1, "raise", 2000)
    act(rig, spots, 2, "call", 1500)
    act(rig, spots, 3, "call", 1000)
    assert rig.next("pot")["data"] == {"pots": [{"amount": 6000, "seats": [1, 2, 3]}], "rake": 0}
    for _ in range(3):                                      # the second cards, nothing gathered
        rig.draw()
    gather = "Gather the bets into the pot: seat 1 bet $20.00, seat 2 bet $20.00, seat 3 bet $20.00"
    state = rig.pit.control({"cmd": "state"})["state"]
    assert (state["instruction"], state["live_buttons"]) == (f"{gather}.", ["void"])
    assert rig.pit.press("bet") == {"ok": False, "error": f"bet: g{gather[1:]} first"}
    spots.gather(1, 2)
    state = rig.pit.control({"cmd": "state"})["state"]
    assert state["instruction"] == "Gather the bets into the pot: seat 3 bet $20.00."
    spots.gather(3)
    assert act(rig, spots, 2, "bet", 2000)["amount"] == 2000      # on chips of its own now
    act(rig, spots, 3, "call", 2000)
    act(rig, spots, 1, "call", 2000)
    assert rig.next("pot")["data"]["pots"] == [{"amount": 12000, "seats": [1, 2, 3]}]   # $60 + $60
    assert not [e for e in rig.pit.taken() if e["type"] == "alert"]
