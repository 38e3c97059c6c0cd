"""A journal record and its line: the format on the disk, and the checks of a line and its hash chain.

One line per record::

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

A bad *last* line is a torn tail (a crash's doing, cut off when the journal is opened:
:class:`controller.journal.log.Journal`); a bad line with more lines after it is not, and is
:class:`JournalCorrupt`.

``"v"`` is the journal's format version: a release whose lines an older one cannot read writes a
higher ``v``. A whole line (its crc matching) of a ``v`` above :data:`VERSION` was written by a newer
release (a table rolled back after it ran): it is never a torn tail, and the journal is refused as it
is, nothing cut (:class:`JournalTooNew`).
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Record:
    """One journaled event: ``seq``, pit ``topic``, the exact published ``body``, private data."""

    seq: int
    topic: str
    body: bytes
    private: Mapping[str, Any] = field(default_factory=dict)
    """The record's private part, as its JSON line holds it (its values unchecked: the table reads
    them as it wrote them, :meth:`controller.table.state.TableState.apply`)."""


class JournalCorrupt(Exception):
    """The journal is damaged before its tail: it is not opened, and nothing is guessed."""


class JournalTooNew(JournalCorrupt):
    """A record of a format newer than :data:`VERSION`: the journal is not opened and left as it is."""


class BadLine(Exception):
    """A line that fails its checks (:func:`decode_line`): a torn tail if it is the last line of the
    live file, else :class:`JournalCorrupt`; its text says what is wrong."""


_CRC = re.compile(rb"[0-9a-f]{8}")
_LINK = re.compile(r"[0-9a-f]{16}")

CHAIN_START = "0" * 16
"""The ``prev`` of the first line of a journal."""

VERSION = 2
"""The version of the records this code writes (``"v"``; records of version 1 carry none)."""

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


def decode_line(line: bytes, expected_seq: int) -> tuple[Record, str | None]:
    """Check one line (newline included) on its own; return its record and its ``prev`` (None for
    a record of version 1), or raise :class:`BadLine`."""
    if not line.endswith(b"\n"):
        raise BadLine("torn write (no end of line)")
    stored, space, text = line[:8], line[8:9], line[9:-1]
    if space != b" " or _CRC.fullmatch(stored) is None:
        raise BadLine("no crc at the start of the line")
    computed = zlib.crc32(text)
    if int(stored, 16) != computed:
        raise BadLine(f"crc mismatch (stored {stored.decode()}, computed {computed:08x})")
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise BadLine(f"not valid JSON ({exc})") from None
    if isinstance(document, dict) and type(document.get("v")) is int and document["v"] > VERSION:
        raise JournalTooNew(f"a record of journal format {document['v']}, written by a newer release of "
                            f"table-controller (this one reads formats 1 to {VERSION})")
    if not isinstance(document, dict) or set(document) not in (_V1_KEYS, _V2_KEYS):
        raise BadLine("not a record (expected keys seq, topic, body, private; v and prev if chained)")
    prev = document.get("prev")
    if "v" in document and (document["v"] != VERSION or not isinstance(prev, str)
                            or _LINK.fullmatch(prev) is None):
        raise BadLine(f"not a record of version {VERSION} (v {document['v']!r}, prev {prev!r})")
    seq, topic, body, private = (document[k] for k in ("seq", "topic", "body", "private"))
    if type(seq) is not int or not isinstance(topic, str):
        raise BadLine("seq must be an integer and topic a string")
    if not isinstance(body, str) or not isinstance(private, dict):
        raise BadLine("body must be a string and private an object")
    if seq != expected_seq:
        raise BadLine(f"seq {seq} where {expected_seq} was expected")
    return Record(seq, topic, body.encode("utf-8"), private), prev


def _linked(line: bytes, number: int, link: str | None, chained: bool) -> tuple[Record, bool]:
    """Check one line and its link to the line before (whose :func:`line_hash` is ``link``; None:
    not known, so not checked); ``chained`` says whether a chained record came before. Returns
    the record and whether it is chained, or raises :class:`BadLine`."""
    record, prev = decode_line(line, number)
    if prev is None and chained:
        raise BadLine("a record without its link (version 1) after chained ones")
    if prev is not None and link is not None and prev != link:
        raise BadLine(f"broken chain (prev {prev}, the line before hashes to {link})")
    return record, chained or prev is not None


def check_lines(
    lines: Iterable[bytes], path: Path, offset: int, first_seq: int, link: str | None = None
) -> Iterator[tuple[bytes, Record | BadLine, str]]:
    """Check ``lines``, read from byte ``offset`` of ``path``, the first being record ``first_seq``
    and linked to ``link`` (the :func:`line_hash` of the line before it: :data:`CHAIN_START` before
    the journal's first line; None when not known, so not checked).

    Yields ``(line, record, line_hash(line))`` for each good line. A bad *last* line (a torn
    tail) is yielded last, as ``(line, error, link)``; a bad line with more lines after it is
    not a crash's doing and raises :class:`JournalCorrupt`.
    """
    chained = False
    bad: tuple[bytes, BadLine, str] | None = None
    for number, line in enumerate(lines, start=first_seq):
        if bad is not None:
            raise JournalCorrupt(
                f"line {number - 1}: {bad[1]}, at byte {offset} of {path}, with more lines after it"
            )
        try:
            record, chained = _linked(line, number, link, chained)
        except BadLine as exc:
            bad = (line, exc, line_hash(line))
            continue
        except JournalTooNew as exc:
            raise JournalTooNew(f"line {number}, at byte {offset} of {path}: {exc}; the journal is left as "
                                "it is: run the release that wrote it (deploy/install.sh rollback goes "
                                "forward again)") from None
        link = line_hash(line)
        yield line, record, link
        offset += len(line)
    if bad is not None:
        yield bad
