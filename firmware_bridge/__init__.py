"""Host side of the table I/O link protocol (docs/protocol.md) and a board simulator.

This package knows nothing of games: it moves typed messages between the host
and the card shoe or RFID reader boards, exactly once and in order.
"""
