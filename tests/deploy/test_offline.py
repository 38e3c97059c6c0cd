"""The offline install the deployment guide documents: its ``pip download`` lines fetch the wheels the
locks name (for the Pi: linux aarch64, CPython 3.11, every wheel matching its hash: the table's, and the
optical shoe's numpy and OpenCV), and the program
installs from the locks and a folder of wheels alone into a fresh virtual environment, without aiohttp,
which only the pit monitor and the dealer screen (their extras, the web lock) need; the daemon never
imports it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.conftest import OPTICAL_LOCK, ROOT, TABLE_LOCK, WEB_LOCK, read_lock

pytestmark = pytest.mark.timeout(600)

PI = ["--platform", "manylinux_2_28_aarch64", "--python-version", "3.11", "--implementation", "cp",
      "--abi", "cp311"]
"""What the Pi is to pip download: Raspberry Pi OS Bookworm 64-bit (glibc 2.36), CPython 3.11."""


def documented(machine: str) -> list[str]:
    """The words of the guide's ``pip download`` line for the ``table``, its optical shoe (``optical``)
    or a podium PC (``monitor``)."""
    text = (ROOT / "docs" / "deployment.md").read_text()
    block = text.split(f"<!-- wheels: {machine} -->", 1)[1].split("```", 2)[1]
    return " ".join(block.removeprefix("sh").split("\\\n")).split()


def test_the_documented_wheel_lists_are_the_locks() -> None:
    table, optical, monitor = documented("table"), documented("optical"), documented("monitor")
    for words, lock in ((table, TABLE_LOCK), (optical, OPTICAL_LOCK), (monitor, WEB_LOCK)):
        assert words[:2] == ["pip", "download"]
        assert {"--require-hashes", "--only-binary=:all:"} <= set(words)
        assert words[-2:] == ["-r", lock.relative_to(ROOT).as_posix()]
    assert " ".join(PI) in " ".join(table) and " ".join(PI) in " ".join(optical)
    assert "--platform" not in monitor                            # the podium PC's own platform


def fetched_for_the_pi(machine: str, folder: Path) -> dict[str, str]:
    """The wheels the guide's ``pip download`` line for ``machine`` fetches into ``folder``, by name."""
    words = documented(machine)
    words[words.index("-d") + 1] = str(folder)
    words[-1] = str(ROOT / words[-1])
    fetched = subprocess.run([sys.executable, "-m", *words[:2], "--quiet", *words[2:]], capture_output=True,
                             text=True, timeout=300)
    if fetched.returncode != 0 and "hash" not in fetched.stderr.lower():
        pytest.skip(f"the Pi's wheels cannot be had from PyPI: {fetched.stderr.strip()[-500:]}")
    assert fetched.returncode == 0, fetched.stderr
    return {path.name.split("-")[0].lower().replace("_", "-"): path.name for path in folder.glob("*.whl")}


def test_the_documented_line_fetches_the_pis_wheels_each_matching_its_hash(tmp_path: Path) -> None:
    wheels = fetched_for_the_pi("table", tmp_path)
    assert set(wheels) == set(read_lock(TABLE_LOCK))
    assert re.fullmatch(r"pyzmq-[0-9.]+-cp311-cp311-manylinux[0-9_a-z.]*_aarch64\.whl", wheels["pyzmq"])


def test_the_optical_shoes_line_fetches_numpy_and_opencv_for_the_pi_each_matching_its_hash(
        tmp_path: Path) -> None:
    wheels = fetched_for_the_pi("optical", tmp_path)
    lock = read_lock(OPTICAL_LOCK)
    assert set(wheels) == set(lock)
    assert re.fullmatch(rf"numpy-{re.escape(lock['numpy'].version)}-cp311-cp311-manylinux[0-9_a-z.]*"
                        r"_aarch64\.whl", wheels["numpy"])
    opencv = lock["opencv-python-headless"].version
    assert re.fullmatch(rf"opencv_python_headless-{re.escape(opencv)}-cp3[0-9]+-(abi3|cp311)-"
                        r"manylinux[0-9_a-z.]*_aarch64\.whl", wheels["opencv-python-headless"])


def test_the_daemon_imports_no_aiohttp() -> None:
    probe = ("import sys, controller.cli, controller.daemon.loop, controller.security.integrity; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aiohttp'))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A fresh virtual environment with the program installed as the guide has it for a podium PC
    without internet: the table's lock from a folder of wheels, then the program without dependencies."""
    tmp_path = tmp_path_factory.mktemp("offline")
    source = tmp_path / "source"                       # built from a copy: the checkout stays clean
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "build",
                                                                "*.egg-info", ".*_cache"))
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip_install(venv, wheelhouse, "--require-hashes", "-r", str(TABLE_LOCK))
    pip_install(venv, wheelhouse, "--no-deps", "--no-build-isolation", str(source))
    return venv


def pip_install(venv: Path, wheelhouse: Path, *what: str) -> None:
    """``pip install WHAT`` into ``venv`` from the wheels alone."""
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "--no-index", "--find-links", str(wheelhouse),
                           *what], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_verify_reports_a_changed_dependency_and_a_new_pth_file(offline: Path, tmp_path: Path) -> None:
    python = str(offline / "bin" / "python")

    def verify() -> subprocess.CompletedProcess[str]:
        return subprocess.run([python, "-I", "-m", "controller.cli", "verify", "--manifest",
                               str(tmp_path / "manifest.json")], capture_output=True, text=True,
                              timeout=120, cwd="/")

    made = subprocess.run([python, "-I", "-m", "controller.cli", "manifest", "--output",
                           str(tmp_path / "manifest.json")], capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    clean = verify()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert re.search(r"  ok    transitions [0-9.]+ \([0-9]+ files\) matches its recorded hash", clean.stdout)
    site = Path(subprocess.run([python, "-I", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    core = site / "transitions" / "core.py"
    original = core.read_bytes()
    try:
        core.write_bytes(original + b"\n# changed after installation\n")
        (site / "zz-hook.pth").write_text("import os\n")
        tampered = verify()
        assert tampered.returncode == 1
        failed = [line for line in tampered.stdout.splitlines() if "FAIL" in line]
        assert len(failed) == 2, tampered.stdout
        assert re.fullmatch(r"  FAIL  transitions [0-9.]+: transitions/core.py does not match its "
                            r"RECORD hash", failed[0])
        assert failed[1] == (f"  FAIL  {site}/zz-hook.pth is a .pth file no installed distribution lists"
                             " (Python runs it at start)")
    finally:
        core.write_bytes(original)
        (site / "zz-hook.pth").unlink()
    assert verify().returncode == 0


def test_the_program_installs_from_a_folder_of_wheels_alone(offline: Path, wheelhouse: Path) -> None:
    venv = offline
    helped = subprocess.run([str(venv / "bin" / "table-controller"), "--help"], capture_output=True,
                            text=True, timeout=60)
    assert helped.returncode == 0 and "verify" in helped.stdout, helped.stderr
    assert subprocess.run([str(venv / "bin" / "python"), "-c", "import aiohttp"],
                          capture_output=True, timeout=60).returncode != 0
    monitor = subprocess.run([str(venv / "bin" / "pit-monitor"), "serve", "--table=T1=tcp://127.0.0.1:9"],
                             capture_output=True, text=True, timeout=60)
    assert monitor.returncode == 2
    assert monitor.stderr.splitlines() == [
        "pit-monitor: needs aiohttp, which the monitor extra brings: pip install 'table-controller[monitor]'"]
    pip_install(venv, wheelhouse, "--require-hashes", "-r", str(WEB_LOCK))
    helped = subprocess.run([str(venv / "bin" / "pit-monitor"), "--help"], capture_output=True, text=True,
                            timeout=60)
    assert helped.returncode == 0, helped.stderr
