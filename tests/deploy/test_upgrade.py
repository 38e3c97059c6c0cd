"""Upgrades that cannot take the table down (issue 34): ``deploy/install.sh`` into a staging root.

Each new version is built beside the one that runs and switched to only once it is installed,
compiled and verified. An upgrade that fails before the switch (no network, a wheel missing or
changed, a kill during pip, a full disk) exits non-zero with one line saying what failed and
leaves the old version installed: ``verify`` passing, ``table-controller --version`` answering,
``.install-owners`` as it was. A start that does not report ready undoes the switch (in a
staging root there is no systemd: ``INSTALL_START_HOOK`` stands for the start). ``rollback``
goes back to the version kept, ``status`` says which is which.

Real pip into real virtual environments from the session's wheelhouse; the full disk is a small
tmpfs mounted by the test (skipped, saying why, where mounting is not permitted).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.conftest import INSTALL, run_install

pytestmark = pytest.mark.timeout(600)

PREFIX = "opt/table-controller"
RELEASE = r"table-controller 0\.1\.0, built [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2} UTC"
STILL = ("nothing changed: table-controller 0.1.0 (/opt/table-controller/versions/0.1.0) "
         "is still the installed version")


def install(stage: Path, pip_options: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``deploy/install.sh ARGS`` into ``stage`` with these pip options; its outcome, whatever it is."""
    environment = dict(os.environ, DESTDIR=str(stage), PYTHON=sys.executable, PIP_OPTIONS=pip_options, **env)
    return subprocess.run(["bash", str(INSTALL), *args], env=environment, capture_output=True, text=True,
                          timeout=600, cwd="/")


def cli(stage: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``table-controller ARGS`` with the staged program, through the links the table runs it by."""
    return subprocess.run([str(stage / PREFIX / "venv" / "bin" / "python"), "-I", "-m", "controller.cli",
                           *args], capture_output=True, text=True, timeout=120, cwd="/")


def current(stage: Path) -> str:
    return os.readlink(stage / PREFIX / "current")


def versions(stage: Path) -> list[str]:
    return sorted(path.name for path in (stage / PREFIX / "versions").iterdir())


def status(stage: Path) -> list[str]:
    done = install(stage, "", "status")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def assert_runs(stage: Path, name: str) -> None:
    """``name`` is the version installed: the link names it, it verifies and it tells its version."""
    assert current(stage) == f"versions/{name}"
    checked = cli(stage, "verify")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"installed files in {stage}/{PREFIX}/venv/lib/" in checked.stdout
    assert cli(stage, "--version").stdout == "table-controller 0.1.0\n"
    assert (stage / PREFIX / "versions" / name / "venv" / "bin" / "table-controller").is_file()


def assert_one_line(done: subprocess.CompletedProcess[str], last: str) -> None:
    """A failure: non-zero, and one line of install.sh's own on stderr, the last, matching ``last``."""
    assert done.returncode != 0, done.stdout
    ours = [line for line in done.stderr.splitlines() if line.startswith("install.sh:")]
    assert len(ours) == 1 and done.stderr.splitlines()[-1] == ours[0], done.stderr
    assert re.fullmatch(last, ours[0]), ours[0]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Iterator[Path]:
    """One staging root with 0.1.0 installed, shared by the failures that must leave it as it was (each
    checks that it did; a test that breaks it fails itself)."""
    stage = tmp_path_factory.mktemp("upgrade")
    run_install(stage, wheelhouse)
    yield stage


def unchanged(stage: Path, owners: bytes) -> None:
    assert_runs(stage, "0.1.0")
    assert versions(stage) == ["0.1.0"]
    assert (stage / ".install-owners").read_bytes() == owners            # 22 lines, not cut to 1
    assert not (stage / ".install-owners.new").exists()


def wheels_but(wheelhouse: Path, folder: Path, name: str, *, changed: bool) -> Path:
    """A copy of the wheelhouse (links) without the wheel of ``name``, or with it changed by a byte."""
    folder.mkdir()
    for wheel in wheelhouse.glob("*.whl"):
        if not wheel.name.startswith(f"{name}-"):
            (folder / wheel.name).symlink_to(wheel)
        elif changed:
            (folder / wheel.name).write_bytes(wheel.read_bytes() + b"\0")
    return folder


@pytest.mark.parametrize("case", ["no network", "a wheel missing", "a wheel changed"])
def test_a_failed_fetch_leaves_the_old_version_installed(installed: Path, wheelhouse: Path, tmp_path: Path,
                                                         case: str) -> None:
    owners = (installed / ".install-owners").read_bytes()
    folder = {"no network": lambda: tmp_path,
              "a wheel missing": lambda: wheels_but(wheelhouse, tmp_path / "w", "transitions", changed=False),
              "a wheel changed": lambda: wheels_but(wheelhouse, tmp_path / "w", "transitions", changed=True),
              }[case]()
    done = install(installed, f"--no-index --find-links {folder}")
    assert_one_line(done, re.escape("install.sh: table-controller 0.1.0 was not installed: installing its "
                                    "dependencies (pip, deploy/requirements.lock) failed; " + STILL))
    if case == "a wheel changed":
        assert "THESE PACKAGES DO NOT MATCH THE HASHES" in done.stderr
    unchanged(installed, owners)


def test_a_start_that_does_not_report_ready_undoes_the_switch(installed: Path, wheelhouse: Path,
                                                              tmp_path: Path) -> None:
    owners = (installed / ".install-owners").read_bytes()
    calls = tmp_path / "starts"
    hook = f'echo "$1" >>{calls}; [ "$1" = 0.1.0 ]'                 # the new version never gets ready
    done = install(installed, f"--no-index --find-links {wheelhouse}", INSTALL_START_HOOK=hook)
    assert_one_line(done, re.escape(
        "install.sh: 0.1.0-2 did not start and report ready (the command in INSTALL_START_HOOK failed); "
        "switched back to 0.1.0, which runs again"))
    assert calls.read_text().split() == ["0.1.0-2", "0.1.0"]      # started on the new one, then the old
    unchanged(installed, owners)


def test_rollback_and_status_with_nothing_to_go_back_to(installed: Path, tmp_path: Path) -> None:
    assert [re.sub(RELEASE, "RELEASE", line) for line in status(installed)] == [
        "current   0.1.0: RELEASE", "previous  none kept", f"service   none: a staging root ({installed})"]
    refused = install(installed, "", "rollback")
    assert_one_line(refused, "install.sh: no previous version is kept to go back to")
    assert_runs(installed, "0.1.0")
    empty = install(tmp_path, "", "status")
    assert (empty.returncode, empty.stderr) == (
        1, f"install.sh: table-controller is not installed in {tmp_path}\n")


def test_a_relative_destdir_is_refused_before_anything_is_done(tmp_path: Path) -> None:
    environment = dict(os.environ, DESTDIR="stage", PYTHON=sys.executable)
    done = subprocess.run(["bash", str(INSTALL)], env=environment, capture_output=True, text=True, timeout=60,
                          cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "install.sh: DESTDIR must be an absolute path, not stage\n"
    assert list(tmp_path.iterdir()) == []


def pip_of(venv_python: str) -> int | None:
    """The process id of a pip run by ``venv_python``, if one runs now."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if words[:3] == [venv_python.encode(), b"-m", b"pip"]:
                return int(entry.name)
    return None


def test_a_kill_during_pip_then_upgrade_rollback_and_status(staged: Path, wheelhouse: Path) -> None:
    owners = (staged / ".install-owners").read_bytes()
    python = f"{staged}/{PREFIX}/versions/0.1.0-2/venv/bin/python"
    environment = dict(os.environ, DESTDIR=str(staged), PYTHON=sys.executable,
                       PIP_OPTIONS=f"--no-index --find-links {wheelhouse}")
    upgrade = subprocess.Popen(["bash", str(INSTALL)], env=environment, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, cwd="/", start_new_session=True)
    try:
        while pip_of(python) is None:              # the moment pip installs the dependencies
            assert upgrade.poll() is None, "the upgrade ended before pip was seen running"
        os.killpg(upgrade.pid, signal.SIGKILL)     # as a power cut would: no trap runs
    finally:
        upgrade.wait(timeout=60)
    assert upgrade.returncode == -signal.SIGKILL
    assert_runs(staged, "0.1.0")
    assert (staged / ".install-owners").read_bytes() == owners
    assert [re.sub(RELEASE, "RELEASE", line) for line in status(staged)] == [
        "current   0.1.0: RELEASE", "previous  none kept",
        "unfinished 0.1.0-2: left by an upgrade that did not finish (the next install removes it)",
        f"service   none: a staging root ({staged})"]

    done = run_install(staged, wheelhouse)
    assert done.stdout.splitlines()[0] == (
        "install.sh: removed /opt/table-controller/versions/0.1.0-2, left by an upgrade that did not finish")
    assert "install.sh: upgraded in " in done.stdout and "0.1.0-2 runs; 0.1.0 is kept" in done.stdout
    assert_runs(staged, "0.1.0-2")
    assert [re.sub(RELEASE, "RELEASE", line) for line in status(staged)] == [
        "current   0.1.0-2: RELEASE", "previous  0.1.0: RELEASE (deploy/install.sh rollback goes back to it)",
        f"service   none: a staging root ({staged})"]
    upgraded = (staged / ".install-owners").read_text()

    back = run_install(staged, wheelhouse, "rollback")
    assert back.stdout.splitlines()[-1] == (
        f"install.sh: rolled back in {staged}: 0.1.0 runs; 0.1.0-2 is kept (deploy/install.sh rollback goes "
        "forward to it)")
    assert_runs(staged, "0.1.0")
    assert os.readlink(staged / PREFIX / "previous") == "versions/0.1.0-2"
    assert sorted((staged / ".install-owners").read_text().splitlines()) == sorted(upgraded.splitlines())
    run_install(staged, wheelhouse, "rollback")                         # and forward again
    assert_runs(staged, "0.1.0-2")

    run_install(staged, wheelhouse)                                     # a third: the oldest goes
    assert_runs(staged, "0.1.0-3")
    assert versions(staged) == ["0.1.0-2", "0.1.0-3"]
    assert os.readlink(staged / PREFIX / "previous") == "versions/0.1.0-2"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of its own (needs root and the right to mount: skipped, saying why, without)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256m,mode=0755", "tmpfs", str(disk)],
                             capture_output=True, text=True, timeout=60) if shutil.which("mount") else None
    if mounted is None or mounted.returncode != 0:
        pytest.skip("a tmpfs cannot be mounted here (it needs root and CAP_SYS_ADMIN): "
                    f"{mounted.stderr.strip() if mounted else 'no mount command'}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "--lazy", str(disk)], capture_output=True, timeout=60)


def test_an_upgrade_onto_a_full_disk_leaves_the_old_version_and_the_space(small_disk: Path,
                                                                          wheelhouse: Path) -> None:
    run_install(small_disk, wheelhouse)
    used = os.statvfs(small_disk)
    taken = (used.f_blocks - used.f_bfree) * used.f_frsize
    # Room for three quarters of a second version: the disk fills up while pip installs it.
    resized = subprocess.run(["mount", "-o", f"remount,size={taken * 7 // 4 // 1024}k", str(small_disk)],
                             capture_output=True, text=True, timeout=60)
    assert resized.returncode == 0, resized.stderr
    owners = (small_disk / ".install-owners").read_bytes()
    free = os.statvfs(small_disk).f_bfree
    done = install(small_disk, f"--no-index --find-links {wheelhouse}")
    assert_one_line(done, r"install\.sh: table-controller 0\.1\.0 was not installed: .+ failed; "
                    + re.escape(STILL))
    assert "No space left on device" in done.stderr
    unchanged(small_disk, owners)
    assert os.statvfs(small_disk).f_bfree == free                          # not left 100 % full
