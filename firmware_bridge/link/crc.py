"""CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, not reflected, xorout 0.

>>> hex(crc16(b"123456789"))
'0x29b1'
"""

from __future__ import annotations

import binascii


def crc16(data: bytes) -> int:
    """The CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)
