"""The link protocol without I/O (sans-IO): sessions and go-back-N delivery, for the host and the board.

This is sections 2 and 4 of ``docs/protocol.md``. Nothing here reads
a clock or touches a file descriptor: the caller passes the monotonic time
``now`` (seconds) into every call, feeds received bytes to ``receive()``,
writes what ``take_output()`` hands back, and calls ``poll()`` no later than
``next_deadline()``. Host nonces come from an injected callable.

Both roles share one go-back-N sender and receiver (window 8, seq mod 256):

* A data message is kept until acknowledged. ``ack = k`` acknowledges the
  outstanding frame with seq k and every older one; an ack naming no
  outstanding frame acknowledges nothing. The ack of RESET and HELLO is ignored.
* The receiver delivers only the next expected seq and acknowledges at once:
  one ACK frame per ``receive()`` call, or the ack field of a data frame sent
  in the same call (piggyback). A duplicate or a frame after a gap is answered
  with an ACK naming the last seq delivered (255 if none this session).
* A data frame of an unknown type, or whose payload does not fit its type, is
  acknowledged like any other, counted and not delivered.
* When the oldest unacknowledged frame is not acknowledged within ``rto`` of
  being sent, all unacknowledged frames are sent again in order. When that
  timeout expires again after 10 such rounds without progress, the host ends
  the session and starts a new one; the board stops sending data and keeps
  its frames until the next RESET.
* A new session renumbers every unacknowledged and queued message from 0, in
  order, and sends them again.

Two sessions wired back to back:

>>> import itertools
>>> from firmware_bridge.link.messages import Card
>>> nonces = itertools.count(1)
>>> host = HostSession(stats=LinkStats(), nonce=lambda: next(nonces), rto=0.28)
>>> board = BoardSession(stats=LinkStats(), kind=1, firmware="fw-1", serial="SN-1", rto=0.28)
>>> board.boot(0.0)
>>> host.start(0.0)
>>> host.receive(board.take_output(), 0.0)  # the boot HELLO: the host RESETs again at once
[]
>>> board.receive(host.take_output(), 0.0)  # two RESETs, answered with two HELLOs
[SessionStarted(hello=None), SessionStarted(hello=None)]
>>> [type(e).__name__ for e in host.receive(board.take_output(), 0.0)]  # the stale HELLO is ignored
['SessionStarted']
>>> board.send(Card(index=1, rank=12, suit=2), 0.1)
>>> host.receive(board.take_output(), 0.1)
[Delivered(message=Card(index=1, rank=12, suit=2))]
>>> board.receive(host.take_output(), 0.1)  # the host's ACK
[]
>>> board.pending, host.stats.sessions, host.stats.ignored
(0, 1, 1)
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge.link.frames import (
    MAX_BODY,
    MAX_PAYLOAD,
    NO_ACK,
    Frame,
    FrameError,
    FrameReader,
    encode_frame,
)
from firmware_bridge.link.messages import (
    Ack,
    Hello,
    Message,
    PayloadError,
    Reset,
    is_data,
    pack,
    unpack,
)
from firmware_bridge.link.stats import LinkStats

__all__ = [
    "MAX_ROUNDS",
    "PROTOCOL_VERSION",
    "RESET_INTERVAL",
    "WINDOW",
    "BoardSession",
    "Delivered",
    "HostSession",
    "SessionEnded",
    "SessionStarted",
    "default_rto",
    "max_frame_wire_bytes",
]

WINDOW = 8
"""The most unacknowledged data frames a sender keeps on the line."""
SEQ_MOD = 256
MAX_ROUNDS = 10
"""Retransmission rounds without progress before the link counts as down."""
RESET_INTERVAL = 0.25
"""The host repeats RESET, with a new nonce, this often (seconds) until the HELLO."""
PROTOCOL_VERSION = 1
"""The ``protocol`` field a board puts in its HELLO."""
REASON_BOARD_RESTARTED = "board restarted"
REASON_NO_PROGRESS = f"no acknowledgement after {MAX_ROUNDS} retransmissions"


def max_frame_wire_bytes() -> int:
    """Bytes on the line of the largest frame: a 1030-byte body COBS-encoded, plus the delimiter.

    >>> max_frame_wire_bytes()
    1036
    """
    return MAX_BODY + math.ceil(MAX_BODY / 254) + 1


def default_rto(baudrate: int | None = 115200) -> float:
    """The retransmission timeout: 100 ms plus twice the line time of a largest frame (10 bits a byte).

    ``None`` is a link without line time (USB CDC-ACM).

    >>> round(default_rto(115200), 3)
    0.28
    >>> default_rto(None)
    0.1
    """
    if baudrate is None:
        return 0.1
    return 0.1 + 2 * max_frame_wire_bytes() * 10 / baudrate


@dataclass(frozen=True, slots=True)
class Delivered:
    """A data message from the peer, delivered in order, exactly once within a session."""

    message: Message


@dataclass(frozen=True, slots=True)
class SessionStarted:
    """A session started: on the host, ``hello`` is the HELLO that started it; on the board, None."""

    hello: Hello | None


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """(Host) the session ended: ``"board restarted"`` or ``"no acknowledgement after 10 ..."``."""

    reason: str


HostEvent = Delivered | SessionStarted | SessionEnded
BoardEvent = Delivered | SessionStarted


@dataclass(slots=True)
class _Outgoing:
    """A data message waiting or on the line: frame type, payload, and (once sent) its seq and send time."""

    type: int
    payload: bytes
    seq: int = 0
    sent_at: float = 0.0


@functools.cache
def _ack_wire(ack: int) -> bytes:
    """An ACK frame's wire bytes (one of 256, made once each: an ACK goes out after every data frame)."""
    return encode_frame(Frame(Ack.TYPE, 0, ack))


class _Session:
    """Framing, counters and the go-back-N sender and receiver shared by both roles."""

    def __init__(self, *, stats: LinkStats, rto: float) -> None:
        if rto <= 0:
            raise ValueError("rto must be positive")
        self.stats = stats
        """The counters this session updates."""
        self.rto = rto
        """The retransmission timeout in seconds."""
        self.in_session = False
        """Whether a session is up (data frames flow)."""
        self.last_received: float | None = None
        """``now`` of the last valid frame received (None before any)."""
        self._reader = FrameReader()
        self._out = bytearray()
        self._queue: deque[_Outgoing] = deque()
        self._unacked: deque[_Outgoing] = deque()
        self._reset_numbers()

    # --- public, both roles -------------------------------------------------

    @property
    def pending(self) -> int:
        """Data messages not yet acknowledged: those on the line plus those queued."""
        return len(self._unacked) + len(self._queue)

    def send(self, message: Message, now: float) -> None:
        """Queue a data message; it is sent in a session when the window allows, and kept until acked."""
        frame_type, payload = pack(message)
        self.send_raw(frame_type, payload, now)

    def send_raw(self, frame_type: int, payload: bytes, now: float) -> None:
        """Queue a data frame of any data type and payload (for tests and fault injection)."""
        if not is_data(frame_type):
            raise ValueError(f"frame type 0x{frame_type:02x} is a control frame, not data")
        if not 0 <= frame_type <= 255:
            raise ValueError(f"frame type {frame_type} is not a byte")
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"payload of {len(payload)} bytes exceeds {MAX_PAYLOAD}")
        self._queue.append(_Outgoing(frame_type, bytes(payload)))
        self._flush(now)

    def take_output(self) -> bytes:
        """The wire bytes to write now (whole frames), emptying the output buffer."""
        out = bytes(self._out)
        self._out.clear()
        return out

    # --- framing -------------------------------------------------------------

    def _emit(self, frame: Frame) -> None:
        self._emit_wire(encode_frame(frame))

    def _emit_wire(self, wire: bytes) -> None:
        self._out += wire
        self.stats.frames_sent += 1
        self.stats.bytes_sent += len(wire)

    def _feed(self, data: bytes, now: float) -> None:
        self.stats.bytes_received += len(data)
        for item in self._reader.feed(data):
            if isinstance(item, FrameError):
                self.stats.framing_errors += 1
                if item.args and item.args[0] == "CRC mismatch":
                    self.stats.crc_errors += 1
                continue
            self.stats.frames_received += 1
            self.last_received = now
            self._on_frame(item, now)
        self._flush(now)

    def _on_frame(self, frame: Frame, now: float) -> None:
        raise NotImplementedError

    def _deliver(self, message: Message) -> None:
        raise NotImplementedError

    # --- go-back-N -----------------------------------------------------------

    def _new_session(self) -> None:
        """Start the sequence spaces again; renumber every unacknowledged and queued message from 0."""
        self._queue.extendleft(reversed(self._unacked))
        self._unacked.clear()
        self._reset_numbers()
        self.in_session = True

    def _reset_numbers(self) -> None:
        """Both sequence spaces from the start: the sender's and the receiver's."""
        self._next_seq = 0
        self._rounds = 0
        self._stalled = False
        self._expected = 0
        self._last_delivered = NO_ACK
        self._ack_due = False

    def _on_ack(self, ack: int) -> None:
        if not self._unacked:
            return
        count = (ack - self._unacked[0].seq) % SEQ_MOD
        if count >= len(self._unacked):
            return  # names no outstanding frame
        for _ in range(count + 1):
            self._unacked.popleft()
        self._rounds = 0

    def _on_data(self, frame: Frame) -> None:
        self._on_ack(frame.ack)
        self._ack_due = True
        if frame.seq != self._expected:
            self.stats.out_of_order += 1
            return
        self._last_delivered = frame.seq
        self._expected = (frame.seq + 1) % SEQ_MOD
        try:
            message = unpack(frame.type, frame.payload)
        except KeyError:
            self.stats.unknown_frames += 1
            return
        except PayloadError:
            self.stats.malformed_payloads += 1
            return
        self._deliver(message)

    def _send_data(self, item: _Outgoing, now: float) -> None:
        item.sent_at = now
        self._emit(Frame(item.type, item.seq, self._last_delivered, item.payload))
        self._ack_due = False

    def _flush(self, now: float) -> None:
        """Send what the window allows, then an ACK if one is still owed."""
        if self.in_session and not self._stalled:
            while self._queue and len(self._unacked) < WINDOW:
                item = self._queue.popleft()
                item.seq = self._next_seq
                self._next_seq = (self._next_seq + 1) % SEQ_MOD
                self._unacked.append(item)
                self._send_data(item, now)
        if self._ack_due:
            # An ACK owed from a session that has just ended names a seq of that session: sent after the
            # RESET, the board would read it as acknowledging the frames it renumbered from 0.
            if self.in_session:
                self._emit_wire(_ack_wire(self._last_delivered))
            self._ack_due = False

    def _rto_deadline(self) -> float | None:
        if not self.in_session or self._stalled or not self._unacked:
            return None
        return self._unacked[0].sent_at + self.rto

    def _check_rto(self, now: float) -> bool:
        """Retransmit if the RTO expired; False when it expired after MAX_ROUNDS rounds without progress."""
        deadline = self._rto_deadline()
        if deadline is None or now < deadline:
            return True
        if self._rounds >= MAX_ROUNDS:
            return False
        self._rounds += 1
        for item in self._unacked:
            self._send_data(item, now)
            self.stats.retransmissions += 1
        return True


class HostSession(_Session):
    """The host (controller) end of one board's link.

    ``nonce`` returns RESET nonces (1 to 2**32-1; use ``secrets``); ``rto``
    is normally :func:`default_rto` of the port's baud rate. The session is
    idle until :meth:`start`.
    """

    def __init__(self, *, stats: LinkStats, nonce: Callable[[], int], rto: float) -> None:
        super().__init__(stats=stats, rto=rto)
        self._nonce_source = nonce
        self._nonce = 0
        self._reset_at: float | None = None
        self._events: list[HostEvent] = []
        self.hello: Hello | None = None
        """The HELLO that started the current (or last) session."""

    @property
    def nonce(self) -> int:
        """The nonce of the last RESET sent (0 before any)."""
        return self._nonce

    def start(self, now: float) -> None:
        """(Re)start: end any session silently, send RESET with a new nonce, and repeat every 250 ms."""
        self.in_session = False
        self._send_reset(now)

    def stop(self, reason: str = "stopped") -> list[SessionEnded]:
        """Go idle (port closed): end the session, send no RESETs, drop partial input and unsent output.

        Data messages not yet acknowledged are kept for the next session.
        """
        ended = [SessionEnded(reason)] if self.in_session else []
        self.in_session = False
        self._reset_at = None
        self._out.clear()
        self._reader = FrameReader()
        return ended

    def receive(self, data: bytes, now: float) -> list[HostEvent]:
        """Take bytes read from the port; return what they caused, in order."""
        self._events = []
        self._feed(data, now)
        return self._events

    def poll(self, now: float) -> list[SessionEnded]:
        """Run the timers: RESET repeat, retransmission, and link down after 10 rounds."""
        if not self.in_session:
            if self._reset_at is not None and now >= self._reset_at:
                self._send_reset(now)
            return []
        if not self._check_rto(now):
            self.in_session = False
            self._send_reset(now)
            return [SessionEnded(REASON_NO_PROGRESS)]
        return []

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must next be called (None: only after new input or a call)."""
        if not self.in_session:
            return self._reset_at
        return self._rto_deadline()

    def _send_reset(self, now: float) -> None:
        nonce = self._nonce_source()
        if not 0 < nonce <= 0xFFFFFFFF:
            raise ValueError(f"RESET nonce {nonce} is not 1 to 2**32-1")
        self._nonce = nonce
        self._emit(Frame(Reset.TYPE, 0, NO_ACK, pack(Reset(nonce))[1]))
        self.stats.resets += 1
        self._reset_at = now + RESET_INTERVAL

    def _deliver(self, message: Message) -> None:
        self._events.append(Delivered(message))

    def _on_frame(self, frame: Frame, now: float) -> None:
        if frame.type == Hello.TYPE:
            self._on_hello(frame, now)
        elif frame.type == Reset.TYPE or not self.in_session:
            self.stats.ignored += 1
        elif frame.type == Ack.TYPE:
            self._on_ack(frame.ack)
        else:
            self._on_data(frame)

    def _on_hello(self, frame: Frame, now: float) -> None:
        try:
            hello = unpack(frame.type, frame.payload)
        except PayloadError:
            self.stats.malformed_payloads += 1
            return
        assert isinstance(hello, Hello)
        if self.in_session:
            # A HELLO in a session: the board has started another one (renumbered from 0), whatever
            # the nonce; going on in this one would misread its seqs and acks.
            self._events.append(SessionEnded(REASON_BOARD_RESTARTED))
            self.in_session = False
            self._send_reset(now)
        elif self._reset_at is None:
            self.stats.ignored += 1  # idle
        elif hello.nonce == self._nonce:
            self._new_session()
            self._reset_at = None
            self.hello = hello
            self.stats.sessions += 1
            self._events.append(SessionStarted(hello))
        elif hello.nonce == 0:
            self._send_reset(now)  # the board booted: RESET at once
        else:
            self.stats.ignored += 1  # echoes an older RESET


class BoardSession(_Session):
    """The board (firmware) end of a link, for the simulator and tests.

    ``kind`` (1 shoe, 2 RFID), ``firmware`` and ``serial`` go into every HELLO.
    """

    def __init__(self, *, stats: LinkStats, kind: int, firmware: str, serial: str, rto: float) -> None:
        super().__init__(stats=stats, rto=rto)
        self.kind = kind
        self.firmware = firmware
        self.serial = serial
        self._events: list[BoardEvent] = []

    @property
    def stalled(self) -> bool:
        """Whether the board stopped sending after 10 rounds without progress (until the next RESET)."""
        return self._stalled

    def boot(self, now: float) -> None:
        """Power on: send HELLO with nonce 0, unasked; no data frames until a RESET is answered."""
        self.in_session = False
        self._send_hello(0)

    def receive(self, data: bytes, now: float) -> list[BoardEvent]:
        """Take bytes from the host; return what they caused, in order."""
        self._events = []
        self._feed(data, now)
        return self._events

    def poll(self, now: float) -> None:
        """Run the retransmission timer; after 10 rounds without progress, stop sending until a RESET."""
        if not self._check_rto(now):
            self._stalled = True

    def next_deadline(self) -> float | None:
        """When :meth:`poll` must next be called (None: only after new input or a call)."""
        return self._rto_deadline()

    def _send_hello(self, nonce: int) -> None:
        hello = Hello(nonce, self.kind, PROTOCOL_VERSION, self.firmware, self.serial)
        self._emit(Frame(Hello.TYPE, 0, NO_ACK, pack(hello)[1]))

    def _deliver(self, message: Message) -> None:
        self._events.append(Delivered(message))

    def _on_frame(self, frame: Frame, now: float) -> None:
        if frame.type == Reset.TYPE:
            try:
                reset = unpack(frame.type, frame.payload)
            except PayloadError:
                self.stats.malformed_payloads += 1
                return
            assert isinstance(reset, Reset)
            self._send_hello(reset.nonce)
            self.stats.resets += 1
            self.stats.sessions += 1
            self._new_session()
            self._events.append(SessionStarted(None))
        elif frame.type == Hello.TYPE or not self.in_session:
            self.stats.ignored += 1
        elif frame.type == Ack.TYPE:
            self._on_ack(frame.ack)
        else:
            self._on_data(frame)
