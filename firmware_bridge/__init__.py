"""Host side of the table I/O link protocol (docs/protocol.md) and a board simulator.

This package knows nothing of games: it moves typed messages between the host
and the card shoe or RFID reader boards, exactly once and in order. Its :mod:`.kernel` holds what
every layer above shares (cards, money, the repeat-counting log) apart from the link.
"""
