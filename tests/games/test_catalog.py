"""Games and boards found by name through entry points (controller/plugins.py): the shipped ones
declared like any plug-in, one installed into a folder found the same way, and every way a name can
fail said in one line."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

import pytest

from controller.boards import board_names, driver_names, find_board, find_driver
from controller.config.loader import ConfigError, load_config
from controller.devkit.simulated import write_config
from controller.games import catalog
from controller.games.catalog import find_game, game_names
from controller.games.spec import GameSpec
from controller.plugins import PluginError
from drivers.link_driver import LinkDriver
from drivers.rfid import SpotReader
from drivers.shoe import Shoe
from tests.rigs.plugins import install
from tests.table import toy_game

SHIPPED = ("blackjack-extreme", "buster-blackjack-x", "easy-jack", "holdem-blackjack")


def plug_in(monkeypatch: pytest.MonkeyPatch, folder: Path, distribution: str, **games: str) -> None:
    """Install ``distribution`` declaring ``games`` (name -> object) and put it on the path."""
    monkeypatch.syspath_prepend(str(install(folder, distribution, {catalog.GROUP: games})))


def test_the_shipped_games_and_boards_are_plug_ins_of_this_distribution() -> None:
    assert game_names() == SHIPPED
    points = entry_points(group=catalog.GROUP)
    assert {point.name: point.dist.name for point in points if point.dist is not None} == {
        name: "table-controller" for name in SHIPPED}
    for name in SHIPPED:
        spec = find_game(name)
        assert isinstance(spec, GameSpec) and spec.game_type.spots
    assert board_names() == ("rfid", "shoe")
    assert (find_board("shoe"), find_board("rfid")) == (Shoe, SpotReader)
    assert driver_names() == ("link", "optical")
    assert find_driver("link", "shoe") is find_driver("link", "rfid") is LinkDriver
    assert find_driver("optical", "shoe").__name__ == "OpticalShoeDriver"


def test_a_game_installed_into_a_folder_is_found_by_its_name(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    plug_in(monkeypatch, tmp_path, "toy-game", toy="tests.table.toy_game:GAME")
    assert game_names() == tuple(sorted((*SHIPPED, "toy")))
    assert find_game("toy") is toy_game.GAME
    config = load_config(write_config(tmp_path, game_name="toy", spots=("main",),
                                      buttons=("deal", "stand", "raise", "split", "next", "void")))
    assert config.game == "toy" and isinstance(config.rules, toy_game.ToyRules)


def test_an_unknown_game_names_the_installed_ones() -> None:
    with pytest.raises(PluginError) as error:
        find_game("poker")
    assert str(error.value) == (
        "'poker' is not an installed game (installed: blackjack-extreme, buster-blackjack-x, "
        "easy-jack, holdem-blackjack)")


@pytest.mark.parametrize(("value", "words"), [
    ("tests.no_such_module:GAME", "the game 'broken' (tests.no_such_module:GAME from plugin-0) cannot "
                                  "be loaded: ModuleNotFoundError: No module named 'tests.no_such_module'"),
    ("tests.table.toy_game:NOTHING", "the game 'broken' (tests.table.toy_game:NOTHING from plugin-0) "
                                     "cannot be loaded: AttributeError: module 'tests.table.toy_game' "
                                     "has no attribute 'NOTHING'"),
    ("tests.table.toy_game:Toy", "the game 'broken' (tests.table.toy_game:Toy from plugin-0) is "
                                 "<class 'tests.table.toy_game.Toy'>, not a GameSpec"),
])
def test_a_game_that_cannot_be_loaded_is_one_config_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str, words: str) -> None:
    plug_in(monkeypatch, tmp_path / "site", "plugin-0", broken=value)
    with pytest.raises(PluginError) as error:
        find_game("broken")
    assert str(error.value) == words
    with pytest.raises(ConfigError) as problems:
        load_config(write_config(tmp_path, game_name="broken"))
    assert problems.value.problems == [f"table.game: {words}"]


def test_two_plug_ins_with_one_name_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    plug_in(monkeypatch, tmp_path / "one", "plugin-1", toy="tests.table.toy_game:GAME")
    plug_in(monkeypatch, tmp_path / "two", "plugin-2", toy="tests.table.other:GAME")
    with pytest.raises(PluginError, match="two installed plug-ins call themselves the game 'toy': "
                                          r"tests.table.other:GAME from plugin-2 and "
                                          r"tests.table.toy_game:GAME from plugin-1"):
        find_game("toy")


def test_a_board_is_installed_under_the_name_of_its_kind(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.syspath_prepend(str(install(tmp_path, "boards", {"table_controller.boards": {
        "reader": "drivers.rfid:SpotReader", "chips": "drivers.chips:ChipRegistry"}})))
    with pytest.raises(PluginError, match="the board 'reader' is the role of a 'rfid' board"):
        find_board("reader")
    with pytest.raises(PluginError, match=r"the board 'chips' \(drivers.chips:ChipRegistry from boards\) is "
                                          r"<class 'drivers.chips.ChipRegistry'>, not a Role class"):
        find_board("chips")
