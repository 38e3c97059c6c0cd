"""Reading back what the journal wrote: the live file's lines checked again, and the whole check.

:meth:`controller.journal.log.Journal.verify` reads back, around every hand, what was written
since its last call (:func:`read_live`, :func:`ends_at`); :class:`WholeCheck` reads every line of
every file kept, on a worker thread, while the loop goes on writing (the daemon's clear of a
critical memory fault), and the journal reads what was written meanwhile when it is done.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from controller.journal.lines import CHAIN_START, BadLine, JournalCorrupt, check_lines, line_hash
from controller.journal.segments import Part, Segment, segment_gap, walk


class ReadBackProblem(Exception):
    """What a read back found wrong (:func:`read_live`, :func:`ends_at`, :class:`WholeCheck`): its
    text says what."""


def read_live(fd: int, path: Path, size: int, begin: tuple[int, int, str | None],
              joined: tuple[int, int, str] | None) -> tuple[int, int, str] | None:
    """Check the lines of the live file ``path`` (open as ``fd``) up to byte ``size``: from the line
    after ``joined`` (``(byte offset, seq, link)`` of the last line checked before, read again: it
    must still hash to its link), else from ``begin`` (``(byte offset, seq, link)`` of the first
    line, which must link to ``link``; None: not checked). Returns the last line checked, as
    ``joined`` is (None: there is none); raises :class:`ReadBackProblem`."""
    offset, seq, link = begin
    if joined is not None:
        offset, seq = joined[:2]
    data = b""
    while len(data) < size - offset:
        chunk = os.pread(fd, size - offset - len(data), offset + len(data))
        if not chunk:
            raise ReadBackProblem(f"{path} ends before the {size} bytes written")
        data += chunk
    lines = data.splitlines(keepends=True)
    if joined is not None:
        if not lines or line_hash(lines[0]) != joined[2]:
            raise ReadBackProblem(f"{path}: record {seq}, checked before, has changed (at byte {offset})")
        link = joined[2]
        offset, seq = offset + len(lines[0]), seq + 1
        lines = lines[1:]
    found = joined
    try:
        for line, checked, after in check_lines(lines, path, offset, seq, link):
            if isinstance(checked, BadLine):
                number = found[1] + 1 if found else seq
                raise ReadBackProblem(f"{path}: record {number}: {checked} (at byte {offset})")
            found = (offset, checked.seq, after)
            offset += len(line)
    except JournalCorrupt as error:
        raise ReadBackProblem(str(error)) from None
    return found


def ends_at(path: Path, found: tuple[int, int, str] | None, first: int, last_seq: int, head: str) -> None:
    """Raise :class:`ReadBackProblem` unless the last line checked, ``found`` (None: the live file
    ``path``, whose first seq is ``first``, holds none), is record ``last_seq`` and hashes to ``head``."""
    if (found[1] if found else first - 1) != last_seq or (found is not None and found[2] != head):
        raise ReadBackProblem(f"{path}: the last record is not the last one written (seq {last_seq})")


class WholeCheck:
    """A check of every line of every file of a journal, read off the loop.

    Made on the loop between two steps (:meth:`~controller.journal.log.Journal.whole_check`), it
    holds the journal as it stands then: its closed segments, the identity of the live file, its
    length, its last seq and the chain's head. :meth:`read`, on any thread (a worker thread, while
    the loop goes on writing), reads only what no write changes: each closed segment whole (a closed
    segment is never written again), each one's first line linked to the last line of the one
    before and the run of their names unbroken; then the live file, the same file, up to that
    length, every line with its crc, seq and link, the first linked to the last segment's last line,
    the last being that last seq and hashing to that head.
    :meth:`~controller.journal.log.Journal.finish_whole`, on the loop again, reads what was written
    since, from the last line read here. Together they are the check of the whole journal, the chain
    unbroken from the oldest line kept to the last written; a file changed, replaced or deleted
    under it fails it.
    """

    def __init__(self, path: Path, closed: tuple[Segment, ...], identity: tuple[int, int], size: int,
                 first: int, last_seq: int, head: str) -> None:
        """Use :meth:`~controller.journal.log.Journal.whole_check`."""
        self.path = path
        self.closed = closed
        self.identity = identity
        """``(st_dev, st_ino)`` of the live file the journal writes to."""
        self.size = size
        """The live file's length when the check began: :meth:`read` reads up to there."""
        self.first = first
        """The seq of the live file's first record."""
        self.last_seq = last_seq
        self.head = head
        self.reached: tuple[int, int, str] | None = None
        """``(byte offset, seq, link)`` of the last line of the live file :meth:`read` checked."""
        self.passed = False
        """Whether :meth:`read` found nothing wrong."""
        self._stop = threading.Event()

    def stop(self) -> None:
        """Have :meth:`read` give up at its next line (its answer is then not waited for)."""
        self._stop.set()

    def read(self) -> str | None:
        """Read and check the files (see the class's text); returns what is wrong, or None."""
        try:
            self.reached = self._read()
        except ReadBackProblem as problem:
            return str(problem)
        self.passed = True
        return None

    def _read(self) -> tuple[int, int, str] | None:
        gap = segment_gap(list(self.closed))
        if gap is not None:
            raise ReadBackProblem(gap)
        link = CHAIN_START                              # what the live file's first line links to
        parts = [Part(c.path, 0, c.first, True, c.last) for c in self.closed]
        try:
            for _, _, _, _, after in walk(parts, None):
                if self._stop.is_set():
                    raise ReadBackProblem("the whole check was stopped before its end")
                link = after
        except JournalCorrupt as error:
            raise ReadBackProblem(str(error)) from None
        try:
            live = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise ReadBackProblem(f"{self.path} is gone") from None
        try:
            status = os.fstat(live)
            if (status.st_dev, status.st_ino) != self.identity:
                raise ReadBackProblem(
                    f"{self.path} is no longer the file the journal writes to (it was replaced)")
            found = read_live(live, self.path, self.size, (0, self.first, link), None)
        finally:
            os.close(live)
        ends_at(self.path, found, self.first, self.last_seq, self.head)
        return found
