"""The progressive record for ``table-controller progressive``: meters, jackpots waiting for a
supervisor, and the last hits confirmed, read from the checkpoint and the journal.

The session (:class:`~controller.games.interface.Session`, whose
:class:`~controller.games.interface.Progressive` part this reports) is rebuilt as the
daemon rebuilds it: from the checkpoint's copy when there is one that matches
the journal, then from the session events journaled after it; without one,
from every session event in the journal (refused once its oldest closed
segments are deleted: see :func:`read_progressive`). Each hit is dated from its journaled
events where the journal still read holds them (the checkpoint's window holds
the last 10,000 events). A step whose end is not on the disk yet (the daemon
writing it) is left out, as the daemon would on a restart. Reads only: the
daemon may be running.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from controller.games.interface import Progressive, ProgressiveHit, Session
from controller.games.session.part import takes
from controller.journal import checkpoint
from controller.journal.lines import Record
from controller.journal.segments import first_seq, incomplete, read_records
from controller.table.state import journaled_event
from firmware_bridge.kernel.money import dollars


@dataclass(frozen=True)
class Dated:
    """When a progressive event was journaled: its ``hand`` and time stamp (None: not read)."""

    hand: int | None = None
    ts: str | None = None


@dataclass
class ProgressiveRecord:
    """The session as of the journal's last complete step, and when its hits happened.

    ``won`` dates each hit by (seat, amount), ``paid`` each confirmation.
    """

    session: Session = field(default_factory=Session)
    won: dict[tuple[int, int], Dated] = field(default_factory=dict)
    paid: dict[tuple[int, int, str], Dated] = field(default_factory=dict)
    prizes: dict[tuple[int, int], str] = field(default_factory=dict)
    last_seq: int = 0


def read_progressive(journal_path: Path, checkpoint_path: Path) -> ProgressiveRecord:
    """The progressive record of the journal at ``journal_path`` (and its checkpoint); raises
    :class:`~controller.journal.segments.JournalIncomplete` when no checkpoint matches and the journal no
    longer begins at seq 1 (its oldest segments deleted): the session cannot be rebuilt then."""
    saved = checkpoint.load(checkpoint_path)
    if saved is not None:
        record = _read(journal_path, saved)
        if record is not None:
            return record
    oldest = first_seq(journal_path)
    if oldest != 1:
        raise incomplete(journal_path, oldest)
    found = _read(journal_path, None)
    assert found is not None
    return found


def _read(journal_path: Path, saved: checkpoint.Checkpoint | None) -> ProgressiveRecord | None:
    """The record from ``saved`` on (None: from the start); None if ``saved`` does not match."""
    record = ProgressiveRecord()
    start, after, matched = (1, 0), 0, saved is None
    if saved is not None:
        start, after = saved.window, saved.seq
        record.session = Session.from_json(saved.state["session"])
    step: list[Record] = []
    for item in read_records(journal_path, start):
        if saved is not None and item.seq == saved.seq:
            matched = checkpoint.body_crc(item.body) == saved.body_crc
        step.append(item)
        if not item.private.get("more"):
            for done in step:
                _apply(record, done, after)
            step = []
    return record if matched else None


def _apply(record: ProgressiveRecord, item: Record, after: int) -> None:
    body = json.loads(item.body)
    kind, data = body["type"], body["data"]
    record.last_seq = item.seq
    when = Dated(body.get("hand"), body.get("ts"))
    if kind == "progressive.hit":
        record.won[(data["seat"], data["amount"])] = when
        record.prizes[(data["seat"], data["amount"])] = data["prize"]
    elif kind == "progressive.paid":
        record.paid[(data["seat"], data["amount"], data["supervisor"])] = when
    if item.seq > after:
        event = journaled_event(body, item.private)
        if event is not None and takes(event):
            record.session = record.session.apply(event)


def report_lines(record: ProgressiveRecord) -> list[str]:
    """The record as ``table-controller progressive`` prints it."""
    session = record.session[Progressive]
    lines = [f"{name} meter: {dollars(value)}" for name, value in sorted(session.meters.items())]
    if not lines:
        lines.append("no progressive meter in the journal")
    lines.append(f"waiting for a supervisor: {len(session.unpaid) or 'none'}")
    lines += [f"  {_hit_words(record, hit)}" for hit in session.unpaid]
    lines.append(f"last {len(session.hits)} hits confirmed (newest last):" if session.hits
                 else "no hit confirmed yet")
    for paid in session.hits:
        confirmed = record.paid.get((paid.seat, paid.amount, paid.supervisor), Dated())
        lines.append(f"  seat {paid.seat} {dollars(paid.amount)}"
                     f"{_prize(record, paid.seat, paid.amount)}, confirmed by {paid.supervisor}"
                     f"{_when(confirmed)}")
    return lines


def report_data(record: ProgressiveRecord) -> dict[str, object]:
    """The record as JSON-able data (``--json``)."""
    session = record.session[Progressive]

    def dated(when: Dated) -> dict[str, object]:
        return {"hand": when.hand, "ts": when.ts}

    return {
        "seq": record.last_seq,
        "meters": dict(session.meters),
        "unpaid": [{"seat": hit.seat, "hand_index": hit.hand_index, "prize": hit.prize,
                    "amount": hit.amount, **dated(record.won.get((hit.seat, hit.amount), Dated()))}
                   for hit in session.unpaid],
        "hits": [{"seat": paid.seat, "amount": paid.amount, "supervisor": paid.supervisor,
                  "prize": record.prizes.get((paid.seat, paid.amount)),
                  "won": dated(record.won.get((paid.seat, paid.amount), Dated())),
                  "confirmed": dated(record.paid.get((paid.seat, paid.amount, paid.supervisor), Dated()))}
                 for paid in session.hits],
    }


def _hit_words(record: ProgressiveRecord, hit: ProgressiveHit) -> str:
    won = record.won.get((hit.seat, hit.amount), Dated())
    return f"seat {hit.seat} {dollars(hit.amount)} ({hit.prize}){_when(won)}"


def _prize(record: ProgressiveRecord, seat: int, amount: int) -> str:
    prize = record.prizes.get((seat, amount))
    return f" ({prize})" if prize else ""


def _when(when: Dated) -> str:
    if when.ts is None:
        return ""
    hand = f"hand {when.hand}, " if when.hand is not None else ""
    return f" [{hand}{when.ts[:10]} {when.ts[11:19]}Z]"
