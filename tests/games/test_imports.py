"""Imports flow one way: games import nothing from ``drivers/``, and ``drivers/`` and
``firmware_bridge/`` import nothing from the layers above them. Read from the source (the AST),
so an import inside a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute imports; the project uses no relative ones)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: a relative import"
            names.add(node.module or "")
    return names


def offending(folder: str, forbidden: tuple[str, ...]) -> list[str]:
    """``file: module`` for each import under ``folder`` of a package in ``forbidden``."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for name in sorted(imported(path)):
            if name.split(".")[0] in forbidden:
                found.append(f"{path.relative_to(ROOT)}: {name}")
    return found


@pytest.mark.parametrize(("folder", "forbidden"), [
    ("controller/games", ("drivers",)),
    ("drivers", ("controller",)),
    ("firmware_bridge", ("controller", "drivers")),
])
def test_imports_flow_one_way(folder: str, forbidden: tuple[str, ...]) -> None:
    assert offending(folder, forbidden) == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    source = tmp_path / "game.py"
    source.write_text("def f():\n    from drivers.display import render_text\n    import drivers.shoe\n")
    assert imported(source) == {"drivers.display", "drivers.shoe"}
