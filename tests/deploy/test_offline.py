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


def test_the_program_installs_from_a_folder_of_wheels_alone(tmp_path: Path, wheelhouse: Path) -> None:
    source = tmp_path / "source"                       # built from a copy: the checkout stays clean
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(".venv", ".git", "__pycache__", "build",
                                                                "*.egg-info", ".*_cache"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-index",
                            "--find-links", str(wheelhouse), "--wheel-dir", str(tmp_path / "wheels"),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    offline = ["--no-index", "--find-links", str(wheelhouse), "--find-links", str(tmp_path / "wheels")]

    def pip_install(what: str) -> None:
        done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                               "--disable-pip-version-check", *offline, what],
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr

    pip_install("table-controller")
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
    pip_install("table-controller[monitor]")
    helped = subprocess.run([str(venv / "bin" / "pit-monitor"), "--help"], capture_output=True, text=True,
                            timeout=60)
    assert helped.returncode == 0, helped.stderr
