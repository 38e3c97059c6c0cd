"""The board side of the link protocol (docs/protocol.md), in MicroPython: framing and the session.

Framing: COBS, CRC-16/CCITT-FALSE, the frame body (version, type, seq, ack,
payload, CRC) and a reader that splits the byte stream at zero bytes. Session
(sections 2 and 4): HELLO with nonce 0 at boot, a HELLO echoing the nonce of
every RESET (which starts a session: seq 0, expected 0, unacknowledged frames
renumbered from 0), go-back-N with a window of 8, retransmission after the RTO
(100 ms on USB), and after 10 rounds without progress no more sending until
the next RESET. Data frames of an unknown type, or whose payload does not fit
their type, are acknowledged, counted and not delivered.

Nothing here reads a clock or does I/O: the caller passes ``now_ms`` (an int of
milliseconds that only grows, see main.py), feeds bytes to :meth:`Link.receive`,
writes :meth:`Link.output` (then :meth:`Link.clear_output`) and calls :meth:`Link.poll` by
:meth:`Link.next_deadline`. The same file runs on the Pico and under CPython (the tests, the runner).

Memory (docs/boards.md, "Memory"): frames are COBS-encoded straight into an output buffer of
:data:`OUTPUT_BYTES` allocated once (a new data frame that finds no room there waits in the queue for
the next call, a retransmitted one for the next round, a due ACK for the next call), the frame reader
gathers the host's bytes in a buffer of its own, and the payloads waiting or on the line are bounded,
:data:`MAX_QUEUE` messages beyond the window and :data:`MAX_QUEUED_BYTES` bytes in all.
"""

import struct

VERSION = 1
MIN_BODY = 6
MAX_BODY = 1030
MAX_PAYLOAD = MAX_BODY - MIN_BODY
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2
NO_ACK = 255
WINDOW = 8
MAX_ROUNDS = 10
MAX_QUEUE = 32
MAX_QUEUED_BYTES = 16 * 1024
OUTPUT_BYTES = 2 * MAX_ENCODED + 256
PROTOCOL = 1

ACK = 0x00
RESET = 0x01
HELLO = 0x02
SPOT_LIGHTS = 0x50
HOST_DATA = {SPOT_LIGHTS: 4}
"""The data messages a board takes from the host, with their payload lengths."""

_TABLE: list[int] = []
for _byte in range(256):
    _crc = _byte << 8
    for _bit in range(8):
        _crc = ((_crc << 1) ^ 0x1021) & 0xFFFF if _crc & 0x8000 else (_crc << 1) & 0xFFFF
    _TABLE.append(_crc)


def crc16(data: "bytes | memoryview", crc: int = 0xFFFF) -> int:
    """The CRC-16/CCITT-FALSE of ``data`` (poly 0x1021, init 0xFFFF, not reflected); ``crc``: the CRC of
    what came before ``data``, to go on from."""
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_decode(encoded: bytes) -> bytes | None:
    """Decode one COBS frame (without its delimiter); None if a code byte is 0 or runs past the end."""
    out = bytearray()
    i = 0
    size = len(encoded)
    while i < size:
        code = encoded[i]
        end = i + code
        if code == 0 or end > size:
            return None
        out.extend(encoded[i + 1 : end])
        i = end
        if code != 0xFF and i < size:
            out.append(0)
    return bytes(out)


def encoded_size(payload_size: int) -> int:
    """The most wire bytes a frame of ``payload_size`` bytes of payload takes (COBS, the delimiter)."""
    body = MIN_BODY + payload_size
    return body + body // 254 + 2


def encode_into(out: bytearray, at: int, frame_type: int, seq: int, ack: int,
                payload: "bytes | memoryview") -> int:
    """Write the wire bytes of one frame (ending in the zero delimiter) into ``out`` from ``at``, which
    has room for :func:`encoded_size` of them; returns where they end. Nothing is allocated: the body
    (version, type, seq, ack, payload, CRC) is COBS-encoded byte by byte as it is read."""
    head = (VERSION, frame_type, seq, ack)
    crc = 0xFFFF
    table = _TABLE
    for byte in head:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    crc = crc16(payload, crc)
    size = len(payload)
    last = size + 5
    code_at = at
    at += 1
    code = 1
    for i in range(last + 1):
        if i < 4:
            byte = head[i]
        elif i < size + 4:
            byte = payload[i - 4]
        else:
            byte = crc & 0xFF if i == size + 4 else crc >> 8
        if byte == 0:
            out[code_at] = code
            code_at = at
            at += 1
            code = 1
            continue
        out[at] = byte
        at += 1
        code += 1
        if code == 0xFF:
            out[code_at] = code
            if i == last:
                code_at = -1
                break
            code_at = at
            at += 1
            code = 1
    if code_at >= 0:
        out[code_at] = code
    out[at] = 0
    return at + 1


def encode_frame(frame_type: int, seq: int, ack: int, payload: bytes) -> bytes:
    """The wire bytes of one frame, ending in the zero delimiter."""
    out = bytearray(encoded_size(len(payload)))
    end = encode_into(out, 0, frame_type, seq, ack, payload)
    return bytes(memoryview(out)[:end])


def decode_frame(encoded: bytes) -> "tuple[int, int, int, bytes] | None":
    """``(type, seq, ack, payload)`` of one frame's COBS bytes, or None for a framing error."""
    body = cobs_decode(encoded)
    if body is None or not MIN_BODY <= len(body) <= MAX_BODY or body[0] != VERSION:
        return None
    if struct.unpack("<H", body[-2:])[0] != crc16(body[:-2]):
        return None
    return body[1], body[2], body[3], bytes(body[4:-2])


class FrameReader:
    """Splits the byte stream into frames at zero bytes; garbage costs only the frames it touched."""

    def __init__(self) -> None:
        self._buffer = bytearray(MAX_ENCODED)
        self._size = 0
        self._overlong = False
        self.errors = 0
        """Frames dropped: bad COBS, length, version or CRC, or too long without a delimiter."""

    def feed(self, data: bytes) -> "list[tuple[int, int, int, bytes]]":
        """The frames ``(type, seq, ack, payload)`` that ``data`` completes, in order."""
        out: list[tuple[int, int, int, bytes]] = []
        buffer = self._buffer
        for byte in data:
            if byte:
                if not self._overlong:
                    if self._size == MAX_ENCODED:
                        self._overlong = True
                    else:
                        buffer[self._size] = byte
                        self._size += 1
                continue
            if self._overlong:
                self.errors += 1
            elif self._size:
                frame = decode_frame(bytes(memoryview(buffer)[: self._size]))
                if frame is None:
                    self.errors += 1
                else:
                    out.append(frame)
            self._size = 0
            self._overlong = False
        return out


class Outgoing:
    """A data message waiting or on the line: its type, payload, and (once sent) seq and send time."""

    def __init__(self, frame_type: int, payload: bytes) -> None:
        self.type = frame_type
        self.payload = payload
        self.seq = 0
        self.sent_ms = 0


class Link:
    """The board's end of the link: one session at a time, go-back-N, kept across sessions.

    ``receive`` returns the host's data messages delivered in order, as
    ``(type, payload)``, and ``(RESET, nonce bytes)`` where a RESET started a
    session. Outgoing data waits in a queue of at most :data:`MAX_QUEUE`
    messages beyond the window; :meth:`send` says False when it is full.
    """

    def __init__(self, kind: int, firmware: str, serial: str, rto_ms: int = 100) -> None:
        self.kind = kind
        self.firmware = firmware
        self.serial = serial
        self.rto_ms = rto_ms
        self.reader = FrameReader()
        self.in_session = False
        self.stalled = False
        self.sessions = 0
        self.unknown = 0
        self.malformed = 0
        self.out_of_order = 0
        self.retransmissions = 0
        self._out = bytearray(OUTPUT_BYTES)
        self._out_size = 0
        self._queued_bytes = 0
        self._queue: list[Outgoing] = []
        self._unacked: list[Outgoing] = []
        self._numbers()

    def _numbers(self) -> None:
        self._next_seq = 0
        self._expected = 0
        self._last_delivered = NO_ACK
        self._rounds = 0
        self._ack_due = False
        self.stalled = False

    @property
    def pending(self) -> int:
        """Data messages not yet acknowledged: on the line plus queued."""
        return len(self._unacked) + len(self._queue)

    def boot(self) -> None:
        """Power on: HELLO with nonce 0, unasked; no data until a RESET is answered."""
        self.in_session = False
        self._hello(0)

    def send(self, frame_type: int, payload: bytes, now_ms: int) -> bool:
        """Queue a data message (sent in a session as the window allows); False if the queue is full
        (:data:`MAX_QUEUE` messages, or :data:`MAX_QUEUED_BYTES` of payload with those on the line)."""
        if len(self._queue) >= MAX_QUEUE or self._queued_bytes + len(payload) > MAX_QUEUED_BYTES:
            return False
        self._queue.append(Outgoing(frame_type, bytes(payload)))
        self._queued_bytes += len(payload)
        self._flush(now_ms)
        return True

    def discard(self, types: "tuple[int, ...]") -> int:
        """Drop the queued data messages of ``types`` (not those on the line); returns how many."""
        kept = [item for item in self._queue if item.type not in types]
        dropped = len(self._queue) - len(kept)
        for item in self._queue:
            if item.type in types:
                self._queued_bytes -= len(item.payload)
        self._queue = kept
        return dropped

    def output(self) -> memoryview:
        """The wire bytes to write now: a view of the output buffer, good until the next call of the
        link (write it, then :meth:`clear_output`)."""
        return memoryview(self._out)[: self._out_size]

    def clear_output(self) -> None:
        """The output was written: empty the buffer."""
        self._out_size = 0

    def take_output(self) -> bytes:
        """The wire bytes to write now (a copy), emptying the output buffer."""
        out = bytes(self.output())
        self._out_size = 0
        return out

    def _room_for(self, item: Outgoing) -> bool:
        return self._out_size + encoded_size(len(item.payload)) <= OUTPUT_BYTES

    def _emit(self, frame_type: int, seq: int, ack: int, payload: "bytes | memoryview") -> bool:
        """Encode a frame into the output buffer; False (nothing written) if it has no room."""
        if self._out_size + encoded_size(len(payload)) > OUTPUT_BYTES:
            return False
        self._out_size = encode_into(self._out, self._out_size, frame_type, seq, ack, payload)
        return True

    def receive(self, data: bytes, now_ms: int) -> "list[tuple[int, bytes]]":
        """Take bytes from the host; returns ``(type, payload)`` of what they delivered, in order."""
        delivered: list[tuple[int, bytes]] = []
        for frame in self.reader.feed(data):
            self._on_frame(frame, delivered)
        self._flush(now_ms)
        return delivered

    def next_deadline(self) -> "int | None":
        """When :meth:`poll` must run next (the RTO of the oldest unacknowledged frame), or None."""
        if not self.in_session or self.stalled or not self._unacked:
            return None
        return self._unacked[0].sent_ms + self.rto_ms

    def poll(self, now_ms: int) -> None:
        """Retransmit every unacknowledged frame if the RTO expired; stall after 10 rounds in vain."""
        deadline = self.next_deadline()
        if deadline is None or now_ms - deadline < 0:
            return
        if self._rounds >= MAX_ROUNDS:
            self.stalled = True
            return
        self._rounds += 1
        for item in self._unacked:
            self._send_data(item, now_ms)
            self.retransmissions += 1

    def _hello(self, nonce: int) -> None:
        name = self.firmware.encode()
        serial = self.serial.encode()
        payload = struct.pack("<IBB", nonce, self.kind, PROTOCOL) + bytes((len(name),)) + name
        self._emit(HELLO, 0, NO_ACK, payload + bytes((len(serial),)) + serial)

    def _on_frame(self, frame: "tuple[int, int, int, bytes]", delivered: "list[tuple[int, bytes]]") -> None:
        frame_type, seq, ack, payload = frame
        if frame_type == RESET:
            if len(payload) != 4:
                self.malformed += 1
                return
            self._hello(struct.unpack("<I", payload)[0])
            self._queue = self._unacked + self._queue
            self._unacked = []
            self._numbers()
            self.in_session = True
            self.sessions += 1
            delivered.append((RESET, payload))
        elif frame_type == HELLO or not self.in_session:
            return
        elif frame_type == ACK:
            self._on_ack(ack)
        else:
            self._on_data(frame_type, seq, ack, payload, delivered)

    def _on_ack(self, ack: int) -> None:
        if not self._unacked:
            return
        count = (ack - self._unacked[0].seq) % 256
        if count >= len(self._unacked):
            return
        for item in self._unacked[: count + 1]:
            self._queued_bytes -= len(item.payload)
        del self._unacked[: count + 1]
        self._rounds = 0

    def _on_data(self, frame_type: int, seq: int, ack: int, payload: bytes,
                 delivered: "list[tuple[int, bytes]]") -> None:
        self._on_ack(ack)
        self._ack_due = True
        if seq != self._expected:
            self.out_of_order += 1
            return
        self._last_delivered = seq
        self._expected = (seq + 1) % 256
        size = HOST_DATA.get(frame_type)
        if size is None:
            self.unknown += 1
        elif len(payload) != size:
            self.malformed += 1
        else:
            delivered.append((frame_type, payload))

    def _send_data(self, item: Outgoing, now_ms: int) -> None:
        item.sent_ms = now_ms
        if self._emit(item.type, item.seq, self._last_delivered, item.payload):
            self._ack_due = False

    def _flush(self, now_ms: int) -> None:
        if self.in_session and not self.stalled:
            while self._queue and len(self._unacked) < WINDOW and self._room_for(self._queue[0]):
                item = self._queue.pop(0)
                item.seq = self._next_seq
                self._next_seq = (self._next_seq + 1) % 256
                self._unacked.append(item)
                self._send_data(item, now_ms)
        if self._ack_due:
            if self.in_session and not self._emit(ACK, 0, self._last_delivered, b""):
                return                         # no room now: the ACK goes at the next call
            self._ack_due = False
