"""The published high-water mark: on real files, and the start decisions it drives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.journal.high_water import HighWater, Mark, Start, begin


def test_the_mark_survives_a_reopen_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "published.mark"
    before = os.umask(0)
    try:
        mark = HighWater.open(path)
    finally:
        os.umask(before)
    assert mark.mark is None
    mark.record(1795000000, 41)
    mark.record(1795000000, 42)
    mark.close()
    mark.close()
    assert path.stat().st_mode & 0o777 == 0o600
    again = HighWater.open(path)
    assert again.mark == Mark(1795000000, 42)
    again.close()
    with pytest.raises(ValueError):
        again.record(1, 1)


def test_a_mark_not_synced_yet_is_what_the_next_reader_sees(tmp_path: Path) -> None:
    # A daemon killed between writing the mark and syncing it leaves the write with the kernel.
    path = tmp_path / "published.mark"
    writer = HighWater.open(path)
    writer.record(1795000000, 42)
    reader = HighWater.open(path)
    assert reader.mark == Mark(1795000000, 42)
    reader.close()
    writer.sync()
    writer.sync()                                           # nothing written since: nothing to do
    writer.close()
    with pytest.raises(ValueError):
        writer.sync()


def test_an_unreadable_mark_is_taken_as_missing_and_logged(tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "published.mark"
    HighWater.open(path).record(1795000000, 42)
    data = bytearray(path.read_bytes())
    data[30] ^= 1                                           # one digit of the seq changed: the CRC fails
    path.write_bytes(bytes(data))
    mark = HighWater.open(path)
    assert mark.mark is None and "is not a high-water mark" in caplog.text
    mark.close()


@pytest.mark.parametrize(("mark", "journal_last", "journal_epoch", "checkpoint_seq", "expected"), [
    (Mark(100, 42), 42, 100, None, Start(100, None)),               # nothing lost
    (Mark(100, 41), 42, 100, None, Start(100, None)),               # the mark's last write was lost
    (Mark(100, 42), 21, 100, None, Start(500, (22, 42))),           # a cut journal: a new epoch
    (Mark(600, 42), 21, 100, None, Start(601, (22, 42))),           # always above every epoch known
    (Mark(100, 42), 0, None, None, Start(500, (1, 42))),            # the journal deleted
    (None, 21, 100, 1000, Start(500, (22, 1000))),                  # no mark: the checkpoint stands in
    (None, 21, 100, 20, Start(100, None)),
    (None, 21, None, None, Start(500, None)),                       # a journal from before epochs
    (None, 0, None, None, Start(500, None)),                        # a new table
    (Mark(100, 0), 0, None, None, Start(100, None)),                # started before, nothing published
])
def test_begin(mark: Mark | None, journal_last: int, journal_epoch: int | None, checkpoint_seq: int | None,
               expected: Start) -> None:
    assert begin(mark, journal_last=journal_last, journal_epoch=journal_epoch,
                 checkpoint_seq=checkpoint_seq, now=500) == expected
