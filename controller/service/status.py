"""The daemon's one-line status for ``systemctl status``: the table's phase, its hand, its boards.

>>> from types import SimpleNamespace as NS
>>> devices = {"shoe": NS(online=True), "rfid": NS(online=False)}
>>> table = NS(settings=NS(table_id="T07"), phase="players",
...            state=NS(in_hand=True, hand_no=42, devices=devices))
>>> table_status(table)
'T07 players, hand 42; boards online: shoe; offline: rfid'
>>> table.phase, table.state.in_hand = "betting", False
>>> table_status(table)
'T07 betting, next hand 43; boards online: shoe; offline: rfid'
"""

from __future__ import annotations

from typing import Any


def table_status(table: Any) -> str:
    """The status line of a :class:`controller.table.machine.Table`."""
    state = table.state
    hand = f"hand {state.hand_no}" if state.in_hand else f"next hand {state.hand_no + 1}"
    online = [name for name, device in sorted(state.devices.items()) if device.online]
    offline = [name for name, device in sorted(state.devices.items()) if not device.online]
    boards = f"boards online: {', '.join(online) or 'none'}"
    if offline:
        boards += f"; offline: {', '.join(offline)}"
    return f"{table.settings.table_id} {table.phase}, {hand}; {boards}"
