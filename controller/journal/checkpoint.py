"""Checkpoints: start-up reads a bounded part of the journal, however long the journal grows.

Between hands, once :data:`EVERY` events have been journaled since the last
checkpoint, the daemon writes a checkpoint beside the journal: the table's
state, the ``seq`` it was taken at, the CRC of that event's body, the link of
that event's journal line (``link``, see :mod:`controller.journal.lines`), and
``window``, the position of the oldest event the journal then held for replay.
At start the journal is read from ``window`` on (so the sync socket can still
replay the last 10,000 events), the table starts from the checkpoint's state,
and only the events after it are applied again. Like the journal, a checkpoint
may say what a face-down card was, so it is created readable by its owner only
(0600).

A checkpoint is kept as two copies, ``checkpoint.1.json`` and
``checkpoint.2.json`` (for the daemon's ``checkpoint.json``), written in turn
(a new file, fsynced, then renamed over the copy), so the copy written last
time is never touched while the next one is written. Each is one line::

    <sha256 of the json text, 64 lowercase hex digits> <json>\n

A copy that is torn, or whose checksum does not match, is not used: the other
copy is (the newest that reads, by ``seq``). A ``checkpoint.json`` of an
earlier release (the json alone, no checksum, one copy) is still read when
there is no copy, and removed once the first copy is written.

A checkpoint is a shortcut while the journal still begins at seq 1: one that
is missing, unreadable, or does not match the journal (its event is not where
it says, or has another body or link) is ignored, with a log line, and the
whole journal is read and replayed. Lines before ``window`` are not read at
start; ``recall`` and a full replay still check them. Once the journal's oldest
closed segments are deleted after their retention, no full replay is possible:
a start needs a copy that matches, and refuses to start without one
(:class:`~controller.journal.segments.JournalIncomplete`), naming the reason. The
``window`` offset is within the file (closed segment or live file) that holds
the window's seq.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from controller.journal.files import open_private
from controller.journal.log import Journal
from controller.journal.segments import incomplete

EVERY = 1000
"""Events between two checkpoints (at least: a checkpoint waits until no hand is in play)."""

log = logging.getLogger(__name__)


COPIES = (1, 2)
"""The copies of a checkpoint, written in turn."""


@dataclass(frozen=True)
class Checkpoint:
    """The table's state as of event ``seq``; ``window`` is ``(seq, byte offset)`` to start
    reading the journal at; ``link`` the link of event ``seq``'s journal line (None in a
    checkpoint of an earlier release); ``copy`` the copy it is (0: the single file of an earlier
    release) and ``digest`` that copy's checksum (the SHA-256 of its file for an earlier one)."""

    seq: int
    body_crc: int
    window: tuple[int, int]
    state: dict[str, object]
    link: str | None = None
    copy: int = 0
    digest: str = ""


class CopyDamaged(ValueError):
    """A copy of a checkpoint that is torn or fails its checksum."""


def body_crc(body: bytes) -> int:
    """The CRC that ties a checkpoint to the journal event it was taken at."""
    return zlib.crc32(body)


def copy_path(path: Path, copy: int) -> Path:
    """Where copy ``copy`` of the checkpoint ``path`` is: ``checkpoint.1.json`` for ``checkpoint.json``."""
    return path.with_name(f"{path.stem}.{copy}{path.suffix}")


def _parse(text: bytes, copy: int, digest: str) -> Checkpoint:
    data = json.loads(text)
    seq, offset = data["window"]
    link = data.get("link")
    if not isinstance(data["seq"], int) or not isinstance(data["state"], dict) or not (
            link is None or isinstance(link, str)):
        raise TypeError("seq, state or link of the wrong type")
    return Checkpoint(data["seq"], data["body_crc"], (seq, offset), data["state"], link, copy, digest)


def read_copy(path: Path, copy: int) -> Checkpoint | None:
    """Copy ``copy`` of the checkpoint ``path`` (None: there is none); raises :class:`CopyDamaged`
    if it is torn or fails its checksum."""
    try:
        content = copy_path(path, copy).read_bytes()
    except FileNotFoundError:
        return None
    digest, space, text = content[:64], content[64:65], content[65:-1]
    try:
        if space != b" " or not content.endswith(b"\n"):
            raise ValueError("torn: not a checksum, a space, the json and an end of line")
        if hashlib.sha256(text).hexdigest().encode() != digest:
            raise ValueError(f"checksum mismatch (stored {digest[:16]!r}...)")
        return _parse(text, copy, digest.decode())
    except (ValueError, KeyError, TypeError) as error:
        raise CopyDamaged(f"{copy_path(path, copy)}: {error}") from None


def read(path: Path) -> tuple[list[Checkpoint], list[str]]:
    """The copies of the checkpoint ``path`` that read, newest first, and what is wrong with the others;
    with no copy at all, the single checkpoint of an earlier release at ``path`` if there is one."""
    found: list[Checkpoint] = []
    problems: list[str] = []
    for copy in COPIES:
        try:
            saved = read_copy(path, copy)
        except CopyDamaged as error:
            problems.append(str(error))
            continue
        if saved is not None:
            found.append(saved)
    if not found and not problems:
        try:
            content = path.read_bytes()
            found.append(_parse(content, 0, hashlib.sha256(content).hexdigest()))
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as error:
            problems.append(f"{path}: {error}")
    return sorted(found, key=lambda saved: -saved.seq), problems


def load(path: Path) -> Checkpoint | None:
    """The newest copy of the checkpoint ``path`` that reads, or None (none: a damaged copy is logged)."""
    try:
        found, problems = read(path)
    except OSError as error:
        found, problems = [], [str(error)]
    for problem in problems:
        log.warning("checkpoint copy not used (%s)%s", problem,
                    "" if found else ": the whole journal is replayed")
    return found[0] if found else None


def matches(checkpoint: Checkpoint, journal: Journal) -> bool:
    """Whether ``checkpoint`` was taken on this journal, at an event it holds."""
    held = journal.since(checkpoint.seq)
    link = journal.link_at(checkpoint.seq)
    if not held or held[0].seq != checkpoint.seq or body_crc(held[0].body) != checkpoint.body_crc or (
            checkpoint.link is not None and checkpoint.link != link):
        log.warning("checkpoint at seq %d does not match the journal: the whole journal is replayed",
                    checkpoint.seq)
        return False
    return True


def open_journal(journal_path: Path, checkpoint_path: Path, *,
                 keep: int) -> tuple[Journal, Checkpoint | None]:
    """Open the journal for a start: from the window of the newest copy of the checkpoint that
    matches it, else whole (with the checkpoint ignored); returns the journal and the checkpoint
    to use. Once closed segments were deleted (:meth:`Journal.prune`), the journal no longer begins
    at seq 1 and a checkpoint copy that matches it is required: without one,
    :class:`~controller.journal.segments.JournalIncomplete` is raised and the table does not start."""
    saved = load(checkpoint_path)
    journal = Journal.open(journal_path, keep=keep, start=saved.window if saved is not None else (1, 0))
    if saved is not None and matches(saved, journal):
        return journal, saved
    if saved is None:
        return _whole(journal, journal_path), None
    damage = journal.damage
    older = [copy for copy in read(checkpoint_path)[0] if copy.seq < saved.seq]
    journal.close()
    for saved in [*older[:1], None]:
        # Opened from the window of a checkpoint that is not used: the older copy's, else whole.
        journal = Journal.open(journal_path, keep=keep, start=saved.window if saved else (1, 0))
        journal.damage = journal.damage or damage
        if saved is None or matches(saved, journal):
            break
        journal.close()
    return (journal, saved) if saved is not None else (_whole(journal, journal_path), None)


def _whole(journal: Journal, journal_path: Path) -> Journal:
    """``journal``, opened whole for a full replay: refused (closed, and
    :class:`~controller.journal.segments.JournalIncomplete` raised) if it no longer begins at seq 1."""
    if journal.start[0] != 1:
        journal.close()
        raise incomplete(journal_path, journal.start[0])
    return journal


def next_copy(after: Checkpoint | None) -> int:
    """The copy written after ``after`` (the checkpoint written or read last): the other one."""
    return COPIES[1] if after is not None and after.copy == COPIES[0] else COPIES[0]


def save(
    path: Path, journal: Journal, state: dict[str, object], after: Checkpoint | None = None
) -> Checkpoint:
    """Write a checkpoint of ``state``, taken at the journal's last event, durably, over the copy that
    is not ``after`` (the checkpoint written or read last; None: the copies on the disk are read
    to find it)."""
    if after is None:
        after = next(iter(read(path)[0]), None)
    copy = next_copy(after)
    last = journal.since(journal.last_seq)[0]
    crc, link = body_crc(last.body), journal.link_at(last.seq)
    data = {"seq": last.seq, "body_crc": crc, "window": list(journal.window), "state": state, "link": link}
    text = json.dumps(data, separators=(",", ":")).encode()
    digest = hashlib.sha256(text).hexdigest()
    target = copy_path(path, copy)
    fresh = target.with_name(target.name + ".new")
    with open(open_private(fresh, os.O_WRONLY | os.O_TRUNC), "wb") as out:
        out.write(b"%s %s\n" % (digest.encode(), text))
        out.flush()
        os.fsync(out.fileno())
    os.replace(fresh, target)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    if path.exists():
        path.unlink()                   # the single checkpoint of an earlier release: replaced
    return Checkpoint(last.seq, crc, journal.window, state, link, copy, digest)


def verify(path: Path, written: Mapping[int, str], journal: Journal) -> str | None:
    """Read back each copy in ``written`` (copy -> the digest it was written or read with) and check
    that it reads and is still that one, and that the newest matches the journal; returns what is
    wrong, or None."""
    newest: Checkpoint | None = None
    for copy, digest in sorted(written.items()):
        try:
            saved = read_copy(path, copy)
        except (CopyDamaged, OSError) as error:
            return f"checkpoint copy {copy}: {error}"
        if saved is None:
            return f"checkpoint copy {copy} ({copy_path(path, copy)}) is gone"
        if saved.digest != digest:
            return f"checkpoint copy {copy} is not the one written (checksum {saved.digest[:16]}...)"
        if newest is None or saved.seq > newest.seq:
            newest = saved
    held = journal.link_at(newest.seq) if newest is not None else None
    if newest is not None and held is not None and newest.link is not None and newest.link != held:
        return (f"checkpoint copy {newest.copy}, at seq {newest.seq}, does not match the journal's record "
                f"{newest.seq} (remove that copy if the journal is right)")
    return None
