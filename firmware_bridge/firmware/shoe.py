"""The card shoe application of the reference firmware: scanner, beam sensor and load button.

Each card carries a printed code (cardcode.py) that a barcode scanner module
reads, on a UART, as the card slides out; past the scanner an infrared beam
across the shoe's mouth says that a card really left. A *passage* is the beam
blocked and then clear again; the reads that belong to it are those from
:data:`LEAD_MS` before the beam was blocked until :data:`SETTLE_MS` after it
cleared, when the passage is decided:

* one card's code: CARD with the next index; the cut card's code: CUT_CARD
  naming the last index (the index does not move);
* no code, only garbage, or two different codes: CARD_UNREADABLE with the
  next index (never a wrong card);
* the same code read twice in one passage is one card; a code already drawn
  from this shoe (the same deck mark and card) is CARD_UNREADABLE;
* a read with no passage (a card pushed out and back) is dropped after
  :data:`LEAD_MS` and never reported;
* the beam blocked for :data:`STUCK_MS` (a stuck card, or the sensor): FAULT 1
  once, and STATUS bit 2 until it clears; the passage then ends as any other;
* a passage with no shoe loaded since power-on: FAULT 6, no card.

The LOAD button starts a new shoe: a shoe id never used before (flashstore.ShoeIds),
the configured decks, index 0: SHOE_LOADED. The shoe (id, decks, index) is kept
in the watchdog scratch (flashstore.ShoeMemory) after every change, so after a
watchdog reset the shoe goes on with the next index; what was only in RAM (frames
not yet acknowledged, a passage being decided, the codes drawn) is lost.
STATUS bit 1 (shoe empty): no shoe loaded, or decks x 52 cards drawn.
"""

import struct

import cardcode

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: MicroPython has no typing module
    from flashstore import ShoeIds, ShoeMemory
    from machine import UART, Pin

KIND = 1
SHOE_LOADED = 0x20
CARD = 0x21
CARD_UNREADABLE = 0x22
CUT_CARD = 0x23
FAULT = 0x40
FAULT_SENSOR = 1
FAULT_NO_SHOE = 6
SHOE_EMPTY = 1 << 1
OPTICAL_FAULT = 1 << 2
LEAD_MS = 500
SETTLE_MS = 150
STUCK_MS = 3000
DEBOUNCE_MS = 500
MAX_LINE = 64
MAX_READS = 16


class ShoeApp:
    """The shoe; ``scanner`` (UART: any, read), ``beam`` and ``load_button`` (Pin: value, irq) injected.

    ``both_edges`` and ``falling`` are the ``Pin.IRQ_*`` triggers to register;
    ``blocked_level`` the beam pin's level while the beam is broken; ``ids`` a
    flashstore.ShoeIds, ``memory`` a flashstore.ShoeMemory; ``decks`` what
    SHOE_LOADED reports.
    """

    kind = KIND
    snapshot_types = ()

    def __init__(self, scanner: "UART", beam: "Pin", load_button: "Pin", ids: "ShoeIds", memory: "ShoeMemory",
                 decks: int, both_edges: int, falling: int, blocked_level: int = 0) -> None:
        self.scanner = scanner
        self.beam = beam
        self.ids = ids
        self.memory = memory
        self.decks = decks
        self.blocked_level = blocked_level
        self.garbage = 0
        """Scanner lines that were no code."""
        self.unused_reads = 0
        """Codes read with no card leaving the shoe (dropped)."""
        self._messages: list[tuple[int, bytes]] = []
        self._line = bytearray()
        self._reads: list[tuple[int, tuple[int, int, int] | None]] = []
        self._edges: list[int] = []
        self._passages: list[tuple[int, int]] = []
        self._blocked_at: int | None = None
        self._stuck = False
        self._presses = 0
        self._last_press: int | None = None
        self._drawn: set[tuple[int, int, int]] = set()
        kept = memory.load()
        self.shoe_id: int | None = kept[0] if kept else None
        self.shoe_decks: int = kept[1] if kept else 0
        self.index: int = kept[2] if kept else 0
        beam.irq(handler=self._on_beam, trigger=both_edges)
        load_button.irq(handler=self._on_load, trigger=falling)
        if beam.value() == blocked_level:
            self._edges.append(blocked_level)

    def _on_beam(self, pin: "Pin") -> None:
        self._edges.append(pin.value())

    def _on_load(self, pin: "Pin") -> None:
        self._presses += 1

    # --- the app interface ---------------------------------------------------

    def take_messages(self) -> "list[tuple[int, bytes]]":
        """The messages to send, in order; clears them."""
        out = self._messages
        self._messages = []
        return out

    def snapshot(self) -> "list[tuple[int, bytes]]":
        """A shoe sends nothing more when a session starts."""
        return []

    def status_flags(self) -> int:
        """Bit 1 shoe empty (or not loaded), bit 2 the beam blocked too long."""
        flags = OPTICAL_FAULT if self._stuck else 0
        if self.shoe_id is None or self.index >= self.shoe_decks * 52:
            flags |= SHOE_EMPTY
        return flags

    def on_spot_lights(self, mask: int) -> None:
        """A shoe has no spots."""

    def next_deadline_ms(self, now_ms: int) -> "int | None":
        """The next passage to decide, read to drop, or stuck beam to report."""
        times = [end + SETTLE_MS for _, end in self._passages]
        if self._reads and self._blocked_at is None:
            times.append(self._reads[0][0] + LEAD_MS)
        if self._blocked_at is not None and not self._stuck:
            times.append(self._blocked_at + STUCK_MS)
        if self._edges or self._presses or self.scanner.any():
            times.append(now_ms)
        return min(times) if times else None

    def poll(self, now_ms: int) -> None:
        """Take the button, scanner bytes and beam edges; decide the passages that are due."""
        if self._presses:
            self._presses = 0
            if self._last_press is None or now_ms - self._last_press >= DEBOUNCE_MS:
                self._last_press = now_ms
                self._load()
        self._read_scanner(now_ms)
        edges, self._edges = self._edges, []
        for level in edges:
            self._edge(level == self.blocked_level, now_ms)
        if self._blocked_at is not None and not self._stuck and now_ms - self._blocked_at >= STUCK_MS:
            self._stuck = True
            self._fault(FAULT_SENSOR, "beam blocked: a card stuck in the mouth, or the sensor")
        while self._passages and now_ms - (self._passages[0][1] + SETTLE_MS) >= 0:
            start, end = self._passages.pop(0)
            self._decide(start, end)
        self._drop_stale_reads(now_ms)

    def busy(self) -> bool:
        """Whether a beam edge, scanner byte or passage still waits to be taken or decided."""
        return bool(self._edges or self._passages or self.scanner.any())

    # --- the work ------------------------------------------------------------

    def _load(self) -> None:
        self.shoe_id = self.ids.take()
        self.shoe_decks = self.decks
        self.index = 0
        self._drawn = set()
        self.memory.save(self.shoe_id, self.shoe_decks, 0)
        self._messages.append((SHOE_LOADED, struct.pack("<IB", self.shoe_id, self.shoe_decks)))

    def _read_scanner(self, now_ms: int) -> None:
        count = self.scanner.any()
        data = self.scanner.read(count) if count else None
        for byte in data or b"":
            if byte in (10, 13):
                if self._line:
                    self._add_read(now_ms, cardcode.parse(self._line))
                self._line = bytearray()
            elif len(self._line) < MAX_LINE:
                self._line.append(byte)

    def _add_read(self, now_ms: int, code: "tuple[int, int, int] | None") -> None:
        """Keep a read: the same code (or garbage) read again only refreshes its time, and at most
        MAX_READS are kept (a scanner repeating itself for hours must not fill the memory)."""
        if code is None:
            self.garbage += 1
        self._reads = [read for read in self._reads if read[1] != code]
        self._reads.append((now_ms, code))
        if len(self._reads) > MAX_READS:
            self._reads.pop(0)

    def _edge(self, blocked: bool, now_ms: int) -> None:
        if blocked and self._blocked_at is None:
            self._blocked_at = now_ms
        elif not blocked and self._blocked_at is not None:
            self._passages.append((self._blocked_at, now_ms))
            self._blocked_at = None
            self._stuck = False

    def _drop_stale_reads(self, now_ms: int) -> None:
        first = self._passages[0][0] if self._passages else self._blocked_at
        keep = []
        for read in self._reads:
            if (first is not None and read[0] - (first - LEAD_MS) >= 0) or now_ms - read[0] < LEAD_MS:
                keep.append(read)
            elif read[1] is not None:
                self.unused_reads += 1
        self._reads = keep

    def _decide(self, start: int, end: int) -> None:
        codes: list[tuple[int, int, int]] = []
        rest = []
        for read in self._reads:
            if read[0] - (start - LEAD_MS) >= 0 and read[0] - (end + SETTLE_MS) <= 0:
                if read[1] is not None and read[1] not in codes:
                    codes.append(read[1])
            else:
                rest.append(read)
        self._reads = rest
        if self.shoe_id is None:
            self._fault(FAULT_NO_SHOE, "a card left the shoe before LOAD was pressed: not reported")
            return
        if codes == [cardcode.CUT]:
            self._messages.append((CUT_CARD, struct.pack("<I", self.index)))
            return
        self.index += 1
        self.memory.save(self.shoe_id, self.shoe_decks, self.index)
        if len(codes) == 1 and codes[0] not in self._drawn:
            self._drawn.add(codes[0])
            _, rank, suit = codes[0]
            self._messages.append((CARD, struct.pack("<IBB", self.index, rank, suit)))
        else:
            self._messages.append((CARD_UNREADABLE, struct.pack("<I", self.index)))

    def _fault(self, code: int, text: str) -> None:
        data = text.encode()[:255]
        self._messages.append((FAULT, struct.pack("<HB", code, len(data)) + data))
