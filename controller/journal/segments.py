"""The journal's files on the disk: its closed segments and its live file, and reading records across them.

The journal rotates (:meth:`controller.journal.log.Journal.rotate`): the live file (``journal.log``)
is closed by renaming it to a **closed segment**, ``journal.<first seq, 20 digits>-<last seq, 20
digits>.log``, and a new, empty live file is started whose first record links (``prev``) to the
segment's last line, so the chain runs on across files and seals each closed segment: a closed
segment is never written again, a bad line anywhere in it (its last included) is
:class:`~controller.journal.lines.JournalCorrupt`, and its last line must hash to what the next
file's first line links to. The live file's first seq is the last segment's last plus one.

Reading (the journal opened from a checkpoint's window, :func:`read_records`) finds a record's file
by its seq: a window's byte offset is within the file that holds that seq. Once the oldest closed
segments are deleted after their retention the journal no longer begins at seq 1
(:func:`first_seq`), and the table's state can only be rebuilt from a checkpoint that matches it
(:class:`JournalIncomplete` otherwise).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from controller.journal.lines import CHAIN_START, BadLine, JournalCorrupt, Record, check_lines, decode_line


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


def segment_gap(closed: list[Segment]) -> str | None:
    """What breaks the run of ``closed`` segments (one missing between two, or a bad name), or None."""
    for before, after in itertools.pairwise(closed):
        if after.first != before.last + 1:
            return (f"closed segments {before.path.name} and {after.path.name} do not follow each "
                    f"other (records {before.last + 1} to {after.first - 1} are missing)")
    for segment in closed:
        if segment.last < segment.first:
            return f"closed segment {segment.path.name} names no record"
    return None


def last_line(path: Path) -> bytes:
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


def first_line(path: Path) -> bytes:
    """The first line of the file ``path`` (b"" if it is empty)."""
    with open(path, "rb") as file:
        return file.readline()


@dataclass(frozen=True)
class Part:
    """One file to read: from byte ``offset``, whose first line there is record ``seq``; ``closed``
    for a closed segment (sealed: a bad line anywhere in it is never a torn tail)."""

    path: Path
    offset: int
    seq: int
    closed: bool
    last: int | None = None
    """The last seq a closed segment must end with (its name's)."""


def plan(path: Path, start: tuple[int, int]) -> tuple[list[Part], list[Segment], int]:
    """The files to read to go through the journal ``path`` from ``start`` (``(seq, byte offset)``
    within the file holding that seq; no good record ``seq`` there: from the oldest file kept); the
    closed segments on the disk and the live file's first seq. Raises :class:`JournalCorrupt` if a
    segment is missing from the run being read."""
    closed = segments(path)
    live_first = closed[-1].last + 1 if closed else 1
    parts = [Part(s.path, 0, s.first, True, s.last) for s in closed] + [Part(path, 0, live_first, False)]
    begin = 0
    seq, offset = start
    index = max((i for i, part in enumerate(parts) if part.seq <= seq), default=0)
    if parts[index].path.exists() and _starts_at(parts[index].path, offset, seq):
        begin = index
        parts[index] = dataclasses.replace(parts[index], offset=offset, seq=seq)
    gap = segment_gap(closed[begin:])
    if gap is not None:
        raise JournalCorrupt(gap)
    return parts[begin:], closed, live_first


def walk(parts: list[Part], link: str | None, files: list[BinaryIO] | None = None
         ) -> Iterator[tuple[Part, int, bytes, Record | BadLine, str]]:
    """Check the lines of ``parts`` in turn, the first linked to ``link`` (None: not checked), each
    file's first line to the last line of the one before. Yields ``(part, offset, line, record,
    link)`` as :func:`~controller.journal.lines.check_lines` does, with the byte ``offset`` of the
    line in its file; a bad line in a closed segment, or one that does not end with its last seq,
    raises :class:`JournalCorrupt`. ``files``, if given, are the parts already open (read from their
    offsets)."""
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
            for line, checked, after in check_lines(lines, part.path, part.offset, part.seq, link):
                if isinstance(checked, BadLine) and part.closed:
                    raise JournalCorrupt(f"line {seq + 1}: {checked}, at byte {offset} of the closed "
                                         f"segment {part.path} (a closed segment is never written again)")
                yield part, offset, line, checked, after
                if isinstance(checked, BadLine):
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
        parts, closed, _ = plan(path, start)
        files: list[BinaryIO] = []
        try:
            for part in parts:
                files.append(open(part.path, "rb"))  # noqa: SIM115 (closed by walk)
        except FileNotFoundError:
            pass
        if segments(path) == closed and len(files) >= len(parts) - 1:
            break
        for file in files:
            file.close()
    return _records(parts[:len(files)], files)


def _records(parts: list[Part], files: list[BinaryIO]) -> Iterator[Record]:
    try:
        for _, _, _, checked, _ in walk(parts, None, files):
            if isinstance(checked, BadLine):
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
            decode_line(lines.readline(), seq)
        except BadLine:
            return False
    return True
