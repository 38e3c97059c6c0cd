"""The RFID bet-spot reader's application: one antenna per betting spot (up to 32), read in turn through a
PN5180.

``SpotReader`` is the App the board core drives (board.py): ``poll`` reads for about ``SLICE_US`` (a
read of one antenna goes on over as many polls as it needs, so the link is served meanwhile),
``take_messages`` hands over the INVENTORY and FAULT messages it produced,
``snapshot`` the INVENTORY of every antenna for a new session, ``status_flags`` the STATUS bits.

One antenna at a time is connected to the PN5180 by an analog multiplexer on GPIO select pins: antenna n
is select code n - 1, 4 pins for 16 antennas, 5 for 32 (two 16-way multiplexers sharing S0 - S3, S4
choosing which one is enabled). The field is off while the multiplexer switches and stays off at least
5.1 ms between two reads (the time tags need to forget their state: jef-sure/esp32-component-pn5180,
PN5180_RF_OFF_TIME_US), then on for 1 ms before the first request so that the tags power up.

What it reports (docs/boards.md, "The RFID spot reader"):

- INVENTORY of an antenna after any change and at least every ``REPEAT_MS``: a chip seen once with a
  good CRC is on the spot; a chip is off the spot after ``MISSES_TO_DROP`` complete reads without it in a
  row (the antenna is read again at once meanwhile), or as soon as another antenna reads it. A chip that
  two antennas read is listed on neither (never counted twice); if both still read it after reading
  again: FAULT 3 and STATUS bit 0. More than 85 chips on a spot: 85 listed (lowest UIDs), STATUS bit 2.
- An antenna whose read cannot complete (a slot that never gives a good answer, a value that cannot be
  read): FAULT 3 once, STATUS bit 0 while it lasts, and no INVENTORY of that antenna until it reads.
- A PN5180 that stops answering or restarted on its own: FAULT 1, the chip reset (RST) and set up again
  at once, then every ``RETRY_MS``; STATUS bit 1 while it does not answer.

Memory (docs/boards.md, "Memory"): every chip is a record of one ``chiptable.ChipTable`` of
``CHIPS_PER_ANTENNA`` records an antenna (and a full spot more), and a spot (:class:`Spot`) holds at
most ``SPOT_CHIPS`` record numbers with a byte of state each, all allocated when the reader is made;
an INVENTORY is built in a buffer of its own and handed over at most ``INVENTORY_BATCH`` at a time. A
read that runs out of memory (``MemoryError``) is dropped, the field switched off, and the error raised
to the board core, which counts it; the antenna is read again at the next poll.

The spot lights are a :class:`PinLights` (a GPIO per spot, 16 boards) or a :class:`ShiftLights` (a chain
of power shift registers on three GPIOs, any number of spots: the 32-antenna board).
"""

import array
import struct

import chiptable
import iso15693
import pn5180

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator

    from machine import Pin

KIND = 2
MSG_INVENTORY = 0x30
MSG_FAULT = 0x40
FAULT_SENSOR = 1
FAULT_ANTENNA = 3
ANTENNA_FAULT = 1 << 0
RF_FIELD_FAULT = 1 << 1
OVER_FULL = 1 << 2
MAX_LISTED = 85

FIELD_OFF_US = 5100
POWER_UP_US = 1000
MISSES_TO_DROP = 3
CONFIRM_READS = 2
REPEAT_MS = 1500
SLICE_US = 50_000
RETRY_MS = 1000
SPOT_CHIPS = iso15693.MAX_FOUND        # chips a spot holds: what one read lists, and those it missed
CHIPS_PER_ANTENNA = 52                 # the chip table: 52 a spot (a 40-chip stack, chips seen lately)
INVENTORY_BATCH = 4                    # INVENTORY messages handed over per call (the link's queue is bounded)
MISSES = 0x03                          # a spot's chip: reads in a row that missed it,
SEEN = 0x04                            # whether the last read saw it,
SENT = 0x08                            # whether the last INVENTORY sent listed it
NO_RECORD = 0x10000                    # above every record number (a spot's merge)


class PinLights:
    """The spot lights on a GPIO each: pin n-1 lights the spot of antenna n."""

    def __init__(self, pins: "list[Pin]") -> None:
        self.pins = pins

    def show(self, mask: int) -> None:
        """Light the spots of the bits set in ``mask`` (bit n-1: antenna n), and only those."""
        for bit, pin in enumerate(self.pins):
            pin.value((mask >> bit) & 1)


class ShiftLights:
    """The spot lights on a chain of ``count`` outputs of shift registers (TPIC6B595: serial in, a latch,
    open-drain outputs that sink an LED each), on three GPIOs: ``data``, ``clock`` (shifts on its rising
    edge) and ``latch`` (the outputs take the shifted bits on its rising edge). Output 0 of the first
    register lights antenna 1, output 7 of the fourth antenna 32: the bits go in last antenna first."""

    def __init__(self, data: "Pin", clock: "Pin", latch: "Pin", count: int = 32) -> None:
        self.data = data
        self.clock = clock
        self.latch = latch
        self.count = count

    def show(self, mask: int) -> None:
        """Light the spots of the bits set in ``mask`` (bit n-1: antenna n), and only those."""
        for bit in range(self.count - 1, -1, -1):
            self.data.value((mask >> bit) & 1)
            self.clock.value(1)
            self.clock.value(0)
        self.latch.value(1)
        self.latch.value(0)


class Spot:
    """What one antenna's spot holds: the chips (record numbers of the reader's chip table, in their
    order) and a state byte each (:data:`MISSES`, :data:`SEEN`, :data:`SENT`), at most ``SPOT_CHIPS``,
    in buffers allocated once; when it was read, and what is to be sent of it."""

    def __init__(self) -> None:
        self.records = array.array("H", bytes(2 * SPOT_CHIPS))
        self.state = bytearray(SPOT_CHIPS)
        self.count = 0
        self.read_ms: int | None = None
        self.failing = False
        self.overflow = False
        """The last read found more chips than a spot holds (or the chip table had no room)."""
        self.over_full = False
        """More chips on the spot than one INVENTORY lists (STATUS bit 2)."""
        self.dropped_sent = False
        """A chip the last INVENTORY sent listed is gone: the next one differs."""
        self.due = False
        self.sent_ms: int | None = None
        """When the last INVENTORY of this spot was handed over (None: never)."""

    def slot(self, record: int) -> int:
        """Where ``record`` is in :attr:`records` (binary search), or -1."""
        records, low, high = self.records, 0, self.count
        while low < high:
            middle = (low + high) >> 1
            if records[middle] < record:
                low = middle + 1
            else:
                high = middle
        return low if low < self.count and records[low] == record else -1

    def sees(self, record: int) -> bool:
        """Whether the last read of this spot saw ``record``."""
        slot = self.slot(record)
        return slot >= 0 and bool(self.state[slot] & SEEN)

    def seen_count(self) -> int:
        """How many chips the last read saw."""
        state = self.state
        return sum(1 for i in range(self.count) if state[i] & SEEN)


class SpotReader:
    """Reads the antennas ``antennas`` (numbers 1 to 2 ** the number of select pins: 16 on 4 pins, 32 on 5)
    through ``chip`` (a ``pn5180.PN5180``); ``lights`` is a :class:`PinLights` or a :class:`ShiftLights`."""

    kind = KIND
    snapshot_types = (MSG_INVENTORY,)

    def __init__(self, chip: "pn5180.PN5180", select_pins: "list[Pin]", lights: "PinLights | ShiftLights",
                 antennas: "list[int]", interval_ms: int = 200) -> None:
        wired = 1 << len(select_pins)
        if not antennas or any(not 1 <= a <= min(wired, 32) for a in antennas):
            raise ValueError(f"antennas {antennas}: 1 to {min(wired, 32)} on {len(select_pins)} select pins")
        self.chip = chip
        self.time = chip.time
        self.antennas = list(antennas)
        self.chips = chiptable.ChipTable(CHIPS_PER_ANTENNA * len(self.antennas) + SPOT_CHIPS)
        self.inventory = iso15693.Inventory(chip, chips=self.chips)
        self.select_pins = select_pins
        self.lights = lights
        self.interval_ms = interval_ms
        self._messages: list[tuple[int, bytes]] = []
        self.spots = {a: Spot() for a in self.antennas}
        self._records = array.array("H", bytes(2 * SPOT_CHIPS))
        self._state = bytearray(SPOT_CHIPS)
        self._payload = bytearray(2 + 12 * MAX_LISTED)
        self._pairs = bytearray(32 * 32)
        """Per pair of antennas (lower - 1) * 32 + higher - 1: 1 + the reads in a row both saw a chip."""
        self._urgent: list[int] = []
        self._reading: tuple[int, Generator[None, None, iso15693.Found]] | None = None
        self.slice_us = SLICE_US
        self._said_mux = False
        self._down = True
        self._chip_fault_said = False
        self._retry_ms = 0
        self._now_ms = 0
        self._off_at = self.time.ticks_us() - FIELD_OFF_US
        self.on_spot_lights(0)

    # -- the App interface ---------------------------------------------------------------------

    def poll(self, now_ms: int) -> None:
        """Read for at most ``slice_us`` (the antenna under way, or the next one due), or set the
        PN5180 up again while it does not answer. A ``MemoryError`` drops the read under way (the
        field off) and is raised on."""
        self._now_ms = now_ms
        if self._down and (now_ms - self._retry_ms < 0 or not self._start_chip(now_ms, "does not answer")):
            return
        if self._reading is None:
            antenna = self._next_antenna(now_ms)
            if antenna is None:
                return
        else:
            antenna = self._reading[0]
        try:
            done, found, why = self._read(antenna)
        except pn5180.PN5180Error as error:
            self._reading = None
            self._chip_failed(now_ms, f"stopped answering reading antenna {antenna} ({error})")
            return
        except MemoryError:
            self._reading = None
            self.chip.rf_off()
            self._off_at = self.time.ticks_us()
            raise
        if not done:
            return
        self._chip_fault_said = False
        self.spots[antenna].read_ms = now_ms
        self._take(antenna, found, why)
        self._queue_inventories(now_ms)

    def take_messages(self) -> "list[tuple[int, bytes]]":
        """The FAULT messages produced since the last call, in order, then the INVENTORY of at most
        ``INVENTORY_BATCH`` spots that have one due (the others at the next calls)."""
        messages, self._messages = self._messages, []
        batch = 0
        for antenna in self.antennas:
            spot = self.spots[antenna]
            if not spot.due:
                continue
            if batch == INVENTORY_BATCH:
                break
            batch += 1
            messages.append((MSG_INVENTORY, self._send_inventory(antenna)))
        return messages

    def snapshot(self) -> "list[tuple[int, bytes]]":
        """The INVENTORY of every antenna read so far (not failing), for a new session: each is made due,
        and handed over by :meth:`take_messages` (so none is returned here)."""
        for spot in self.spots.values():
            if spot.read_ms is not None and not spot.failing:
                spot.due = True
        return []

    def status_flags(self) -> int:
        """STATUS bits: 0 antenna fault, 1 RF field fault (PN5180 down), 2 a spot over 85 chips."""
        flags = RF_FIELD_FAULT if self._down else 0
        spots = self.spots.values()
        if any(spot.failing for spot in spots) or any(n > CONFIRM_READS for n in self._pairs):
            flags |= ANTENNA_FAULT
        if any(spot.over_full for spot in spots):
            flags |= OVER_FULL
        return flags

    def on_spot_lights(self, mask: int) -> None:
        """SPOT_LIGHTS: bit n-1 lights the spot of antenna n."""
        self.lights.show(mask)

    def next_deadline_ms(self, now_ms: int) -> "int | None":
        """When ``poll`` has work next: at once while an antenna waits, else when the next is due."""
        if self._down:
            return self._retry_ms
        if self._urgent or self._reading is not None:
            return now_ms
        return min(now_ms if spot.read_ms is None else spot.read_ms + self.interval_ms
                   for spot in self.spots.values())

    # -- reading -------------------------------------------------------------------------------

    def _next_antenna(self, now_ms: int) -> "int | None":
        """The antenna to read next: one asked for at once, else the one read longest ago (never read
        first) of those due, the lowest number first."""
        if self._urgent:
            return self._urgent.pop(0)
        best, best_ms = None, 0
        for antenna in self.antennas:
            read_ms = self.spots[antenna].read_ms
            if read_ms is not None and now_ms - read_ms < self.interval_ms:
                continue
            key = -1 if read_ms is None else read_ms
            if best is None or key < best_ms or (key == best_ms and antenna < best):
                best, best_ms = antenna, key
        return best

    def _read(self, antenna: int) -> "tuple[bool, iso15693.Found | None, str]":
        """Go on reading ``antenna`` for at most ``slice_us``: whether the read is done, the chips found
        (None if they cannot be read) and why not. A read starts with the multiplexer switched while the
        field is off, and ends with the field off again."""
        time = self.time
        if self._reading is None:
            for bit, pin in enumerate(self.select_pins):
                pin.value(((antenna - 1) >> bit) & 1)
            wait = FIELD_OFF_US - time.ticks_diff(time.ticks_us(), self._off_at)
            if wait > 0:
                time.sleep_us(wait)
            self.chip.rf_on()
            time.sleep_us(POWER_UP_US)
            spot = self.spots[antenna]
            previous = None if spot.read_ms is None else self._seen_uids(spot)
            self._reading = (antenna, self.inventory.reading(previous))
        steps = self._reading[1]
        start = time.ticks_us()
        found, why = None, ""
        try:
            while True:
                next(steps)
                if time.ticks_diff(time.ticks_us(), start) >= self.slice_us:
                    return False, None, ""
        except StopIteration as done:
            found = done.value
        except iso15693.ReadFailed as failure:
            why = str(failure)
        self._reading = None
        self.chip.rf_off()
        self._off_at = time.ticks_us()
        if not self.chip.still_set_up():
            raise pn5180.PN5180Error("restarted on its own")
        return True, found, why

    def _seen_uids(self, spot: Spot) -> "list[memoryview]":
        chips, state = self.chips, spot.state
        return [chips.uid(spot.records[i]) for i in range(spot.count) if state[i] & SEEN]

    def _take(self, antenna: int, found: "iso15693.Found | None", why: str) -> None:
        """What a complete read of ``antenna`` found, merged into its spot: chips seen are on it, a chip
        missed ``MISSES_TO_DROP`` reads in a row (or that another antenna reads) is off it."""
        spot = self.spots[antenna]
        if found is None:
            if not spot.failing:
                spot.failing = True
                self._fault(FAULT_ANTENNA, f"antenna {antenna} cannot be read: {why}")
            return
        spot.failing = False
        spot.overflow = found.overflow
        chips = self.chips
        refs, seen = chips.refs, chips.seen
        new = sorted(found)
        old_records, old_state, old_count = spot.records, spot.state, spot.count
        records, state = self._records, self._state
        room = SPOT_CHIPS - len(new)          # for the chips missed this time
        out = i = j = 0
        while i < old_count or j < len(new):
            old = old_records[i] if i < old_count else NO_RECORD
            record = new[j] if j < len(new) else NO_RECORD
            if old == record:                                       # on the spot, seen again
                if not old_state[i] & SEEN:
                    seen[record] += 1
                records[out], state[out] = record, (old_state[i] & SENT) | SEEN
                out += 1
                i += 1
                j += 1
            elif record < old:                                      # new on the spot
                refs[record] += 1
                seen[record] += 1
                records[out], state[out] = record, SEEN
                out += 1
                j += 1
            else:                                                   # on the spot, not seen this time
                was = old_state[i]
                i += 1
                if was & SEEN:
                    seen[old] -= 1
                misses = (was & MISSES) + 1
                if misses >= MISSES_TO_DROP or seen[old] or room <= 0:
                    refs[old] -= 1
                    if was & SENT:
                        spot.dropped_sent = True
                    continue
                room -= 1
                records[out], state[out] = old, (was & SENT) | misses
                out += 1
                if antenna not in self._urgent:
                    self._urgent.append(antenna)
        spot.records, spot.state, spot.count = records, state, out
        self._records, self._state = old_records, old_state
        self._check_pairs(antenna)

    def _check_pairs(self, antenna: int) -> None:
        """Chips two antennas read: the other antenna read again at once; FAULT if it persists."""
        spot, chips = self.spots[antenna], self.chips
        seen, pairs = chips.seen, self._pairs
        mine = [spot.records[i] for i in range(spot.count) if spot.state[i] & SEEN]
        candidates = [record for record in mine if seen[record] > 1]
        for other in self.antennas:
            if other == antenna:
                continue
            low, high = min(antenna, other), max(antenna, other)
            pair = (low - 1) * 32 + high - 1
            theirs = self.spots[other]
            shared = [record for record in candidates if theirs.sees(record)] if candidates else []
            if not shared:
                pairs[pair] = 0
                continue
            pairs[pair] = min(pairs[pair] + 1, 255)
            reads = pairs[pair] - 1
            if reads == 0 and other not in self._urgent:
                self._urgent.append(other)
            if reads != CONFIRM_READS:
                continue
            if len(shared) != len(mine) or len(mine) != theirs.seen_count():
                first = min(shared, key=lambda record: bytes(chips.uid(record)))
                text = f"chip {bytes(chips.uid(first)).hex()} lies over antennas {low} and {high}"
                self._fault(FAULT_ANTENNA, text)
            elif not self._said_mux:                 # once, not for each pair of up to 32 antennas
                self._said_mux = True
                self._fault(FAULT_ANTENNA, f"antennas {low} and {high} read the same {len(shared)}"
                                           " chips: mux stuck?")
        if not max(pairs):
            self._said_mux = False

    def _listing(self, spot: Spot) -> "list[int]":
        """The slots of ``spot`` its INVENTORY lists: its chips no other antenna reads, the lowest UIDs
        first, at most ``MAX_LISTED``; sets ``over_full``."""
        chips, state, records = self.chips, spot.state, spot.records
        seen = chips.seen
        slots = [i for i in range(spot.count) if seen[records[i]] == (1 if state[i] & SEEN else 0)]
        spot.over_full = spot.overflow or len(slots) > MAX_LISTED
        if len(slots) > MAX_LISTED:
            slots.sort(key=lambda i: bytes(chips.uid(records[i])))
            del slots[MAX_LISTED:]
        return slots

    def _queue_inventories(self, now_ms: int) -> None:
        """Make due the INVENTORY of every spot whose listing changed, or sent ``REPEAT_MS`` ago."""
        for spot in self.spots.values():
            if spot.read_ms is None or spot.failing:
                continue
            slots = self._listing(spot)
            state = spot.state
            changed = spot.dropped_sent or sum(1 for i in range(spot.count) if state[i] & SENT) != len(slots)
            if not changed:
                changed = any(not state[i] & SENT for i in slots)
            if changed or spot.sent_ms is None or now_ms - spot.sent_ms >= REPEAT_MS:
                spot.due = True

    def _send_inventory(self, antenna: int) -> bytes:
        """The INVENTORY payload of ``antenna``, built in the reader's buffer; its chips marked sent."""
        spot, chips = self.spots[antenna], self.chips
        slots = self._listing(spot)
        slots.sort(key=lambda i: bytes(chips.uid(spot.records[i])))
        state, payload = spot.state, self._payload
        for i in range(spot.count):
            state[i] &= ~SENT
        payload[0], payload[1] = antenna, len(slots)
        at = 2
        for i in slots:
            state[i] |= SENT
            record = spot.records[i]
            uid = chips.uid(record)
            for k in range(8):
                payload[at + k] = uid[7 - k]
            struct.pack_into("<I", payload, at + 8, chips.values[record])
            at += 12
        spot.due = False
        spot.dropped_sent = False
        spot.sent_ms = self._now_ms
        return bytes(memoryview(payload)[:at])

    # -- faults ----------------------------------------------------------------------------------

    def _fault(self, code: int, text: str) -> None:
        raw = text.encode()[:255]
        self._messages.append((MSG_FAULT, struct.pack("<HB", code, len(raw)) + raw))

    def _chip_failed(self, now_ms: int, why: str) -> None:
        if not self._chip_fault_said:
            self._chip_fault_said = True
            self._fault(FAULT_SENSOR, "PN5180 " + why)
        self._start_chip(now_ms, why)

    def _start_chip(self, now_ms: int, why: str) -> bool:
        """Reset the PN5180 and set it up; on failure it is down until ``RETRY_MS`` from now."""
        try:
            self.chip.reset()
        except pn5180.PN5180Error as error:
            if not self._chip_fault_said:
                self._chip_fault_said = True
                self._fault(FAULT_SENSOR, f"PN5180 {why} ({error})")
            self._down = True
            self._retry_ms = now_ms + RETRY_MS
            return False
        self._down = False
        self._off_at = self.time.ticks_us()
        return True
