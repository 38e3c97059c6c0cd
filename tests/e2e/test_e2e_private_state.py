"""End to end: the daemon keeps the files that hold face-down cards from other users, whatever the umask."""

from __future__ import annotations

import os
from pathlib import Path

from tests.rigs.daemon_rig import TableRig, chip


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


def test_the_state_folder_and_journal_are_private_even_under_a_loose_umask(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    state.chmod(0o755)                                       # left readable by an earlier install
    rig = TableRig(tmp_path)
    before = os.umask(0)                                     # inherited by the daemon
    try:
        rig.start()
    finally:
        os.umask(before)
    try:
        rig.load(["5h", "9d"])
        rig.bet(1, "main", chip("a", 1))
        rig.next("bet.placed")
        rig.pit.press("deal")
        rig.draw()
        hole = rig.draw()
        assert hole["data"]["face_up"] is False              # the journal now holds a hidden card
        assert mode(state) == 0o700
        assert mode(state / "journal.log") == 0o600
        assert "was mode 0755: made 0700" in rig.log_text()
    finally:
        rig.close()
