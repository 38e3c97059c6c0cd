"""A staging root with the table installed by ``deploy/install.sh``, as a Pi without internet would.

``deploy/install.sh`` runs with ``DESTDIR`` (no root, nothing outside the folder
touched) and installs from a wheelhouse: ``PIP_OPTIONS="--no-index --find-links
<wheelhouse>"``, the way the install guide has it for a table without internet. The
wheelhouse (the build backend, the dependencies and the monitor extra's named in ``pyproject.toml``) is
fetched once from PyPI with pip and kept in ``.venv/``; without it the tests that
need it are skipped, saying why.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"


def requirements() -> list[str]:
    """What installing the project needs: its build backend, its dependencies and the monitor's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [*project["build-system"]["requires"], *project["project"]["dependencies"],
            *project["project"]["optional-dependencies"]["monitor"]]


@pytest.fixture(scope="session")
def wheelhouse() -> Path:
    """A folder of wheels for every requirement, fetched once per requirement list."""
    wanted = requirements()
    folder = ROOT / ".venv" / f"wheelhouse-{hashlib.sha256(repr(wanted).encode()).hexdigest()[:12]}"
    if not (folder / ".complete").exists():
        fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(folder),
                                  *wanted], capture_output=True, text=True, timeout=300)
        if fetched.returncode != 0:
            pytest.skip("the wheels to install from cannot be had from PyPI: "
                        f"{fetched.stderr.strip()[-500:]}")
        (folder / ".complete").touch()
    return folder


def run_install(stage: Path, wheelhouse: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``deploy/install.sh ARGS`` into the staging root ``stage``; it must succeed."""
    env = dict(os.environ, DESTDIR=str(stage), PYTHON=sys.executable,
               PIP_OPTIONS=f"--no-index --find-links {wheelhouse}")
    done = subprocess.run(["bash", str(INSTALL), *args], env=env, capture_output=True, text=True,
                          timeout=600, cwd="/")
    assert done.returncode == 0, f"install.sh {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def staged(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A staging root with the table installed in it (shared by one module's tests, in order)."""
    stage = tmp_path_factory.mktemp("stage")
    run_install(stage, wheelhouse)
    return stage
