"""Checkpoints: start-up reads a bounded part of the journal, however long the journal grows.

Between hands, once :data:`EVERY` events have been journaled since the last
checkpoint, the daemon writes ``checkpoint.json`` beside the journal (a new
file, fsynced, then renamed over the old one): the table's state, the ``seq``
it was taken at, the CRC of that event's body, and ``window``, the position of
the oldest event the journal then held for replay. At start the journal is read
from ``window`` on (so the sync socket can still replay the last 10,000
events), the table starts from the checkpoint's state, and only the events
after it are applied again. Like the journal, a checkpoint may say what a
face-down card was, so it is created readable by its owner only (0600).

A checkpoint is only a shortcut: the journal stays the record. One that is
missing, unreadable, or does not match the journal (its event is not where it
says, or has another body) is ignored, with a log line, and the whole journal
is read and replayed. Lines before ``window`` are not read at start; ``recall``
and a full replay still check them.
"""

from __future__ import annotations

import json
import logging
import os
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.journal.log import Journal, open_private

EVERY = 1000
"""Events between two checkpoints (at least: a checkpoint waits until no hand is in play)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Checkpoint:
    """The table's state as of event ``seq``; ``window`` is ``(seq, byte offset)`` to start
    reading the journal at."""

    seq: int
    body_crc: int
    window: tuple[int, int]
    state: dict[str, Any]


def body_crc(body: bytes) -> int:
    """The CRC that ties a checkpoint to the journal event it was taken at."""
    return zlib.crc32(body)


def load(path: Path) -> Checkpoint | None:
    """The checkpoint at ``path``, or None (missing, or unreadable: logged)."""
    try:
        data = json.loads(path.read_bytes())
        seq, offset = data["window"]
        return Checkpoint(data["seq"], data["body_crc"], (seq, offset), data["state"])
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.warning("checkpoint %s not used (%s): the whole journal is replayed", path, error)
        return None


def matches(checkpoint: Checkpoint, journal: Journal) -> bool:
    """Whether ``checkpoint`` was taken on this journal, at an event it holds."""
    held = journal.since(checkpoint.seq)
    if not held or held[0].seq != checkpoint.seq or body_crc(held[0].body) != checkpoint.body_crc:
        log.warning("checkpoint at seq %d does not match the journal: the whole journal is replayed",
                    checkpoint.seq)
        return False
    return True


def open_journal(journal_path: Path, checkpoint_path: Path, *,
                 keep: int) -> tuple[Journal, Checkpoint | None]:
    """Open the journal for a start: from the checkpoint's window if the checkpoint matches it,
    else whole (with the checkpoint ignored); returns the journal and the checkpoint to use."""
    saved = load(checkpoint_path)
    journal = Journal.open(journal_path, keep=keep, start=saved.window if saved is not None else (1, 0))
    if saved is None or matches(saved, journal):
        return journal, saved
    if journal.start != (1, 0):
        # Opened from the window of a checkpoint that is not used: read the journal again, whole.
        damage = journal.damage
        journal.close()
        journal = Journal.open(journal_path, keep=keep)
        journal.damage = journal.damage or damage
    return journal, None


def save(path: Path, journal: Journal, state: dict[str, Any]) -> Checkpoint:
    """Write a checkpoint of ``state``, taken at the journal's last event, durably."""
    last = journal.since(journal.last_seq)[0]
    checkpoint = Checkpoint(last.seq, body_crc(last.body), journal.window, state)
    data = {"seq": checkpoint.seq, "body_crc": checkpoint.body_crc,
            "window": list(checkpoint.window), "state": state}
    fresh = path.with_name(path.name + ".new")
    with open(open_private(fresh, os.O_WRONLY | os.O_TRUNC), "wb") as out:
        out.write(json.dumps(data, separators=(",", ":")).encode())
        out.flush()
        os.fsync(out.fileno())
    os.replace(fresh, path)
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)
    return checkpoint
