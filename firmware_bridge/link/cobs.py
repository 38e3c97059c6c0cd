"""Consistent Overhead Byte Stuffing (Cheshire & Baker, 1999), as the link's framing uses it.

The encoder never emits an empty trailing block at the 254-byte boundary (as the
reference implementations do); the decoder accepts a frame with or without it.

>>> encode(b"\\x11\\x00\\x22")
b'\\x02\\x11\\x02"'
>>> decode(encode(b"\\x00\\x00"))
b'\\x00\\x00'
>>> len(encode(bytes(range(1, 255))))
255
"""

from __future__ import annotations


class CobsError(ValueError):
    """The bytes are not a valid COBS encoding."""


def encode(data: bytes) -> bytes:
    """Encode ``data`` so that the result contains no zero byte (the frame delimiter is not added)."""
    out = bytearray([0])
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        if code == 0xFF:
            out[code_at] = code
            if i == last:
                return bytes(out)
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def decode(encoded: bytes) -> bytes:
    """Decode one COBS block sequence (without its zero delimiter); raises :class:`CobsError`.

    >>> decode(b"\\x05\\x01\\x02\\x03")
    Traceback (most recent call last):
    ...
    firmware_bridge.link.cobs.CobsError: code byte runs past the frame
    """
    # Without a 254-byte block (every frame the link sends but the longest), each code byte after the
    # first stands where a zero was: put the zeros back in place and drop the first code byte.
    out = bytearray(encoded)
    size = len(out)
    i = 0
    while i < size:
        code = out[i]
        if code == 0:
            raise CobsError("zero byte inside the frame")
        if code == 0xFF:
            return _decode_blocks(encoded)
        out[i] = 0
        i += code
    if i > size:
        raise CobsError("code byte runs past the frame")
    del out[0:1]
    return bytes(out)


def _decode_blocks(encoded: bytes) -> bytes:
    """:func:`decode` of a sequence with a 254-byte block (code 0xFF: no zero follows it), block by block."""
    out = bytearray()
    i = 0
    size = len(encoded)
    while i < size:
        code = encoded[i]
        if code == 0:
            raise CobsError("zero byte inside the frame")
        end = i + code
        if end > size:
            raise CobsError("code byte runs past the frame")
        out += encoded[i + 1 : end]
        i = end
        if code != 0xFF and i < size:
            out.append(0)
    return bytes(out)
