"""The append-only event journal: durable before visible.

Every pit event is appended here, and fsynced, before it is applied or published;
a restart replays the journal to rebuild the table exactly. Its lines, their hash chain
and their checks are :mod:`controller.journal.lines`; its files on the disk (closed
segments and the live file) and reading records across them, :mod:`controller.journal.segments`;
its private files and their fsyncs, :mod:`controller.journal.files`; reading back what it
wrote, :mod:`controller.journal.read_back`.

The records of one step (the events one input caused) are written with one
``write()`` on an ``O_APPEND`` descriptor and one fsync, so a crash can only leave a
torn *last* line, or a step whose last records are missing (every record but the
last of a step says ``"more": true`` in its private part). Neither was published,
since publishing follows the fsync. :meth:`Journal.open` cuts a step short of its
end off whole (:attr:`Journal.cut_step`), and a torn tail too, keeping a copy of
its bytes next to the journal as ``<name>.damaged-<n>`` and reporting it in
:attr:`Journal.damage`. A bad line anywhere before the last is not a crash's doing:
:class:`~controller.journal.lines.JournalCorrupt` is raised and nothing is guessed. The
journal is locked (``flock``) while open, so two controllers cannot write to it at once.

:meth:`Journal.rotate` closes the live file as a closed segment. A rotation is one rename,
one new file and one fsync of the folder: a crash at any point leaves either the old live
file, or the closed segment with no live file or an empty one, and opening goes on from
there. :meth:`Journal.prune` deletes the oldest closed segments that are no longer needed.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> journal = Journal.open(folder / "state" / "journal")
>>> journal.append(Record(1, "T07/table.opened", b'{"seq":1}', {}))
>>> journal.close()
>>> again = Journal.open(folder / "state" / "journal")
>>> again.last_seq, [r.body for r in again.records()], again.damage
(1, [b'{"seq":1}'], None)
>>> again.close()
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.journal.files import fsync_dir, open_private, private_dir, quarantine
from controller.journal.lines import (
    CHAIN_START,
    BadLine,
    Record,
    decode_line,
    encode_record,
    line_hash,
)
from controller.journal.read_back import ReadBackProblem, WholeCheck, ends_at, read_live
from controller.journal.segments import (
    Part,
    Segment,
    first_line,
    last_line,
    plan,
    read_records,
    segment_gap,
    segment_path,
    walk,
)

SCRUB_LINES = 200
"""Lines checked before read again by each :meth:`Journal.verify`, in turn through the records held."""


@dataclass(frozen=True)
class JournalDamage:
    """A torn or corrupt tail cut off at ``offset`` on opening; its bytes are in ``quarantine``."""

    offset: int
    reason: str
    quarantine: Path


class Journal:
    """An open journal: validated on open, appended to one step at a time with one fsync each,
    rotated into closed segments between steps."""

    path: Path
    damage: JournalDamage | None
    last_seq: int

    def __init__(self, path: Path, fd: int, keep: int) -> None:
        """Use :meth:`Journal.open`."""
        self.path = path
        self.damage = None
        self.cut_step = False
        """Whether opening cut off the start of a step whose end never reached the disk."""
        self.last_seq = 0
        self.start = (1, 0)
        """``(seq, byte offset)`` where reading began when the journal was opened (the offset within
        the file that holds that seq)."""
        self.archive: str | None = None
        """What is wrong with the closed segments before :attr:`start`, found on opening (None: nothing)."""
        self._fd: int | None = fd
        self._size = 0
        """The live file's length as written."""
        self._broken = False
        self._recent: collections.deque[Record] = collections.deque(maxlen=keep)
        self._offsets: collections.deque[int] = collections.deque(maxlen=keep)
        """Each held record's byte offset in its file (a closed segment's, or the live file's)."""
        self._links: collections.deque[str] = collections.deque(maxlen=keep)
        self._head = CHAIN_START
        """The link to the last line (what the next record's ``prev`` is)."""
        self._closed: list[Segment] = []
        """The closed segments on the disk, oldest first."""
        self._live_first = 1
        """The seq of the live file's first record."""
        self._live_from: tuple[int, int, str | None] = (0, 1, CHAIN_START)
        """``(byte offset, seq, link)`` where :meth:`verify` begins in the live file while none of
        its lines was read back: the first line there must link to ``link`` (None: not checked)."""
        self._verified: tuple[int, int, str] | None = None
        """``(byte offset, seq, link)`` of the last line of the live file :meth:`verify` read back
        (None: none yet)."""
        self._scrub_next = 0
        """The seq of the held record :meth:`verify` reads again next."""

    @classmethod
    def open(cls, path: Path, *, keep: int = 10_000, start: tuple[int, int] = (1, 0)) -> Journal:
        """Open (or create) the journal at ``path``, check every line read and cut off a bad tail.

        ``keep`` is how many of the latest records :meth:`since` can always hand back.
        ``start`` is ``(seq, byte offset)`` of the record to begin reading at, known from a
        checkpoint, so that a long journal is not read whole at every start; if no good
        record ``seq`` stands at that offset, every file kept is read, from the oldest closed
        segment. :attr:`start` says where reading began. Raises
        :class:`~controller.journal.lines.JournalCorrupt` when a line read is bad before the live
        file's last one. The closed segments before where reading began are checked for their
        seals only (:attr:`archive`).
        """
        if keep < 1:
            raise ValueError("keep must be at least 1")
        path = Path(path)
        private_dir(path.parent)
        existed = path.exists()
        fd = open_private(path, os.O_RDWR | os.O_APPEND)
        journal = cls(path, fd, keep)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not existed:
                fsync_dir(path.parent)
            parts, journal._closed, journal._live_first = plan(path, start)
            journal.start = (parts[0].seq, parts[0].offset)
            journal._scan(parts)
            journal.archive = journal._seals(len(journal._closed) - len(parts) + 1)
        except BaseException:
            journal.close()
            raise
        if not journal._links and journal.start != journal._oldest():
            # All that was read from the window was cut off: the link to go on from is before it.
            journal.close()
            return cls.open(path, keep=keep)
        return journal

    def _live_link(self) -> str:
        """The link the live file's first line carries: to the last line of the last closed segment."""
        return line_hash(last_line(self._closed[-1].path)) if self._closed else CHAIN_START

    def _seals(self, count: int) -> str | None:
        """Check the seals of the first ``count`` closed segments (those not read on opening): the
        run of their names, each one's first and last line, and the next file's first line linking
        to its last; returns what is wrong, or None."""
        problem = segment_gap(self._closed)
        if problem is not None:
            return problem
        for number, segment in enumerate(self._closed[:count]):
            following = self._closed[number + 1].path if number + 1 < len(self._closed) else self.path
            try:
                last = last_line(segment.path)
                decode_line(first_line(segment.path), segment.first)
                decode_line(last, segment.last)
                after = first_line(following)
                if after:
                    _, prev = decode_line(after, segment.last + 1)
                    if prev is not None and prev != line_hash(last):
                        raise BadLine(f"{following.name} does not link to its last line")
            except (BadLine, OSError) as error:
                return f"closed segment {segment.path}: {error}"
        return None

    def _oldest(self) -> tuple[int, int]:
        """``(seq, 0)`` of the oldest file kept."""
        return (self._closed[0].first if self._closed else self._live_first, 0)

    def _scan(self, parts: list[Part]) -> None:
        """Read the files once: validate, remember the latest records, cut a bad tail."""
        tail: BadLine | None = None
        self.last_seq = parts[0].seq - 1
        link: str | None = None
        for part, offset, line, checked, after in walk(parts, None):
            if isinstance(checked, BadLine):
                tail = checked
                self._size = offset
                break
            self._recent.append(checked)
            self._offsets.append(offset)
            self._links.append(after)
            self.last_seq = checked.seq
            link = after
            if not part.closed:
                self._size = offset + len(line)
        self._head = link if link is not None else self._live_link()
        while self._recent and self._recent[-1].private.get("more") and self.last_seq >= self._live_first:
            # The rest of this step never reached the disk: none of it was published.
            self._recent.pop()
            self._links.pop()
            self._size = self._offsets.pop()
            self.last_seq -= 1
            self._head = self._links[-1] if self._links else self._live_link()
            self.cut_step = True
        if len(parts) == 1 and parts[0].offset > 0:
            self._live_from = (parts[0].offset, parts[0].seq, None)
        else:
            self._live_from = (0, self._live_first, self._live_link())
        if self.last_seq >= self._live_first and self._links:
            self._verified = (self._offsets[-1], self.last_seq, self._head)
        if tail is not None:
            copy = quarantine(self.path, self._size)
            assert self._fd is not None
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
            fsync_dir(self.path.parent)
            self.damage = JournalDamage(self._size, f"line {self.last_seq + 1}: {tail}", copy)
        elif self.cut_step:
            assert self._fd is not None
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)

    def records(self, after: int = 0) -> Iterator[Record]:
        """Yield the records from where opening began (see :attr:`start`) whose seq is over
        ``after``, in order, reading the files as a stream (for replay at start)."""
        last = self.last_seq
        for record in read_records(self.path, self.start):
            if record.seq > last:
                return
            if record.seq > after:
                yield record

    @property
    def window(self) -> tuple[int, int]:
        """``(seq, byte offset)`` of the oldest record held for :meth:`since` (``(1, 0)`` if none):
        reading from there at the next start holds the same records again."""
        if not self._recent:
            return (1, 0)
        return (self._recent[0].seq, self._offsets[0])

    def append(self, *records: Record) -> None:
        """Write ``records`` (the first's seq must be ``last_seq + 1``, each following the one
        before) with one write and one fsync before returning: the events of one step.

        Every record but the last of a step carries ``"more": true`` in its private part; a
        step whose last record never reached the disk is cut off when the journal is opened.
        If the write or the fsync fails, the journal is cut back to its last good record and
        refuses further appends: what reached the disk is then unknown.
        """
        if self._fd is None:
            raise ValueError("the journal is closed")
        if self._broken:
            raise OSError(f"{self.path}: an earlier write failed; reopen the journal")
        lines: list[bytes] = []
        links: list[str] = []
        prev = self._head
        for number, record in enumerate(records, start=self.last_seq + 1):
            if record.seq != number:
                raise ValueError(f"seq {record.seq} does not follow {number - 1}")
            lines.append(encode_record(record, prev))
            prev = line_hash(lines[-1])
            links.append(prev)
        data = b"".join(lines)
        try:
            written = os.write(self._fd, data)
            while written < len(data):
                written += os.write(self._fd, data[written:])
            self._fsync(self._fd)
        except BaseException:
            self._broken = True
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            raise
        for record, line, link in zip(records, lines, links, strict=True):
            self._offsets.append(self._size)
            self._links.append(link)
            self._size += len(line)
            self.last_seq = record.seq
            self._recent.append(record)
        self._head = prev

    def _fsync(self, fd: int) -> None:
        """The one sync of a step (``fsync``), after its one write; a subclass may watch it
        (tests/e2e/test_durable_before_visible.py does, to see what is on the disk when it returns)."""
        os.fsync(fd)

    def since(self, from_seq: int) -> list[Record]:
        """Return the records with ``seq >= from_seq`` still held (at least the last ``keep``);
        none for a ``from_seq`` past the last record, however large."""
        if not self._recent or from_seq > self.last_seq:
            return []
        skip = max(0, from_seq - self._recent[0].seq)
        return list(itertools.islice(self._recent, skip, None))

    def link_at(self, seq: int) -> str | None:
        """The :func:`line_hash` of record ``seq``'s line, if the record is still held."""
        if not self._recent or not self._recent[0].seq <= seq <= self.last_seq:
            return None
        return self._links[seq - self._recent[0].seq]

    @property
    def live_bytes(self) -> int:
        """The live file's length: what :meth:`rotate` would close."""
        return self._size

    def rotate(self) -> Segment | None:
        """Close the live file as a segment and start a new, empty one (None: the live file is empty,
        nothing is done). Between two steps only. The steps, each safe to crash after: the live file
        is renamed to the segment's name (a new start finds no live file and makes one); the new
        live file is created, empty, and locked; the folder is fsynced (the one sync a rotation
        adds). The new file's first record links to the segment's last line. A failure after the
        rename leaves the journal refusing appends, like a failed write: reopen it."""
        if self._fd is None:
            raise ValueError("the journal is closed")
        if self._broken:
            raise OSError(f"{self.path}: an earlier write failed; reopen the journal")
        if self._size == 0:
            return None
        segment = Segment(self._live_first, self.last_seq, segment_path(self.path, self._live_first,
                                                                         self.last_seq))
        os.rename(self.path, segment.path)
        try:
            fd = open_private(self.path, os.O_RDWR | os.O_APPEND | os.O_EXCL)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BaseException:
                os.close(fd)
                raise
            os.close(self._fd)
            self._fd = fd
            self._closed.append(segment)
            self._live_first, self._size = self.last_seq + 1, 0
            self._live_from, self._verified = (0, self._live_first, self._head), None
            self._rotated()
        except BaseException:
            self._broken = True
            raise
        return segment

    def _rotated(self) -> None:
        """The last step of a rotation: the folder fsynced, so the new names are durable."""
        fsync_dir(self.path.parent)

    def prune(self, needed: int, closed_before: float) -> list[Path]:
        """Delete the oldest closed segments that hold no record from ``needed`` on and were closed
        (their file last written) before the time ``closed_before``, oldest first, stopping at the
        first one kept; fsync the folder after. Returns the files deleted."""
        deleted: list[Path] = []
        while self._closed and self._closed[0].last < needed and (
                self._closed[0].path.stat().st_mtime < closed_before):
            self._closed[0].path.unlink()
            deleted.append(self._closed.pop(0).path)
        if deleted:
            fsync_dir(self.path.parent)
        return deleted

    def verify(self, *, whole: bool = False) -> str | None:
        """Read back from the disk what was written since the last call and check it; returns
        what is wrong, or None.

        Checked: the file at :attr:`path` is still the one this journal writes to and holds exactly
        the bytes written; the last line checked before still hashes to its link; every line after
        it has its crc, the next seq and its link to the line before; and the last line is the
        last one written (its link is the chain's head in memory). So a line changed anywhere after
        the last check, or the line the chain goes on from, is found at the next. Then the next
        :data:`SCRUB_LINES` of the records held (:meth:`since`) are read again, in turn, each
        compared with the link it had when it was written or first read: every held record is
        read again once every ``keep / SCRUB_LINES`` calls. With ``whole``, every line of every
        file kept is read again first (:meth:`whole_check`, here all on the calling thread).
        """
        if whole:
            check = self.whole_check()
            return check.read() or self.finish_whole(check)
        if self._fd is None:
            raise ValueError("the journal is closed")
        try:
            status = os.fstat(self._fd)
            named = os.stat(self.path)
        except FileNotFoundError:
            return f"{self.path} is gone"
        if (named.st_dev, named.st_ino) != (status.st_dev, status.st_ino):
            return f"{self.path} is no longer the file the journal writes to (it was replaced)"
        if status.st_size != self._size:
            return f"{self.path} holds {status.st_size} bytes where {self._size} were written"
        try:
            found = read_live(self._fd, self.path, self._size, self._live_from, self._verified)
            ends_at(self.path, found, self._live_first, self.last_seq, self._head)
        except ReadBackProblem as problem:
            return str(problem)
        self._verified = found
        return self._scrub()

    def whole_check(self) -> WholeCheck:
        """Begin a check of every line of every file kept, to be read off the loop: see
        :class:`WholeCheck` (then :meth:`finish_whole`). Between two steps only."""
        if self._fd is None:
            raise ValueError("the journal is closed")
        status = os.fstat(self._fd)
        return WholeCheck(self.path, tuple(self._closed), (status.st_dev, status.st_ino), self._size,
                          self._live_first, self.last_seq, self._head)

    def finish_whole(self, check: WholeCheck) -> str | None:
        """End ``check`` (:meth:`WholeCheck.read` returned None) on the thread that writes: what
        was written since it began, checked as :meth:`verify` does, from the last line it read
        (read again: it must still hash to its link); returns what is wrong, or None."""
        if not check.passed:
            return f"{self.path}: the whole check was not read to its end"
        if check.first != self._live_first:
            return f"{self.path} was rotated while the whole check read it: check it again"
        self._verified = check.reached
        return self.verify()

    def _scrub(self) -> str | None:
        """Read the next :data:`SCRUB_LINES` held records again (see :meth:`verify`), within one
        file: the live file, or the closed segment the next of them is in."""
        if not self._recent:
            return None
        assert self._fd is not None
        oldest = self._recent[0].seq
        first = self._scrub_next if oldest <= self._scrub_next <= self.last_seq else oldest
        segment = next((c for c in self._closed if c.first <= first <= c.last), None)
        last = segment.last if segment is not None else self.last_seq
        index = first - oldest
        count = min(SCRUB_LINES, last - first + 1)
        offsets = list(itertools.islice(self._offsets, index, index + count + 1))
        links = list(itertools.islice(self._links, index, index + count))
        try:
            if segment is None:
                end = offsets[len(links)] if len(offsets) > len(links) else self._size
                data = os.pread(self._fd, end - offsets[0], offsets[0])
            else:
                with open(segment.path, "rb") as file:
                    file.seek(offsets[0])
                    data = b"".join(itertools.islice(file, len(links)))
        except OSError as error:
            return f"{segment.path if segment else self.path}: {error}"
        lines = data.splitlines(keepends=True)
        for number, (line, link) in enumerate(itertools.zip_longest(lines, links), start=first):
            if line is None or link is None or line_hash(line) != link:
                where = segment.path if segment is not None else self.path
                return f"{where}: record {number} has changed since it was written (read again)"
        self._scrub_next = first + len(links)
        return None

    def close(self) -> None:
        """Release the file (and its lock); closing twice is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
