"""Software integrity: the installed program files against the hashes recorded at installation.

``table-controller manifest --output FILE`` records the SHA-256 of every file
of the three packages (``controller``, ``drivers``, ``firmware_bridge``) as
installed, less what the daemon never runs: the development and service tools
(``controller/devkit``, ``firmware_bridge/simulator``; the reference board
firmware, ``firmware_bridge/firmware``, which runs on the boards, its host
runner ``firmware_bridge/firmware_host`` and the code sheet tool) and the pit monitor
(``controller/pit/monitor``, which runs on a podium PC). With ``[integrity]
manifest`` set, the daemon checks them at start and raises a
``software_integrity`` alert for each file that differs, is missing, or is not
in the manifest (docs/pit-events.md section 3). ``table-controller verify`` prints
the same check file by file for an inspector (:func:`compare`), then checks the
program's runtime dependencies, each installed file against the hash pip
recorded for it in the distribution's ``RECORD`` (:func:`dependency_verdicts`),
and flags every ``.pth`` file in site-packages that no installed distribution
lists (:func:`unknown_pth_files`): Python runs those at every start.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sysconfig
from importlib import metadata
from pathlib import Path

import controller
import drivers
import firmware_bridge

PACKAGES = (controller, drivers, firmware_bridge)
NOT_SHIPPED = ("controller/devkit/", "firmware_bridge/simulator/", "controller/pit/monitor/",
               "firmware_bridge/firmware/", "firmware_bridge/firmware_host/", "firmware_bridge/codes.py")
"""Inside the packages but not part of what the daemon runs, so not hashed: the development tools,
the pit monitor (it runs on a podium PC, not on the table), and the reference board firmware with its
host tools (it runs on the boards)."""


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


PROJECT = "table-controller"


def _record_hash(path: Path) -> str:
    """A file's SHA-256 as a wheel's ``RECORD`` writes it (URL-safe base64, no padding)."""
    return base64.urlsafe_b64encode(hashlib.sha256(path.read_bytes()).digest()).rstrip(b"=").decode()


def runtime_dependencies(project: str = PROJECT) -> tuple[list[metadata.Distribution], list[str]]:
    """The installed distributions ``project`` runs with (its requirements, theirs, and so on, less
    extras), and the names of those required but not installed. A requirement with a marker that is
    not installed is taken as not meant for this platform."""
    found: dict[str, metadata.Distribution] = {}
    missing: list[str] = []
    wanted = list(metadata.distribution(project).requires or [])
    while wanted:
        requirement = wanted.pop()
        if re.search(r"\bextra\s*==", requirement):
            continue
        name = re.split(r"[<>=!~\[;( ]", requirement, maxsplit=1)[0].strip().lower().replace("_", "-")
        if name in found or name in missing:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            if ";" not in requirement:
                missing.append(name)
            continue
        found[name] = dist
        wanted += dist.requires or []
    return sorted(found.values(), key=lambda d: str(d.metadata["Name"]).lower()), sorted(missing)


def record_problems(dist: metadata.Distribution) -> tuple[int, list[tuple[str, str]]]:
    """How many of ``dist``'s files in site-packages its ``RECORD`` gives a hash for, and each that
    is missing or does not match that hash, with its verdict. Its scripts in the venv's ``bin`` are
    left out (the table runs none of them, and a staging install rewrites their first line)."""
    checked, problems = 0, []
    for file in dist.files or []:
        if file.hash is None or file.hash.mode != "sha256" or file.parts[0] == "..":
            continue
        checked += 1
        path = Path(str(dist.locate_file(file)))
        if not path.is_file():
            problems.append((file.as_posix(), "is missing"))
        elif _record_hash(path) != file.hash.value:
            problems.append((file.as_posix(), "does not match its RECORD hash"))
    return checked, problems


def dependency_verdicts(project: str = PROJECT) -> list[tuple[str, str]]:
    """For each runtime dependency, one verdict for the whole when every file matches its ``RECORD``
    hash (:data:`MATCHES`), else one per file that does not; and each dependency not installed."""
    dists, missing = runtime_dependencies(project)
    verdicts: list[tuple[str, str]] = []
    for dist in dists:
        label = f"{dist.metadata['Name']} {dist.version}"
        checked, problems = record_problems(dist)
        if not checked:
            verdicts.append((label, "has no RECORD hashes to check"))
        elif not problems:
            verdicts.append((f"{label} ({checked} files)", MATCHES))
        verdicts += [(f"{label}: {name}", verdict) for name, verdict in problems]
    verdicts += [(name, "is required but not installed") for name in missing]
    return verdicts


def unknown_pth_files() -> list[Path]:
    """The ``.pth`` files in this interpreter's site-packages that no installed distribution's
    ``RECORD`` lists with a matching hash (Python runs them at every start)."""
    folders = sorted({Path(sysconfig.get_path(kind)) for kind in ("purelib", "platlib")})
    pth = sorted(path for folder in folders if folder.is_dir() for path in folder.glob("*.pth"))
    known: set[Path] = set()
    for dist in metadata.distributions(path=[str(folder) for folder in folders]) if pth else []:
        for file in dist.files or []:
            path = Path(str(dist.locate_file(file)))
            if (file.name.endswith(".pth") and file.hash is not None and path.is_file()
                    and _record_hash(path) == file.hash.value):
                known.add(path.resolve())
    return [path for path in pth if path.resolve() not in known]
