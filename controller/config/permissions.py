"""The daemon's refusal to start on files others could change or read.

A table's configuration, chip registry, CURVE keys and integrity manifest decide what
the table pays and who may hear it, and its state directory holds every hand played.
:func:`unsafe_permissions` finds each of these that is open too wide, one line per
file, each saying how to fix it:

* the configuration, the chip registry, the integrity manifest, the CURVE clients
  directory and every public key in it: writable by group or others;
* the CURVE secret key: any access at all for group or others (0600 or 0400 only),
  or not readable by the daemon's own user;
* the configuration, the chip registry, the integrity manifest, the CURVE keys
  (secret and public) and the clients directory: owned by a user other than root
  and the daemon's own (whoever owns a file may change its mode and its
  content, whatever the mode says now), one line naming the file and its owner;
* the state directory: any access for others;
* every folder above any of these, up to the root, as OpenSSH checks the
  folders above its keys: writable by group or others without the sticky bit
  (anyone who may rename files in it may put their own file in the place of
  the table's), or owned by a user other than root and the daemon's own.
  One line per folder, however many files lie below it.

A file that does not exist is left to the part that reads it. :func:`make_state_dir`
creates a missing state directory closed to others before the check, so a first
start is not refused for a directory the daemon made itself.
"""

from __future__ import annotations

import os
import pwd
import stat
from pathlib import Path

from controller.config.loader import Config

STATE_DIR_MODE = 0o700


def _mode(path: Path) -> int | None:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return None


def _not_writable(path: Path | None, what: str) -> list[str]:
    """A line if ``path`` is writable by its group or by others."""
    mode = None if path is None else _mode(path)
    if path is None or mode is None or not mode & 0o022:
        return []
    who = " and ".join(name for bit, name in ((0o020, "group"), (0o002, "others")) if mode & bit)
    return [f"{what} {path} is writable by {who} (mode {mode:04o}): chmod go-w {path}"]


def _owner_name(uid: int) -> str:
    """``uid 65534 (nobody)``, or the bare uid where the system has no such user."""
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"


def foreign_owner(path: Path | None, what: str) -> list[str]:
    """A line if the file at ``path`` (``what`` it is) is owned by neither root nor the user running
    this process (the service's user): its owner could change it whatever its mode. None, or a
    missing file: nothing (left to the part that reads it)."""
    if path is None:
        return []
    try:
        owner = path.stat().st_uid
    except FileNotFoundError:
        return []
    if owner in (0, os.geteuid()):
        return []
    return [f"{what} {path} is owned by {_owner_name(owner)}, neither root nor this user"
            f" ({_owner_name(os.geteuid())}): chown root {path}"]


def _secret(path: Path | None) -> list[str]:
    """Lines if the secret key at ``path`` is open to group or others, or unreadable to us."""
    mode = None if path is None else _mode(path)
    if path is None or mode is None:
        return []
    if mode & 0o077:
        return [f"the CURVE secret key {path} is open to group or others (mode {mode:04o}):"
                f" chmod 600 {path}"]
    if not os.access(path, os.R_OK):
        return [f"the CURVE secret key {path} cannot be read by this user (uid {os.getuid()}):"
                f" chown it to the daemon's user"]
    return []


def _state_dir(path: Path) -> list[str]:
    """A line if others have any access to the state directory."""
    mode = _mode(path)
    if mode is None or not mode & 0o007:
        return []
    return [f"the state directory {path} is open to others (mode {mode:04o}): chmod o-rwx {path}"]


def _folders_above(paths: list[tuple[Path | None, str]]) -> list[str]:
    """A line for each folder above ``paths`` (each with what it is) that others could change."""
    problems: list[str] = []
    seen: set[Path] = set()
    for path, what in paths:
        if path is None or not path.exists():
            continue
        for folder in (*path.absolute().parents, *path.resolve().parents):
            if folder in seen:
                continue
            seen.add(folder)
            problem = _folder(folder, what)
            if problem:
                problems.append(problem)
    return problems


def _folder(folder: Path, what: str) -> str | None:
    """Why others could change what ``folder`` holds, or None."""
    try:
        found = folder.stat()
    except OSError:
        return None
    mode = stat.S_IMODE(found.st_mode)
    if mode & 0o022 and not mode & stat.S_ISVTX:
        who = " and ".join(name for bit, name in ((0o020, "group"), (0o002, "others")) if mode & bit)
        return (f"the folder {folder} above {what} is writable by {who} without the sticky bit"
                f" (mode {mode:04o}): chmod go-w {folder}")
    if found.st_uid not in (0, os.getuid()):
        return (f"the folder {folder} above {what} is owned by uid {found.st_uid}, neither root nor"
                f" this user: chown root {folder}")
    return None


def make_state_dir(config: Config) -> None:
    """Create the state directory (and missing parents) if it is not there, closed to others."""
    config.state_dir.mkdir(mode=STATE_DIR_MODE, parents=True, exist_ok=True)


def unsafe_permissions(config: Config) -> list[str]:
    """Every file of ``config`` open too wide, one line each (empty: all safe)."""
    problems = _not_writable(config.source, "the configuration")
    problems += foreign_owner(config.source, "the configuration")
    problems += _not_writable(config.chip_registry, "the chip registry")
    problems += foreign_owner(config.chip_registry, "the chip registry")
    problems += _not_writable(config.integrity_manifest, "the integrity manifest")
    problems += foreign_owner(config.integrity_manifest, "the integrity manifest")
    problems += _secret(config.pit.curve_secret_key)
    problems += foreign_owner(config.pit.curve_secret_key, "the CURVE secret key")
    clients = config.pit.curve_clients
    if clients is not None and clients.is_dir():
        problems += _not_writable(clients, "the CURVE clients directory")
        problems += foreign_owner(clients, "the CURVE clients directory")
        for key in sorted(clients.glob("*.key")):
            problems += _not_writable(key, "the CURVE client key")
            problems += foreign_owner(key, "the CURVE client key")
    problems += _state_dir(config.state_dir)
    problems += _folders_above([
        (config.source, "the configuration"), (config.chip_registry, "the chip registry"),
        (config.integrity_manifest, "the integrity manifest"),
        (config.pit.curve_secret_key, "the CURVE secret key"), (clients, "the CURVE clients directory"),
        (config.state_dir, "the state directory")])
    return problems
