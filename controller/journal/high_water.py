"""The published high-water mark: the highest seq ever published, kept apart from the journal.

A journal can lose its tail: an SD card that dropped its last writes, or a
person who cut the file. Its last seq then falls below what the pit already
heard, and a daemon that simply went on from there would give new events seq
numbers that already meant other events. So the daemon records ``(epoch, seq)``
in a small file of its own, ``published.mark`` beside the journal (one
fixed-width line written in place, mode 0600).

The mark costs the critical path no sync of its own. A step goes:

1. its records are appended to the journal and fsynced;
2. :meth:`HighWater.record` writes the step's last ``(epoch, seq)`` over the
   mark, with no sync (a write into the kernel's page cache);
3. the step is published;
4. soon after, :meth:`HighWater.sync` makes the mark durable (``fdatasync``),
   once for all the steps written since the last sync: the daemon does it on
   the next turn of its loop, before any input that arrives after the step.

So the mark is never above the journal's durable end (2 follows 1) and never
below what the pit may have heard, as anyone who reads the file sees it (3
follows 2). Case by case:

- **The daemon dies** (a crash, ``kill -9``, a write that fails), at any
  point: a write that returned is kept by the kernel and seen by every later
  reader, synced or not. Journal end >= mark >= published: nothing was lost,
  and nothing is claimed that was not.
- **The machine loses power** (or its kernel crashes) on storage that keeps
  what it acknowledged: the journal holds every published step, since each was
  fsynced before it was published, so nothing was lost. The mark on the disk
  may be behind the journal by the steps written since its last sync (the
  power failed before their step 4): a journal that ends after the mark means
  exactly that, and the table goes on in the same epoch. The mark is never ahead of the journal, so
  there is no false alarm.
- **The journal is cut or replaced** by a person or a tool, the table stopped
  or running: the mark read at the next start is the last one written, so
  every published seq the journal lost is named. A clean stop syncs the mark
  (:meth:`HighWater.close`), and so does a clean shutdown of the machine.
- **Storage that drops writes it acknowledged** (an SD card without power-safe
  cache): the journal may lose steps it fsynced. They are found when the mark
  kept a later write than the journal did. No order of syncs can promise more:
  such a card may drop the mark's acknowledged writes as well, as it did with
  a mark synced before publishing. What skipping that sync adds is the time of
  one ``fdatasync`` after each step, during which the mark is in memory only.

At start, :func:`begin` compares the journal's end with the mark (or, when the
mark is missing, with the checkpoint's seq):

- the journal ends where the mark says (or later: the mark's last writes were
  not on the disk yet when the power failed): the table goes on in the same
  **epoch**;
- the journal ends *before* the mark: events were published that the journal
  no longer holds. The table begins a new epoch and the daemon raises a
  critical ``journal_corrupt`` alert naming the lost seqs;
- no mark and no epoch in the journal (a new table, a wiped state folder, or a
  journal written before epochs): a new epoch.

An epoch is a positive integer carried in every event's envelope
(:func:`controller.events.envelope.encode_event`), so ``(epoch, seq)`` names one
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

from controller.journal.files import open_private

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
        self.damaged: str | None = None
        """What the file held when it was opened, if that was not a mark (None: a mark, or nothing)."""
        self._unsynced = False

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
        opened = cls(path, fd, mark)
        if data and mark is None:
            opened.damaged = f"{path} is not a high-water mark ({data[:64]!r})"
        return opened

    def verify(self) -> str | None:
        """Read the mark back and check it is the one last written (or read); returns what is wrong,
        or None."""
        if self._fd is None:
            raise ValueError("the high-water mark is closed")
        data = os.pread(self._fd, 64, 0)
        if self.mark is None:
            # Nothing written yet: a file that was damaged when opened is reported from there.
            return None if not data or self.damaged else f"{self.path} holds {data!r}, no mark was written"
        expected = _line(self.mark)
        return None if data == expected else f"{self.path} holds {data!r} where {expected!r} was written"

    def record(self, epoch: int, seq: int) -> None:
        """Make ``(epoch, seq)`` the mark: one write in place, not synced (see :meth:`sync`)."""
        if self._fd is None:
            raise ValueError("the high-water mark is closed")
        mark = Mark(epoch, seq)
        line = _line(mark)
        if os.pwrite(self._fd, line, 0) != len(line):
            raise OSError(f"{self.path}: short write")
        self.mark = mark
        self._unsynced = True

    def sync(self) -> None:
        """Make the last mark written durable (``fdatasync``); nothing to do if it already is."""
        if self._fd is None:
            raise ValueError("the high-water mark is closed")
        if self._unsynced:
            os.fdatasync(self._fd)
            self._unsynced = False

    def close(self) -> None:
        """Sync the mark and close the file; closing twice is harmless."""
        if self._fd is not None:
            try:
                self.sync()
            finally:
                os.close(self._fd)
                self._fd = None
