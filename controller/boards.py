"""The boards this controller can run: a role (``[devices.<role>]``) played through a driver
(``[devices.<role>] driver``), each found by name.

Roles and drivers are plug-ins (:mod:`controller.plugins`): an installed
distribution names a :class:`~drivers.board.Role` subclass in the entry-point
group :data:`ROLES` under the role's name, or a :class:`~drivers.board.BoardDriver`
subclass in :data:`DRIVERS` under the driver's name. The shoe and the spot
reader, the link-protocol driver that plays both and the optical shoe's driver are declared
so in ``pyproject.toml``, like any other. The table knows a board only by its role
(its state online or offline, the inputs its role hands on).

>>> board_names(), driver_names()
(('rfid', 'shoe'), ('link', 'optical'))
>>> find_board("shoe").__name__, find_driver("link", "rfid").__name__
('Shoe', 'LinkDriver')
"""

from __future__ import annotations

from controller.plugins import PluginError, installed, load_class
from drivers.board import BoardDriver, BoardSetup, Role
from drivers.link_driver import NAME as DEFAULT_DRIVER

ROLES = "table_controller.boards"
"""The entry-point group roles are installed in (a board's kind: ``shoe``, ``rfid``)."""

DRIVERS = "table_controller.drivers"
"""The entry-point group drivers are installed in (the protocol a board speaks: ``link``)."""

REQUIRED = ("shoe", "rfid")
"""The boards every table runs: the table deals the cards the shoe reads and takes the bets the
RFID reader reads, and from nothing else."""

__all__ = ["DEFAULT_DRIVER", "DRIVERS", "REQUIRED", "ROLES", "board_names", "driver_names", "find_board",
           "find_driver", "make_board"]


def board_names() -> tuple[str, ...]:
    """The names of the installed roles, sorted."""
    return installed(ROLES)


def driver_names() -> tuple[str, ...]:
    """The names of the installed drivers, sorted."""
    return installed(DRIVERS)


def find_board(name: str) -> type[Role]:
    """The role class installed as ``name``; raises :class:`~controller.plugins.PluginError`
    (its message names the installed roles, or says why the plug-in cannot be loaded)."""
    role = load_class(ROLES, name, Role, "board")
    if role.device != name:
        raise PluginError(f"the board {name!r} is the role of a {role.device!r} board: a board is "
                          "installed under the name of its kind")
    return role


def find_driver(name: str, role: str) -> type[BoardDriver]:
    """The driver class installed as ``name``, which must play ``role``; raises
    :class:`~controller.plugins.PluginError`."""
    driver = load_class(DRIVERS, name, BoardDriver, "driver")
    if role not in driver.roles:
        plays = ", ".join(driver.roles) or "no role"
        raise PluginError(f"the driver {name!r} drives {plays} boards, not {role!r}")
    return driver


def make_board(driver: str, setup: BoardSetup) -> BoardDriver:
    """The board of ``setup.role`` played through ``driver``, as the daemon starts it (the names
    were checked with the configuration)."""
    return find_driver(driver, setup.role).from_setup(setup, find_board(setup.role).from_setup(setup))
