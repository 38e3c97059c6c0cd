"""Private files and folders for what may hold a face-down card; a folder's fsync; a torn tail's copy.

The journal holds face-down cards in its private part, so it is kept from other users:
the journal and its quarantined tails (and the checkpoints and the high-water mark beside
them) are created readable and writable by their owner only (0600), and the folder holding
them is 0700 (created so, or tightened when opened), whatever the umask. A new name in a
folder is durable once the folder is fsynced (:func:`fsync_dir`).
"""

from __future__ import annotations

import itertools
import logging
import os
import shutil
import stat
from pathlib import Path

PRIVATE_FILE = 0o600
"""The mode of every file that may hold a face-down card (the journal, its quarantines, checkpoints)."""

PRIVATE_DIR = 0o700
"""The mode of the state folder that holds them."""

log = logging.getLogger(__name__)


def fsync_dir(folder: Path) -> None:
    """Fsync ``folder``, so the names created, renamed or deleted in it are on the disk."""
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _tighten(path: Path, mode: int, fd: int | None = None) -> None:
    """Give ``path`` (open as ``fd``, if given) exactly ``mode``. A file or folder of another user,
    or a shared folder (sticky bit, like ``/tmp``), is left as it is, with a warning."""
    status = os.fstat(fd) if fd is not None else os.stat(path)
    current = status.st_mode & 0o7777
    if current == mode:
        return
    if status.st_uid != os.geteuid() or current & stat.S_ISVTX:
        log.warning("%s is mode %04o and not this user's own: it is left so, and other users may read "
                    "the face-down cards it holds (make it %04o)", path, current, mode)
        return
    if fd is not None:
        os.fchmod(fd, mode)
    else:
        os.chmod(path, mode)
    if current & ~mode:
        log.warning("%s was mode %04o: made %04o (it holds face-down cards)", path, current, mode)


def private_dir(folder: Path) -> None:
    """Create ``folder`` and any missing ancestors with mode 0700, fsyncing each new directory entry;
    an existing ``folder`` is tightened to 0700 (see :data:`PRIVATE_DIR`)."""
    missing: list[Path] = []
    while not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for new in reversed(missing):
        new.mkdir(mode=PRIVATE_DIR, exist_ok=True)
        fsync_dir(new.parent)
    for made in missing or [folder]:
        _tighten(made, PRIVATE_DIR)


def open_private(path: Path, flags: int) -> int:
    """``os.open`` with ``O_CREAT``: a new file is made 0600 whatever the umask, an existing one is
    tightened to 0600 (see :data:`PRIVATE_FILE`)."""
    fd = os.open(path, flags | os.O_CREAT | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        _tighten(path, PRIVATE_FILE, fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def quarantine(path: Path, offset: int) -> Path:
    """Copy the bytes of ``path`` from ``offset`` on to a new ``<path>.damaged-<n>``; fsync it."""
    for n in itertools.count(1):
        target = path.with_name(f"{path.name}.damaged-{n}")
        try:
            fd = open_private(target, os.O_WRONLY | os.O_EXCL)
        except FileExistsError:
            continue
        with open(fd, "wb") as out, open(path, "rb") as source:
            source.seek(offset)
            shutil.copyfileobj(source, out)
            out.flush()
            os.fsync(out.fileno())
        return target
    raise AssertionError("unreachable")  # pragma: no cover
