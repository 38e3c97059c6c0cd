"""Every command line as installed (the console scripts beside this interpreter, and
``deploy/install.sh``), run as subprocesses: ``--version`` from the package metadata on each, ``--help``
on the installer, errors on stderr with a non-zero status (issue 26 item 14)."""

from __future__ import annotations

import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
VERSION = metadata.version("table-controller")


def run(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize(("command", "shown"), [
    (["table-controller"], "table-controller"), (["firmware-bridge"], "firmware-bridge"),
    (["pit-monitor"], "pit-monitor"), (["table-controller", "screen"], "table-controller screen")])
def test_every_command_tells_its_version_from_the_package_metadata(command: list[str], shown: str) -> None:
    done = run(BIN / command[0], *command[1:], "--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{shown} {VERSION}\n", "")


def test_install_sh_help_prints_its_usage() -> None:
    done = run("bash", ROOT / "deploy" / "install.sh", "--help")
    assert done.returncode == 0 and done.stderr == ""
    first, blank, *rest = done.stdout.splitlines()
    assert first.startswith("usage: ") and "uninstall [--purge --confirm-table ID]" in first and blank == ""
    assert any("--with-screen" in line for line in rest) and not any(line.startswith("#") for line in rest)
    wrong = run("bash", ROOT / "deploy" / "install.sh", "--bogus")
    assert (wrong.returncode, wrong.stdout) == (2, "")
    assert wrong.stderr.splitlines()[0] == "install.sh: unknown command --bogus"


def test_firmware_bridge_decode_says_a_capture_that_is_not_hex_on_stderr_and_fails() -> None:
    done = run(BIN / "firmware-bridge", "decode", "zz")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("firmware-bridge: decode: argument 1 is not hex")


@pytest.mark.parametrize("command", [
    ["table-controller", "run", "--config"], ["table-controller", "recall", "--config"],
    ["table-controller", "math", "--config"], ["table-controller", "screen", "--config"]])
def test_a_missing_configuration_is_said_on_stderr_with_status_2(command: list[str], tmp_path: Path) -> None:
    done = run(BIN / command[0], *command[1:], tmp_path / "none.toml")
    assert (done.returncode, done.stdout) == (2, "")
    missing = tmp_path / "none.toml"
    assert done.stderr == f"config: {missing}: cannot read the file: No such file or directory\n"


def test_pit_monitor_mistakes_are_said_on_stderr_with_status_2(tmp_path: Path) -> None:
    done = run(BIN / "pit-monitor", "report", "--db", tmp_path / "none.sqlite")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", f"pit-monitor: no database at {tmp_path / 'none.sqlite'}\n")
