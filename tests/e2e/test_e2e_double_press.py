"""End to end: a game action pressed twice is not taken for the next seat (issue 33's dealer
mistakes, "presses a button twice"; docs/configuration.md, ``[table] repeat_window_ms``).

The daemon runs with a 10 s window, so the test's presses, however slow the machine, fall in it:
one seat stands, STAND pressed again at once is refused for the other in words that say why and how
to go on, and the press after the refusal stands it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.rigs.daemon_rig import TableRig, chip

SHOE = ["5h", "4c", "9d", "3s", "6d", "2c", "Kh"]
"""The cards of tests/e2e/test_e2e_floor.py's scripted hand: both seats stand on their first two."""


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, repeat_window_ms=10_000)
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_stand_pressed_twice_is_refused_once_for_the_next_seat(rig: TableRig) -> None:
    rig.load(SHOE)
    rig.bet(1, "main", chip("a", 1))
    rig.bet(3, "main", chip("a", 2))
    rig.next("bet.placed", seat=1)
    rig.next("bet.placed", seat=3)
    assert rig.pit.press("deal") == {"ok": True}
    for _ in range(4):
        rig.draw()
    assert rig.pit.press("stand") == {"ok": True}
    first = rig.next("player.action")["data"]["seat"]
    second = ({1, 3} - {first}).pop()
    assert rig.pit.press("stand") == {
        "ok": False, "error": f"stand: pressed again just after seat {first}'s stand: seat {second} is "
                              f"in turn now; press stand again to take it for seat {second}"}
    assert rig.pit.press("stand") == {"ok": True}
    assert rig.next("player.action")["data"]["seat"] == second
