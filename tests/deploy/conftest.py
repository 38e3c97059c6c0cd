"""A staging root with the table installed by ``deploy/install.sh``, as a Pi without internet would.

``deploy/install.sh`` runs with ``DESTDIR`` (no root, nothing outside the folder
touched) and installs from a wheelhouse: ``PIP_OPTIONS="--no-index --find-links
<wheelhouse>"``, the way the install guide has it for a table without internet. The
wheelhouse (every wheel the table's lock, the web servers' and the optical shoe's name, for this machine) is
fetched once from PyPI with pip, each checked against its hash in the lock, and kept in
``.venv/``; without it the tests that need it are skipped, saying why.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "deploy" / "install.sh"
TABLE_LOCK = ROOT / "deploy" / "requirements.lock"
WEB_LOCK = ROOT / "deploy" / "requirements-web.lock"
OPTICAL_LOCK = ROOT / "deploy" / "requirements-optical.lock"
"""The hash-pinned locks: the table's (what ``install.sh`` installs), the web servers' (the table's
and aiohttp's: the dealer screen with ``install.sh --with-screen``, the pit monitor on a podium PC) and
the optical shoe's (the table's and numpy's and OpenCV's: ``install.sh --with-optical``)."""


@dataclass(frozen=True)
class Pin:
    """One locked distribution: its version, the hashes of its files, and what it is there for."""

    version: str
    hashes: tuple[str, ...]
    via: frozenset[str]


def read_lock(path: Path) -> dict[str, Pin]:
    """The pins of a lock written by pip-compile: name -> pin (names canonical)."""
    found: dict[str, tuple[str, list[str], set[str]]] = {}
    current: tuple[str, list[str], set[str]] | None = None
    for line in path.read_text().splitlines():
        text = line.strip().removesuffix("\\").strip()
        if not text or (not line.startswith(" ") and text.startswith("#")):
            continue
        if not line.startswith(" "):
            name, pinned, version = text.partition("==")
            assert pinned and version, f"{path.name}: {text!r} is not pinned with =="
            current = found.setdefault(canonicalize_name(name), (version, [], set()))
        elif current is None:
            pytest.fail(f"{path.name}: {text!r} before any requirement")
        elif text.startswith("--hash="):
            current[1].append(text.removeprefix("--hash="))
        elif text.startswith("#"):
            via = text.lstrip("#").strip().removeprefix("via").strip()
            if via and not via.startswith("-c "):                    # the constraint, not a reason
                current[2].add(via)
    return {name: Pin(version, tuple(hashes), frozenset(via))
            for name, (version, hashes, via) in found.items()}


@pytest.fixture(scope="session")
def wheelhouse() -> Path:
    """A folder of the wheels the locks name, fetched once per content of the locks."""
    locks = TABLE_LOCK.read_bytes() + WEB_LOCK.read_bytes() + OPTICAL_LOCK.read_bytes()
    folder = ROOT / ".venv" / f"wheelhouse-{hashlib.sha256(locks).hexdigest()[:12]}"
    if not (folder / ".complete").exists():
        fetched = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--dest", str(folder),
                                  "--require-hashes", "--only-binary=:all:", "-r", str(TABLE_LOCK),
                                  "-r", str(WEB_LOCK), "-r", str(OPTICAL_LOCK)], capture_output=True,
                                 text=True, timeout=300)
        if "HASHES" in fetched.stderr or "--require-hashes" in fetched.stderr:
            pytest.fail(f"a wheel does not match the lock: {fetched.stderr.strip()[-2000:]}")
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


@pytest.fixture(scope="session")
def installed_once(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A staging root the table is installed in once a session (a worker's), for ``staged`` to copy."""
    stage = tmp_path_factory.mktemp("installed-once")
    run_install(stage, wheelhouse)
    return stage


@pytest.fixture
def staged(tmp_path_factory: pytest.TempPathFactory, installed_once: Path) -> Path:
    """A staging root with the table freshly installed in it, each test its own (a test passes alone and
    in any order, and may change or remove what it was given): a copy of the session's one install,
    ``cp -a`` keeping every file's mode and owner and the links, which name their targets relatively
    (nothing in the root names the folder it was installed in; a test holds that)."""
    stage = tmp_path_factory.mktemp("stage")
    subprocess.run(["cp", "-a", f"{installed_once}/.", str(stage)], check=True, timeout=120)
    return stage
