"""The project builds as a user's pip builds it, without a deprecation warning of its own metadata, and
the wheel carries every static file the web applications serve (the dealer screen's, the pit monitor's
pages')."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Built:
    """A wheel of the project as pip built it, and what pip said."""

    wheel: Path
    output: str


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The wheel built from a copy of the project as a fresh clone has it: without the ``build/`` and
    ``*.egg-info`` an earlier build left here, whose lists of files setuptools would read again."""
    source = tmp_path_factory.mktemp("source") / "project"
    left_here = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__")
    shutil.copytree(ROOT, source, ignore=left_here)
    folder = tmp_path_factory.mktemp("wheel")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(folder), str(source)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    (wheel,) = folder.glob("table_controller-*.whl")
    return Built(wheel, result.stdout + result.stderr)


def test_the_wheel_builds_without_a_warning_on_the_project_metadata(built: Built) -> None:
    """``make demo`` printed setuptools' deprecation of ``project.license`` as a table three times
    (issue 18 item 17): the licence is an SPDX string."""
    assert "project.license" not in built.output and "DeprecationWarning" not in built.output, \
        built.output[-3000:]


def test_the_wheel_carries_every_static_file_beside_the_code_that_serves_it(built: Built) -> None:
    static = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "controller").rglob("static/*")
                    if path.is_file())
    assert "controller/podium/monitor/pages/static/floor.html" in static
    assert "controller/screen/static/screen.html" in static
    with zipfile.ZipFile(built.wheel) as wheel:
        carried = set(wheel.namelist())
    assert [name for name in static if name not in carried] == []
