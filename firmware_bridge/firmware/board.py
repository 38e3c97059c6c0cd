"""The board core of the reference firmware: the link, the heartbeat and the application, cooperatively.

:class:`Board` owns the :class:`link.Link` and drives one application (the
shoe's ``ShoeApp`` or the RFID reader's ``SpotReader``), which implements::

    kind                        1 shoe, 2 RFID reader
    poll(now_ms)                a bounded slice of the application's work
    take_messages()             [(msg_type, payload), ...] to send, in order; clears them
    snapshot()                  what to send when a session starts (RFID: INVENTORY of each antenna)
    snapshot_types              the message types a snapshot says again (RFID: INVENTORY; shoe: none)
    status_flags()              the STATUS flags (docs/protocol.md section 3)
    on_spot_lights(mask)        SPOT_LIGHTS from the host
    next_deadline_ms(now_ms)    when poll should next run, or None

:meth:`Board.poll` does one bounded slice of work and returns when it next
needs to run: it feeds the watchdog, reads what the port has, hands the host's
SPOT_LIGHTS to the application, polls the application, queues its messages as
data frames, sends STATUS at least once a second in a session (skipped while a
full window waits for acknowledgement: the data flowing is then the
heartbeat), and writes the link's output. It never blocks.

Out of memory: a ``MemoryError`` in any of the three steps (the host's bytes, the application's
slice and its messages, the heartbeat and the output) drops that step of this poll (the bytes read,
the slice, the messages taken) and is counted in :attr:`Board.memory_errors`, which STATUS then
carries (docs/protocol.md, STATUS: ``memory_errors``); the next poll goes on as usual, so the board
never stops for it, and the watchdog never resets it for it.

``port`` has ``read()`` (the bytes waiting, or None/b"" if none; never blocks)
and ``write(data)``. Times are ints of ms that only grow (main.py unwraps
``time.ticks_ms``). Outside a session, the application's messages of its
``snapshot_types`` are not queued: the snapshot at the session's start says
what they said, newer (a reader of 32 antennas would otherwise fill the queue
with their INVENTORY and its repeats while no host is there). In a session that makes
progress the application's messages are taken only while fewer than
:data:`TAKE_BELOW` wait in the link (the reader's INVENTORY, made when taken,
then costs no memory while the host catches up). When the link's queue is
full the application's messages are dropped and counted, and FAULT 4 (buffer
overflow) says how many once there is room again. A new session drops
the queued messages of ``snapshot_types`` and STATUS first: its snapshot and
STATUS say them again, newer.
"""

import struct

import link

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: MicroPython has no typing module
    from typing import Protocol

    class App(Protocol):
        """What the board core drives (the module docstring)."""

        kind: int

        @property
        def snapshot_types(self) -> "tuple[int, ...]": ...

        def poll(self, now_ms: int) -> None: ...
        def take_messages(self) -> "list[tuple[int, bytes]]": ...
        def snapshot(self) -> "list[tuple[int, bytes]]": ...
        def status_flags(self) -> int: ...
        def on_spot_lights(self, mask: int) -> None: ...
        def next_deadline_ms(self, now_ms: int) -> "int | None": ...

    class Port(Protocol):
        """The serial port to the host."""

        def read(self) -> "bytes | None": ...
        def write(self, data: "bytes | memoryview") -> object:
            """Write ``data`` (a view of the link's buffer: copied or written at once, never kept)."""

    class Watchdog(Protocol):
        """machine.WDT."""

        def feed(self) -> None: ...

STATUS = 0x10
FAULT = 0x40
STATUS_INTERVAL_MS = 800
TAKE_BELOW = 12
"""In a session that makes progress, the application's messages are taken while fewer than this many
wait in the link (on the line or queued); else they wait in the application until the host catches up."""
FAULT_OVERFLOW = 4
FAULT_WATCHDOG = 5


def fault_payload(code: int, text: str) -> bytes:
    """The FAULT payload: u16 code and the text as a string (cut to 255 bytes)."""
    data = text.encode()[:255]
    return struct.pack("<HB", code, len(data)) + data


class Board:
    """The link, heartbeat and application of one board; see the module docstring."""

    def __init__(self, app: "App", port: "Port", firmware: str, serial: str, now_ms: int,
                 wdt: "Watchdog | None" = None, rto_ms: int = 100,
                 boot_faults: "list[tuple[int, str]] | None" = None) -> None:
        self.app = app
        self.port = port
        self.wdt = wdt
        self.link = link.Link(app.kind, firmware, serial, rto_ms)
        self.boot_ms = now_ms
        self.lost = 0
        """Application messages dropped because the link's queue was full (reported in FAULT 4)."""
        self.memory_errors = 0
        """``MemoryError`` caught since boot, each dropping a step of a poll (reported in STATUS)."""
        self._next_status: int | None = None
        self.link.boot()
        self._queue([(FAULT, fault_payload(code, text)) for code, text in boot_faults or []], now_ms)
        self._write()

    def uptime_ms(self, now_ms: int) -> int:
        """Milliseconds since boot, as STATUS reports it (mod 2**32)."""
        return (now_ms - self.boot_ms) & 0xFFFFFFFF

    def poll(self, now_ms: int) -> "int | None":
        """One slice of work; returns when to run next (ms), or None if only input can wake it."""
        if self.wdt is not None:
            self.wdt.feed()
        for step in (self._serve, self._run_app, self._heartbeat):
            try:
                step(now_ms)
            except MemoryError:
                self.memory_errors += 1
        return self._deadline(now_ms)

    def _serve(self, now_ms: int) -> None:
        """What the host sent: a session started, the spot lights."""
        data = self.port.read()
        if data:
            started = False
            for msg_type, payload in self.link.receive(data, now_ms):
                if msg_type == link.RESET:
                    started = True  # several RESETs read at once start one session's worth of snapshots
                elif msg_type == link.SPOT_LIGHTS:
                    self.app.on_spot_lights(struct.unpack("<I", payload)[0])
            if started:
                self._session_started(now_ms)

    def _run_app(self, now_ms: int) -> None:
        """The application's slice, and its messages queued."""
        self.app.poll(now_ms)
        if self.link.in_session and not self.link.stalled and self.link.pending >= TAKE_BELOW:
            return
        messages = self.app.take_messages()
        if not self.link.in_session:
            messages = [m for m in messages if m[0] not in self.app.snapshot_types]
        self._queue(messages, now_ms)

    def _heartbeat(self, now_ms: int) -> None:
        """STATUS when due, the link's retransmissions, and the output written."""
        if self.link.in_session and self._next_status is not None and now_ms - self._next_status >= 0:
            if self.link.pending < link.WINDOW:
                self._send_status(now_ms)
            self._next_status = now_ms + STATUS_INTERVAL_MS
        self.link.poll(now_ms)
        self._write()

    def _session_started(self, now_ms: int) -> None:
        # What waits from before says what the snapshot says again, older: a host that RESETs a few
        # times before it reads the HELLO (it repeats RESET every 250 ms) would otherwise stack a
        # snapshot per RESET in the queue, and overflow it (FAULT 4) with stale copies.
        self.link.discard(tuple(self.app.snapshot_types))
        self.link.discard((STATUS,))
        self._queue(self.app.snapshot(), now_ms)
        self._send_status(now_ms)
        self._next_status = now_ms + STATUS_INTERVAL_MS

    def _send_status(self, now_ms: int) -> None:
        """STATUS: uptime and flags, and ``memory_errors`` (u16) once there was one (a board that never
        ran out of memory sends the 6 bytes of before, which every host takes)."""
        payload = struct.pack("<IH", self.uptime_ms(now_ms), self.app.status_flags() & 0xFFFF)
        if self.memory_errors:
            payload += struct.pack("<H", min(self.memory_errors, 0xFFFF))
        self.link.send(STATUS, payload, now_ms)

    def _queue(self, messages: "list[tuple[int, bytes]]", now_ms: int) -> None:
        """Hand messages to the link in order; first FAULT 4 for any lost before, once there is room."""
        if self.lost and self.link.send(FAULT, fault_payload(FAULT_OVERFLOW, f"{self.lost} events lost"),
                                        now_ms):
            self.lost = 0
        for msg_type, payload in messages:
            if not self.link.send(msg_type, payload, now_ms):
                self.lost += 1

    def _write(self) -> None:
        out = self.link.output()
        if out:
            self.port.write(out)
        self.link.clear_output()

    def _deadline(self, now_ms: int) -> "int | None":
        deadline = self.link.next_deadline()
        for other in (self._next_status if self.link.in_session else None, self.app.next_deadline_ms(now_ms)):
            if other is not None and (deadline is None or other - deadline < 0):
                deadline = other
        return deadline
