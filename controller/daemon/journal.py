"""The daemon's journal at start and between hands: the epoch this run publishes in and what the
journal lost since the last run (:mod:`controller.journal.high_water`), the table recovered from it,
and, once a hand has ended, the live file closed as a segment when it is full and the closed segments
deleted once they are old and nothing needs them (``[journal]``, docs/configuration.md).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from controller.config.loader import JournalConfig
from controller.journal import checkpoint, high_water
from controller.journal.checkpoint import Checkpoint
from controller.journal.high_water import HighWater, Start, body_epoch
from controller.journal.log import Journal
from controller.journal.segments import Segment
from controller.table.machine import Table
from firmware_bridge.kernel.repeat_log import RepeatLog

log = logging.getLogger("controller.daemon")
"""The daemon's log: these lines are the daemon's, and keep its name."""


def begin(journal: Journal, mark: HighWater, checkpoint_path: Path) -> Start:
    """The epoch to publish in, from the high-water ``mark`` (or the checkpoint) and the journal's end."""
    last = journal.since(journal.last_seq)
    saved = checkpoint.load(checkpoint_path) if mark.mark is None else None
    start = high_water.begin(
        mark.mark, journal_last=journal.last_seq,
        journal_epoch=body_epoch(last[0].body) if last else None,
        checkpoint_seq=saved.seq if saved is not None else None, now=int(time.time()))
    if start.lost is not None:
        log.critical("the journal ends at seq %d, but seq %d was published: a new epoch %d begins",
                     journal.last_seq, start.lost[1], start.epoch)
    return start


def damage(journal: Journal, start: Start) -> str | None:
    """What ``journal_corrupt`` says at start: a torn tail cut off, events published but lost."""
    problems = []
    torn = journal.damage
    if torn is not None:
        problems.append(f"journal tail cut at byte {torn.offset} ({torn.reason}); kept in "
                        f"{torn.quarantine}")
    if start.lost is not None:
        first, last = start.lost
        problems.append(
            f"events {first} to {last} were published but the journal no longer holds them (an SD "
            f"card that lost its last writes, or a cut journal): seq goes on from {first} in the new "
            f"epoch {start.epoch}, and no event of it is one of those")
    return "; ".join(problems) or None


def recover(journal: Journal, table: Table, saved: Checkpoint | None) -> None:
    """Rebuild ``table`` from the checkpoint ``saved`` (None: from the start) and the journal's records
    after it, publishing nothing; say what was used, and a step that a crash cut off."""
    replayed = table.recover(journal.records(after=saved.seq if saved else 0), saved.state if saved else None)
    log.info("journal at seq %d: %s, %d events replayed", journal.last_seq,
             f"state from the checkpoint at seq {saved.seq}" if saved else "no checkpoint used", replayed)
    if journal.cut_step:
        log.warning("the journal ended inside a step that never reached the disk whole (a crash "
                    "while it was written): that step, never published, was cut off")


def rotate(journal: Journal, settings: JournalConfig, checkpoint_path: Path, repeats: RepeatLog) -> None:
    """Between hands, once the live journal file holds ``[journal] segment_bytes``: close it as a
    segment (:meth:`Journal.rotate`), then :func:`prune` the closed segments no longer needed. A
    rotation that fails raises its ``OSError`` (the daemon stops on it, as on a write that fails)."""
    if journal.live_bytes >= settings.segment_bytes:
        prune(journal, journal.rotate(), settings, checkpoint_path, repeats)


def prune(journal: Journal, closed: Segment | None, settings: JournalConfig, checkpoint_path: Path,
          repeats: RepeatLog) -> None:
    """After a rotation (``closed``: the segment it closed, if any): delete the closed segments past
    ``keep_days`` that neither checkpoint copy nor the replay window needs (none while a copy is
    missing or damaged). A deletion that fails is logged and tried again at the next rotation."""
    if closed is not None:
        log.info("journal records %d to %d closed in %s", closed.first, closed.last, closed.path.name)
    copies, damaged = checkpoint.read(checkpoint_path)
    if len(copies) < len(checkpoint.COPIES) or damaged:
        return
    needed = min([journal.window[0], *(copy.window[0] for copy in copies)])
    try:
        for path in journal.prune(needed, time.time() - settings.keep_days * 86400):
            log.info("journal segment %s deleted: older than %d days", path.name, settings.keep_days)
    except OSError as error:
        repeats.note(("prune", type(error).__name__), logging.ERROR,
                     f"a closed journal segment could not be deleted ({error})")
