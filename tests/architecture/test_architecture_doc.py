"""docs/architecture.md matches the code: its picture of the layers is the import contract's (every layer, in
order, each part of a layer on one line), and its tree names every folder of the three packages and every
file of the development tools and of the board firmware and its host runner."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
PACKAGES = ("controller", "drivers", "firmware_bridge")


def block_after(heading: str) -> list[str]:
    """The lines of the first fenced block after ``heading`` in docs/architecture.md."""
    found = re.search(re.escape(heading) + r"\n.*?```\n(.*?)```", DOC, re.S)
    assert found, f"no block after {heading!r}"
    return found.group(1).splitlines()


def folder(module: str) -> str:
    """The folder of a package: ``controller.daemon`` is ``controller/daemon``."""
    return module.replace(".", "/")


def shown(container: str, name: str) -> str:
    """How the picture names a layer's part: a folder with a slash, a module with its .py."""
    relative = folder(name)
    return relative + "/" if (ROOT / folder(container) / relative).is_dir() else relative + ".py"


def line_of(picture: list[str], parts: list[str], start: int) -> int:
    """The first line at or after ``start`` that names every one of ``parts`` (as words of its own)."""
    for number in range(start, len(picture)):
        words = picture[number].split()
        if all(part in words for part in parts):
            return number
    raise AssertionError(f"{' | '.join(parts)} is not in the picture of the layers after line {start}")


def contracts() -> list[dict[str, object]]:
    """The layer contracts of pyproject.toml."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return [contract for contract in config["contracts"] if contract["type"] == "layers"]


def test_every_layer_of_every_contract_stands_in_the_picture_in_order() -> None:
    picture = block_after("## The layers")
    checked = 0
    for contract in contracts():
        containers = contract.get("containers", [""])
        assert isinstance(containers, list)
        for container in containers:
            start = 0
            layers = contract["layers"]
            assert isinstance(layers, list)
            for layer in layers:
                names = [name.strip() for name in layer.split("|")]
                parts = [shown(container, name) if container else name + "/" for name in names]
                if container:   # a container's layers are drawn under it
                    start = max(start, line_of(picture, [folder(container) + "/"], 0))
                start = line_of(picture, parts, start) + 1
                checked += 1
    assert checked >= 15


def test_the_picture_check_sees_a_layer_out_of_order() -> None:
    picture = ["controller/", "  games/", "  table/"]
    assert line_of(picture, ["games/"], 0) == 1
    try:
        line_of(picture, ["games/"], 2)
    except AssertionError as error:
        assert "games/" in str(error)
    else:
        raise AssertionError("a layer drawn above its place was not seen")


def test_the_tree_names_every_folder_and_the_tools_and_firmware_files() -> None:
    tree = "\n".join(block_after("## The tree"))
    words = set(tree.replace(",", " ").replace("(", " ").replace(")", " ").split())
    folders = sorted({path.parent.relative_to(ROOT) for package in PACKAGES
                      for path in (ROOT / package).rglob("*.py")} - {Path(package) for package in PACKAGES})
    missing = [str(folder) for folder in folders if folder.name + "/" not in words]
    for folder in ("controller/devkit", "firmware_bridge/firmware", "firmware_bridge/firmware_host"):
        missing += [f"{folder}/{path.name}" for path in sorted((ROOT / folder).glob("*.py"))
                    if path.name != "__init__.py" and path.name not in words]
    assert missing == []
