"""The optical shoe's packages in a staged install: ``deploy/install.sh install --with-optical`` (alone, and
with ``--with-screen``) installs numpy and OpenCV from ``deploy/requirements-optical.lock`` into the
version's own virtual environment, its manifest names the extra, and ``verify`` checks both (a changed
OpenCV file fails it); an install without the option has neither, and an upgrade without it keeps what
the running version has.

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


@pytest.mark.parametrize("options", [("--with-optical",), ("--with-optical", "--with-screen")],
                         ids=["optical", "optical-and-screen"])
def test_install_with_optical_takes_numpy_and_opencv_from_their_lock_and_verify_checks_them(
        tmp_path: Path, wheelhouse: Path, options: tuple[str, ...]) -> None:
    run_install(tmp_path, wheelhouse, "install", *options)
    optical, installed = read_lock(OPTICAL_LOCK), own_packages(tmp_path)
    for name in OPTICAL:
        assert installed.get(name) == optical[name].version, (name, installed)
    extras = sorted({"optical"} | ({"screen"} if "--with-screen" in options else set()))
    manifest = json.loads((tmp_path / "opt/table-controller/manifest.json").read_text())
    assert manifest["extras"] == extras
    assert ("aiohttp" in installed) == ("screen" in extras)
    if "screen" in extras:
        assert installed["aiohttp"] == read_lock(WEB_LOCK)["aiohttp"].version

    checked = verify(tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"runtime dependencies with the extras {', '.join(extras)}, against the hashes in their RECORD" \
        in checked.stdout.splitlines()
    for name in OPTICAL | ({"aiohttp"} if "screen" in extras else set()):
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


def test_an_upgrade_without_the_option_keeps_the_optical_shoe(tmp_path: Path, wheelhouse: Path) -> None:
    run_install(tmp_path, wheelhouse, "install", "--with-optical")
    upgraded = run_install(tmp_path, wheelhouse, "install")
    kept = r"(?m)^install\.sh: the running version \S+ has the optical shoe: kept \(--with-optical\)$"
    assert re.search(kept, upgraded.stdout), upgraded.stdout
    installed = own_packages(tmp_path)
    assert set(installed) >= OPTICAL, installed
    manifest = json.loads((tmp_path / "opt/table-controller/manifest.json").read_text())
    assert manifest["extras"] == ["optical"]
    checked = verify(tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr


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
