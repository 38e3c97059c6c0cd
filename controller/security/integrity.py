"""Software integrity: the installed program files against the hashes recorded at installation.

``table-controller manifest --output FILE`` records the SHA-256 of every file
of the three packages (``controller``, ``drivers``, ``firmware_bridge``) as
installed, less what the daemon never runs: the development tools
(``controller/devkit``, ``firmware_bridge/simulator``) and the pit monitor
(``controller/pit/monitor``, which runs on a podium PC). With ``[integrity]
manifest`` set, the daemon checks them at start and raises a
``software_integrity`` alert for each file that differs, is missing, or is not
in the manifest (docs/pit-events.md section 3). ``table-controller verify`` prints
the same check file by file for an inspector (:func:`compare`).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import controller
import drivers
import firmware_bridge

PACKAGES = (controller, drivers, firmware_bridge)
NOT_SHIPPED = ("controller/devkit/", "firmware_bridge/simulator/", "controller/pit/monitor/")
"""Inside the packages but not part of what the daemon runs, so not hashed: the development tools,
and the pit monitor (it runs on a podium PC, not on the table)."""


def install_root() -> Path:
    """The folder the packages are installed in (site-packages, or a checkout)."""
    return Path(controller.__path__[0]).parent


def installed_files() -> dict[str, Path]:
    """Every source file of the packages, by its path relative to the install root."""
    files: dict[str, Path] = {}
    for package in PACKAGES:
        folder = Path(package.__path__[0])
        for path in sorted(folder.rglob("*.py")):
            name = path.relative_to(folder.parent).as_posix()
            if not name.startswith(NOT_SHIPPED):
                files[name] = path
    return files


def digest(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_manifest() -> dict[str, str]:
    """The hashes of the installed files."""
    return {name: digest(path) for name, path in installed_files().items()}


def write_manifest(path: Path) -> int:
    """Record the hashes of the installed files in ``path``; returns how many."""
    manifest = make_manifest()
    path.write_text(json.dumps({"sha256": manifest}, indent=1, sort_keys=True) + "\n")
    return len(manifest)


MATCHES = "matches its recorded hash"


class ManifestUnreadable(ValueError):
    """The manifest file cannot be read or is not a manifest."""


def read_manifest(path: Path) -> dict[str, str]:
    """The recorded hashes by file name; raises :class:`ManifestUnreadable`."""
    try:
        recorded = json.loads(path.read_text())["sha256"]
        if not isinstance(recorded, dict):
            raise TypeError("sha256 is not an object")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ManifestUnreadable(f"the manifest {path} cannot be read: {error}") from None
    return recorded


def compare(recorded: dict[str, str]) -> list[tuple[str, str]]:
    """Every recorded or installed file with its verdict: :data:`MATCHES`, ``is missing``, ``does
    not match its recorded hash`` or ``is not in the manifest``; sorted by name."""
    present = installed_files()
    verdicts: list[tuple[str, str]] = []
    for name in sorted(set(recorded) | set(present)):
        if name not in present:
            verdicts.append((name, "is missing"))
        elif name not in recorded:
            verdicts.append((name, "is not in the manifest"))
        elif digest(present[name]) != recorded[name]:
            verdicts.append((name, "does not match its recorded hash"))
        else:
            verdicts.append((name, MATCHES))
    return verdicts


def check(path: Path) -> list[str]:
    """What does not match the manifest at ``path``, one line per file (empty: all good)."""
    try:
        recorded = read_manifest(path)
    except ManifestUnreadable as error:
        return [str(error)]
    return [f"{name} {verdict}" for name, verdict in compare(recorded) if verdict != MATCHES]
