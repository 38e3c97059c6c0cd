"""``verify``'s runtime dependencies (:func:`controller.security.integrity.dependency_verdicts`) over
real distributions laid down in temporary folders, read by a real interpreter: requirements parsed
with ``packaging``, environment markers and extras evaluated for this interpreter, a distribution
that Debian's package manager installed without ``RECORD`` said not checked, not failed (issue 26
item 13)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

PROBE = """
import json
from controller.security.integrity import dependency_verdicts, passes
print(json.dumps([[name, verdict, passes(verdict)] for name, verdict in dependency_verdicts("tc-probe")]))
"""


def dist(folder: Path, name: str, version: str, requires: tuple[str, ...] | list[str] = (), *,
         record: bool = True, hex_hashes: bool = False) -> None:
    """A distribution ``name`` in ``folder``: one module, its METADATA with ``requires``, and its
    RECORD with the module's hash (as a wheel writes it, or in hex as Debian does) unless not
    ``record``, in which case it is an ``.egg-info`` as Debian's packages of old setup.py projects."""
    module = folder / f"{name.replace('-', '_')}.py"
    module.write_text(f"# {name}\n")
    head = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}",
            *(f"Requires-Dist: {line}" for line in requires)]
    if not record:
        info = folder / f"{name.replace('-', '_')}-{version}.egg-info"
        info.mkdir()
        (info / "PKG-INFO").write_text("\n".join(head) + "\n")
        return
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("\n".join(head) + "\n")
    raw = hashlib.sha256(module.read_bytes())
    value = raw.hexdigest() if hex_hashes else base64.urlsafe_b64encode(raw.digest()).rstrip(b"=").decode()
    (info / "RECORD").write_text(f"{module.name},sha256={value},{module.stat().st_size}\n"
                                 f"{info.name}/METADATA,,\n{info.name}/RECORD,,\n")


def verdicts(*folders: Path) -> list[list[object]]:
    """What ``dependency_verdicts("tc-probe")`` says in an interpreter that finds ``folders`` first."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*map(str, folders), str(Path.cwd())])}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    found: list[list[object]] = json.loads(done.stdout)
    return found


def test_markers_and_extras_are_evaluated_for_this_interpreter(tmp_path: Path) -> None:
    """pyzmq asks for cffi only on PyPy: on CPython cffi is neither checked nor missed, even when it
    is installed; an extra's requirements count only where that extra is asked for."""
    site = tmp_path / "site-packages"
    site.mkdir()
    dist(site, "tc-probe", "1.0", ["needed>=1", 'pypy-only; implementation_name == "pypy"',
                                   'old-python; python_version < "3.0"', "docs-tool; extra == 'doc'",
                                   "with-extras[fast]"])
    dist(site, "needed", "1.2")
    dist(site, "pypy-only", "2.0")                               # installed, but not for CPython
    dist(site, "docs-tool", "3.0")                               # installed, but the extra is not asked
    dist(site, "with-extras", "1.0", ["speedup; extra == 'fast'", "slowpoke; extra == 'slow'"])
    dist(site, "speedup", "0.5")
    assert verdicts(site) == [
        ["needed 1.2 (1 files)", "matches its recorded hash", True],
        ["speedup 0.5 (1 files)", "matches its recorded hash", True],
        ["with-extras 1.0 (1 files)", "matches its recorded hash", True]]


def test_a_dependency_required_here_and_not_installed_fails_one_for_another_platform_does_not(
        tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    site.mkdir()
    dist(site, "tc-probe", "1.0", ["absent", 'pypy-absent; implementation_name == "pypy"',
                                   'win-absent; sys_platform == "win32"'])
    assert verdicts(site) == [["absent", "is required but not installed", False]]


def test_a_debian_package_without_record_is_said_not_checked_and_one_with_hex_hashes_is_checked(
        tmp_path: Path) -> None:
    site, system = tmp_path / "site-packages", tmp_path / "dist-packages"
    site.mkdir()
    system.mkdir()
    dist(site, "tc-probe", "1.0", ["from-apt", "apt-hashed", "pip-no-record"])
    dist(system, "from-apt", "4.0", record=False)                # python3-from-apt: an .egg-info
    dist(system, "apt-hashed", "5.0", hex_hashes=True)           # Debian's RECORD: hex digests
    dist(site, "pip-no-record", "6.0", record=False)             # not the system's: no excuse
    assert verdicts(site, system) == [
        ["apt-hashed 5.0 (1 files)", "matches its recorded hash", True],
        ["from-apt 4.0", f"not checked: installed by the system's package manager (in {system}), which "
                         "keeps no RECORD hashes; the system checks its files (Debian: debsums)", True],
        ["pip-no-record 6.0", "has no RECORD hashes to check", False]]
    (system / "apt_hashed.py").write_text("# changed\n")
    assert verdicts(site, system)[0] == ["apt-hashed 5.0: apt_hashed.py", "does not match its RECORD hash",
                                         False]
