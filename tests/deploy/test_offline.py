"""The offline install the deployment guide documents: the wheel list it gives is what the program
needs, and the program installs from a folder of wheels alone into a fresh virtual environment, without
aiohttp, which only the pit monitor (the ``monitor`` extra) needs; the daemon never imports it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.deploy.conftest import ROOT

pytestmark = pytest.mark.timeout(600)


def names(requirements: list[str]) -> set[str]:
    """The distribution names of requirement strings (``'setuptools>=68'`` -> ``setuptools``)."""
    return {re.split(r"[<>=!~\[; ]", requirement.strip("'\""), maxsplit=1)[0].lower()
            for requirement in requirements}


def documented(extra: str) -> set[str]:
    """The distributions named in the guide's ``pip download`` line for the table (``extra`` empty)
    or for a podium PC (``extra`` ``monitor``)."""
    text = (ROOT / "docs" / "deployment.md").read_text()
    marker = "<!-- wheels: monitor -->" if extra else "<!-- wheels: table -->"
    block = text.split(marker, 1)[1].split("```", 2)[1]
    words = " ".join(block.split("\\\n")).split()
    listed = words[words.index("-d") + 2:]
    return names([word for word in listed if not word.startswith("-")])


def test_the_documented_wheel_lists_name_what_the_table_and_the_monitor_need() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    table = names(project["build-system"]["requires"] + project["project"]["dependencies"])
    assert "aiohttp" not in table                                 # the table never runs the monitor
    assert documented("") == table
    assert documented("monitor") == table | names(project["project"]["optional-dependencies"]["monitor"])
    assert "aiohttp" in names(project["project"]["optional-dependencies"]["dev"])


def test_the_daemon_imports_no_aiohttp() -> None:
    probe = ("import sys, controller.cli, controller.daemon, controller.security.integrity; "
             "print(sorted(m for m in sys.modules if m.split('.')[0] == 'aiohttp'))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "[]\n"


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """A fresh virtual environment with the program installed from a folder of wheels alone."""
    tmp_path = tmp_path_factory.mktemp("offline")
    source = tmp_path / "source"                       # built from a copy: the checkout stays clean
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "build",
                                                                "*.egg-info", ".*_cache"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                            "--find-links", str(wheelhouse), "--wheel-dir", str(tmp_path / "wheels"),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip_install(venv, wheelhouse, "table-controller")
    return venv


def pip_install(venv: Path, wheelhouse: Path, what: str) -> None:
    """``pip install WHAT`` into ``venv`` from the wheels alone."""
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                           "--disable-pip-version-check", "--no-index", "--find-links", str(wheelhouse),
                           "--find-links", str(venv.parent / "wheels"), what],
                          capture_output=True, text=True, timeout=300)
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
    pip_install(venv, wheelhouse, "table-controller[monitor]")
    helped = subprocess.run([str(venv / "bin" / "pit-monitor"), "--help"], capture_output=True, text=True,
                            timeout=60)
    assert helped.returncode == 0, helped.stderr
