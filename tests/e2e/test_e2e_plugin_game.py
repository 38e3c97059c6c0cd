"""A fifth game is one package and a config line: the toy test game (``tests/table/toy_game.py``),
installed as a plug-in into a folder on the daemon's PYTHONPATH (a ``*.dist-info`` with its entry
point, as pip would write it), played through the real daemon on the simulated boards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.simulated import write_config
from tests.rigs.daemon_rig import TableRig, chip
from tests.rigs.plugins import ROOT, install

BUTTONS = ("deal", "stand", "raise", "split", "next", "void")


def plugin_path(folder: Path, value: str) -> dict[str, str]:
    """The environment of a daemon that has the game ``toy`` (``value``) installed in ``folder``."""
    install(folder, "toy-game", {"table_controller.games": {"toy": value}})
    return {"PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}


@pytest.fixture
def toy(tmp_path: Path) -> Iterator[TableRig]:
    (tmp_path / "table").mkdir()
    table = TableRig(tmp_path / "table", game_name="toy", spots=("main",), buttons=BUTTONS)
    try:
        yield table
    finally:
        table.close()


def test_the_toy_game_plays_a_hand_through_the_daemon(toy: TableRig, tmp_path: Path) -> None:
    opened = toy.start(env=plugin_path(tmp_path / "site", "tests.table.toy_game:GAME"))
    assert opened["data"]["game"] == "toy"
    assert toy.pit.control({"cmd": "buy_in", "seat": 2, "amount": 20000}) == {"ok": True}
    assert toy.next("seat.stack")["data"] == {"seat": 2, "amount": 20000, "reason": "buy_in"}
    toy.load(["9h", "5c", "7d", "Kh", "2s"], decks=6)
    toy.bet(2, "main", chip("b", 1))
    assert toy.next("bet.placed")["data"] == {"seat": 2, "spot": "main", "amount": 2500}

    assert toy.pit.press("deal") == {"ok": True}
    started = toy.next("hand.started")
    assert started["data"] == {"seats": [2], "dealer_seat": None}
    dealt = [toy.draw()["data"] for _ in range(3)]
    assert [(d["to"], d["seat"], d["card"], d["face_up"]) for d in dealt] == [
        ("seat", 2, "9h", True), ("seat", 2, None, False), ("dealer", None, "7d", True)]
    state: dict[str, Any] = toy.pit.control({"cmd": "state"})["state"]
    assert state["live_buttons"] == ["stand", "raise", "void"] and "5c" not in json.dumps(state)

    toy.add(2, "main", chip("b", 2))                       # a raise to $50.00, read from the spot
    assert toy.pit.press("raise") == {"ok": True}
    action = toy.next("player.action")
    assert action["data"] == {"seat": 2, "hand_index": 0, "action": "raise", "amount": 5000}
    revealed, settled = toy.next(), toy.next()
    assert (revealed["type"], revealed["data"]["card"]) == ("card.revealed", "5c")
    assert settled["type"] == "hand.settled" and settled["data"]["results"] == [
        {"seat": 2, "spot": "main", "hand_index": 0, "outcome": "win", "wager": 5000, "payout": 5000}]

    assert toy.pit.press("next") == {"ok": True}
    assert toy.next("seat.stack")["data"] == {"seat": 2, "amount": 25000, "reason": "result"}
    assert toy.next("hand.ended")["data"] == {"hand": 1}


def run(config: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **env})


def test_a_game_not_installed_or_broken_stops_the_start_with_one_line(tmp_path: Path) -> None:
    config = write_config(tmp_path, game_name="toy", spots=("main",), buttons=BUTTONS)
    missing = run(config, {"PYTHONPATH": str(ROOT)})
    assert missing.returncode == 2
    assert missing.stderr.splitlines() == [
        "config: table.game: 'toy' is not an installed game (installed: blackjack-extreme, "
        "buster-blackjack-x, easy-jack, holdem-blackjack)"]
    broken = run(config, plugin_path(tmp_path / "site", "tests.table.no_such_game:GAME"))
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert broken.stderr.splitlines() == [
        "config: table.game: the game 'toy' (tests.table.no_such_game:GAME from toy-game) cannot be "
        "loaded: ModuleNotFoundError: No module named 'tests.table.no_such_game'"]
