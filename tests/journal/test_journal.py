"""Tests for the append-only event journal, on real files (and one really killed process)."""

from __future__ import annotations

import binascii
import hashlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.journal.lines import CHAIN_START, JournalCorrupt, Record, encode_record, line_hash
from controller.journal.log import Journal
from controller.journal.segments import read_records

REPO = Path(__file__).resolve().parents[2]


def record(seq: int, private: dict[str, object] | None = None) -> Record:
    body = json.dumps({"v": 1, "table": "T07", "seq": seq, "type": "meter", "data": {}})
    return Record(seq, "T07/meter", body.encode(), private or {})


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "state" / "journal"


@pytest.fixture
def journal(path: Path) -> Iterator[Journal]:
    opened = Journal.open(path)
    yield opened
    opened.close()


def fill(path: Path, count: int) -> None:
    """Write ``count`` records through a journal and close it."""
    journal = Journal.open(path)
    for seq in range(journal.last_seq + 1, journal.last_seq + count + 1):
        journal.append(record(seq))
    journal.close()


def last_link(path: Path) -> str:
    """The link to the last line of the journal at ``path`` (what a next line carries)."""
    return line_hash(path.read_bytes().splitlines(keepends=True)[-1])


def reopen(path: Path) -> Journal:
    journal = Journal.open(path)
    journal.close()
    return journal


def test_round_trip_is_byte_exact(path: Path) -> None:
    bodies = [
        '{"v":1,"card":null,"name":"Zoë ♠","tab":"\\t"}'.encode(),
        b'{\n  "pretty": true,\n  "quote": "\\""\n}',
        '{"emoji": "\U0001f0a1", "nl": "\\n", "bs": "\\\\"}'.encode(),
    ]
    journal = Journal.open(path)
    assert (journal.last_seq, journal.damage, list(journal.records())) == (0, None, [])
    written = [
        Record(seq, f"T07/t{seq}", body, {"card": "Qh", "n": [1, None]})
        for seq, body in enumerate(bodies, start=1)
    ]
    for item in written:
        journal.append(item)
    journal.close()
    again = Journal.open(path)
    assert again.last_seq == 3 and again.damage is None
    assert list(again.records()) == written
    assert again.since(1) == written
    again.close()
    assert path.read_bytes().count(b"\n") == 3


def test_line_format(path: Path) -> None:
    fill(path, 1)
    line = path.read_bytes()
    crc, _, text = line.rstrip(b"\n").partition(b" ")
    assert len(crc) == 8 and crc == crc.lower()
    document = json.loads(text)
    assert list(document) == ["v", "seq", "topic", "body", "private", "prev"]
    assert document["v"] == 2 and document["prev"] == "0" * 16
    assert document["body"].encode() == record(1).body
    assert line == encode_record(record(1), CHAIN_START)


def test_seq_must_follow(journal: Journal, path: Path) -> None:
    with pytest.raises(ValueError, match="seq 2 does not follow 0"):
        journal.append(record(2))
    journal.append(record(1))
    with pytest.raises(ValueError, match="seq 1 does not follow 1"):
        journal.append(record(1))
    journal.append(record(2))
    journal.close()
    again = Journal.open(path)
    assert again.last_seq == 2
    with pytest.raises(ValueError):
        again.append(record(4))
    again.append(record(3))
    again.close()
    assert [r.seq for r in reopen(path).records()] == [1, 2, 3]


def test_body_that_is_not_utf8_is_refused_and_not_written(journal: Journal, path: Path) -> None:
    with pytest.raises(UnicodeDecodeError):
        journal.append(Record(1, "T07/x", b"\xff", {}))
    assert path.read_bytes() == b"" and journal.last_seq == 0
    journal.append(record(1))
    assert journal.last_seq == 1


def test_torn_tail_is_quarantined_and_cut(path: Path) -> None:
    fill(path, 5)
    whole = path.read_bytes()
    cut = whole.rindex(b"\n", 0, len(whole) - 1) + 1  # start of line 5
    path.write_bytes(whole[: cut + 20])  # a write torn 20 bytes into line 5
    journal = Journal.open(path)
    assert journal.damage is not None
    assert journal.damage.offset == cut
    assert journal.damage.reason == "line 5: torn write (no end of line)"
    assert journal.damage.quarantine == path.with_name("journal.damaged-1")
    assert journal.damage.quarantine.read_bytes() == whole[cut : cut + 20]
    assert path.read_bytes() == whole[:cut]
    assert journal.last_seq == 4
    journal.append(record(5))
    journal.append(record(6))
    journal.close()
    again = reopen(path)
    assert again.damage is None
    assert [r.seq for r in again.records()] == [1, 2, 3, 4, 5, 6]


def test_crc_corrupt_last_line_is_cut_without_overwriting_quarantine(path: Path) -> None:
    fill(path, 3)
    path.with_name("journal.damaged-1").write_bytes(b"older")
    whole = path.read_bytes()
    start = whole.rindex(b"\n", 0, len(whole) - 1) + 1
    broken = whole.replace(b'"seq":3', b'"seq":8')
    path.write_bytes(broken)
    journal = Journal.open(path)
    assert journal.damage is not None
    assert journal.damage.reason.startswith("line 3: crc mismatch (stored ")
    assert journal.damage.quarantine == path.with_name("journal.damaged-2")
    assert journal.damage.quarantine.read_bytes() == broken[start:]
    assert path.with_name("journal.damaged-1").read_bytes() == b"older"
    assert journal.last_seq == 2
    journal.close()


def test_valid_crc_but_wrong_seq_at_the_end_is_damage(path: Path) -> None:
    fill(path, 2)
    with path.open("ab") as out:
        out.write(encode_record(record(7), last_link(path)))
    journal = Journal.open(path)
    assert journal.damage is not None
    assert journal.damage.reason == "line 3: seq 7 where 3 was expected"
    assert journal.last_seq == 2
    journal.close()


def test_zero_filled_tail_after_a_crash_is_damage(path: Path) -> None:
    fill(path, 2)
    with path.open("ab") as out:
        out.write(bytes(4096))
    journal = Journal.open(path)
    assert journal.damage is not None and journal.damage.reason.startswith("line 3: torn")
    assert journal.last_seq == 2
    journal.close()


def test_corruption_in_the_middle_refuses_to_open(path: Path) -> None:
    fill(path, 20)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[16] = lines[16].replace(b"T07/meter", b"T07/metre")
    assert b"metre" in lines[16]
    damaged = b"".join(lines)
    path.write_bytes(damaged)
    with pytest.raises(JournalCorrupt, match=r"^line 17: crc mismatch"):
        Journal.open(path)
    assert path.read_bytes() == damaged  # nothing was cut or guessed
    assert not path.with_name("journal.damaged-1").exists()


def test_a_missing_line_in_the_middle_refuses_to_open(path: Path) -> None:
    fill(path, 5)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:2] + lines[3:]))
    with pytest.raises(JournalCorrupt, match=r"^line 3: seq 4 where 3 was expected"):
        Journal.open(path)


def test_since(journal: Journal) -> None:
    for seq in range(1, 6):
        journal.append(record(seq))
    assert [r.seq for r in journal.since(3)] == [3, 4, 5]
    assert [r.seq for r in journal.since(0)] == [1, 2, 3, 4, 5]
    assert journal.since(6) == []
    assert journal.since(99) == []
    assert journal.since(99999999999999999999) == []        # past sys.maxsize: no islice error


def test_since_holds_the_last_ten_thousand(path: Path) -> None:
    path.parent.mkdir()
    link = CHAIN_START
    with path.open("wb") as out:
        for seq in range(1, 20_001):
            line = encode_record(record(seq), link)
            out.write(line)
            link = line_hash(line)
    journal = Journal.open(path)
    assert journal.last_seq == 20_000
    held = journal.since(1)
    assert len(held) == 10_000 and held[0].seq == 10_001
    assert [r.seq for r in journal.since(19_998)] == [19_998, 19_999, 20_000]
    journal.append(record(20_001))
    assert journal.since(10_002)[0].seq == 10_002
    assert journal.since(10_002)[-1] == record(20_001)
    assert sum(1 for _ in journal.records()) == 20_001
    journal.close()


def test_keep_sets_how_many_are_held(path: Path) -> None:
    fill(path, 30)
    journal = Journal.open(path, keep=7)
    assert [r.seq for r in journal.since(1)] == list(range(24, 31))
    journal.close()
    with pytest.raises(ValueError):
        Journal.open(path, keep=0)


def test_records_sees_appends_made_after_open(journal: Journal) -> None:
    journal.append(record(1))
    replay = journal.records()
    journal.append(record(2))
    assert [r.seq for r in replay] == [1, 2]


def test_creates_missing_folders(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "journal"
    journal = Journal.open(path)
    journal.append(record(1))
    journal.close()
    assert path.is_file()


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The loosest umask there is, as a careless service manager might leave it."""
    before = os.umask(0)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


@pytest.mark.usefixtures("open_umask")
def test_the_journal_and_its_folders_are_private_whatever_the_umask(tmp_path: Path) -> None:
    path = tmp_path / "a" / "state" / "journal.log"
    journal = Journal.open(path)
    journal.append(record(1, {"card": "Ah"}))
    journal.close()
    assert (mode(path), mode(path.parent), mode(path.parent.parent)) == (0o600, 0o700, 0o700)
    with path.open("ab") as out:
        out.write(b"torn")
    journal = Journal.open(path)
    assert journal.damage is not None and mode(journal.damage.quarantine) == 0o600
    journal.close()


def test_an_existing_open_journal_and_folder_are_tightened(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "state" / "journal.log"
    fill(path, 2)
    path.chmod(0o644)
    path.parent.chmod(0o755)
    Journal.open(path).close()
    assert (mode(path), mode(path.parent)) == (0o600, 0o700)
    assert "was mode 0755: made 0700" in caplog.text and "was mode 0644: made 0600" in caplog.text


def test_a_shared_folder_is_not_tightened_but_warned_about(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    shared = tmp_path / "open-to-all"
    shared.mkdir()
    shared.chmod(0o1777)                                     # like /tmp
    Journal.open(shared / "journal.log").close()
    assert mode(shared) == 0o1777
    assert "other users may read" in caplog.text


def test_only_one_writer_at_a_time(journal: Journal, path: Path) -> None:
    with pytest.raises(BlockingIOError):
        Journal.open(path)
    journal.close()
    journal.close()  # twice is harmless
    with pytest.raises(ValueError, match="closed"):
        journal.append(record(1))
    reopen(path)


WRITER = """
import json, sys
from pathlib import Path
from controller.journal.lines import Record
from controller.journal.log import Journal
journal = Journal.open(Path(sys.argv[1]))
seq = journal.last_seq
while True:
    seq += 1
    body = json.dumps({"seq": seq, "pad": "x" * (seq % 300)}).encode()
    journal.append(Record(seq, "T07/meter", body, {"seq": seq}))
    print(seq, flush=True)
"""


def test_killed_writer_leaves_a_journal_that_reopens(path: Path) -> None:
    acknowledged = 0
    for _ in range(3):
        child = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path)],
            cwd=REPO,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert child.stdout is not None
        target = acknowledged + 200
        for line in child.stdout:
            acknowledged = int(line)
            if acknowledged >= target:
                break
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
        child.stdout.close()
        journal = Journal.open(path)
        assert journal.last_seq >= acknowledged  # durable before visible
        seqs = [r.seq for r in journal.records()]
        assert seqs == list(range(1, journal.last_seq + 1))
        assert all(r.private == {"seq": r.seq} for r in journal.since(journal.last_seq - 50))
        acknowledged = journal.last_seq
        journal.close()


def test_read_records_is_read_only_and_works_beside_the_writer(
    journal: Journal, path: Path
) -> None:
    for seq in (1, 2, 3):
        journal.append(record(seq))
    with path.open("ab") as out:
        out.write(encode_record(record(4), last_link(path))[:15])  # a write in progress
    before = path.read_bytes()
    assert [r.seq for r in read_records(path)] == [1, 2, 3]
    assert path.read_bytes() == before
    assert list(read_records(path.with_name("absent"))) == []


def test_read_records_refuses_corruption_in_the_middle(path: Path) -> None:
    fill(path, 4)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], b"garbage\n", *lines[2:]]))
    with pytest.raises(JournalCorrupt, match=r"^line 2: no crc"):
        list(read_records(path))


def recrc(line: bytes, old: bytes, new: bytes) -> bytes:
    """``line`` with ``old`` replaced by ``new`` and its crc made right again (a forged line)."""
    text = line[9:-1].replace(old, new)
    assert text != line[9:-1]
    return b"%08x %s\n" % (binascii.crc32(text), text)


def test_each_line_is_chained_to_the_one_before(path: Path) -> None:
    fill(path, 3)
    lines = path.read_bytes().splitlines(keepends=True)
    links = [json.loads(line[9:])["prev"] for line in lines]
    assert links == ["0" * 16, *(hashlib.sha256(line).hexdigest()[:16] for line in lines[:2])]


def test_a_line_changed_with_its_crc_made_right_breaks_the_chain(path: Path) -> None:
    fill(path, 5)
    lines = path.read_bytes().splitlines(keepends=True)
    lines[2] = recrc(lines[2], b"T07/meter", b"T07/metre")
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalCorrupt, match=r"^line 4: broken chain"):
        Journal.open(path)


def test_verify_finds_what_changed_on_the_disk_since_it_last_looked(path: Path) -> None:
    fill(path, 5)
    journal = Journal.open(path)
    try:
        assert journal.verify() is None
        journal.append(record(6), record(7))
        assert journal.verify() is None and journal.verify(whole=True) is None
        journal.append(record(8))
        journal.append(record(9))
        good = path.read_bytes()
        lines = good.splitlines(keepends=True)
        path.write_bytes(b"".join([*lines[:7], recrc(lines[7], b"meter", b"metre"), lines[8]]))
        problem = journal.verify()                          # record 8 changed, its crc made right
        assert problem is not None and "record 9: broken chain" in problem
        path.write_bytes(good)
        assert journal.verify(whole=True) is None           # put back: whole again

        os.truncate(path, len(good) - 3)                  # a torn end
        problem = journal.verify()
        assert problem is not None and f"where {len(good)} were written" in problem
        path.write_bytes(good)
        assert journal.verify(whole=True) is None

        lines = path.read_bytes().splitlines(keepends=True)
        flipped = bytearray(lines[8])
        flipped[20] ^= 0x01                                 # a flipped bit in the line checked last
        path.write_bytes(b"".join([*lines[:8], bytes(flipped)]))
        problem = journal.verify()
        assert problem is not None and "checked before, has changed" in problem
        problem = journal.verify(whole=True)
        assert problem is not None and "crc mismatch" in problem
    finally:
        journal.close()


def test_verify_finds_a_journal_replaced_under_it(path: Path) -> None:
    fill(path, 3)
    journal = Journal.open(path)
    try:
        copy = path.with_name("copy")
        copy.write_bytes(path.read_bytes())
        os.replace(copy, path)                               # the same bytes, another file
        problem = journal.verify()
        assert problem is not None and "replaced" in problem
    finally:
        journal.close()


def test_a_journal_of_version_1_goes_on_chained(path: Path) -> None:
    path.parent.mkdir()
    old = [b'%08x %s\n' % (binascii.crc32(text), text) for text in (
        json.dumps({"seq": seq, "topic": "T07/meter", "body": record(seq).body.decode(), "private": {}},
                   separators=(",", ":")).encode() for seq in (1, 2))]
    path.write_bytes(b"".join(old))
    journal = Journal.open(path)
    journal.append(record(3))
    assert journal.verify(whole=True) is None
    journal.close()
    lines = path.read_bytes().splitlines(keepends=True)
    assert lines[:2] == old                                  # the old lines are left as they are
    assert json.loads(lines[2][9:])["prev"] == hashlib.sha256(old[1]).hexdigest()[:16]
    assert [r.seq for r in reopen(path).records()] == [1, 2, 3]
    path.write_bytes(b"".join([*lines, recrc(old[0], b'"seq":1', b'"seq":4')]))
    journal = Journal.open(path)                            # a version 1 line after a chained one
    assert journal.damage is not None and "without its link" in journal.damage.reason
    journal.close()
