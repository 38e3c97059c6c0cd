"""Installing a plug-in the way pip does, into a folder: a ``*.dist-info`` with its METADATA and
``entry_points.txt``. With the folder on ``sys.path`` (or a daemon's ``PYTHONPATH``),
``importlib.metadata`` finds the plug-in's entry points like any installed distribution's."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The project's folder: on the path, ``tests.table.toy_game`` can be imported."""


def install(folder: Path, distribution: str, entry_points: Mapping[str, Mapping[str, str]]) -> Path:
    """Write ``<distribution>-1.0.dist-info`` into ``folder`` declaring ``entry_points`` (group ->
    name -> ``module:attribute``); returns the folder."""
    info = folder / f"{distribution.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{name} = {value}\n" for name, value in points.items()) + "\n"
        for group, points in entry_points.items()))
    return folder
