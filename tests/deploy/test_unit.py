"""The systemd unit: ``systemd-analyze verify``, its security rating, and what it must say.

``systemd-analyze`` comes with Debian's ``systemd`` package; ``make test`` installs it
when it is missing (``tests/system_packages.sh``). Where it cannot be had
these tests are skipped, saying so.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from controller.web.guard import STREAMS
from tests.deploy.conftest import ROOT, run_install

UNIT = ROOT / "systemd" / "table-controller.service"
TIMER = ROOT / "systemd" / "table-controller-retry.timer"
RULES = ROOT / "deploy" / "70-table-devices.rules"
EXEC = "/opt/table-controller/venv/bin/table-controller"
MAX_EXPOSURE = 1.5

analyze = shutil.which("systemd-analyze")
needs_analyze = pytest.mark.skipif(
    analyze is None, reason="systemd-analyze is not installed and `make test` could not install Debian's "
    "systemd package here (it needs root and apt-get): see README.md, Testing")


def settings(path: Path) -> dict[str, list[str]]:
    """Every ``Key=value`` of a unit file, by key, in order (a key may repeat)."""
    found: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key, []).append(value)
    return found


@needs_analyze
def test_systemd_analyze_verifies_the_unit_and_its_retry_timer(tmp_path: Path) -> None:
    # verify wants ExecStart's program to exist: the unit is checked as it is, but for that one
    # path, pointed at an executable stand-in in the same place under a temporary root.
    program = tmp_path / EXEC.lstrip("/")
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    units = tmp_path / "units"
    units.mkdir()
    text = UNIT.read_text()
    assert text.count(f"ExecStart={EXEC} ") == 1
    (units / UNIT.name).write_text(text.replace(f"ExecStart={EXEC} ", f"ExecStart={program} "))
    shutil.copy(TIMER, units / TIMER.name)
    assert analyze is not None
    done = subprocess.run([analyze, "verify", str(units / UNIT.name), str(units / TIMER.name)],
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


@needs_analyze
def test_the_offline_security_rating_is_at_most_1_5() -> None:
    assert analyze is not None
    done = subprocess.run([analyze, "security", "--offline=true", f"--threshold={int(MAX_EXPOSURE * 10)}",
                           str(UNIT)], capture_output=True, text=True, timeout=120)
    rating = re.search(r"Overall exposure level for table-controller\.service: ([0-9.]+)", done.stdout)
    assert rating is not None, done.stdout + done.stderr
    assert float(rating[1]) <= MAX_EXPOSURE, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_unit_notifies_is_watched_restarts_and_reaches_only_its_devices() -> None:
    unit = settings(UNIT)
    assert unit["Type"] == ["notify"] and unit["NotifyAccess"] == ["main"]
    assert unit["WatchdogSec"] == ["20s"]
    assert unit["Restart"] == ["on-failure"]
    assert unit["StartLimitIntervalSec"] == ["60s"] and unit["OnFailure"] == [TIMER.name]
    timer = settings(TIMER)
    assert timer["Unit"] == [UNIT.name] and timer["RemainAfterElapse"] == ["no"]
    assert unit["User"] == ["table"] and unit["SupplementaryGroups"] == ["dialout gpio"]
    for kind, mode in (("State", "0700"), ("Configuration", "0750"), ("Runtime", "0750")):
        assert unit[f"{kind}Directory"] == ["table-controller"]
        assert unit[f"{kind}DirectoryMode"] == [mode]
    assert unit["UMask"] == ["0077"]
    assert "GPIOZERO_PIN_FACTORY=lgpio" in unit["Environment"]
    assert "LG_WD=/run/table-controller" in unit["Environment"]
    assert unit["DevicePolicy"] == ["closed"]
    assert unit["DeviceAllow"] == ["char-ttyACM rw", "char-ttyUSB rw", "char-gpiochip rw"]
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_INET AF_INET6"]   # the pit's TCP ports
    assert "PrivateNetwork" not in unit and unit["CapabilityBoundingSet"] == [""]


def test_the_udev_rules_name_each_board_by_vendor_product_and_serial_and_keep_modemmanager_off() -> None:
    rules = [line for line in RULES.read_text().splitlines() if "SYMLINK+=" in line]
    assert sorted(re.search(r'SYMLINK\+="([^"]+)"', line)[1] for line in rules) == [  # type: ignore[index]
        "table-rfid", "table-shoe"]
    for line in rules:
        for match in ("ATTRS{idVendor}==", "ATTRS{idProduct}==", "ATTRS{serial}==", 'SUBSYSTEM=="tty"',
                      'ENV{ID_MM_DEVICE_IGNORE}="1"', 'GROUP="dialout"', 'MODE="0660"'):
            assert match in line, (match, line)


SCREEN = ROOT / "systemd" / "table-controller-screen.service"
KIOSK = ROOT / "systemd" / "table-controller-kiosk.service"
MAX_SCREEN_EXPOSURE = 1.5
MAX_KIOSK_EXPOSURE = 4.5
"""A browser on a display keeps its own sandbox's namespaces and the session's devices."""


def rating(unit: Path) -> float:
    assert analyze is not None
    done = subprocess.run([analyze, "security", "--offline=true", str(unit)],
                          capture_output=True, text=True, timeout=120)
    found = re.search(rf"Overall exposure level for {re.escape(unit.name)}: ([0-9.]+)", done.stdout)
    assert found is not None, done.stdout + done.stderr
    return float(found[1])


@needs_analyze
def test_systemd_analyze_verifies_the_screen_and_kiosk_units(tmp_path: Path) -> None:
    units = tmp_path / "units"
    units.mkdir()
    for unit, program in ((SCREEN, EXEC), (KIOSK, "/usr/bin/cage")):
        stand_in = tmp_path / program.lstrip("/")
        stand_in.parent.mkdir(parents=True, exist_ok=True)
        stand_in.write_text("#!/bin/sh\n")
        stand_in.chmod(0o755)
        text = unit.read_text()
        assert text.count(f"ExecStart={program} ") == 1
        (units / unit.name).write_text(text.replace(f"ExecStart={program} ", f"ExecStart={stand_in} "))
    assert analyze is not None
    done = subprocess.run([analyze, "verify", *(str(units / u.name) for u in (SCREEN, KIOSK))],
                          capture_output=True, text=True, timeout=120)
    # Units they name that this machine lacks (the daemon's, getty, plymouth) are not errors.
    errors = [line for line in (done.stdout + done.stderr).splitlines()
              if line and "not found" not in line and "No such file" not in line]
    assert done.returncode == 0 and errors == [], done.stdout + done.stderr


@needs_analyze
def test_the_screen_and_kiosk_security_ratings() -> None:
    assert rating(SCREEN) <= MAX_SCREEN_EXPOSURE
    assert rating(KIOSK) <= MAX_KIOSK_EXPOSURE


def test_the_screen_runs_apart_from_the_table_and_the_kiosk_restarts_on_its_own_tty() -> None:
    screen = settings(SCREEN)
    assert screen["ExecStart"] == [f"{EXEC} screen --config /etc/table-controller/table.toml"]
    assert screen["User"] == ["table-screen"] and screen["SupplementaryGroups"] == ["table"]
    assert screen["Restart"] == ["on-failure"] and screen["IPAddressAllow"] == ["localhost"]
    assert screen["InaccessiblePaths"] == ["-/var/lib/table-controller"]    # the journal's cards
    assert screen["DevicePolicy"] == ["closed"] and screen["CapabilityBoundingSet"] == [""]
    assert int(screen["LimitNOFILE"][0]) >= 4 * STREAMS      # capped streams leave room for the rest
    kiosk = settings(KIOSK)
    assert kiosk["User"] == ["table-kiosk"] and kiosk["PAMName"] == ["login"]
    assert kiosk["TTYPath"] == ["/dev/tty1"] and kiosk["Conflicts"] == ["getty@tty1.service"]
    assert kiosk["Restart"] == ["always"] and kiosk["RestartSec"] == ["2s"]
    command = KIOSK.read_text().split("ExecStart=", 1)[1].split("\nRestart=", 1)[0]
    assert command.startswith("/usr/bin/cage ") and "--kiosk" in command
    assert command.rstrip().endswith("http://127.0.0.1:8070/")
    assert kiosk["NoNewPrivileges"] == ["yes"] and kiosk["IPAddressAllow"] == ["localhost"]


SYSTEM_UNITS = Path("/usr/lib/systemd/system")


@needs_analyze
def test_systemd_analyze_verifies_the_units_as_installed_in_a_staged_root(
        tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> None:
    """Issue 26 item 15: the units install.sh lays down, checked where they lie, the programs they name
    looked up in the same root (``--root``): the daemon and screen in the staged venv, cage as the
    system package install.sh takes for the screen (a stand-in here), systemd's own units copied in."""
    if not SYSTEM_UNITS.is_dir():
        pytest.skip(f"no {SYSTEM_UNITS} on this machine to copy systemd's own units from")
    stage = tmp_path_factory.mktemp("verify-stage")
    run_install(stage, wheelhouse)
    shutil.copytree(SYSTEM_UNITS, stage / SYSTEM_UNITS.relative_to("/"), symlinks=True)
    cage = stage / "usr/bin/cage"
    cage.parent.mkdir(parents=True, exist_ok=True)
    cage.write_text("#!/bin/sh\n")
    cage.chmod(0o755)
    units = sorted(f"etc/systemd/system/{unit.name}" for unit in (UNIT, TIMER, SCREEN, KIOSK))
    assert all((stage / unit).is_file() for unit in units)

    def verify() -> subprocess.CompletedProcess[str]:
        assert analyze is not None
        return subprocess.run([analyze, "verify", f"--root={stage}", *units], capture_output=True, text=True,
                              timeout=120, cwd=stage)

    done = verify()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    program = stage / EXEC.lstrip("/")                         # the check looks in the staged root
    program.rename(program.with_name("moved"))
    assert f"Command {EXEC} is not executable" in verify().stderr


@pytest.mark.skipif(shutil.which("apt-cache") is None, reason="no apt-cache: not a Debian system")
def test_install_takes_the_packages_this_system_has_and_says_which_it_skips() -> None:
    """Chromium is ``chromium-browser`` on Raspberry Pi OS, ``chromium`` on Debian; ``python3-lgpio`` is
    Raspberry Pi OS's alone: install.sh takes the first candidate this system can install of each and
    names each it skips, instead of stopping (``set -e``) on a name this system does not know."""
    done = subprocess.run(["bash", str(ROOT / "deploy" / "install.sh"), "packages", "--with-screen"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    chosen = done.stdout.split()

    def installable(package: str) -> bool:
        policy = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True).stdout
        return re.search(r"(?m)^ *Candidate: [^(]", policy) is not None

    for wanted in (["python3-venv"], ["python3-lgpio"], ["cage"], ["chromium-browser", "chromium"]):
        have = [package for package in wanted if installable(package)]
        if have:
            assert set(wanted) & set(chosen) == {have[0]}, (wanted, chosen)
        else:
            assert f"install.sh: skipped: no package {' or '.join(wanted)} in this system's package lists" \
                in done.stderr.splitlines()
    assert len(chosen) == len(set(chosen)) and all(installable(package) for package in chosen)
    if Path("/etc/debian_version").exists() and not installable("chromium-browser"):   # Debian itself
        assert "chromium" in chosen
