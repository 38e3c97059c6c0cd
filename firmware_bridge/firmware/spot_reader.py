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

The spot lights are a :class:`PinLights` (a GPIO per spot, 16 boards) or a :class:`ShiftLights` (a chain
of power shift registers on three GPIOs, any number of spots: the 32-antenna board).
"""

import struct

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
        self.inventory = iso15693.Inventory(chip)
        self.select_pins = select_pins
        self.lights = lights
        self.antennas = list(antennas)
        self.interval_ms = interval_ms
        self._messages: list[tuple[int, bytes]] = []
        self._seen: dict[int, dict[int, int]] = {a: {} for a in self.antennas}
        self._present: dict[int, dict[int, int]] = {a: {} for a in self.antennas}
        self._misses: dict[int, dict[int, int]] = {a: {} for a in self.antennas}
        self._read_ms: dict[int, int | None] = dict.fromkeys(self.antennas)
        self._sent: dict[int, bytes] = {}
        self._sent_ms: dict[int, int] = {}
        self._failing: dict[int, bool] = dict.fromkeys(self.antennas, False)
        self._urgent: list[int] = []
        self._reading: tuple[int, Generator[None, None, dict[int, int]]] | None = None
        self.slice_us = SLICE_US
        self._pairs: dict[tuple[int, int], int] = {}
        self._said_mux = False
        self._down = True
        self._chip_fault_said = False
        self._retry_ms = 0
        self._off_at = self.time.ticks_us() - FIELD_OFF_US
        self.on_spot_lights(0)

    # -- the App interface ---------------------------------------------------------------------

    def poll(self, now_ms: int) -> None:
        """Read for at most ``slice_us`` (the antenna under way, or the next one due), or set the
        PN5180 up again while it does not answer."""
        if self._down and (now_ms - self._retry_ms < 0 or not self._start_chip(now_ms, "does not answer")):
            return
        if self._reading is None:
            antenna = self._next_antenna(now_ms)
            if antenna is None:
                return
        else:
            antenna = self._reading[0]
        try:
            done, chips, why = self._read(antenna)
        except pn5180.PN5180Error as error:
            self._reading = None
            self._chip_failed(now_ms, f"stopped answering reading antenna {antenna} ({error})")
            return
        if not done:
            return
        self._chip_fault_said = False
        self._read_ms[antenna] = now_ms
        self._take(antenna, chips, why)
        self._queue_inventories(now_ms)

    def take_messages(self) -> "list[tuple[int, bytes]]":
        """The data messages produced since the last call, in order."""
        messages, self._messages = self._messages, []
        return messages

    def snapshot(self) -> "list[tuple[int, bytes]]":
        """The INVENTORY of every antenna read so far (not failing), for a new session."""
        return [(MSG_INVENTORY, self._inventory(a)[0]) for a in self.antennas
                if self._read_ms[a] is not None and not self._failing[a]]

    def status_flags(self) -> int:
        """STATUS bits: 0 antenna fault, 1 RF field fault (PN5180 down), 2 a spot over 85 chips."""
        flags = RF_FIELD_FAULT if self._down else 0
        if any(self._failing.values()) or any(n >= CONFIRM_READS for n in self._pairs.values()):
            flags |= ANTENNA_FAULT
        if any(self._inventory(a)[1] for a in self.antennas):
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
        return min(now_ms if t is None else t + self.interval_ms for t in self._read_ms.values())

    # -- reading -------------------------------------------------------------------------------

    def _next_antenna(self, now_ms: int) -> "int | None":
        if self._urgent:
            return self._urgent.pop(0)
        due = [(-1 if t is None else t, a) for a, t in self._read_ms.items()
               if t is None or now_ms - t >= self.interval_ms]
        return min(due)[1] if due else None

    def _read(self, antenna: int) -> "tuple[bool, dict[int, int] | None, str]":
        """Go on reading ``antenna`` for at most ``slice_us``: whether the read is done, the chips (None
        if they cannot be read) and why not. A read starts with the multiplexer switched while the
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
            previous = None if self._read_ms[antenna] is None else list(self._seen[antenna])
            self._reading = (antenna, self.inventory.reading(previous))
        steps = self._reading[1]
        start = time.ticks_us()
        chips, why = None, ""
        try:
            while True:
                next(steps)
                if time.ticks_diff(time.ticks_us(), start) >= self.slice_us:
                    return False, None, ""
        except StopIteration as done:
            chips = done.value
        except iso15693.ReadFailed as failure:
            why = str(failure)
        self._reading = None
        self.chip.rf_off()
        self._off_at = time.ticks_us()
        if not self.chip.still_set_up():
            raise pn5180.PN5180Error("restarted on its own")
        return True, chips, why

    def _take(self, antenna: int, chips: "dict[int, int] | None", why: str) -> None:
        if chips is None:
            if not self._failing[antenna]:
                self._failing[antenna] = True
                self._fault(FAULT_ANTENNA, f"antenna {antenna} cannot be read: {why}")
            return
        self._failing[antenna] = False
        self._seen[antenna] = chips
        present, misses = self._present[antenna], self._misses[antenna]
        for uid, value in chips.items():
            present[uid] = value
            misses.pop(uid, None)
        for uid in [u for u in present if u not in chips]:
            misses[uid] = misses.get(uid, 0) + 1
            if misses[uid] >= MISSES_TO_DROP or self._elsewhere(uid, antenna):
                del present[uid]
                del misses[uid]
            elif antenna not in self._urgent:
                self._urgent.append(antenna)
        self._check_pairs(antenna)

    def _elsewhere(self, uid: int, antenna: int) -> bool:
        return any(uid in seen for a, seen in self._seen.items() if a != antenna)

    def _check_pairs(self, antenna: int) -> None:
        """Chips two antennas read: the other antenna read again at once; FAULT if it persists."""
        seen = self._seen[antenna]
        for other in self.antennas:
            if other == antenna:
                continue
            pair = (min(antenna, other), max(antenna, other))
            shared = [uid for uid in seen if uid in self._seen[other]]
            if not shared:
                self._pairs.pop(pair, None)
                continue
            reads = self._pairs.get(pair, -1) + 1
            self._pairs[pair] = reads
            if reads == 0 and other not in self._urgent:
                self._urgent.append(other)
            if reads != CONFIRM_READS:
                continue
            if len(shared) != len(seen) or len(seen) != len(self._seen[other]):
                text = f"chip {shared[0]:016x} lies over antennas {pair[0]} and {pair[1]}"
                self._fault(FAULT_ANTENNA, text)
            elif not self._said_mux:                 # once, not for each pair of up to 32 antennas
                self._said_mux = True
                self._fault(FAULT_ANTENNA, f"antennas {pair[0]} and {pair[1]} read the same {len(shared)}"
                                           " chips: mux stuck?")
        if not self._pairs:
            self._said_mux = False

    def _inventory(self, antenna: int) -> "tuple[bytes, bool]":
        """The INVENTORY payload of ``antenna`` and whether it holds more chips than it can list."""
        chips = sorted(uid for uid in self._present[antenna] if not self._elsewhere(uid, antenna))
        listed = chips[:MAX_LISTED]
        payload = struct.pack("<BB", antenna, len(listed))
        for uid in listed:
            payload += struct.pack("<QI", uid, self._present[antenna][uid])
        return payload, len(chips) > MAX_LISTED

    def _queue_inventories(self, now_ms: int) -> None:
        for antenna in self.antennas:
            if self._read_ms[antenna] is None or self._failing[antenna]:
                continue
            payload = self._inventory(antenna)[0]
            if payload != self._sent.get(antenna) or now_ms - self._sent_ms[antenna] >= REPEAT_MS:
                self._messages.append((MSG_INVENTORY, payload))
                self._sent[antenna] = payload
                self._sent_ms[antenna] = now_ms

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
