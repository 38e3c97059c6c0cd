"""The published high-water mark: the highest seq ever published, kept apart from the journal.

A journal can lose its tail: an SD card that dropped its last writes, or a
person who cut the file. Its last seq then falls below what the pit already
heard, and a daemon that simply went on from there would give new events seq
numbers that already meant other events. So after journaling each event, and
before publishing it, the daemon records ``(epoch, seq)`` in a small file of
its own, ``published.mark`` beside the journal (one fixed-width line written
in place, ``fdatasync``-ed, mode 0600).

At start, :func:`begin` compares the journal's end with the mark (or, when the
mark is missing, with the checkpoint's seq):

- the journal ends where the mark says (or later: the mark's last write was
  lost): the table goes on in the same **epoch**;
- the journal ends *before* the mark: events were published that the journal
  no longer holds. The table begins a new epoch and the daemon raises a
  critical ``journal_corrupt`` alert naming the lost seqs;
- no mark and no epoch in the journal (a new table, a wiped state folder, or a
  journal written before epochs): a new epoch.

An epoch is a positive integer carried in every event's envelope
(:func:`controller.pit.events.encode_event`), so ``(epoch, seq)`` names one
event for ever. A new one is the current Unix time in seconds, and always
greater than any epoch known, so epochs only grow, even across a wiped state
folder (unless the clock went back too).

>>> begin(Mark(1795000000, 42), journal_last=21, journal_epoch=1795000000, checkpoint_seq=None,
...       now=1795000500)
Start(epoch=1795000500, lost=(22, 42))
>>> begin(Mark(1795000000, 42), journal_last=42, journal_epoch=1795000000, checkpoint_seq=None, now=1)
Start(epoch=1795000000, lost=None)
>>> begin(None, journal_last=0, journal_epoch=None, checkpoint_seq=None, now=1795000000)
Start(epoch=1795000000, lost=None)
"""

from __future__ import annotations

import json
import logging
import os
import re
import zlib
from dataclasses import dataclass
from pathlib import Path

from controller.journal.log import open_private

log = logging.getLogger(__name__)

_LINE = re.compile(rb"([0-9]{20}) ([0-9]{20}) ([0-9a-f]{8})\n")


@dataclass(frozen=True)
class Mark:
    """The highest ``seq`` published, in ``epoch``."""

    epoch: int
    seq: int


@dataclass(frozen=True)
class Start:
    """How a start goes on: the ``epoch`` of the events it publishes, and ``lost``, the ``(first, last)``
    seqs published before that the journal no longer holds (None when nothing was lost)."""

    epoch: int
    lost: tuple[int, int] | None


def begin(mark: Mark | None, *, journal_last: int, journal_epoch: int | None, checkpoint_seq: int | None,
          now: int) -> Start:
    """The epoch to publish in after a start, and what the journal lost (see the module's text).

    ``journal_epoch`` is the epoch of the journal's last event (None if it has none), ``checkpoint_seq``
    the seq of the checkpoint on disk (only used when there is no ``mark``), ``now`` the Unix time.
    """
    published = mark.seq if mark is not None else (checkpoint_seq or 0)
    known = max((e for e in (mark.epoch if mark else None, journal_epoch) if e is not None), default=None)
    if journal_last < published:
        return Start(max(now, (known or 0) + 1), (journal_last + 1, published))
    if known is None:
        return Start(max(now, 1), None)
    return Start(known, None)


def body_epoch(body: bytes) -> int | None:
    """The ``epoch`` of a published event body, or None if it has none.

    >>> body_epoch(b'{"v":1,"seq":3,"epoch":1795000000}'), body_epoch(b'{"v":1,"seq":3}')
    (1795000000, None)
    """
    epoch = json.loads(body).get("epoch")
    return epoch if isinstance(epoch, int) else None


def _line(mark: Mark) -> bytes:
    text = b"%020d %020d" % (mark.epoch, mark.seq)
    return text + b" %08x\n" % zlib.crc32(text)


class HighWater:
    """The ``published.mark`` file, open for the daemon's life."""

    def __init__(self, path: Path, fd: int, mark: Mark | None) -> None:
        """Use :meth:`HighWater.open`."""
        self.path = path
        self._fd: int | None = fd
        self.mark = mark
        """The mark as last read or written (None: there was none, or it could not be read)."""

    @classmethod
    def open(cls, path: Path) -> HighWater:
        """Open (or create) the mark at ``path`` and read it; an unreadable one is logged and taken as
        missing."""
        existed = path.exists()
        fd = open_private(path, os.O_RDWR)
        if not existed:
            folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
        data = os.pread(fd, 64, 0)
        mark = None
        match = _LINE.fullmatch(data)
        if match is not None and int(match[3], 16) == zlib.crc32(data[:41]):
            mark = Mark(int(match[1]), int(match[2]))
        elif data:
            log.warning("%s is not a high-water mark (%r): the checkpoint stands in for it", path, data[:64])
        return cls(path, fd, mark)

    def record(self, epoch: int, seq: int) -> None:
        """Make ``(epoch, seq)`` the mark, durably (one write in place, then ``fdatasync``)."""
        if self._fd is None:
            raise ValueError("the high-water mark is closed")
        mark = Mark(epoch, seq)
        line = _line(mark)
        if os.pwrite(self._fd, line, 0) != len(line):
            raise OSError(f"{self.path}: short write")
        os.fdatasync(self._fd)
        self.mark = mark

    def close(self) -> None:
        """Close the file; closing twice is harmless."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
