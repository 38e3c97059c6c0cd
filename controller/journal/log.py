"""The append-only event journal: durable before visible.

Every pit event is appended here, and fsynced, before it is applied or published;
a restart replays the journal to rebuild the table exactly. One line per record::

    <crc32 of the json text, 8 lowercase hex digits> <json>\\n

where the json is ``{"v": 2, "seq": .., "topic": .., "body": .., "private": {..}, "prev": ..}``:
``body`` is the exact published body decoded as UTF-8 text (it round-trips byte for byte),
``private`` is data that is never published (a face-down card's identity), and ``prev``
chains the record to the line before it: the first 16 hex digits of the SHA-256 of that
whole line (crc, space and newline included), or sixteen zeros on the first line of the
file. ``"v": 2`` marks a chained record. A journal written before the chain holds records
of version 1, ``{"seq", "topic", "body", "private"}`` and nothing else, checked as they
always were (crc, seq); the first chained record after them links to the last of them, and
once one record is chained every later one must be. A line whose link does not match the
line before it is bad like one whose crc does not match.

The records of one step (the events one input caused) are written with one
``write()`` on an ``O_APPEND`` descriptor and one fsync, so a crash can only leave a
torn *last* line, or a step whose last records are missing (every record but the
last of a step says ``"more": true`` in its private part). Neither was published,
since publishing follows the fsync. :meth:`Journal.open` cuts a step short of its
end off whole (:attr:`Journal.cut_step`), and a torn tail too, keeping a copy of
its bytes next to the journal as ``<name>.damaged-<n>`` and reporting it in
:attr:`Journal.damage`.
A bad line anywhere before the last is not a crash's doing: :class:`JournalCorrupt`
is raised and nothing is guessed. The journal is locked (``flock``) while open, so
two controllers cannot write to it at once.

The journal rotates: :meth:`Journal.rotate` closes the live file (``journal.log``) by renaming it
to a **closed segment**, ``journal.<first seq, 20 digits>-<last seq, 20 digits>.log``, and starts a
new, empty live file whose first record links (``prev``) to the segment's last line, so the chain
runs on across files and seals each closed segment: a closed segment is never written again, a bad
line anywhere in it (its last included) is :class:`JournalCorrupt`, and its last line must hash to
what the next file's first line links to. A rotation is one rename, one new file and one fsync of
the folder: a crash at any point leaves either the old live file, or the closed segment with no
live file or an empty one, and opening goes on from there (the live file's first seq is the last
segment's last plus one). :meth:`Journal.prune` deletes the oldest closed segments that are no
longer needed. Reading (:meth:`Journal.open` from a checkpoint's window, :func:`read_records`)
finds a record's file by its seq: a window's byte offset is within the file that holds that seq.

The journal holds face-down cards in its private part, so it is kept from other users:
the journal and its quarantined tails are created readable and writable by their owner
only (0600), and the folder holding them is 0700 (created so, or tightened when opened),
whatever the umask.

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
import dataclasses
import fcntl
import hashlib
import itertools
import json
import logging
import os
import re
import shutil
import stat
import threading
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO


@dataclass(frozen=True)
class Record:
    """One journaled event: ``seq``, pit ``topic``, the exact published ``body``, private data."""

    seq: int
    topic: str
    body: bytes
    private: Mapping[str, Any] = field(default_factory=dict)
    """The record's private part, as its JSON line holds it (its values unchecked: the table reads
    them as it wrote them, :meth:`controller.table.state.TableState.apply`)."""


@dataclass(frozen=True)
class JournalDamage:
    """A torn or corrupt tail cut off at ``offset`` on opening; its bytes are in ``quarantine``."""

    offset: int
    reason: str
    quarantine: Path


class JournalCorrupt(Exception):
    """The journal is damaged before its tail: it is not opened, and nothing is guessed."""


class JournalIncomplete(JournalCorrupt):
    """The journal no longer begins at seq 1 (its oldest closed segments were deleted after their
    retention) and no checkpoint copy matches it: the table's state cannot be rebuilt from it."""


def incomplete(path: Path, oldest: int) -> JournalIncomplete:
    """The refusal to rebuild the table from the journal ``path`` whose oldest record kept is ``oldest``."""
    return JournalIncomplete(
        f"the journal {path} begins at seq {oldest} (the closed segments before it were deleted after "
        f"their retention) and no checkpoint copy matches it, so the table's state cannot be rebuilt "
        f"from what is kept: put back a good checkpoint copy ({path.parent}/checkpoint.1.json or .2.json) "
        f"or the deleted segments from a backup")


_CRC = re.compile(rb"[0-9a-f]{8}")
_LINK = re.compile(r"[0-9a-f]{16}")

CHAIN_START = "0" * 16
"""The ``prev`` of the first line of a journal."""

VERSION = 2
"""The version of the records this code writes (``"v"``; records of version 1 carry none)."""

PRIVATE_FILE = 0o600
"""The mode of every file that may hold a face-down card (the journal, its quarantines, checkpoints)."""

PRIVATE_DIR = 0o700
"""The mode of the state folder that holds them."""

SCRUB_LINES = 200
"""Lines checked before read again by each :meth:`Journal.verify`, in turn through the records held."""

log = logging.getLogger(__name__)


class _BadLine(Exception):
    """A line that fails its checks (internal)."""


_JSON = json.JSONEncoder(separators=(",", ":"), allow_nan=False)
"""The encoder of every journal line (made once: it is on the path of every event)."""


def line_hash(line: bytes) -> str:
    """The link to ``line`` (newline included) that the next line carries as ``prev``.

    >>> line_hash(b"")
    'e3b0c44298fc1c14'
    """
    return hashlib.sha256(line).hexdigest()[:16]


def encode_record(record: Record, prev: str) -> bytes:
    """Return the journal line for ``record``, newline included, chained to the line whose
    :func:`line_hash` is ``prev`` (:data:`CHAIN_START` for the first line).

    >>> line = encode_record(Record(1, "T07/hand.ended", b'{"hand":5}', {}), CHAIN_START)
    >>> print(line[:56].decode(), line[56:].decode(), sep="\\n", end="")
    cb2fc559 {"v":2,"seq":1,"topic":"T07/hand.ended","body":
    "{\\"hand\\":5}","private":{},"prev":"0000000000000000"}
    """
    document = {
        "v": VERSION,
        "seq": record.seq,
        "topic": record.topic,
        "body": record.body.decode("utf-8"),
        "private": dict(record.private),
        "prev": prev,
    }
    text = _JSON.encode(document).encode("ascii")
    return b"%08x %s\n" % (zlib.crc32(text), text)


_V1_KEYS = {"seq", "topic", "body", "private"}
_V2_KEYS = {"v", "seq", "topic", "body", "private", "prev"}


def _decode_line(line: bytes, expected_seq: int) -> tuple[Record, str | None]:
    """Check one line (newline included) on its own; return its record and its ``prev`` (None for
    a record of version 1), or raise :class:`_BadLine`."""
    if not line.endswith(b"\n"):
        raise _BadLine("torn write (no end of line)")
    stored, space, text = line[:8], line[8:9], line[9:-1]
    if space != b" " or _CRC.fullmatch(stored) is None:
        raise _BadLine("no crc at the start of the line")
    computed = zlib.crc32(text)
    if int(stored, 16) != computed:
        raise _BadLine(f"crc mismatch (stored {stored.decode()}, computed {computed:08x})")
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise _BadLine(f"not valid JSON ({exc})") from None
    if not isinstance(document, dict) or set(document) not in (_V1_KEYS, _V2_KEYS):
        raise _BadLine("not a record (expected keys seq, topic, body, private; v and prev if chained)")
    prev = document.get("prev")
    if "v" in document and (document["v"] != VERSION or not isinstance(prev, str)
                            or _LINK.fullmatch(prev) is None):
        raise _BadLine(f"not a record of version {VERSION} (v {document['v']!r}, prev {prev!r})")
    seq, topic, body, private = (document[k] for k in ("seq", "topic", "body", "private"))
    if type(seq) is not int or not isinstance(topic, str):
        raise _BadLine("seq must be an integer and topic a string")
    if not isinstance(body, str) or not isinstance(private, dict):
        raise _BadLine("body must be a string and private an object")
    if seq != expected_seq:
        raise _BadLine(f"seq {seq} where {expected_seq} was expected")
    return Record(seq, topic, body.encode("utf-8"), private), prev


def _linked(line: bytes, number: int, link: str | None, chained: bool) -> tuple[Record, bool]:
    """Check one line and its link to the line before (whose :func:`line_hash` is ``link``; None:
    not known, so not checked); ``chained`` says whether a chained record came before. Returns
    the record and whether it is chained, or raises :class:`_BadLine`."""
    record, prev = _decode_line(line, number)
    if prev is None and chained:
        raise _BadLine("a record without its link (version 1) after chained ones")
    if prev is not None and link is not None and prev != link:
        raise _BadLine(f"broken chain (prev {prev}, the line before hashes to {link})")
    return record, chained or prev is not None


def _checked(
    lines: Iterable[bytes], path: Path, offset: int, first_seq: int, link: str | None = None
) -> Iterator[tuple[bytes, Record | _BadLine, str]]:
    """Check ``lines``, read from byte ``offset`` of ``path``, the first being record ``first_seq``
    and linked to ``link`` (the :func:`line_hash` of the line before it: :data:`CHAIN_START` before
    the journal's first line; None when not known, so not checked).

    Yields ``(line, record, line_hash(line))`` for each good line. A bad *last* line (a torn
    tail) is yielded last, as ``(line, error, link)``; a bad line with more lines after it is
    not a crash's doing and raises :class:`JournalCorrupt`.
    """
    chained = False
    bad: tuple[bytes, _BadLine, str] | None = None
    for number, line in enumerate(lines, start=first_seq):
        if bad is not None:
            raise JournalCorrupt(
                f"line {number - 1}: {bad[1]}, at byte {offset} of {path}, with more lines after it"
            )
        try:
            record, chained = _linked(line, number, link, chained)
        except _BadLine as exc:
            bad = (line, exc, line_hash(line))
            continue
        link = line_hash(line)
        yield line, record, link
        offset += len(line)
    if bad is not None:
        yield bad


@dataclass(frozen=True)
class Segment:
    """A closed segment of the journal: records ``first`` to ``last``, in the file ``path``."""

    first: int
    last: int
    path: Path


def segment_path(path: Path, first: int, last: int) -> Path:
    """Where the closed segment of records ``first`` to ``last`` of the journal ``path`` is kept.

    >>> segment_path(Path("state/journal.log"), 1, 12345).name
    'journal.00000000000000000001-00000000000000012345.log'
    """
    return path.with_name(f"{path.stem}.{first:020d}-{last:020d}{path.suffix}")


def segments(path: Path) -> list[Segment]:
    """The closed segments of the journal ``path`` on the disk, oldest first."""
    pattern = re.compile(re.escape(path.stem) + r"\.([0-9]{20})-([0-9]{20})" + re.escape(path.suffix))
    try:
        names = os.listdir(path.parent)
    except FileNotFoundError:
        return []
    found = [Segment(int(m[1]), int(m[2]), path.with_name(name))
             for name in names if (m := pattern.fullmatch(name)) is not None]
    return sorted(found, key=lambda segment: segment.first)


def _gap(closed: list[Segment]) -> str | None:
    """What breaks the run of ``closed`` segments (one missing between two, or a bad name), or None."""
    for before, after in itertools.pairwise(closed):
        if after.first != before.last + 1:
            return (f"closed segments {before.path.name} and {after.path.name} do not follow each "
                    f"other (records {before.last + 1} to {after.first - 1} are missing)")
    for segment in closed:
        if segment.last < segment.first:
            return f"closed segment {segment.path.name} names no record"
    return None


def _last_line(path: Path) -> bytes:
    """The last line of the file ``path`` (b"" if it is empty), read from its end."""
    with open(path, "rb") as file:
        end = file.seek(0, os.SEEK_END)
        data = b""
        while end > 0:
            size = min(65536, end)
            end -= size
            file.seek(end)
            data = file.read(size) + data
            cut = data.rfind(b"\n", 0, len(data) - 1)
            if cut >= 0:
                return data[cut + 1:]
        return data


def _first_line(path: Path) -> bytes:
    """The first line of the file ``path`` (b"" if it is empty)."""
    with open(path, "rb") as file:
        return file.readline()


@dataclass(frozen=True)
class _Part:
    """One file to read: from byte ``offset``, whose first line there is record ``seq``; ``closed``
    for a closed segment (sealed: a bad line anywhere in it is never a torn tail)."""

    path: Path
    offset: int
    seq: int
    closed: bool
    last: int | None = None
    """The last seq a closed segment must end with (its name's)."""


def _plan(path: Path, start: tuple[int, int]) -> tuple[list[_Part], list[Segment], int]:
    """The files to read to go through the journal ``path`` from ``start`` (``(seq, byte offset)``
    within the file holding that seq; no good record ``seq`` there: from the oldest file kept); the
    closed segments on the disk and the live file's first seq. Raises :class:`JournalCorrupt` if a
    segment is missing from the run being read."""
    closed = segments(path)
    live_first = closed[-1].last + 1 if closed else 1
    parts = [_Part(s.path, 0, s.first, True, s.last) for s in closed] + [_Part(path, 0, live_first, False)]
    begin = 0
    seq, offset = start
    index = max((i for i, part in enumerate(parts) if part.seq <= seq), default=0)
    if parts[index].path.exists() and _starts_at(parts[index].path, offset, seq):
        begin = index
        parts[index] = dataclasses.replace(parts[index], offset=offset, seq=seq)
    gap = _gap(closed[begin:])
    if gap is not None:
        raise JournalCorrupt(gap)
    return parts[begin:], closed, live_first


def _walk(parts: list[_Part], link: str | None, files: list[BinaryIO] | None = None
          ) -> Iterator[tuple[_Part, int, bytes, Record | _BadLine, str]]:
    """Check the lines of ``parts`` in turn, the first linked to ``link`` (None: not checked), each
    file's first line to the last line of the one before. Yields ``(part, offset, line, record,
    link)`` as :func:`_checked` does, with the byte ``offset`` of the line in its file; a bad line
    in a closed segment, or one that does not end with its last seq, raises :class:`JournalCorrupt`.
    ``files``, if given, are the parts already open (read from their offsets)."""
    for number, part in enumerate(parts):
        if part.offset == 0 and part.seq == 1:
            link = CHAIN_START
        offset, seq = part.offset, part.seq - 1
        try:
            lines = files[number] if files is not None else open(part.path, "rb")  # noqa: SIM115
        except FileNotFoundError:
            if part.closed:
                raise JournalCorrupt(f"closed segment {part.path} is gone") from None
            return
        with lines:
            if part.offset:                     # (a file read from its start is read as a stream)
                lines.seek(part.offset)
            for line, checked, after in _checked(lines, part.path, part.offset, part.seq, link):
                if isinstance(checked, _BadLine) and part.closed:
                    raise JournalCorrupt(f"line {seq + 1}: {checked}, at byte {offset} of the closed "
                                         f"segment {part.path} (a closed segment is never written again)")
                yield part, offset, line, checked, after
                if isinstance(checked, _BadLine):
                    return
                offset, seq, link = offset + len(line), checked.seq, after
        if part.closed and seq != part.last:
            raise JournalCorrupt(f"closed segment {part.path} ends at record {seq}, not {part.last} as named")


def read_records(path: Path, start: tuple[int, int] = (1, 0)) -> Iterator[Record]:
    """Stream the records of the journal at ``path`` read-only, across its closed segments and its
    live file: no lock, no repair.

    For readers such as ``table-controller recall`` while the daemon holds the journal.
    A bad last line of the live file (a write in progress, or a torn tail not cut yet) ends the
    stream; a bad line before it raises :class:`JournalCorrupt`. No file, no records.
    ``start`` is ``(seq, byte offset)`` of a record to begin at (a checkpoint's window, the offset
    within the file holding that seq); if no good record ``seq`` stands there, the stream begins
    at the oldest record kept. The files are opened before the first record is read (and the
    folder looked at again, should the daemon rotate meanwhile), so the stream is the journal as
    it was then.
    """
    while True:
        parts, closed, _ = _plan(path, start)
        files: list[BinaryIO] = []
        try:
            for part in parts:
                files.append(open(part.path, "rb"))  # noqa: SIM115 (closed by _walk)
        except FileNotFoundError:
            pass
        if segments(path) == closed and len(files) >= len(parts) - 1:
            break
        for file in files:
            file.close()
    return _records(parts[:len(files)], files)


def _records(parts: list[_Part], files: list[BinaryIO]) -> Iterator[Record]:
    try:
        for _, _, _, checked, _ in _walk(parts, None, files):
            if isinstance(checked, _BadLine):
                return
            yield checked
    finally:
        for file in files:
            file.close()


def first_seq(path: Path) -> int:
    """The seq of the oldest record the journal ``path`` keeps a file for (1 until a closed segment
    is deleted)."""
    closed = segments(path)
    return closed[0].first if closed else 1


def _starts_at(path: Path, offset: int, seq: int) -> bool:
    """Whether the line at byte ``offset`` of ``path`` is a good record with this ``seq``."""
    with open(path, "rb") as lines:
        lines.seek(offset)
        try:
            _decode_line(lines.readline(), seq)
        except _BadLine:
            return False
    return True


def _fsync_dir(folder: Path) -> None:
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
        _fsync_dir(new.parent)
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


def _quarantine(path: Path, offset: int) -> Path:
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


class _Problem(Exception):
    """What a read back found wrong (internal): its text says what."""


def _read_live(fd: int, path: Path, size: int, begin: tuple[int, int, str | None],
               joined: tuple[int, int, str] | None) -> tuple[int, int, str] | None:
    """Check the lines of the live file ``path`` (open as ``fd``) up to byte ``size``: from the line
    after ``joined`` (``(byte offset, seq, link)`` of the last line checked before, read again: it
    must still hash to its link), else from ``begin`` (``(byte offset, seq, link)`` of the first
    line, which must link to ``link``; None: not checked). Returns the last line checked, as
    ``joined`` is (None: there is none); raises :class:`_Problem`."""
    offset, seq, link = begin
    if joined is not None:
        offset, seq = joined[:2]
    data = b""
    while len(data) < size - offset:
        chunk = os.pread(fd, size - offset - len(data), offset + len(data))
        if not chunk:
            raise _Problem(f"{path} ends before the {size} bytes written")
        data += chunk
    lines = data.splitlines(keepends=True)
    if joined is not None:
        if not lines or line_hash(lines[0]) != joined[2]:
            raise _Problem(f"{path}: record {seq}, checked before, has changed (at byte {offset})")
        link = joined[2]
        offset, seq = offset + len(lines[0]), seq + 1
        lines = lines[1:]
    found = joined
    try:
        for line, checked, after in _checked(lines, path, offset, seq, link):
            if isinstance(checked, _BadLine):
                number = found[1] + 1 if found else seq
                raise _Problem(f"{path}: record {number}: {checked} (at byte {offset})")
            found = (offset, checked.seq, after)
            offset += len(line)
    except JournalCorrupt as error:
        raise _Problem(str(error)) from None
    return found


def _ends_at(path: Path, found: tuple[int, int, str] | None, first: int, last_seq: int, head: str) -> None:
    """Raise :class:`_Problem` unless the last line checked, ``found`` (None: the live file ``path``,
    whose first seq is ``first``, holds none), is record ``last_seq`` and hashes to ``head``."""
    if (found[1] if found else first - 1) != last_seq or (found is not None and found[2] != head):
        raise _Problem(f"{path}: the last record is not the last one written (seq {last_seq})")


class WholeCheck:
    """A check of every line of every file of a journal, read off the loop.

    Made on the loop between two steps (:meth:`Journal.whole_check`), it holds the journal as it
    stands then: its closed segments, the identity of the live file, its length, its last seq and
    the chain's head. :meth:`read`, on any thread (a worker thread, while the loop goes on writing),
    reads only what no write changes: each closed segment whole (a closed segment is never written
    again), each one's first line linked to the last line of the one before and the run of their
    names unbroken; then the live file, the same file, up to that length, every line with its crc,
    seq and link, the first linked to the last segment's last line, the last being that last seq
    and hashing to that head. :meth:`Journal.finish_whole`, on the loop again, reads what was
    written since, from the last line read here. Together they are the check of the whole
    journal, the chain unbroken from the oldest line kept to the last written; a file changed,
    replaced or deleted under it fails it.
    """

    def __init__(self, path: Path, closed: tuple[Segment, ...], identity: tuple[int, int], size: int,
                 first: int, last_seq: int, head: str) -> None:
        """Use :meth:`Journal.whole_check`."""
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
        except _Problem as problem:
            return str(problem)
        self.passed = True
        return None

    def _read(self) -> tuple[int, int, str] | None:
        gap = _gap(list(self.closed))
        if gap is not None:
            raise _Problem(gap)
        link = CHAIN_START                              # what the live file's first line links to
        parts = [_Part(c.path, 0, c.first, True, c.last) for c in self.closed]
        try:
            for _, _, _, _, after in _walk(parts, None):
                if self._stop.is_set():
                    raise _Problem("the whole check was stopped before its end")
                link = after
        except JournalCorrupt as error:
            raise _Problem(str(error)) from None
        try:
            live = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise _Problem(f"{self.path} is gone") from None
        try:
            status = os.fstat(live)
            if (status.st_dev, status.st_ino) != self.identity:
                raise _Problem(f"{self.path} is no longer the file the journal writes to (it was replaced)")
            found = _read_live(live, self.path, self.size, (0, self.first, link), None)
        finally:
            os.close(live)
        _ends_at(self.path, found, self.first, self.last_seq, self.head)
        return found


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
        segment. :attr:`start` says where reading began. Raises :class:`JournalCorrupt` when
        a line read is bad before the live file's last one. The closed segments before where
        reading began are checked for their seals only (:attr:`archive`).
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
                _fsync_dir(path.parent)
            parts, journal._closed, journal._live_first = _plan(path, start)
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
        return line_hash(_last_line(self._closed[-1].path)) if self._closed else CHAIN_START

    def _seals(self, count: int) -> str | None:
        """Check the seals of the first ``count`` closed segments (those not read on opening): the
        run of their names, each one's first and last line, and the next file's first line linking
        to its last; returns what is wrong, or None."""
        problem = _gap(self._closed)
        if problem is not None:
            return problem
        for number, segment in enumerate(self._closed[:count]):
            following = self._closed[number + 1].path if number + 1 < len(self._closed) else self.path
            try:
                last = _last_line(segment.path)
                _decode_line(_first_line(segment.path), segment.first)
                _decode_line(last, segment.last)
                after = _first_line(following)
                if after:
                    _, prev = _decode_line(after, segment.last + 1)
                    if prev is not None and prev != line_hash(last):
                        raise _BadLine(f"{following.name} does not link to its last line")
            except (_BadLine, OSError) as error:
                return f"closed segment {segment.path}: {error}"
        return None

    def _oldest(self) -> tuple[int, int]:
        """``(seq, 0)`` of the oldest file kept."""
        return (self._closed[0].first if self._closed else self._live_first, 0)

    def _scan(self, parts: list[_Part]) -> None:
        """Read the files once: validate, remember the latest records, cut a bad tail."""
        tail: _BadLine | None = None
        self.last_seq = parts[0].seq - 1
        link: str | None = None
        for part, offset, line, checked, after in _walk(parts, None):
            if isinstance(checked, _BadLine):
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
            quarantine = _quarantine(self.path, self._size)
            assert self._fd is not None
            os.ftruncate(self._fd, self._size)
            os.fsync(self._fd)
            _fsync_dir(self.path.parent)
            self.damage = JournalDamage(self._size, f"line {self.last_seq + 1}: {tail}", quarantine)
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
        _fsync_dir(self.path.parent)

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
            _fsync_dir(self.path.parent)
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
            found = _read_live(self._fd, self.path, self._size, self._live_from, self._verified)
            _ends_at(self.path, found, self._live_first, self.last_seq, self._head)
        except _Problem as problem:
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
