"""``table-controller run`` refuses files others could change or read: one line each, exit status 2."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

from controller.devkit.simulated import write_config
from tests.security.test_keys import keys


def run(config: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                          capture_output=True, text=True, timeout=60)


def test_each_file_open_too_wide_is_refused_with_one_line(tmp_path: Path) -> None:
    keys("generate", "--dir", str(tmp_path / "keys"))
    folder = tmp_path / "keys"
    keys("add-client", str(folder / "table.key"), "--name", "pit", "--dir", str(folder))
    config = write_config(tmp_path, curve=(folder / "table.key_secret", folder / "clients"))
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    state.chmod(0o755)
    config.chmod(0o664)
    (tmp_path / "chips.csv").chmod(0o646)
    (folder / "table.key_secret").chmod(0o640)
    (folder / "clients" / "pit.key").chmod(0o666)
    refused = run(config)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"unsafe permissions: the configuration {config} is writable by group (mode 0664):"
        f" chmod go-w {config}",
        f"unsafe permissions: the chip registry {tmp_path}/chips.csv is writable by others (mode 0646):"
        f" chmod go-w {tmp_path}/chips.csv",
        f"unsafe permissions: the CURVE secret key {folder}/table.key_secret is open to group or"
        f" others (mode 0640): chmod 600 {folder}/table.key_secret",
        f"unsafe permissions: the CURVE client key {folder}/clients/pit.key is writable by group"
        f" and others (mode 0666): chmod go-w {folder}/clients/pit.key",
        f"unsafe permissions: the state directory {state} is open to others (mode 0755): chmod o-rwx {state}",
    ]
    assert list(state.iterdir()) == []                           # refused before the journal was opened


def test_a_first_start_makes_its_state_directory_closed_to_others(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    config.chmod(0o600)
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                            stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "GPIOZERO_PIN_FACTORY": "mock"})
    try:
        assert proc.stderr is not None
        for line in proc.stderr:                                 # the daemon gets as far as its journal
            if "journal at seq" in line:
                break
        else:
            raise AssertionError("the daemon stopped before opening its journal")
    finally:
        proc.terminate()
        proc.wait(15)
    assert (tmp_path / "state").stat().st_mode & 0o777 == 0o700


def test_a_config_in_a_folder_others_can_write_or_own_is_refused(tmp_path: Path) -> None:
    """As OpenSSH checks the folders above its keys: anyone who may rename files in a folder on the
    way may put another config in the place of this one."""
    shared = tmp_path / "open-to-all"
    table = shared / "table"
    table.mkdir(parents=True)
    config = write_config(table)
    config.chmod(0o640)
    shared.chmod(0o777)                                          # writable by all, no sticky bit
    refused = run(config)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"unsafe permissions: the folder {shared} above the configuration is writable by group and"
        f" others without the sticky bit (mode 0777): chmod go-w {shared}"]
    shared.chmod(0o1777)                                         # as /tmp: none may rename another's file
    os.chown(table, 4321, 4321)                                  # but a folder another user owns
    refused = run(config)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"unsafe permissions: the folder {table} above the configuration is owned by uid 4321,"
        f" neither root nor this user: chown root {table}"]
    os.chown(table, 0, 0)
    shared.chmod(0o755)
    assert "unsafe permissions" not in run_briefly(config)


def run_briefly(config: Path) -> str:
    """What the daemon says on stderr until it opens its journal (or stops)."""
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "run", "--config", str(config)],
                            stderr=subprocess.PIPE, text=True)
    said = []
    try:
        assert proc.stderr is not None
        for line in proc.stderr:
            said.append(line)
            if "journal at seq" in line:
                break
    finally:
        proc.terminate()
        proc.wait(15)
    return "".join(said)


def nobody() -> tuple[int, int]:
    """The uid and gid of ``nobody`` (the tests that chown files need root)."""
    if os.geteuid() != 0:
        pytest.skip("chown to another user needs root (these tests run as root on the test machine)")
    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def test_files_owned_by_another_user_are_refused_whatever_their_mode(tmp_path: Path) -> None:
    """Issue 26 item 3: a table.toml and chips.csv owned by ``nobody``, mode 0644, in a sticky 1777
    folder (as /tmp), passed every mode check; their owner could rewrite them at will."""
    uid, gid = nobody()
    shared = tmp_path / "open-to-all"
    shared.mkdir()
    shared.chmod(0o1777)
    config = write_config(shared)
    for path in (config, shared / "chips.csv"):
        path.chmod(0o644)
        os.chown(path, uid, gid)
    refused = run(config)
    assert refused.returncode == 2
    assert refused.stderr.splitlines() == [
        f"unsafe permissions: the configuration {config} is owned by uid {uid} (nobody), neither root"
        f" nor this user (uid 0 (root)): chown root {config}",
        f"unsafe permissions: the chip registry {shared}/chips.csv is owned by uid {uid} (nobody),"
        f" neither root nor this user (uid 0 (root)): chown root {shared}/chips.csv"]
    for path in (config, shared / "chips.csv"):
        os.chown(path, 0, 0)
    assert "unsafe permissions" not in run_briefly(config)


def test_keys_owned_by_another_user_are_refused(tmp_path: Path) -> None:
    uid, gid = nobody()
    folder = tmp_path / "keys"
    keys("generate", "--dir", str(folder))
    keys("add-client", str(folder / "table.key"), "--name", "pit", "--dir", str(folder))
    config = write_config(tmp_path, curve=(folder / "table.key_secret", folder / "clients"))
    config.chmod(0o600)
    os.chown(folder / "table.key_secret", uid, gid)
    os.chown(folder / "clients" / "pit.key", uid, gid)
    refused = run(config)
    assert refused.returncode == 2
    lines = refused.stderr.splitlines()
    assert [line.split(" is owned by ")[0] for line in lines] == [
        f"unsafe permissions: the CURVE secret key {folder}/table.key_secret",
        f"unsafe permissions: the CURVE client key {folder}/clients/pit.key"]
    assert all(f"uid {uid} (nobody), neither root nor this user" in line for line in lines)
