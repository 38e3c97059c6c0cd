"""No circle of imports in the shipped code (controller/, drivers/, firmware_bridge/): every module's imports,
read with ``ast``, make a graph, and no two modules reach each other through it.

Every import counts, wherever it stands: at the top, under ``if TYPE_CHECKING:``, inside a function (a
circle is one for a reader whether or not Python runs into it). An import points at the module that holds the
imported name: ``from pkg import module`` at the module, ``from pkg import name`` at the package's
``__init__.py``; relative imports are resolved, and a board firmware file's plain ``import link`` is the
firmware package's ``link.py`` (firmware_bridge/firmware/__init__.py). The layer contracts of pyproject.toml
(tests/architecture/test_layers.py) keep imports between layers one way; this keeps them one way inside a
layer too."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("controller", "drivers", "firmware_bridge")
FIRMWARE = "firmware_bridge.firmware"


def modules_under(root: Path) -> dict[str, Path]:
    """Every module of the three packages under ``root``, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imported_by(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of the three packages that the module ``name`` (its source at ``path``) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                targets.add(holder(alias.name, name, modules))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = holder(node.module or "", name, modules)
            for alias in node.names:
                targets.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {target for target in targets if target in modules and target != name}


def holder(dotted: str, importer: str, modules: dict[str, Path]) -> str:
    """The module that ``import dotted`` in ``importer`` runs: the longest part of the name that is a module
    (a firmware file's plain name is the firmware package's file of that name)."""
    if importer.startswith(FIRMWARE + ".") and f"{FIRMWARE}.{dotted}" in modules:
        return f"{FIRMWARE}.{dotted}"
    parts = dotted.split(".")
    for length in range(len(parts), 0, -1):
        if ".".join(parts[:length]) in modules:
            return ".".join(parts[:length])
    return dotted


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of ``graph`` with more than one module, each sorted (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def graph_under(root: Path) -> dict[str, set[str]]:
    """Each module of the three packages under ``root`` and the modules of the three it imports."""
    modules = modules_under(root)
    return {name: imported_by(name, path, modules) for name, path in modules.items()}


def test_no_module_imports_itself_round_a_circle() -> None:
    graph = graph_under(ROOT)
    found = circles(graph)
    lines = [f"  {name} imports {', '.join(sorted(graph[name] & set(circle)))}"
             for circle in found for name in circle]
    assert found == [], "circles of imports:\n" + "\n".join(lines)


def test_the_graph_holds_every_module_and_its_imports() -> None:
    modules = modules_under(ROOT)
    assert len(modules) > 200
    assert "controller.table.state" in imported_by("controller.table.machine",
                                                   modules["controller.table.machine"], modules)
    assert "firmware_bridge.firmware.link" in imported_by("firmware_bridge.firmware.board",
                                                          modules["firmware_bridge.firmware.board"], modules)


@pytest.mark.parametrize(("module", "line", "circle"), [
    ("controller/table/state.py", "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
     "    from controller.table.tray import TrayState", ["controller.table.state", "controller.table.tray"]),
    ("controller/events/alerts.py", "def f() -> None:\n    from controller.table import tray",
     ["controller.events.alerts", "controller.table.tray"]),
    ("controller/events/registry.py", "from . import hand", ["controller.events.hand",
                                                            "controller.events.registry"]),
    ("controller/events/tray.py", "from ..table.tray import TrayState", ["controller.events.tray",
                                                                         "controller.table.tray"]),
    ("drivers/board.py", "import drivers.shoe", ["drivers.board", "drivers.shoe"]),
    ("firmware_bridge/firmware/link.py", "import board", ["firmware_bridge.firmware.board",
                                                          "firmware_bridge.firmware.link"]),
], ids=["type-checking", "in-a-function", "relative", "relative-up", "import-dotted", "firmware-plain-name"])
def test_a_circle_added_is_found(tmp_path: Path, module: str, line: str, circle: list[str]) -> None:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    with (tmp_path / module).open("a") as source:
        source.write(f"\n\n{line}\n")
    found = circles(graph_under(tmp_path))
    assert any(set(circle) <= set(component) for component in found), found
