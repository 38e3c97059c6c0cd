"""The hash-pinned locks of ``deploy/``: the table's names exactly the runtime dependencies of
``pyproject.toml`` (and what they need, and the build backend), each pinned with the hashes of its files;
the web servers' adds the screen and monitor extras with the same pins, the optical shoe's the optical extra
(numpy, OpenCV); and ``deploy/install.sh``
refuses to install when a wheel does not match its hash or the lock leaves a dependency out."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.deploy.conftest import (
    INSTALL,
    OPTICAL_LOCK,
    ROOT,
    TABLE_LOCK,
    WEB_LOCK,
    Pin,
    read_lock,
    run_install,
)

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
DIRECT = "table-controller (pyproject.toml)"
BUILD = "table-controller (pyproject.toml::build-system.requires)"


def requirements(texts: list[str]) -> dict[str, Requirement]:
    """Requirement strings by canonical name."""
    return {canonicalize_name(req.name): req for req in map(Requirement, texts)}


def assert_complete(lock: dict[str, Pin], runtime: dict[str, Requirement]) -> None:
    """``lock`` pins exactly ``runtime`` for the project and the build backend for its build, each in
    its range, every pin with hashes, and nothing else but what a pinned distribution needs."""
    build = requirements(PROJECT["build-system"]["requires"])
    assert {name for name, pin in lock.items() if DIRECT in pin.via} == set(runtime)
    assert {name for name, pin in lock.items() if BUILD in pin.via} == set(build)
    for name, requirement in (runtime | build).items():
        assert requirement.specifier.contains(lock[name].version, prereleases=True), (name, requirement)
    for name, pin in lock.items():
        assert pin.hashes, f"{name} has no hash"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", value) for value in pin.hashes), name
        assert pin.via & (set(lock) | {DIRECT, BUILD}), f"{name} is pinned for nothing in the lock: {pin.via}"


def test_the_table_lock_pins_exactly_the_runtime_dependencies_with_hashes() -> None:
    lock = read_lock(TABLE_LOCK)
    assert_complete(lock, requirements(PROJECT["project"]["dependencies"]))
    assert "aiohttp" not in lock                                   # the monitor's, not the table's
    assert {"colorzero", "six"} <= set(lock)                       # what gpiozero and transitions need


def test_the_web_lock_adds_the_screen_and_monitor_extras_to_the_tables_pins() -> None:
    table, web = read_lock(TABLE_LOCK), read_lock(WEB_LOCK)
    extras = PROJECT["project"]["optional-dependencies"]
    runtime = PROJECT["project"]["dependencies"] + extras["screen"] + extras["monitor"]
    assert_complete(web, requirements(runtime))
    assert "aiohttp" in web
    for name, pin in table.items():
        assert (web[name].version, web[name].hashes) == (pin.version, pin.hashes), name


def test_the_optical_lock_adds_numpy_and_opencv_to_the_tables_pins_and_nothing_else() -> None:
    table, optical = read_lock(TABLE_LOCK), read_lock(OPTICAL_LOCK)
    runtime = PROJECT["project"]["dependencies"] + PROJECT["project"]["optional-dependencies"]["optical"]
    assert_complete(optical, requirements(runtime))
    assert set(optical) - set(table) == {"numpy", "opencv-python-headless"}
    for name, pin in table.items():
        assert (optical[name].version, optical[name].hashes) == (pin.version, pin.hashes), name
    for lock in (TABLE_LOCK, WEB_LOCK):                       # the table and the screen without OpenCV
        assert not {"numpy", "opencv-python-headless"} & set(read_lock(lock)), lock.name


def test_read_lock_refuses_a_requirement_without_a_pin(tmp_path: Path) -> None:
    lock = tmp_path / "loose.lock"
    lock.write_text("pyserial>=3.5 \\\n    --hash=sha256:" + "0" * 64 + "\n    # via table-controller\n")
    with pytest.raises(AssertionError, match="is not pinned with =="):
        read_lock(lock)


def wheel_hash(wheel: Path) -> str:
    """A file's hash as a lock writes it."""
    return "sha256:" + hashlib.sha256(wheel.read_bytes()).hexdigest()


def altered_hash(lock: str, wheelhouse: Path) -> str:
    """``lock`` with the hash of this machine's pyzmq wheel changed by one digit."""
    right = wheel_hash(next(wheelhouse.glob("pyzmq-*.whl")))
    assert right in lock                                           # the lock has this machine's wheel
    return lock.replace(right, right[:-1] + ("0" if right[-1] != "0" else "1"))


def left_out(lock: str, wheelhouse: Path) -> str:
    """``lock`` without its pin of six (which transitions needs)."""
    kept = re.sub(r"^six==.*?(?=^\S)", "", lock, flags=re.MULTILINE | re.DOTALL)
    assert "six==" in lock and "six==" not in kept
    return kept


@pytest.mark.timeout(600)
@pytest.mark.parametrize(("change", "refusal"), [
    (altered_hash, r"THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE\.(.|\n)*"
                   r"    pyzmq==[0-9.]+ from .*/pyzmq-[^ ]*\.whl"),
    (left_out, r"In --require-hashes mode, all requirements must have their versions pinned with ==\. "
               r"These do not:\n    six from "),
])
def test_install_refuses_a_wheel_the_lock_does_not_vouch_for(tmp_path: Path, wheelhouse: Path,
                                                             change: Callable[[str, Path], str],
                                                             refusal: str) -> None:
    source = tmp_path / "source"                      # a copy of the checkout, its lock changed
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "build",
                                                                "*.egg-info", ".*_cache", "tests", "docs"))
    lock = source / "deploy" / "requirements.lock"
    lock.write_text(change(lock.read_text(), wheelhouse))
    stage = tmp_path / "stage"
    env = dict(os.environ, DESTDIR=str(stage), PYTHON=sys.executable,
               PIP_OPTIONS=f"--no-index --find-links {wheelhouse}")
    done = subprocess.run(["bash", str(source / INSTALL.relative_to(ROOT))], env=env, capture_output=True,
                          text=True, timeout=600, cwd="/")
    assert done.returncode != 0, done.stdout
    assert re.search(refusal, done.stderr), done.stderr
    program = stage / "opt/table-controller"                  # nothing installed, the unfinished version gone
    assert not (program / "current").exists() and not (program / "venv").exists()
    assert not any((program / "versions").iterdir()) and not (program / "manifest.json").exists()
    assert done.stderr.splitlines()[-1].endswith("failed; nothing changed: nothing was installed")


@pytest.mark.timeout(600)
def test_install_with_the_screen_takes_aiohttp_from_the_web_lock(tmp_path: Path, wheelhouse: Path) -> None:
    run_install(tmp_path, wheelhouse, "install", "--with-screen")
    python = str(tmp_path / "opt/table-controller/venv/bin/python")
    found = subprocess.run([python, "-I", "-c", "from importlib.metadata import version; "
                            "print(version('aiohttp'), version('yarl'), version('pyzmq'))"],
                           capture_output=True, text=True, timeout=60)
    web = read_lock(WEB_LOCK)
    assert found.stdout.split() == [web["aiohttp"].version, web["yarl"].version, web["pyzmq"].version], (
        found.stderr)
    checked = subprocess.run([python, "-I", "-m", "controller.cli", "verify"], capture_output=True, text=True,
                             timeout=120, cwd="/")
    assert checked.returncode == 0, checked.stdout + checked.stderr
