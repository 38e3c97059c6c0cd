"""Fault injection on a simulated board's line: the plan, and what it does to the bytes going out and in.

:class:`FaultPlan` holds the knobs (drop, corrupt, drop incoming), all off at
first. :class:`LineFaults` applies them to one board's line with the board's
``random.Random``, frame by frame, and counts what it did: an outgoing frame
is first tested for a drop, then for corruption (:func:`corrupt_frame`: one
bit flipped, so the host's CRC check fails); an incoming frame is dropped
before the firmware sees it. Line noise (:func:`noise_bytes`, or bytes
injected as they are) is counted here too. :func:`split_frames` cuts wire
bytes at the zero delimiters.
"""

from __future__ import annotations

import random

from firmware_bridge.link.frames import CobsError, cobs_decode, cobs_encode

__all__ = ["FaultPlan", "LineFaults", "corrupt_frame", "noise_bytes", "split_frames"]


class FaultPlan:
    """The fault injection knobs of a simulated board, all off by default; change them at any time.

    :param drop_rate: the chance (0 to 1) that a frame the board writes is lost.
    :param corrupt_rate: the chance (0 to 1) that a frame the board writes
        arrives with one bit flipped, so that the host's CRC check fails.
    :param rx_drop_rate: the chance (0 to 1) that a frame from the host is
        lost before the board's firmware sees it (the host -> board direction).

    The rates apply to every frame, control frames (HELLO, ACK) included, and
    are drawn from the board's ``random.Random``. A frame is first tested for
    a drop, then for corruption.

    >>> plan = FaultPlan(drop_rate=0.2)
    >>> plan.corrupt_rate = 0.1
    >>> plan
    FaultPlan(drop_rate=0.2, corrupt_rate=0.1, rx_drop_rate=0.0)
    >>> plan.drop_rate = 1.5
    Traceback (most recent call last):
    ...
    ValueError: drop_rate 1.5 is not between 0 and 1
    """

    __slots__ = ("_corrupt_rate", "_drop_rate", "_rx_drop_rate")

    def __init__(self, drop_rate: float = 0.0, corrupt_rate: float = 0.0, rx_drop_rate: float = 0.0) -> None:
        self.drop_rate = drop_rate
        self.corrupt_rate = corrupt_rate
        self.rx_drop_rate = rx_drop_rate

    @staticmethod
    def _check(name: str, value: float) -> float:
        if not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
            raise ValueError(f"{name} {value!r} is not between 0 and 1")
        return float(value)

    @property
    def drop_rate(self) -> float:
        """The chance that an outgoing (board -> host) frame is lost."""
        return self._drop_rate

    @drop_rate.setter
    def drop_rate(self, value: float) -> None:
        self._drop_rate = self._check("drop_rate", value)

    @property
    def corrupt_rate(self) -> float:
        """The chance that an outgoing frame fails the host's CRC check."""
        return self._corrupt_rate

    @corrupt_rate.setter
    def corrupt_rate(self, value: float) -> None:
        self._corrupt_rate = self._check("corrupt_rate", value)

    @property
    def rx_drop_rate(self) -> float:
        """The chance that an incoming (host -> board) frame is lost."""
        return self._rx_drop_rate

    @rx_drop_rate.setter
    def rx_drop_rate(self, value: float) -> None:
        self._rx_drop_rate = self._check("rx_drop_rate", value)

    def clear(self) -> None:
        """Turn every fault off."""
        self.drop_rate = self.corrupt_rate = self.rx_drop_rate = 0.0

    def __repr__(self) -> str:
        return (
            f"FaultPlan(drop_rate={self.drop_rate}, corrupt_rate={self.corrupt_rate},"
            f" rx_drop_rate={self.rx_drop_rate})"
        )


def split_frames(data: bytes) -> list[bytes]:
    """Split wire bytes into frames, each ending with its zero delimiter (a trailing partial one last).

    >>> split_frames(b"\\x01\\x02\\x00\\x03\\x00\\x04")
    [b'\\x01\\x02\\x00', b'\\x03\\x00', b'\\x04']
    >>> split_frames(b"")
    []
    """
    parts = data.split(b"\x00")
    frames = [part + b"\x00" for part in parts[:-1]]
    if parts[-1]:
        frames.append(parts[-1])
    return frames


def corrupt_frame(wire: bytes, rng: random.Random) -> bytes:
    """``wire`` (one frame ending in 0x00) with one bit of its body flipped, so that its CRC fails.

    The result is still a well-formed COBS frame of the same body length, so
    the receiver counts a CRC error (a single-bit error never passes
    CRC-16). Bytes that are not a COBS frame get one bit flipped in place,
    never to zero.

    >>> from firmware_bridge.link.frames import Frame, FrameReader, encode_frame
    >>> card = encode_frame(Frame(0x21, 5, 255, bytes.fromhex("070000000c02")))
    >>> bad = corrupt_frame(card, random.Random(1))
    >>> FrameReader().feed(bad)
    [FrameError('CRC mismatch')]
    """
    encoded = wire[:-1] if wire.endswith(b"\x00") else wire
    if not encoded:
        return wire
    try:
        body = bytearray(cobs_decode(encoded))
    except CobsError:
        body = bytearray()
    if body:
        body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
        return cobs_encode(bytes(body)) + wire[len(encoded) :]
    raw = bytearray(encoded)
    at = rng.randrange(len(raw))
    bits = [1 << n for n in range(8) if raw[at] ^ (1 << n)]
    raw[at] ^= rng.choice(bits)
    return bytes(raw) + wire[len(encoded) :]


def noise_bytes(count: int, rng: random.Random) -> bytes:
    """``count`` random bytes of line noise, never all zeros (zeros alone would only be idle fill).

    >>> noise = noise_bytes(50, random.Random(3))
    >>> len(noise), any(noise)
    (50, True)
    """
    if count < 0:
        raise ValueError(f"noise of {count} bytes")
    data = bytearray(rng.randbytes(count))
    if count and not any(data):
        data[rng.randrange(count)] = rng.randrange(1, 256)
    return bytes(data)


class LineFaults:
    """What a :class:`FaultPlan` does to one board's line, drawn from the board's ``rng``, with its counters.

    >>> faults = LineFaults(random.Random(2))
    >>> faults.plan.drop_rate = 1.0
    >>> faults.outgoing(b"\\x02\\x01\\x00"), faults.frames_dropped
    (b'', 1)
    >>> faults.plan.rx_drop_rate = 1.0
    >>> faults.incoming(b"\\x02\\x01"), faults.incoming(b"\\x00\\x02"), faults.frames_dropped_rx
    (b'', b'', 1)
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        """The board's only source of randomness."""
        self.plan = FaultPlan()
        """The knobs; all off at first."""
        self.noise_sent = 0
        """Bytes of line noise written (:meth:`noise` and :meth:`inject`)."""
        self.frames_dropped = 0
        """Outgoing frames lost (``plan.drop_rate``)."""
        self.frames_corrupted = 0
        """Outgoing frames corrupted (``plan.corrupt_rate``)."""
        self.frames_dropped_rx = 0
        """Incoming frames lost (``plan.rx_drop_rate``)."""
        self._rx_partial = bytearray()

    def outgoing(self, frame: bytes) -> bytes:
        """``frame`` as it reaches the line: as it is, corrupted, or ``b""`` if dropped."""
        plan = self.plan
        if plan.drop_rate and self.rng.random() < plan.drop_rate:
            self.frames_dropped += 1
            return b""
        if plan.corrupt_rate and self.rng.random() < plan.corrupt_rate:
            self.frames_corrupted += 1
            return corrupt_frame(frame, self.rng)
        return frame

    def incoming(self, data: bytes) -> bytes:
        """What the firmware gets of ``data`` read from the line.

        While ``plan.rx_drop_rate`` is set, only whole frames pass (a partial
        one waits for its end), each kept or dropped; otherwise ``data`` as it is.
        """
        if not self.plan.rx_drop_rate:
            return data
        self._rx_partial += data
        end = self._rx_partial.rfind(0)
        if end < 0:
            return b""
        complete = bytes(self._rx_partial[: end + 1])
        del self._rx_partial[: end + 1]
        kept = bytearray()
        for frame in split_frames(complete):
            if self.rng.random() < self.plan.rx_drop_rate:
                self.frames_dropped_rx += 1
            else:
                kept += frame
        return bytes(kept)

    def forget_partial(self) -> None:
        """Drop the partial incoming frame held back (the line was cut)."""
        self._rx_partial.clear()

    def noise(self, count: int) -> bytes:
        """A burst of ``count`` random bytes of line noise (never all zeros), counted."""
        return self.inject(noise_bytes(count, self.rng))

    def inject(self, data: bytes) -> bytes:
        """``data`` counted as line noise."""
        self.noise_sent += len(data)
        return data
