"""Critical memory: the state folder's files checked at start, before and after every hand, and a fault
that holds until a supervisor clears it.

The journal, the two copies of the checkpoint and the published mark are the table's critical
memory. :class:`CriticalMemory` checks them:

- **at start**: the journal is read and checked line by line when it is opened (crc, seq, chain),
  and the closed segments before where it was read have their seals checked (:attr:`Journal.archive`:
  the run of their names, each one's first and last line, the next file's link to its last line);
  a checkpoint whose copies are all damaged, or a published mark that does not read, is a fault
  (one damaged copy is not: the other is used, as after a torn write);
- **before and after every hand** (:meth:`CriticalMemory.check`, cheap: what changed since the last
  check): the journal's new bytes read back from the disk (:meth:`Journal.verify`: its length and
  identity, the line the chain goes on from, each new line's crc, seq and link, and the last line
  being the last written); each checkpoint copy written or read in this run read back, with its
  checksum, and the newest matching the journal's record; the mark read back as last written.

A check that fails **latches** a fault: it is written to ``critical_memory.fault`` beside the
journal (one line, ``<crc32 of the json, 8 hex> {"reason": .., "since": ..}``, fsynced and renamed
into place, mode 0600), so it survives a restart or a power cut, and it never clears itself. While
the file is there, whatever it holds (a torn or altered fault file is a fault too), DEAL is refused.
Only :meth:`CriticalMemory.clear`, the supervisor's ``critical_memory_clear`` command, removes it,
and only once :meth:`CriticalMemory.check_all` passes: the journal read back whole (every closed
segment kept, then the live file), every checkpoint copy there reading with its checksum (a
damaged copy may be removed: the next checkpoint writes it again) and the newest matching the
journal, and the mark as written. The journal is what grows (a year of closed segments is hundreds
of megabytes): it is read in a worker thread, which reads only what no write changes (the closed
segments and the live file up to its length when the check began), while the loop goes on serving
the table (readings journaled and published, the picture, the watchdog's pings; DEAL stays refused,
the fault being latched until the check passes); what was written meanwhile is read on the loop
after it. One clear runs at a time. The other checks read a bounded part of the files and run
where they are: at start (before READY, so before the watchdog's pings begin) the checkpoint's window
and the first and last lines of the older segments; around every hand what was written since the
last check and a few hundred held records, on the loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import zlib
from pathlib import Path

from controller.journal import checkpoint
from controller.journal.checkpoint import Checkpoint
from controller.journal.files import open_private
from controller.journal.high_water import HighWater
from controller.journal.log import Journal

FAULT_NAME = "critical_memory.fault"

log = logging.getLogger(__name__)


def read_fault(path: Path) -> str | None:
    """The reason of the fault kept at ``path`` (None: no fault); a file that does not read is a fault."""
    try:
        content = path.read_bytes()
    except FileNotFoundError:
        return None
    text = content[9:-1]
    try:
        if content[8:9] != b" " or not content.endswith(b"\n") or content[:8] != b"%08x" % zlib.crc32(text):
            raise ValueError("torn, or its crc does not match")
        reason = json.loads(text)["reason"]
        if not isinstance(reason, str):
            raise ValueError("no reason")
    except (ValueError, KeyError, TypeError) as error:
        return f"the record of a critical memory fault ({path}) is damaged ({error})"
    return reason


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_fault(path: Path, reason: str, since: str) -> None:
    """Keep the fault ``reason`` (latched at ``since``) at ``path``, durably."""
    text = json.dumps({"reason": reason, "since": since}, separators=(",", ":")).encode()
    fresh = path.with_name(path.name + ".new")
    with open(open_private(fresh, os.O_WRONLY | os.O_TRUNC), "wb") as out:
        out.write(b"%08x %s\n" % (zlib.crc32(text), text))
        out.flush()
        os.fsync(out.fileno())
    os.replace(fresh, path)
    _sync_dir(path.parent)


class CriticalMemory:
    """The checks of one daemon's state folder, and its fault."""

    def __init__(self, journal: Journal, mark: HighWater, checkpoint_path: Path, fault_path: Path) -> None:
        self.journal = journal
        self.mark = mark
        self.checkpoint_path = checkpoint_path
        self.fault_path = fault_path
        self.fault = read_fault(fault_path)
        """The reason of the fault latched (kept in the fault file), or None."""
        self.copies: dict[int, str] = {}
        """The checkpoint copies to read back: copy -> its checksum, as written or read in this run."""
        self.clearing = False
        """Whether :meth:`clear` is checking (its worker thread reading the journal)."""

    def at_start(self, used: Checkpoint | None) -> str | None:
        """What the start-up checks found (beyond the journal's own), or None. The copies read back
        from now on are those that read, up to ``used``, the checkpoint the start used (a newer copy
        did not match the journal, as after a journal that lost its tail: the next checkpoint is
        written over it)."""
        found, damaged = checkpoint.read(self.checkpoint_path)
        self.copies = {saved.copy: saved.digest for saved in found
                       if saved.copy in checkpoint.COPIES and used is not None and saved.seq <= used.seq}
        problems = []
        if self.journal.archive is not None:
            problems.append(self.journal.archive)
        if damaged and not found:
            problems.append("every copy of the checkpoint is damaged: " + "; ".join(damaged))
        if self.mark.damaged is not None:
            problems.append(self.mark.damaged)
        return "; ".join(problems) or None

    def saved(self, written: Checkpoint) -> None:
        """A checkpoint copy was written: read it back from now on."""
        self.copies[written.copy] = written.digest

    def check(self) -> str | None:
        """The check before and after every hand (see the module's text); returns what is wrong, or None."""
        return (self.journal.verify() or self.mark.verify()
                or checkpoint.verify(self.checkpoint_path, self.copies, self.journal))

    async def check_all(self) -> str | None:
        """The check before a fault is cleared (see the module's text); returns what is wrong, or None.
        The journal's files are read in a worker thread (:class:`~controller.journal.read_back.WholeCheck`),
        the loop serving meanwhile; what was written since, the mark and the checkpoint copies are
        checked on the loop after it. When it passes, the copies on the disk are the ones read back
        from then on."""
        whole = self.journal.whole_check()
        try:
            problem = await asyncio.to_thread(whole.read)
        finally:
            whole.stop()                                # cancelled (the daemon stops): the thread too
        problem = problem or self.journal.finish_whole(whole) or self.mark.verify()
        if problem is not None:
            return problem
        found, damaged = checkpoint.read(self.checkpoint_path)
        if damaged:
            return "; ".join(damaged) + " (put a good copy back, or remove it)"
        copies = {saved.copy: saved.digest for saved in found if saved.copy in checkpoint.COPIES}
        problem = checkpoint.verify(self.checkpoint_path, copies, self.journal)
        if problem is None:
            self.copies = copies
        return problem

    def latch(self, reason: str, since: str) -> None:
        """Latch a fault: kept in the fault file (if it can be written: else for this run only, logged)."""
        self.fault = reason
        try:
            write_fault(self.fault_path, reason, since)
        except OSError as error:
            log.critical("the critical memory fault could not be written to %s (%s): it holds until "
                         "the daemon stops", self.fault_path, error)

    async def clear(self) -> str | None:
        """Clear the fault if :meth:`check_all` passes; returns why not, or None once cleared. One
        clear at a time: another, while one is checking, is refused at once."""
        if self.fault is None:
            return "there is no critical memory fault to clear"
        if self.clearing:
            return ("a critical memory clear is running already: its whole check is not done yet "
                    "(its answer says whether the fault is cleared)")
        self.clearing = True
        try:
            problem = await self.check_all()
        except Exception as error:                      # what cannot be read back is no better
            log.exception("the critical memory check failed")
            problem = f"the check itself failed ({type(error).__name__}: {error})"
        finally:
            self.clearing = False
        if problem is not None:
            return f"critical memory still fails its check: {problem}"
        try:
            self.fault_path.unlink(missing_ok=True)
            _sync_dir(self.fault_path.parent)
        except OSError as error:
            return f"the critical memory fault could not be cleared ({error})"
        self.fault = None
        return None
