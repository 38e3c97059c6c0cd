"""The layers declared in pyproject.toml (``[tool.importlinter]``, docs/architecture.md) hold:
``lint-imports`` finds no import that runs up a layer, and it does find one when one is added (to a copy
of the code), an import inside a function included."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
PACKAGES = ("controller", "drivers", "firmware_bridge")


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` run on the code and contracts under ``root``, with that code first on the path."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(root / "pyproject.toml")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120, check=False)


def copy_of_the_code(folder: Path) -> Path:
    """The three packages and pyproject.toml copied into ``folder``."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", folder / "pyproject.toml")
    return folder


def test_every_layer_contract_is_kept() -> None:
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_the_contracts_have_no_exceptions() -> None:
    assert "ignore_imports" not in (ROOT / "pyproject.toml").read_text()


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("controller/games/parts/totals.py", "from controller.table.state import TableState",
     "controller.games.parts.totals -> controller.table.state"),
    ("controller/table/tray.py", "def f() -> None:\n    import controller.follow.core",
     "controller.table.tray -> controller.follow.core"),
    ("drivers/shoe.py", "from controller.events import hand", "drivers.shoe -> controller.events.hand"),
    ("controller/podium/monitor/models/alerts.py", "from controller.podium.monitor.pages import signin",
     "controller.podium.monitor.models.alerts -> controller.podium.monitor.pages.signin"),
    ("controller/podium/monitor/reports/table.py", "from controller.podium.monitor.pages import signin",
     "controller.podium.monitor.reports.table -> controller.podium.monitor.pages.signin"),
    ("firmware_bridge/firmware/link.py", "import firmware_bridge.kernel.cards",
     "firmware_bridge.firmware.link -> firmware_bridge.kernel.cards"),
])
def test_an_import_up_a_layer_is_found(tmp_path: Path, module: str, line: str, broken: str) -> None:
    root = copy_of_the_code(tmp_path)
    with (root / module).open("a") as source:
        source.write(f"\n\n{line}\n")
    done = lint_imports(root)
    assert done.returncode == 1, done.stdout + done.stderr
    assert broken in " ".join(done.stdout.split())          # lint-imports wraps its lines at 80 columns
