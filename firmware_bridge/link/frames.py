"""Link frames: the body layout, its CRC, and splitting a byte stream into frames.

A frame on the wire is ``COBS(body) 0x00``; the body is
``version u8 | type u8 | seq u8 | ack u8 | payload | crc16 u16 (little-endian)``.

>>> wire = encode_frame(Frame(type=0x00, seq=0, ack=4))
>>> wire.hex()
'0201010404f0b200'
>>> reader = FrameReader()
>>> reader.feed(b"\\xff\\xee\\x12\\x00" + wire)
[FrameError('code byte runs past the frame'), Frame(type=0, seq=0, ack=4, payload=b'')]
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from firmware_bridge.link import cobs
from firmware_bridge.link.crc import crc16

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
    return cobs.encode(encode_body(frame)) + b"\x00"


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
        body = cobs.decode(encoded)
    except cobs.CobsError as error:
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
