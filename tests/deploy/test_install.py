"""``deploy/install.sh`` into a staging root: every file with its mode and owner, verify, upgrade, uninstall.

Each test installs into a staging root of its own: installed and checked; verified (and a
file tampered with is caught); upgraded; uninstalled, then purged.
"""

from __future__ import annotations

import importlib.util
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest
import zmq.auth

from tests.deploy.conftest import ROOT, TABLE_LOCK, read_lock, run_install

pytestmark = pytest.mark.timeout(600)

VENV = "/opt/table-controller/venv"
VERSIONS = "/opt/table-controller/versions"
PROGRAM = {
    "/opt/table-controller": ("0755", "root:root"),
    VERSIONS: ("0755", "root:root"),
    "/opt/table-controller/current": ("0777", "root:root"),            # links through the current version
    VENV: ("0777", "root:root"),
    "/opt/table-controller/README.md": ("0777", "root:root"),
    "/opt/table-controller/manifest.json": ("0777", "root:root"),
    "/etc/systemd/system/table-controller.service": ("0644", "root:root"),
    "/etc/systemd/system/table-controller-retry.timer": ("0644", "root:root"),
    "/etc/systemd/system/table-controller-screen.service": ("0644", "root:root"),
    "/etc/systemd/system/table-controller-kiosk.service": ("0644", "root:root"),
    "/etc/modules-load.d/table-controller.conf": ("0644", "root:root"),
    "/usr/local/bin/table-controller": ("0777", "root:root"),          # a symbolic link
}
TABLE_DATA = {
    "/etc/table-controller": ("0750", "root:table"),
    "/etc/table-controller/table.toml": ("0640", "root:table"),
    "/etc/table-controller/chips.csv": ("0640", "root:table"),
    "/etc/table-controller/keys": ("0750", "root:table"),
    "/etc/table-controller/keys/clients": ("0750", "root:table"),
    "/etc/table-controller/keys/table.key_secret": ("0600", "table:table"),
    "/etc/table-controller/keys/table.key": ("0644", "root:table"),
    "/var/lib/table-controller": ("0700", "table:table"),
    "/etc/udev/rules.d/70-table-devices.rules": ("0644", "root:root"),
}
"""What the install lays down: path -> (mode, intended owner); the table's own data is kept on upgrade."""


def program(current: str, previous: str | None = None) -> dict[str, tuple[str, str]]:
    """The program's paths with the folder of each version kept (a whole tree, root's)."""
    kept = {f"{VERSIONS}/{name}/": ("0755", "root:root") for name in (current, previous) if name}
    link = {"/opt/table-controller/previous": ("0777", "root:root")} if previous else {}
    return PROGRAM | kept | link

SYSTEM_FOLDERS = {"/opt", "/etc", "/etc/systemd", "/etc/systemd/system", "/etc/udev", "/etc/udev/rules.d",
                  "/etc/modules-load.d", "/var", "/var/lib", "/usr", "/usr/local", "/usr/local/bin"}
"""Folders that are there on any system: made in a staging root, never owned by the install."""

SOURCES = {
    "/etc/systemd/system/table-controller.service": "systemd/table-controller.service",
    "/etc/systemd/system/table-controller-retry.timer": "systemd/table-controller-retry.timer",
    "/etc/systemd/system/table-controller-screen.service": "systemd/table-controller-screen.service",
    "/etc/systemd/system/table-controller-kiosk.service": "systemd/table-controller-kiosk.service",
    "/etc/udev/rules.d/70-table-devices.rules": "deploy/70-table-devices.rules",
    "/etc/modules-load.d/table-controller.conf": "deploy/modules-load.conf",
    "/etc/table-controller/table.toml": "deploy/table.toml",
    "/etc/table-controller/chips.csv": "deploy/chips.csv",
    "/opt/table-controller/README.md": "README.md",
}


def owners(stage: Path) -> dict[str, tuple[str, str]]:
    """The owners install.sh recorded: path -> (mode, owner)."""
    found: dict[str, tuple[str, str]] = {}
    for line in (stage / ".install-owners").read_text().splitlines():
        mode, owner, path = line.split(" ")
        assert path not in found, f"{path} recorded twice"
        found[path] = (mode, owner)
    return found


def laid_down(stage: Path) -> set[str]:
    """Every path in the staging root as it would be on the table (the venv as one tree)."""
    paths = set()
    for folder, dirs, files in os.walk(stage):
        for name in dirs + files:
            path = "/" + (Path(folder) / name).relative_to(stage).as_posix()
            version = path.removeprefix(f"{VERSIONS}/").split("/")
            if path == "/.install-owners" or (path.startswith(f"{VERSIONS}/") and len(version) > 1):
                continue
            paths.add(f"{path}/" if path.startswith(f"{VERSIONS}/") else path)
    return paths


def mode(path: Path) -> str:
    return f"{stat.S_IMODE(path.lstat().st_mode):04o}"


def cli(stage: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``table-controller ARGS`` with the staged program, as the table runs it."""
    return subprocess.run([str(stage / VENV.lstrip("/") / "bin" / "python"), "-I", "-m", "controller.cli",
                           *args], capture_output=True, text=True, timeout=120, cwd="/")


def test_every_file_is_laid_down_with_its_mode_and_intended_owner(staged: Path) -> None:
    recorded = owners(staged)
    assert recorded == program("0.1.0") | TABLE_DATA
    assert laid_down(staged) == set(recorded) | SYSTEM_FOLDERS
    for path, (wanted, _) in recorded.items():
        assert mode(staged / path.lstrip("/")) == wanted, path
    for source_path, source in SOURCES.items():
        assert (staged / source_path.lstrip("/")).read_bytes() == (ROOT / source).read_bytes(), source_path
    version = staged / VERSIONS.lstrip("/") / "0.1.0"
    assert mode(version / "manifest.json") == "0444"
    for folder, dirs, files in os.walk(version):                          # the program: root's alone
        for name in dirs + files:
            file = Path(folder) / name
            if not file.is_symlink():
                assert not file.stat().st_mode & 0o022, f"{file} is writable by group or others"
    script = (staged / VENV.lstrip("/") / "bin" / "table-controller").read_text().splitlines()[0]
    assert script == f"#!{VERSIONS}/0.1.0/venv/bin/python"       # as it will be on the table
    assert os.readlink(staged / "usr/local/bin/table-controller") == f"{VENV}/bin/table-controller"
    public, secret = zmq.auth.load_certificate(staged / "etc/table-controller/keys/table.key_secret")
    assert secret is not None
    assert zmq.auth.load_certificate(staged / "etc/table-controller/keys/table.key") == (public, None)


def test_nothing_installed_names_the_staging_root(installed_once: Path) -> None:
    """Every link names a path on the table or one beside it, and no text file names the staging root (but
    the venv's note of the command that made it, which Python does not read): what is installed there
    holds as well in any copy of it (the tests' ``staged`` copies one install)."""
    named = []
    for folder, dirs, files in os.walk(installed_once):
        for name in dirs + files:
            path = Path(folder) / name
            if path.is_symlink():
                if str(installed_once) in os.readlink(path):
                    named.append(path)
            elif path.is_file() and path.suffix != ".pyc":    # byte code names its source only in tracebacks
                data = path.read_bytes()
                if path.name == "pyvenv.cfg":         # but its note of the command that made it, unread
                    data = b"".join(line for line in data.splitlines(True) if not line.startswith(b"command"))
                if b"\0" not in data[:8192] and str(installed_once).encode() in data:
                    named.append(path)
    assert named == []


def test_verify_passes_on_the_install_and_catches_a_tampered_file(staged: Path) -> None:
    checked = cli(staged, "verify")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"manifest {staged}/opt/table-controller/manifest.json (sha256 " in checked.stdout
    assert "  ok    controller/table/machine.py matches its recorded hash" in checked.stdout
    assert "FAIL" not in checked.stdout
    for name, pin in read_lock(TABLE_LOCK).items():              # what the lock pins, in the venv itself
        assert re.search(rf"(?im)^  ok    {re.escape(name)} {re.escape(pin.version)} \([0-9]+ files\) "
                         rf"matches its recorded hash$", checked.stdout), (name, checked.stdout)
    site = Path(cli(staged, "verify").stdout.splitlines()[1].removeprefix("installed files in "))
    machine = site / "controller" / "table" / "machine.py"
    cached = importlib.util.cache_from_source(str(machine))
    assert int.from_bytes(Path(cached).read_bytes()[4:8], "little") == 0b11   # checked-hash byte code
    original = machine.read_bytes()
    try:
        machine.write_bytes(original + b"\nTAMPERED = True\n")             # a line slipped in
        tampered = cli(staged, "verify")
        assert tampered.returncode == 1
        assert [line for line in tampered.stdout.splitlines() if "FAIL" in line] == [
            "  FAIL  controller/table/machine.py does not match its recorded hash"]
        assert any(line.endswith(" match, 1 do not") for line in tampered.stdout.splitlines())
        assert tampered.stdout.splitlines()[-1] == "dependencies: all match"
    finally:
        machine.write_bytes(original)
    assert cli(staged, "verify").returncode == 0


def lived_in(staged: Path) -> Path:
    """What a table in service adds to its install: the pit's client key and its journal (returned)."""
    conf = staged / "etc/table-controller"
    added = cli(staged, "keys", "add-client", str(conf / "keys/table.key"), "--name", "pit",
                "--dir", str(conf / "keys"))
    assert added.returncode == 0, added.stderr
    journal = staged / "var/lib/table-controller/journal.log"
    journal.write_text('{"seq": 1}\n')
    return journal


def test_upgrade_keeps_the_tables_data_and_replaces_the_program(staged: Path, wheelhouse: Path) -> None:
    conf = staged / "etc/table-controller"
    (conf / "table.toml").write_text((conf / "table.toml").read_text() + "# this table's own settings\n")
    (conf / "table.toml").chmod(0o664)                           # opened up by hand: put back
    (conf / "chips.csv").write_text("uid,value_cents,status\n04a1b2c3d4e5f601,100,active\n")
    journal = lived_in(staged)
    rules = staged / "etc/udev/rules.d/70-table-devices.rules"
    rules.write_text(rules.read_text().replace("SH-00017", "SH-12345"))
    kept = {path: path.read_bytes() for path in (conf / "table.toml", conf / "chips.csv", journal, rules,
                                                 conf / "keys/table.key_secret",
                                                 conf / "keys/clients/pit.key")}
    manifest = staged / "opt/table-controller/manifest.json"
    manifest.chmod(0o644)
    manifest.write_text('{"sha256": {}}\n')                      # an old version's manifest
    site = Path(cli(staged, "verify").stdout.splitlines()[1].removeprefix("installed files in "))
    (site / "controller" / "left_over.py").write_text("# a module of an older version\n")

    upgraded = run_install(staged, wheelhouse)
    assert "upgraded" in upgraded.stdout
    assert {path: path.read_bytes() for path in kept} == kept
    recorded = owners(staged)
    pit_key = {"/etc/table-controller/keys/clients/pit.key": ("0644", "root:table")}
    assert recorded == program("0.1.0-2", previous="0.1.0") | TABLE_DATA | pit_key
    for path, (wanted, _) in recorded.items():
        assert mode(staged / path.lstrip("/")) == wanted, path
    assert not (site / "controller" / "left_over.py").exists()         # the venv leads to the new version
    assert (staged / VERSIONS.lstrip("/") / "0.1.0/venv").is_dir()      # the old one kept beside it
    checked = cli(staged, "verify")                              # the manifest rewritten for the new files
    assert checked.returncode == 0, checked.stdout


def test_uninstall_keeps_the_tables_data_unless_purged(staged: Path, wheelhouse: Path) -> None:
    lived_in(staged)
    run_install(staged, wheelhouse)                               # upgraded once: the pit key recorded
    before = {path: (staged / path.lstrip("/")).read_bytes() for path in TABLE_DATA
              if (staged / path.lstrip("/")).is_file()}
    run_install(staged, wheelhouse, "uninstall")
    recorded = owners(staged)
    assert set(recorded) == set(TABLE_DATA) | {"/etc/table-controller/keys/clients/pit.key"}
    assert not (staged / "opt").exists() or not any((staged / "opt").iterdir())
    journal = "/var/lib/table-controller/journal.log"              # written by the table, not the install
    assert laid_down(staged) == set(recorded) | SYSTEM_FOLDERS | {journal}
    assert not (staged / "opt/table-controller").exists()
    assert {path: (staged / path.lstrip("/")).read_bytes() for path in before} == before

    run_install(staged, wheelhouse, "uninstall", "--purge", "--confirm-table", "T07")
    assert owners(staged) == {}
    assert laid_down(staged) <= SYSTEM_FOLDERS
