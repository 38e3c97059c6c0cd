"""Checkpoints: a restart reads only the end of a long journal and still resumes exactly."""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

from controller.journal import checkpoint
from controller.journal.log import Journal
from controller.table.machine import Table
from controller.table.views import public_state
from tests.rigs.table_rig import Rig, phase_of

KEEP = 40
"""A small replay window, so that a few hands are a long journal."""


def play_hands(rig: Rig, hands: int, rng: random.Random) -> None:
    """Whole hands on seats 1 and 2, with a checkpoint between hands as the daemon takes them."""
    for _ in range(hands):
        rig.bet(1, "main", 500 * rng.randint(1, 4))
        rig.bet(2, "main", 1000)
        rig.bet(2, "side", 500 * rng.randint(0, 1))
        rig.press("deal")
        while phase_of(rig.table) != "settled":
            if phase_of(rig.table) == "players" and rng.random() < 0.5:
                rig.press("stand")
            else:
                rig.card(rng.choice(["As", "2c", "5d", "7h", "9s", "Tc", "Kd"]))
        rig.press("next")
        checkpoint.save(rig.folder / "checkpoint.json", rig.journal, rig.table.state.checkpoint())


def restart(rig: Rig) -> tuple[Table, Journal]:
    """What the daemon does at start: the checkpoint, the journal from its window, the rest replayed."""
    saved = checkpoint.load(rig.folder / "checkpoint.json")
    assert saved is not None
    journal = Journal.open(rig.folder / "journal.log", keep=KEEP, start=saved.window)
    assert checkpoint.matches(saved, journal)
    table = rig.rebuilt([])
    table.recover(journal.records(after=saved.seq), saved.state)
    return table, journal


def test_a_restart_from_a_checkpoint_resumes_exactly_and_keeps_the_replay_window(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 12, random.Random(1))
    rig.bet(1, "main", 2000)
    rig.press("deal")
    rig.card("5d")                                               # a hand in play after the checkpoint
    live_events = rig.journal.since(1)
    rig.journal.close()

    table, journal = restart(rig)
    assert journal.start != (1, 0)                                # the start of the journal was not read
    assert journal.start[0] <= journal.last_seq - KEEP + 1        # but the replay window is full
    assert [r.body for r in journal.since(journal.last_seq - KEEP + 1)] == [
        r.body for r in live_events[-KEEP:]]
    assert phase_of(table) == phase_of(rig.table) == "dealing"
    assert public_state(table) == public_state(rig.table)
    assert table.state.shoe.seen == rig.table.state.shoe.seen
    journal.close()


def rewrite(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as a copy of a checkpoint with its checksum right (a checkpoint taken elsewhere)."""
    text = json.dumps(data, separators=(",", ":")).encode()
    path.write_bytes(b"%s %s\n" % (hashlib.sha256(text).hexdigest().encode(), text))


def test_a_checkpoint_that_does_not_match_the_journal_is_not_used(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 3, random.Random(2))
    rig.journal.close()
    path = tmp_path / "checkpoint.json"
    newest = checkpoint.load(path)
    assert newest is not None
    copy = checkpoint.copy_path(path, newest.copy)
    data = json.loads(copy.read_bytes()[65:])

    data["body_crc"] ^= 1                                         # taken on another journal
    rewrite(copy, data)
    saved = checkpoint.load(path)
    assert saved is not None and saved.body_crc == data["body_crc"]
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=saved.window)
    assert not checkpoint.matches(saved, journal)
    journal.close()
    journal, used = checkpoint.open_journal(tmp_path / "journal.log", path, keep=KEEP)
    assert used is not None and used.copy != newest.copy and used.seq < newest.seq   # the other copy
    journal.close()

    data["body_crc"] ^= 1
    data["link"] = "0" * 16                                       # the same body, another line
    rewrite(copy, data)
    saved = checkpoint.load(path)
    assert saved is not None
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=saved.window)
    assert not checkpoint.matches(saved, journal)
    journal.close()

    data["window"][1] += 3                                        # the window is not a record's start
    rewrite(copy, data)
    saved = checkpoint.load(path)
    assert saved is not None
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=saved.window)
    assert journal.start == (1, 0)                                # so the whole journal is read
    journal.close()

    for number in checkpoint.COPIES:
        checkpoint.copy_path(path, number).write_text("{not json")
    assert checkpoint.load(path) is None
    assert checkpoint.load(tmp_path / "missing.json") is None


def test_the_copies_are_written_in_turn_and_a_damaged_one_falls_back_to_the_other(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    path = tmp_path / "checkpoint.json"
    play_hands(rig, 1, random.Random(4))
    first = checkpoint.load(path)
    play_hands(rig, 1, random.Random(5))
    second = checkpoint.load(path)
    assert first is not None and second is not None
    assert {first.copy, second.copy} == {1, 2} and first.seq < second.seq
    for copy in checkpoint.COPIES:                                # each with its own checksum
        content = checkpoint.copy_path(path, copy).read_bytes()
        assert content[:64].decode() == hashlib.sha256(content[65:-1]).hexdigest()
    newest = checkpoint.copy_path(path, second.copy)
    good = newest.read_bytes()

    newest.write_bytes(good[:len(good) // 2])                     # torn
    assert checkpoint.load(path) == first
    assert checkpoint.read(path)[1] and "torn" in checkpoint.read(path)[1][0]
    flipped = bytearray(good)
    flipped[200] ^= 0x04                                          # a flipped bit
    newest.write_bytes(bytes(flipped))
    assert checkpoint.load(path) == first
    assert "checksum mismatch" in checkpoint.read(path)[1][0]
    newest.write_bytes(good)
    assert checkpoint.load(path) == second


def test_a_checkpoint_of_the_earlier_single_file_is_read_and_replaced(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 1, random.Random(6))
    path = tmp_path / "checkpoint.json"
    saved = checkpoint.load(path)
    assert saved is not None
    for copy in checkpoint.COPIES:
        checkpoint.copy_path(path, copy).unlink(missing_ok=True)
    legacy = {"seq": saved.seq, "body_crc": saved.body_crc, "window": list(saved.window),
              "state": saved.state}                               # as the earlier release wrote it
    path.write_text(json.dumps(legacy, separators=(",", ":")))
    old = checkpoint.load(path)
    assert old is not None and (old.seq, old.state, old.copy, old.link) == (saved.seq, saved.state, 0, None)
    rig.journal.close()
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=old.window)
    assert checkpoint.matches(old, journal)
    checkpoint.save(path, journal, rig.table.state.checkpoint())
    journal.close()
    assert not path.exists() and checkpoint.copy_path(path, 1).exists()


def test_a_checkpoint_is_private_whatever_the_umask(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 1, random.Random(2))
    path = tmp_path / "checkpoint.json"
    before = os.umask(0)
    try:
        for copy in checkpoint.COPIES:
            checkpoint.copy_path(path, copy).unlink(missing_ok=True)
        written = checkpoint.save(path, rig.journal, rig.table.state.checkpoint())
    finally:
        os.umask(before)
    assert checkpoint.copy_path(path, written.copy).stat().st_mode & 0o777 == 0o600
