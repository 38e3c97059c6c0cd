"""Software integrity: the installed program files against the hashes recorded at installation.

``table-controller manifest --output FILE`` records the SHA-256 of every file
of the three packages (``controller``, ``drivers``, ``firmware_bridge``) as
installed, less what the daemon never runs: the development and service tools
(``controller/devkit``, ``firmware_bridge/simulator``; the reference board
firmware, ``firmware_bridge/firmware``, which runs on the boards, its host
runner ``firmware_bridge/firmware_host`` and the code sheet tool) and the podium PC's applications
(``controller/podium``: the pit monitor, game protection, rated play). With ``[integrity]
manifest`` set, the daemon checks them at start and raises a
``software_integrity`` alert for each file that differs, is missing, or is not
in the manifest (docs/pit-events.md section 3). ``table-controller verify`` prints
the same check file by file for an inspector (:func:`compare`), then checks the
program's runtime dependencies (its requirements and theirs, read with
``packaging``, environment markers evaluated for this interpreter), each installed
file against the hash pip recorded for it in the distribution's ``RECORD``
(:func:`dependency_verdicts`; one installed by the system's package manager
without hashes is said not checked, not failed), with the requirements of the
project's extras the manifest says the install took (``manifest --extra optical``:
numpy and OpenCV for the optical shoe),
and flags every ``.pth`` file in site-packages that no installed distribution
lists (:func:`unknown_pth_files`): Python runs those at every start.
"""

from __future__ import annotations

import base64
import hashlib
import json
import sysconfig
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

import controller
import drivers
import firmware_bridge

PACKAGES = (controller, drivers, firmware_bridge)
NOT_SHIPPED = ("controller/devkit/", "firmware_bridge/simulator/", "controller/podium/",
               "firmware_bridge/firmware/", "firmware_bridge/firmware_host/", "firmware_bridge/codes.py")
"""Inside the packages but not part of what the daemon runs, so not hashed: the development tools,
the podium PC's applications (they run there, not on the table), and the reference board firmware
with its host tools (it runs on the boards)."""


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


def write_manifest(path: Path, extras: Iterable[str] = ()) -> int:
    """Record the hashes of the installed files in ``path``, and the project's ``extras`` installed
    with them (whose requirements ``verify`` then checks too); returns how many files."""
    manifest = make_manifest()
    path.write_text(json.dumps({"extras": sorted(set(extras)), "sha256": manifest}, indent=1,
                               sort_keys=True) + "\n")
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


def read_extras(path: Path) -> list[str]:
    """The project's extras the manifest at ``path`` says were installed with the program (none when
    it names none, as a manifest written before extras were recorded); raises
    :class:`ManifestUnreadable`."""
    try:
        extras = json.loads(path.read_text()).get("extras", [])
        if not isinstance(extras, list) or not all(isinstance(extra, str) for extra in extras):
            raise TypeError("extras is not a list of names")
    except (OSError, ValueError, AttributeError, TypeError) as error:
        raise ManifestUnreadable(f"the manifest {path} cannot be read: {error}") from None
    return extras


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


def _applies(requirement: Requirement, extras: Iterable[str]) -> bool:
    """Whether ``requirement`` is meant for this interpreter and platform, when its distribution was
    asked for with ``extras``: its environment marker (if any) evaluated here, once for each extra
    and once for none."""
    if requirement.marker is None:
        return True
    return any(requirement.marker.evaluate({"extra": extra}) for extra in ("", *extras))


def runtime_dependencies(project: str = PROJECT, extras: Iterable[str] = ()
                         ) -> tuple[list[metadata.Distribution], list[str]]:
    """The installed distributions ``project`` installed with its ``extras`` runs with here (its
    requirements, theirs, and so on: each requirement parsed with ``packaging``, its environment
    marker evaluated for this interpreter and platform, with the extras it was asked for; an
    ``extra == ...`` requirement only where that extra was asked for), and the names of those
    required here but not installed; a requirement that cannot be read is one of these, as written."""
    found: dict[str, metadata.Distribution] = {}
    asked_for: dict[str, set[str]] = {}
    missing: set[str] = set()
    wanted = [(text, frozenset(extras)) for text in metadata.distribution(project).requires or []]
    while wanted:
        text, asked = wanted.pop()
        try:
            requirement = Requirement(text)
        except InvalidRequirement:
            missing.add(f"{text!r} (a requirement that cannot be read)")
            continue
        if not _applies(requirement, asked):
            continue
        name = canonicalize_name(requirement.name)
        new = set(requirement.extras) - asked_for.get(name, set())
        if name in missing or (name in found and not new):
            continue
        dist = found.get(name)
        if dist is None:
            try:
                dist = metadata.distribution(name)
            except metadata.PackageNotFoundError:
                missing.add(name)
                continue
            found[name] = dist
        asked_for[name] = asked_for.get(name, set()) | new
        wanted += [(more, frozenset(asked_for[name])) for more in dist.requires or []]
    return sorted(found.values(), key=lambda d: str(d.metadata["Name"]).lower()), sorted(missing)


def record_problems(dist: metadata.Distribution) -> tuple[int, list[tuple[str, str]]]:
    """How many of ``dist``'s files in site-packages its ``RECORD`` gives a hash for, and each that
    is missing or does not match that hash, with its verdict. Its scripts in the venv's ``bin`` are
    left out (the table runs none of them, and a staging install rewrites their first line). A hash
    is taken as a wheel writes it (URL-safe base64) or in hex (as Debian's packages record theirs)."""
    checked, problems = 0, []
    for file in dist.files or []:
        if file.hash is None or file.hash.mode != "sha256" or file.parts[0] == "..":
            continue
        checked += 1
        path = Path(str(dist.locate_file(file)))
        if not path.is_file():
            problems.append((file.as_posix(), "is missing"))
        elif file.hash.value not in (_record_hash(path), digest(path)):
            problems.append((file.as_posix(), "does not match its RECORD hash"))
    return checked, problems


NOT_CHECKED = "not checked:"
"""How the verdict of a dependency that cannot be checked here, and is no failure, begins."""

SYSTEM_PACKAGE = (f"{NOT_CHECKED} installed by the system's package manager (in {{folder}}), which keeps no"
                  " RECORD hashes; the system checks its files (Debian: debsums)")
"""The verdict of a dependency installed by Debian's (or Raspberry Pi OS's) ``apt`` without hashes."""


def system_folder(dist: metadata.Distribution) -> Path | None:
    """The folder of ``dist`` when the system's package manager installed it there: Debian's
    ``dist-packages`` (pip, in a virtual environment, installs in ``site-packages``); else None."""
    folder = Path(str(dist.locate_file("")))
    return folder if folder.name == "dist-packages" else None


def passes(verdict: str) -> bool:
    """Whether a verdict of :func:`dependency_verdicts` is no failure: it matches, or cannot be
    checked here for a reason it says (:data:`NOT_CHECKED`)."""
    return verdict == MATCHES or verdict.startswith(NOT_CHECKED)


def dependency_verdicts(project: str = PROJECT, extras: Iterable[str] = ()) -> list[tuple[str, str]]:
    """For each runtime dependency of ``project`` installed with its ``extras``, one verdict for the
    whole when every file matches its ``RECORD`` hash (:data:`MATCHES`), else one per file that does
    not; one that the system's package manager installed without hashes is said not checked
    (:data:`SYSTEM_PACKAGE`), one installed otherwise without hashes fails; and each dependency not
    installed."""
    dists, missing = runtime_dependencies(project, extras)
    verdicts: list[tuple[str, str]] = []
    for dist in dists:
        label = f"{dist.metadata['Name']} {dist.version}"
        checked, problems = record_problems(dist)
        folder = system_folder(dist)
        if not checked:
            verdicts.append((label, SYSTEM_PACKAGE.format(folder=folder) if folder
                             else "has no RECORD hashes to check"))
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
