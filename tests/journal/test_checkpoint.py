"""Checkpoints: a restart reads only the end of a long journal and still resumes exactly."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

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


def test_a_checkpoint_that_does_not_match_the_journal_is_not_used(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 3, random.Random(2))
    rig.journal.close()
    path = tmp_path / "checkpoint.json"
    data = json.loads(path.read_text())

    data["body_crc"] ^= 1                                         # taken on another journal
    path.write_text(json.dumps(data))
    saved = checkpoint.load(path)
    assert saved is not None
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=saved.window)
    assert not checkpoint.matches(saved, journal)
    journal.close()

    data["window"][1] += 3                                        # the window is not a record's start
    path.write_text(json.dumps(data))
    saved = checkpoint.load(path)
    assert saved is not None
    journal = Journal.open(tmp_path / "journal.log", keep=KEEP, start=saved.window)
    assert journal.start == (1, 0)                                # so the whole journal is read
    journal.close()

    path.write_text("{not json")
    assert checkpoint.load(path) is None
    assert checkpoint.load(tmp_path / "missing.json") is None


def test_a_checkpoint_is_private_whatever_the_umask(tmp_path: Path) -> None:
    rig = Rig(tmp_path, keep=KEEP)
    rig.ready()
    play_hands(rig, 1, random.Random(2))
    path = tmp_path / "checkpoint.json"
    before = os.umask(0)
    try:
        path.unlink()
        checkpoint.save(path, rig.journal, rig.table.state.checkpoint())
    finally:
        os.umask(before)
    assert path.stat().st_mode & 0o777 == 0o600
