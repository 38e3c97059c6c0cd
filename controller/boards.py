"""The boards this controller can run, found by the name used in the configuration's ``[devices.<name>]``.

Every board driver is a plug-in (:mod:`controller.plugins`): an installed
distribution names its :class:`~drivers.board.BoardDriver` subclass in the
entry-point group :data:`GROUP`; the shoe and the RFID reader are declared so
in ``pyproject.toml``, like any other. The table knows a board only by its name
(its state online or offline, the inputs its driver hands on).

>>> board_names()
('rfid', 'shoe')
>>> find_board("shoe").__name__
'ShoeDriver'
"""

from __future__ import annotations

from controller.plugins import PluginError, installed, load_class
from drivers.board import BoardDriver

GROUP = "table_controller.boards"
"""The entry-point group board drivers are installed in."""

REQUIRED = ("shoe", "rfid")
"""The boards every table runs: the table deals the cards the shoe reads and takes the bets the
RFID reader reads, and from nothing else."""


def board_names() -> tuple[str, ...]:
    """The names of the installed boards, sorted."""
    return installed(GROUP)


def find_board(name: str) -> type[BoardDriver]:
    """The driver class of the installed board ``name``; raises :class:`~controller.plugins.PluginError`
    (its message names the installed boards, or says why the plug-in cannot be loaded)."""
    driver = load_class(GROUP, name, BoardDriver, "board")
    if driver.device != name:
        raise PluginError(f"the board {name!r} is a driver for a {driver.device!r} board: a board is "
                          "installed under the name of its kind")
    return driver
