"""``table-controller teach``: a taught design from one pass of a deck in the teach order, dealt through
the optical shoe of the configuration (a simulated shoe board's beam, the frames rendered for a script of
the pass) or rendered of a Debian design in simulation; written beside the configuration, where the
table's configuration finds it. A pass the camera missed a card of is refused, saying which."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from controller.config.loader import load_config
from controller.devkit.simulated import write_config
from drivers.optical.designs import deck
from drivers.optical.frames import FrameMaker
from drivers.optical.read import Reader
from drivers.optical.taught import load
from firmware_bridge.kernel.cards import Card
from tests.rigs.daemon_rig import Board


def reads_the_deck(path: Path, maker: FrameMaker) -> bool:
    reader = Reader(load(path))
    return all(reader.read(maker.frame(card)).card == card for card in deck())


def test_teaching_a_rendered_design_writes_it_beside_the_configuration(
        tmp_path: Path, standard: FrameMaker, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_config(tmp_path)
    assert main(["teach", "--config", str(config), "--design", "standard"]) == 0
    assert capsys.readouterr().out == (f"taught standard from 52 cards: {tmp_path / 'standard.npz'} "
                                       "(name it in [devices.shoe] designs)\n")
    assert reads_the_deck(tmp_path / "standard.npz", standard)
    table = write_config(tmp_path, devices={"shoe": 'driver = "optical"\ncamera = "/dev/video0"\n'
                                                    'designs = ["standard.npz"]'})
    assert load_config(table).boards["shoe"].driver == "optical"


@pytest.mark.parametrize(("args", "status", "error"), [
    (["--name", "../house"], 2, "teach: --name must be 1 to 64 letters, digits, - or _, not '../house'"),
    (["--design", "no-such-deck"], 1, "teach: no deck design 'no-such-deck' under"),
    (["--name", "house"], 2,
     "config: devices.shoe.driver: teach needs the optical shoe (driver = \"optical\"), not 'link'"),
])
def test_teach_refuses_what_it_cannot_teach_from(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 args: list[str], status: int, error: str) -> None:
    assert main(["teach", "--config", str(write_config(tmp_path)), *args]) == status
    assert capsys.readouterr().err.startswith(error)


@pytest.fixture
def shoe_board(tmp_path: Path) -> Iterator[Board]:
    board = Board("shoe", tmp_path / "shoe", seed=3)
    try:
        yield board
    finally:
        board.stop()


def teach_through_the_shoe(tmp_path: Path, board: Board,
                           script: list[Card]) -> subprocess.CompletedProcess[str]:
    """``teach --name house`` on the optical shoe of a configuration in ``tmp_path``, the pass dealt
    through ``board`` (house cards: the beam alone) once teach says the board is online, the camera
    showing ``script``."""
    (tmp_path / "pass.txt").write_text("".join(f"{card}\n" for card in script))
    config = write_config(tmp_path, devices={"shoe": 'driver = "optical"\n'
                                                     'camera = "rendered:standard:pass.txt"\n'
                                                     'designs = ["house.npz"]'})
    teach = subprocess.Popen([sys.executable, "-m", "controller.cli", "teach", "--config", str(config),
                              "--name", "house"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ})
    assert teach.stdout is not None
    said = []
    while not said or "press LOAD" not in said[-1]:
        line = teach.stdout.readline()
        assert line, f"teach ended: {said} {teach.communicate()}"
        said.append(line)
    board.cmd("load", cards=[str(card) for card in deck()], cut_at=0)
    for _ in deck():
        board.cmd("unreadable")
        board.cmd("draw")
    out, err = teach.communicate(timeout=60)
    return subprocess.CompletedProcess(teach.args, teach.returncode, "".join(said) + out, err)


def test_a_deck_dealt_through_the_shoe_in_order_is_taught(tmp_path: Path, shoe_board: Board,
                                                           standard: FrameMaker) -> None:
    done = teach_through_the_shoe(tmp_path, shoe_board, deck())
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"waiting for the shoe board on {tmp_path / 'shoe'}"
    assert lines[1].startswith("the shoe board is online: press LOAD, then deal the 52 cards in this order: "
                               "Ac 2c 3c")
    assert lines[2] == "LOAD pressed: the pass starts from Ac"
    assert lines[3:5] == ["1/52 Ac", "2/52 2c"] and lines[-2] == "52/52 Ks"
    assert lines[-1] == (f"taught house from 52 cards: {tmp_path / 'house.npz'} "
                         "(name it in [devices.shoe] designs)")
    assert reads_the_deck(tmp_path / "house.npz", standard)
    assert load_config(tmp_path / "table.toml").boards["shoe"].driver == "optical"


def test_a_card_the_camera_missed_stops_the_pass(tmp_path: Path, shoe_board: Board,
                                                 standard: FrameMaker) -> None:
    done = teach_through_the_shoe(tmp_path, shoe_board, deck()[:51])
    assert done.returncode == 1
    assert done.stderr == "teach: card 52 (Ks): the camera had no frame of it: deal the pass again\n"
    assert not (tmp_path / "house.npz").exists()
