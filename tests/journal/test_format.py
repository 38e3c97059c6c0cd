"""The on-disk formats pinned: files written by an earlier release are read back to what they hold.

``tests/data/journal-v1/`` was written once by the code of main as of November 2026 (a journal
of one Easy Jack hand in epoch 1795000000, the checkpoint taken after it, the published mark) and
is committed as it was written; ``tests/data/journal-v2/`` is the same hand written by the code
that chains the journal and keeps the checkpoint as two copies (the first copy only: one
checkpoint was taken). Every checksum is worked out here from the format as
docs/architecture.md describes it ("The files of the state folder"), with ``binascii`` and
``hashlib`` directly, never with the code under test: a change of a checksum, of a field or of the
line layout, on the writing side and the reading side at once, makes every journal already on a
table unreadable, and fails here.
"""

from __future__ import annotations

import binascii
import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal import checkpoint
from controller.journal.high_water import HighWater, Mark
from controller.journal.lines import JournalCorrupt, JournalTooNew, Record
from controller.journal.log import Journal
from controller.table.machine import Table, TableSettings

V1 = Path(__file__).resolve().parents[1] / "data" / "journal-v1"
V2 = V1.with_name("journal-v2")
EPOCH = 1795000000


@pytest.fixture
def state(tmp_path: Path) -> Path:
    """A copy of the committed state folder (opening a journal locks it and may tighten its mode)."""
    folder = tmp_path / "state"
    shutil.copytree(V1, folder)
    return folder


def parsed_v1() -> list[tuple[bytes, Record]]:
    """The journal's lines, each checked by hand: ``<crc32 of the json text, 8 hex> <json>\\n``."""
    lines = []
    for line in (V1 / "journal.log").read_bytes().splitlines(keepends=True):
        assert line.endswith(b"\n") and line[8:9] == b" "
        text = line[9:-1]
        assert line[:8] == b"%08x" % binascii.crc32(text)
        document = json.loads(text)
        assert list(document) == ["seq", "topic", "body", "private"]
        lines.append((line, Record(document["seq"], document["topic"], document["body"].encode(),
                                   document["private"])))
    return lines


def test_the_journal_of_the_earlier_release_reads_back_record_for_record(state: Path) -> None:
    expected = parsed_v1()
    assert [r.seq for _, r in expected] == list(range(1, 16))
    assert [r.topic for _, r in expected][:6] == [
        "T07/table.opened", "T07/device.online", "T07/device.online", "T07/shoe.loaded", "T07/bet.placed",
        "T07/hand.started"]
    assert expected[8][1].private["card"] == "5h"                  # the hole card: in the journal only
    assert b'"card":null' in expected[8][1].body
    journal = Journal.open(state / "journal.log")
    try:
        assert journal.damage is None and journal.last_seq == 15
        assert list(journal.records()) == [r for _, r in expected]
        for record in expected[-3:]:
            assert json.loads(record[1].body)["epoch"] == EPOCH
    finally:
        journal.close()


def test_the_earlier_checkpoint_and_mark_read_back(state: Path) -> None:
    records = {r.seq: r for _, r in parsed_v1()}
    data = json.loads((V1 / "checkpoint.json").read_bytes())
    assert data["seq"] == 15 and data["window"] == [1, 0]
    assert data["body_crc"] == binascii.crc32(records[15].body)     # ties it to the journal's event
    saved = checkpoint.load(state / "checkpoint.json")
    assert saved == checkpoint.Checkpoint(15, data["body_crc"], (1, 0), data["state"], None, 0,
                                          hashlib.sha256((V1 / "checkpoint.json").read_bytes()).hexdigest())

    line = (V1 / "published.mark").read_bytes()
    text = b"%020d %020d" % (EPOCH, 15)
    assert line == text + b" %08x\n" % binascii.crc32(text)
    mark = HighWater.open(state / "published.mark")
    try:
        assert mark.mark == Mark(EPOCH, 15)
    finally:
        mark.close()


def test_the_earlier_checkpoint_holds_what_a_replay_of_the_journal_gives(state: Path) -> None:
    settings = TableSettings("T07", "easy-jack", 6, {"min_bet": 500, "max_bet": 50000},
                             ("deal", "stand", "next", "void"), ("shoe", "rfid"))
    table = Table(settings, EasyJack(EasyJackRules(), Limits(500, 50000)), clock=lambda: "",
                  write=lambda records: None, epoch=EPOCH)
    assert table.recover(r for _, r in parsed_v1()) == 15
    saved: dict[str, Any] = json.loads((V1 / "checkpoint.json").read_bytes())["state"]
    assert table.state.checkpoint() == saved
    assert table.state.hand_no == 1 and not table.state.in_hand


def parsed_v2() -> list[tuple[bytes, Record]]:
    """The chained journal's lines, each checked by hand: ``<crc32, 8 hex> <json>\\n``, the json's
    ``prev`` the first 16 hex digits of the SHA-256 of the line before (sixteen zeros first)."""
    lines = []
    prev = "0" * 16
    for line in (V2 / "journal.log").read_bytes().splitlines(keepends=True):
        text = line[9:-1]
        assert line[:9] == b"%08x " % binascii.crc32(text) and line.endswith(b"\n")
        document = json.loads(text)
        assert list(document) == ["v", "seq", "topic", "body", "private", "prev"]
        assert document["v"] == 2 and document["prev"] == prev
        prev = hashlib.sha256(line).hexdigest()[:16]
        lines.append((line, Record(document["seq"], document["topic"], document["body"].encode(),
                                   document["private"])))
    return lines


def test_the_chained_journal_reads_back_and_holds_the_same_events(tmp_path: Path) -> None:
    expected = parsed_v2()
    assert [r for _, r in expected] == [r for _, r in parsed_v1()]   # the same hand, the same bytes
    folder = tmp_path / "state"
    shutil.copytree(V2, folder)
    journal = Journal.open(folder / "journal.log")
    try:
        assert journal.damage is None and list(journal.records()) == [r for _, r in expected]
        assert journal.verify(whole=True) is None
        assert journal.link_at(15) == hashlib.sha256(expected[-1][0]).hexdigest()[:16]
    finally:
        journal.close()


def test_the_checkpoint_copy_reads_back(tmp_path: Path) -> None:
    lines = parsed_v2()
    content = (V2 / "checkpoint.1.json").read_bytes()
    text = content[65:-1]
    assert content[:65] == hashlib.sha256(text).hexdigest().encode() + b" " and content.endswith(b"\n")
    data = json.loads(text)
    assert list(data) == ["seq", "body_crc", "window", "state", "link"]
    assert data["body_crc"] == binascii.crc32(lines[-1][1].body)
    assert data["link"] == hashlib.sha256(lines[-1][0]).hexdigest()[:16]
    assert data["state"] == json.loads((V1 / "checkpoint.json").read_bytes())["state"]
    folder = tmp_path / "state"
    shutil.copytree(V2, folder)
    saved = checkpoint.load(folder / "checkpoint.json")
    assert saved == checkpoint.Checkpoint(15, data["body_crc"], (1, 0), data["state"], data["link"], 1,
                                          content[:64].decode())
    assert (V2 / "published.mark").read_bytes() == (V1 / "published.mark").read_bytes()


def newer_line(seq: int, prev: bytes) -> bytes:
    """A line of a journal format after this release's (v 3, with a field this one does not know),
    chained to the line ``prev``: worked out by hand, as a newer release would write it."""
    text = json.dumps({"v": 3, "seq": seq, "topic": "T07/hand.started", "body": "{}", "private": {},
                       "prev": hashlib.sha256(prev).hexdigest()[:16], "signed": "abc"},
                      separators=(",", ":")).encode()
    return b"%08x %s\n" % (binascii.crc32(text), text)


@pytest.mark.parametrize("where", ["last", "before another"])
def test_a_journal_a_newer_release_wrote_is_refused_as_it_is(tmp_path: Path, where: str) -> None:
    """A table rolled back after a newer release ran (deploy/install.sh rollback): the newer records are
    whole lines, never a torn tail to cut, and the older release refuses the journal saying why."""
    folder = tmp_path / "state"
    shutil.copytree(V2, folder)
    journal_path = folder / "journal.log"
    last = journal_path.read_bytes().splitlines(keepends=True)[-1]
    added = newer_line(16, last)
    if where == "before another":
        added += newer_line(17, added)
    with open(journal_path, "ab") as out:
        out.write(added)
    before = {path.name: path.read_bytes() for path in folder.iterdir()}
    with pytest.raises(JournalTooNew) as refused:
        Journal.open(journal_path)
    assert str(refused.value) == (
        f"line 16, at byte {len(before['journal.log']) - len(added)} of {journal_path}: a record of journal "
        "format 3, written by a newer release of table-controller (this one reads formats 1 to 2); the "
        "journal is left as it is: run the release that wrote it (deploy/install.sh rollback goes forward "
        "again)")
    assert isinstance(refused.value, JournalCorrupt)             # refused wherever a damaged one is
    assert {path.name: path.read_bytes() for path in folder.iterdir()} == before     # nothing cut or added
