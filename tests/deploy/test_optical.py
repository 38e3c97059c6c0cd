"""The optical shoe's packages in a staged install: ``deploy/install.sh install --with-optical`` installs
numpy and OpenCV from ``deploy/requirements-optical.lock`` into the version's own virtual environment, its
manifest names the extra, and ``verify`` checks both (a changed OpenCV file fails it); an upgrade without
the option (with ``--with-screen``: both locks) keeps what the running version has; an install without it
has neither.

The staged venv sees the system's site-packages (``--system-site-packages``, for Raspberry Pi OS's lgpio),
where this machine may have a numpy of its own: what the install put in is read from the venv's own
site-packages, not from what imports.
"""

from __future__ import annotations

import json
import re
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from tests.deploy.conftest import OPTICAL_LOCK, WEB_LOCK, read_lock, run_install

pytestmark = pytest.mark.timeout(600)

VENV = "opt/table-controller/venv"
OPTICAL = {"numpy", "opencv-python-headless"}


def own_packages(stage: Path) -> dict[str, str]:
    """The distributions in the staged venv's own site-packages: name -> version."""
    (site,) = (stage / VENV).glob("lib/python*/site-packages")
    return {str(dist.metadata["Name"]).lower(): dist.version
            for dist in metadata.distributions(path=[str(site)])}


def verify(stage: Path) -> subprocess.CompletedProcess[str]:
    """``table-controller verify`` of the staged program, as the table runs it."""
    return subprocess.run([str(stage / VENV / "bin" / "python"), "-I", "-m", "controller.cli", "verify"],
                          capture_output=True, text=True, timeout=300, cwd="/")


def test_install_with_optical_takes_numpy_and_opencv_from_their_lock_and_an_upgrade_keeps_them(
        tmp_path: Path, wheelhouse: Path) -> None:
    run_install(tmp_path, wheelhouse, "install", "--with-optical")
    optical, installed = read_lock(OPTICAL_LOCK), own_packages(tmp_path)
    for name in OPTICAL:
        assert installed.get(name) == optical[name].version, (name, installed)
    assert "aiohttp" not in installed
    manifest = json.loads((tmp_path / "opt/table-controller/manifest.json").read_text())
    assert manifest["extras"] == ["optical"]
    checked = verify(tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "runtime dependencies with the extras optical, against the hashes in their RECORD" \
        in checked.stdout.splitlines()
    for name in OPTICAL:
        assert re.search(rf"(?im)^  ok    {re.escape(name)} {re.escape(installed[name])} \([0-9]+ files\) "
                         rf"matches its recorded hash$", checked.stdout), (name, checked.stdout)

    (cv2,) = (tmp_path / VENV).glob("lib/python*/site-packages/cv2/__init__.py")
    original = cv2.read_bytes()
    try:
        cv2.write_bytes(original + b"\n# changed after installation\n")
        tampered = verify(tmp_path)
        assert tampered.returncode == 1
        assert [line for line in tampered.stdout.splitlines() if "FAIL" in line] == [
            f"  FAIL  opencv-python-headless {installed['opencv-python-headless']}: cv2/__init__.py "
            "does not match its RECORD hash"]
    finally:
        cv2.write_bytes(original)

    # An upgrade that asks for the screen alone keeps the optical shoe the running version has: both locks.
    upgraded = run_install(tmp_path, wheelhouse, "install", "--with-screen")
    kept = r"(?m)^install\.sh: the running version \S+ has the optical shoe: kept \(--with-optical\)$"
    assert re.search(kept, upgraded.stdout), upgraded.stdout
    installed = own_packages(tmp_path)
    for name in OPTICAL:
        assert installed.get(name) == optical[name].version, (name, installed)
    assert installed["aiohttp"] == read_lock(WEB_LOCK)["aiohttp"].version
    manifest = json.loads((tmp_path / "opt/table-controller/manifest.json").read_text())
    assert manifest["extras"] == ["optical", "screen"]
    checked = verify(tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "runtime dependencies with the extras optical, screen, against the hashes in their RECORD" \
        in checked.stdout.splitlines()
    for name in OPTICAL | {"aiohttp"}:
        assert re.search(rf"(?im)^  ok    {re.escape(name)} {re.escape(installed[name])} \([0-9]+ files\) "
                         rf"matches its recorded hash$", checked.stdout), (name, checked.stdout)


def test_install_without_optical_has_neither_numpy_nor_opencv(staged: Path) -> None:
    installed = own_packages(staged)
    assert "pyzmq" in installed                                  # the table's own packages are there
    assert not OPTICAL & set(installed), installed
    manifest = json.loads((staged / "opt/table-controller/manifest.json").read_text())
    assert manifest["extras"] == []
    checked = verify(staged)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "runtime dependencies, against the hashes in their RECORD" in checked.stdout.splitlines()
    assert not re.search(r"(?im)^  \S+ +(numpy|opencv)", checked.stdout), checked.stdout
