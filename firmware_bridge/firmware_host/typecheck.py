"""Type-check the reference firmware against MicroPython's rp2 (Raspberry Pi Pico) stubs: ``make lint``.

``python -m firmware_bridge.firmware_host.typecheck`` lays the firmware files
out flat in a temporary folder, as on the board, and runs mypy on them with
``micropython-rp2-rpi-pico-stubs`` (``machine``, ``time``, ``micropython`` ...)
on its path and ``micropython-stdlib-stubs`` as its standard library, so a
call to anything the Pico's MicroPython does not have is an error. The
stubs' own errors are not ours and are silenced. Exit status: mypy's. A
folder given as the argument is checked instead of the firmware's own
(every ``.py`` file in it but ``__init__.py``).
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from firmware_bridge.firmware_host.flash import firmware_files

STUBS = "micropython-rp2-rpi-pico-stubs"
SHARED = ("_mpy_shed",)
"""Stub packages of micropython-stdlib-stubs that the board's stubs import."""


def stub_names() -> list[str]:
    """The top-level files and folders of the rp2 stubs (plus the shared ones they import)."""
    files = importlib.metadata.distribution(STUBS).files or []
    names = {str(file).split("/")[0] for file in files if str(file).endswith(".pyi")}
    return sorted(names | set(SHARED))


def _config(stubs: list[str]) -> str:
    modules = ",".join(Path(name).stem + ("" if name.endswith(".pyi") else ".*") for name in stubs)
    plain = ",".join(Path(name).stem for name in stubs if not name.endswith(".pyi"))
    return (f"[mypy]\ncheck_untyped_defs = True\nwarn_unused_ignores = True\npython_version = 3.11\n"
            f"[mypy-{modules},{plain}]\nignore_errors = True\n")


def main(argv: list[str] | None = None) -> int:
    """Run the check on the firmware (or the folder given); print mypy's report."""
    args = sys.argv[1:] if argv is None else argv
    files = sorted(Path(args[0]).glob("*.py")) if args else firmware_files()
    site = Path(sysconfig.get_paths()["purelib"])
    with tempfile.TemporaryDirectory(prefix="firmware-typecheck-") as folder:
        root = Path(folder)
        (root / "stubs").mkdir()
        (root / "board").mkdir()
        stubs = stub_names()
        for name in stubs:
            os.symlink(site / name, root / "stubs" / name)
        for path in files:
            if path.name == "__init__.py":
                continue
            shutil.copy(path, root / "board" / path.name)
        (root / "mypy.ini").write_text(_config(stubs))
        env = dict(os.environ, MYPYPATH=str(root / "stubs"))
        command = [sys.executable, "-m", "mypy", "--config-file", str(root / "mypy.ini"),
                   "--no-site-packages",
                   "--custom-typeshed-dir", str(site), "--cache-dir", str(root / "cache"),
                   *sorted(path.name for path in (root / "board").glob("*.py"))]
        return subprocess.run(command, cwd=root / "board", env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
