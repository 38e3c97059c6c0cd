"""End to end: the daemon keeps the files that hold face-down cards from other users, whatever the umask."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.rigs.daemon_rig import TableRig, chip


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o7777


def test_a_state_folder_open_to_others_is_refused_and_one_open_to_the_group_is_closed(
        tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o755)
    state.chmod(0o755)                                       # left readable by an earlier install
    rig = TableRig(tmp_path)
    refused = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(rig.config)],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert f"the state directory {state} is open to others (mode 0755)" in refused.stderr
    assert not (state / "journal.log").exists()
    state.chmod(0o750)                                       # the group may still look in: closed at start
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
        assert "was mode 0750: made 0700" in rig.log_text()
    finally:
        rig.close()
