"""End to end: every alert is its own occurrence (issue 33, "Alerts that come back").

The RFID reader drops out, comes back and drops out again: the first ``device_offline`` is cleared
by the ``device.online`` that ended it (the picture's ``cleared``), the second is a new alert of its
own, and the dealer screen's banners (:func:`controller.screen.advice.banners`, from the picture
the daemon published) show the second alone, the first never again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.screen.advice import banners
from tests.rigs.daemon_rig import TableRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def offline_alerts(rig: TableRig) -> list[dict[str, Any]]:
    alerts: list[dict[str, Any]] = rig.pit.control({"cmd": "state"})["state"]["alerts"]
    return [a for a in alerts if a["code"] == "device_offline"]


def test_a_board_back_clears_its_alert_for_good_and_a_new_drop_is_a_new_alert(rig: TableRig) -> None:
    rig.rfid.cmd("unplug")
    first = rig.next("alert", code="device_offline", timeout=8)["seq"]
    rig.rfid.cmd("replug")
    back = rig.next("device.online", timeout=8)["seq"]
    assert [(a["seq"], a.get("cleared")) for a in offline_alerts(rig)] == [(first, back)]

    rig.rfid.cmd("unplug")
    second = rig.next("alert", code="device_offline", timeout=8)["seq"]
    assert [(a["seq"], a.get("cleared")) for a in offline_alerts(rig)] == [(first, back), (second, None)]
    rig.pit.drain()                                          # the picture published after it
    picture = rig.pit.picture.picture
    assert picture is not None and {a.seq for a in picture.alerts} >= {first, second}
    shown = [b["seq"] for b in banners(picture, "1", dismissed=()) if b["seq"] in (first, second)]
    assert shown == [second]
