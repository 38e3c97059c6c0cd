"""The daemon's refusal to start on files others could change or read.

A table's configuration, chip registry, CURVE keys and integrity manifest decide what
the table pays and who may hear it, and its state directory holds every hand played.
:func:`unsafe_permissions` finds each of these that is open too wide, one line per
file, each saying how to fix it:

* the configuration, the chip registry, the integrity manifest, the CURVE clients
  directory and every public key in it: writable by group or others;
* the CURVE secret key: any access at all for group or others (0600 or 0400 only),
  or not readable by the daemon's own user;
* the state directory: any access for others.

A file that does not exist is left to the part that reads it. :func:`make_state_dir`
creates a missing state directory closed to others before the check, so a first
start is not refused for a directory the daemon made itself.
"""

from __future__ import annotations

import os
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


def make_state_dir(config: Config) -> None:
    """Create the state directory (and missing parents) if it is not there, closed to others."""
    config.state_dir.mkdir(mode=STATE_DIR_MODE, parents=True, exist_ok=True)


def unsafe_permissions(config: Config) -> list[str]:
    """Every file of ``config`` open too wide, one line each (empty: all safe)."""
    problems = _not_writable(config.source, "the configuration")
    problems += _not_writable(config.chip_registry, "the chip registry")
    problems += _not_writable(config.integrity_manifest, "the integrity manifest")
    problems += _secret(config.pit.curve_secret_key)
    clients = config.pit.curve_clients
    if clients is not None and clients.is_dir():
        problems += _not_writable(clients, "the CURVE clients directory")
        for key in sorted(clients.glob("*.key")):
            problems += _not_writable(key, "the CURVE client key")
    problems += _state_dir(config.state_dir)
    return problems
