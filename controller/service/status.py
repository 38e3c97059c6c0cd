"""The daemon's one-line status for ``systemctl status``: the table's phase, its hand, its boards.

>>> from types import SimpleNamespace as NS
>>> devices = {"shoe": NS(online=True), "rfid": NS(online=False)}
>>> table = NS(settings=NS(table_id="T07"), phase="in_hand", hand=NS(phase="players"),
...            state=NS(in_hand=True, hand_no=42, devices=devices))
>>> table_status(table)
'T07 players, hand 42; boards online: shoe; offline: rfid'
>>> table.phase, table.hand, table.state.in_hand = "betting", None, False
>>> table_status(table)
'T07 betting, next hand 43; boards online: shoe; offline: rfid'
"""

from __future__ import annotations

from controller.table.machine import Table


def table_status(table: Table) -> str:
    """The status line of a table: its phase (the game's own while a hand is in play), the hand,
    the boards."""
    state = table.state
    phase = table.hand.phase if table.phase == "in_hand" and table.hand is not None else table.phase
    hand = f"hand {state.hand_no}" if state.in_hand else f"next hand {state.hand_no + 1}"
    online = [name for name, device in sorted(state.devices.items()) if device.online]
    offline = [name for name, device in sorted(state.devices.items()) if not device.online]
    boards = f"boards online: {', '.join(online) or 'none'}"
    if offline:
        boards += f"; offline: {', '.join(offline)}"
    return f"{table.settings.table_id} {phase}, {hand}; {boards}"
