"""The reference board firmware (MicroPython on a Raspberry Pi Pico), importable under CPython too.

On the Pico these files sit flat in the root of the board's filesystem and import
each other by plain name (``import link``). Under CPython they are this package:
importing it installs a finder that gives each firmware file's plain name
(``link``, ``board``, ``shoe`` ...) the package's own module, so the very same
source runs in both. ``main.py`` is left out: it runs only on the board (the
host runner builds the board as main.py's ``build`` does, with fakes of ``machine``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from pathlib import Path
from types import ModuleType

FOLDER = Path(__file__).parent
"""The folder of the firmware files (what ``firmware-bridge flash`` copies)."""

FLAT_NAMES = frozenset(path.stem for path in FOLDER.glob("*.py")) - {"__init__", "main"}
"""The firmware modules that ``import NAME`` finds in this package."""


class _FlatLoader(importlib.abc.Loader):
    """Gives a plain name the firmware package's module of that name (one module object for both)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(f"{__name__}.{self.name}")

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the package's module is already executed."""


class _FlatFinder(importlib.abc.MetaPathFinder):
    """Finds ``import link`` (a firmware file's plain name, at the top level) in this package."""

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in FLAT_NAMES:
            return None
        return importlib.machinery.ModuleSpec(fullname, _FlatLoader(fullname))


if not any(isinstance(finder, _FlatFinder) for finder in sys.meta_path):
    sys.meta_path.insert(0, _FlatFinder())
