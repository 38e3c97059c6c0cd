"""The pit monitor draws every table from the stream alone: no snapshot in a whole hand of any game.

The daemon runs each of the four games as a subprocess with its simulated
boards; ``pit-monitor serve`` follows it as deployed. The monitor takes one
snapshot when it starts; then a whole hand is played, from the first wager to
the settlement and NEXT, and the daemon's pit sockets (which count the sync
requests they answer: the control socket's ``links``) must have served no
other snapshot, while the monitor's picture of the table is exactly the
daemon's own state at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.e2e.test_e2e_buster import BUTTONS as BUSTER_BUTTONS
from tests.e2e.test_e2e_buster import GAME as BUSTER
from tests.e2e.test_e2e_buster import SPOTS as BUSTER_SPOTS
from tests.e2e.test_e2e_holdem_blackjack import BUTTONS as HOLDEM_BUTTONS
from tests.e2e.test_e2e_holdem_blackjack import GAME as HOLDEM
from tests.e2e.test_e2e_holdem_blackjack import Spots, act, buy_in, post_blinds
from tests.monitor.conftest import Monitor, sources_of
from tests.monitor.test_monitor_games import BJX_BUTTONS, Watched
from tests.rigs.daemon_rig import TableRig, chip


def ok(reply: dict[str, object]) -> None:
    assert reply == {"ok": True}, reply


def easy_jack(rig: TableRig) -> None:
    rig.load(["5h", "4c", "9d", "3s", "6d", "2c", "Kh"])
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.next("bet.placed", seat=3)
    ok(rig.pit.press("deal"))
    for _ in range(4):
        rig.draw()
    ok(rig.pit.press("stand"))
    rig.draw()
    ok(rig.pit.press("stand"))
    rig.next("hand.settled")
    rig.bet(1, "main")
    rig.bet(3, "main")
    rig.rfid.cmd("wait_idle")
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def holdem_blackjack(rig: TableRig) -> None:
    spots = Spots(rig)
    rig.load(["9h", "Tc", "4s", "8d", "Qs", "6c", "Kd", "9c"])
    buy_in(rig, {1: 20000, 2: 20000, 3: 3000})
    post_blinds(rig, spots, small=2, big=3)
    ok(rig.pit.press("deal"))
    for _ in range(3):
        rig.draw()
    act(rig, spots, 1, "raise", 2000)
    act(rig, spots, 2, "call", 1500)
    act(rig, spots, 3, "raise", 2000)
    act(rig, spots, 1, "call", 1000)
    act(rig, spots, 2, "call", 1000)
    rig.next("pot")
    spots.gather(1, 2, 3)
    for _ in range(3):
        rig.draw()
    act(rig, spots, 2, "bet", 2000)
    act(rig, spots, 1, "call", 2000)
    rig.next("pot")
    spots.gather(1, 2)
    rig.draw()
    act(rig, spots, 2, "stand")
    act(rig, spots, 3, "stand")
    rig.draw()
    act(rig, spots, 1, "stand")
    act(rig, spots, 2, "bet", 4000)
    act(rig, spots, 1, "call", 4000)
    rig.next("hand.settled")
    spots.gather(1, 2)
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def blackjack_extreme(rig: TableRig) -> None:
    def spot(seat: int, chips: int) -> None:
        rig.bet(seat, "main", *(chip("a", 13 * (seat - 2) + n + 1) for n in range(chips)))
        rig.rfid.cmd("wait_idle")

    for seat, amount in ((1, 50000), (2, 20000), (3, 20000), (4, 20000)):
        ok(rig.pit.control({"cmd": "buy_in", "seat": seat, "amount": amount}))
        rig.next("seat.stack", seat=seat)
    rig.shoe.cmd("load", decks=2, cards=["8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s", "3c", "Tc", "Kc"])
    rig.next("shoe.loaded")
    for seat in (2, 3, 4):
        spot(seat, 2)
    ok(rig.pit.press("deal"))
    for _ in range(8):
        rig.draw()
    ok(rig.pit.control({"cmd": "act", "action": "turn_up", "amount": 2}))
    spot(2, 6)
    ok(rig.pit.press("raise"))
    ok(rig.pit.press("check"))
    ok(rig.pit.press("fold"))
    spot(4, 0)
    ok(rig.pit.press("play"))
    spot(2, 12)
    ok(rig.pit.press("split"))
    for _ in range(3):
        rig.draw()
    ok(rig.pit.press("stand"))
    ok(rig.pit.press("stand"))
    rig.next("hand.settled")
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


def buster_blackjack_x(rig: TableRig) -> None:
    ok(rig.pit.control({"cmd": "buy_in", "seat": 5, "amount": 20_000}))
    rig.load(["8h", "Tc", "4d", "8c", "9d", "2s", "3h", "Kc", "7s", "3d", "5h", "Ts",
              "9h", "Tc", "Ac", "9s", "8d", "Kd"], decks=8)
    rig.bet(1, "main", chip("a", 1), chip("a", 2))
    rig.bet(3, "main", chip("b", 1))
    rig.bet(3, "side", chip("a", 3))
    rig.next("bet.placed", seat=3, spot="side")
    ok(rig.pit.press("deal"))
    for _ in range(6):
        rig.draw()
    rig.add(1, "main", chip("a", 4), chip("a", 5))
    ok(rig.pit.press("split"))
    rig.draw()
    rig.add(1, "main", chip("a", 6), chip("a", 7))
    ok(rig.pit.press("double"))
    rig.draw()
    rig.draw()
    ok(rig.pit.press("surrender"))
    ok(rig.pit.press("stand"))
    for _ in range(3):
        rig.draw()
    rig.next("hand.settled")
    ok(rig.pit.press("next"))
    rig.next("hand.ended")


GAMES: dict[str, tuple[Callable[[TableRig], None], dict[str, object]]] = {
    "easy-jack": (easy_jack, {}),
    "holdem-blackjack": (holdem_blackjack, {"game": HOLDEM, "spots": ("bet",), "buttons": HOLDEM_BUTTONS}),
    "blackjack-extreme": (blackjack_extreme, {"spots": ("main",), "buttons": BJX_BUTTONS,
                                              "limits": (500, 50000)}),
    "buster-blackjack-x": (buster_blackjack_x, {"game": BUSTER, "spots": BUSTER_SPOTS,
                                                "buttons": BUSTER_BUTTONS}),
}


@pytest.fixture(params=sorted(GAMES))
def watched(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Watched, Callable[..., None]]]:
    play, options = GAMES[request.param]
    if request.param != "easy-jack":
        options = {"game_name": request.param, **options}
    rig = TableRig(tmp_path, **options)  # type: ignore[arg-type]
    monitor = None
    try:
        rig.start()
        monitor = Monitor("serve", sources_of(rig), "--port=0", f"--acks={tmp_path / 'acks.jsonl'}",
                          log=tmp_path / "monitor.log")
        yield Watched(rig, monitor), play
    finally:
        if monitor is not None:
            monitor.stop()
        rig.close()


def test_a_whole_hand_of_each_game_takes_the_monitor_no_snapshot(
        watched: tuple[Watched, Callable[[TableRig], None]]) -> None:
    watch, play = watched
    rig = watch.rig
    watch.check()                                          # the monitor is up: its first snapshot
    before = rig.pit.control({"cmd": "links"})["pit"]
    assert before["snapshots"] >= 1
    play(rig)
    detail = watch.check()                                 # the monitor's picture is the daemon's
    assert detail["hand"] is None and detail["last_result"] is not None
    after = rig.pit.control({"cmd": "links"})["pit"]
    assert after["snapshots"] == before["snapshots"], (before, after, watch.monitor.log_text())
