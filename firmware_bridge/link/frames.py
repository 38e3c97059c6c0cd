"""The frame on the wire: COBS, CRC-16, the body's layout, and splitting a byte stream into frames.

A frame on the wire is ``COBS(body) 0x00``; the body is
``version u8 | type u8 | seq u8 | ack u8 | payload | crc16 u16 (little-endian)``
(docs/protocol.md section 1). The three parts of that one contract, kept together as Klipper
keeps its crc16 beside the framing in ``msgproto.py``:

- COBS, Consistent Overhead Byte Stuffing (Cheshire & Baker, 1999): :func:`cobs_encode` leaves
  no zero byte in the body, so a zero ends each frame. It never emits an empty trailing block at
  the 254-byte boundary (as the reference implementations do); :func:`cobs_decode` accepts a
  frame with or without it.
- CRC-16/CCITT-FALSE over the header and payload: :func:`crc16` (poly 0x1021, init 0xFFFF, not
  reflected, xorout 0).
- the body: :func:`encode_frame` and :func:`decode_frame` (its length, version and CRC checked),
  and :class:`FrameReader`, which splits a byte stream at zero bytes and starts again after any
  garbage.

>>> cobs_encode(b"\\x11\\x00\\x22")
b'\\x02\\x11\\x02"'
>>> cobs_decode(cobs_encode(b"\\x00\\x00"))
b'\\x00\\x00'
>>> len(cobs_encode(bytes(range(1, 255))))
255
>>> hex(crc16(b"123456789"))
'0x29b1'
>>> wire = encode_frame(Frame(type=0x00, seq=0, ack=4))
>>> wire.hex()
'0201010404f0b200'
>>> reader = FrameReader()
>>> reader.feed(b"\\xff\\xee\\x12\\x00" + wire)
[FrameError('code byte runs past the frame'), Frame(type=0, seq=0, ack=4, payload=b'')]
"""

from __future__ import annotations

import binascii
import struct
from dataclasses import dataclass

VERSION = 1
MIN_BODY = 6
MAX_BODY = 1030
MAX_PAYLOAD = MAX_BODY - MIN_BODY
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
"""The longest COBS encoding of a valid body (with an empty trailing block)."""

NO_ACK = 255
"""The ack field before any data frame was received in the session."""

_HEADER = struct.Struct("<BBBB")
_CRC = struct.Struct("<H")


class CobsError(ValueError):
    """The bytes are not a valid COBS encoding."""


def cobs_encode(data: bytes) -> bytes:
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


def cobs_decode(encoded: bytes) -> bytes:
    """Decode one COBS block sequence (without its zero delimiter); raises :class:`CobsError`.

    >>> cobs_decode(b"\\x05\\x01\\x02\\x03")
    Traceback (most recent call last):
    ...
    firmware_bridge.link.frames.CobsError: code byte runs past the frame
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
            return _cobs_decode_blocks(encoded)
        out[i] = 0
        i += code
    if i > size:
        raise CobsError("code byte runs past the frame")
    del out[0:1]
    return bytes(out)


def _cobs_decode_blocks(encoded: bytes) -> bytes:
    """:func:`cobs_decode` of a sequence with a 254-byte block (code 0xFF: no zero follows it),
    block by block."""
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


def crc16(data: bytes) -> int:
    """The CRC-16/CCITT-FALSE of ``data``."""
    return binascii.crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Frame:
    """One link frame: its ``type`` byte, ``seq`` and ``ack`` fields and raw ``payload``."""

    type: int
    seq: int = 0
    ack: int = NO_ACK
    payload: bytes = b""


class FrameError(ValueError):
    """A frame that must be dropped and counted as a framing error; the message says why."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FrameError) and self.args == other.args

    def __hash__(self) -> int:
        return hash(self.args)


def encode_body(frame: Frame) -> bytes:
    """The frame's body: header, payload and CRC."""
    if len(frame.payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(frame.payload)} bytes exceeds {MAX_PAYLOAD}")
    head = _HEADER.pack(VERSION, frame.type, frame.seq, frame.ack) + frame.payload
    return head + _CRC.pack(crc16(head))


def encode_frame(frame: Frame) -> bytes:
    """The frame's wire bytes, ending in the zero delimiter."""
    return cobs_encode(encode_body(frame)) + b"\x00"


def decode_body(body: bytes) -> Frame:
    """Check a decoded body (length, version, CRC) and split it into a :class:`Frame`."""
    if len(body) < MIN_BODY:
        raise FrameError(f"body is {len(body)} bytes, shorter than {MIN_BODY}")
    if len(body) > MAX_BODY:
        raise FrameError(f"body is {len(body)} bytes, longer than {MAX_BODY}")
    (crc,) = _CRC.unpack_from(body, len(body) - 2)
    if crc != crc16(body[:-2]):
        raise FrameError("CRC mismatch")
    version, type_, seq, ack = _HEADER.unpack_from(body)
    if version != VERSION:
        raise FrameError(f"version {version}, not {VERSION}")
    return Frame(type_, seq, ack, bytes(body[4:-2]))


def decode_frame(encoded: bytes) -> Frame:
    """Decode one frame's COBS bytes (without the zero delimiter); raises :class:`FrameError`."""
    try:
        body = cobs_decode(encoded)
    except CobsError as error:
        raise FrameError(str(error)) from None
    return decode_body(body)


class FrameReader:
    """Splits a byte stream into frames at zero bytes, resynchronising after garbage.

    :meth:`feed` returns, in order, a :class:`Frame` for each valid frame and a
    :class:`FrameError` for each dropped one. Empty frames (two zero bytes in a
    row) are idle fill and are skipped silently. A run of more than
    :data:`MAX_ENCODED` bytes without a zero is dropped as one framing error and
    the reader starts again after the next zero byte.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._overlong = False

    def feed(self, data: bytes) -> list[Frame | FrameError]:
        """Take the next bytes from the line; return the frames they complete."""
        out: list[Frame | FrameError] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._take(data[start:])
                return out
            if self._buffer or self._overlong:
                self._take(data[start:end])
                encoded = bytes(self._buffer)
                self._buffer.clear()
            else:  # the whole frame in this read (the usual case): no copy through the buffer
                encoded = data[start:end]
                self._overlong = len(encoded) > MAX_ENCODED
            if self._overlong:
                out.append(FrameError(f"more than {MAX_ENCODED} bytes without a delimiter"))
            elif encoded:
                try:
                    out.append(decode_frame(encoded))
                except FrameError as error:
                    out.append(error)
            self._overlong = False
            start = end + 1

    def _take(self, chunk: bytes) -> None:
        if self._overlong:
            return
        self._buffer += chunk
        if len(self._buffer) > MAX_ENCODED:
            self._buffer.clear()
            self._overlong = True
