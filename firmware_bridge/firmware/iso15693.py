"""ISO/IEC 15693-3 inventory of a stack of chips through a PN5180: 16-slot anticollision with mask splitting.

A 16-slot INVENTORY with a mask of ``n`` bits is answered by the tags whose UID's ``n`` lowest bits
equal the mask, each in the slot numbered by its next 4 bits (ISO/IEC 15693-3, 8.2 and 10.3.1). The
VCD sends an EOF alone to move to the next slot. A slot with two or more answers (or one that cannot
be read: bad CRC, wrong length, protocol error) is split: the same request again with the mask
extended by that slot's 4 bits. Slots that hold exactly one tag are read once and never asked again,
so no Stay Quiet is needed: bench/reader_bench.py measures this against 1-slot requests split one bit
at a time with every tag read sent to Stay Quiet (``quiet``), which cost more air time.

What the last read of the same field found chooses where to start (``Inventory._start``), since a
stack mostly stays as it was: a 1-slot request where there was at most one tag; where the first round
would mostly collide, a round per crowded 4-bit prefix at once and a 1-slot request for every other
prefix; and 1-slot requests along the UIDs of a pair that shared a slot instead of a round of 14 empty
slots. Whatever the last read says, every tag in the field is read: a request answered otherwise than
expected gets a 16-slot round.

Each chip's value (its denomination in cents, block 0, u32 little-endian) comes from an addressed
READ SINGLE BLOCK the first time a UID is seen; values are kept for the UIDs seen lately (a
``chiptable.ChipTable``, buffers allocated once), since a chip's value is written once when the casino
programs it. A UID is 8 bytes, most significant first (the air sends it least significant first), never
an int: a read finds record numbers of the chip table (:class:`Found`, also allocated once), so reading
a stack leaves nothing behind on the heap but what the table already holds.

Every response's CRC (ISO/IEC 13239 CRC-16, as ISO/IEC 15693-3 annex C) is checked here, the PN5180
passing it on unchecked: a response with a bad CRC is never a chip.
"""

import array

import chiptable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Generator, Sequence
    from typing import TypeVar

    from pn5180 import PN5180

    T = TypeVar("T")

FLAG_HIGH_RATE = 0x02
FLAG_INVENTORY = 0x04
FLAG_ADDRESS = 0x20                    # outside inventory
FLAG_ONE_SLOT = 0x20                   # in an inventory request
FLAG_ERROR = 0x01                      # in a response
CMD_INVENTORY = 0x01
CMD_STAY_QUIET = 0x02
CMD_READ_SINGLE_BLOCK = 0x20

RX_PROTOCOL_ERROR = 1 << 17            # PN5180 RX_STATUS bits (pn5180.py)
RX_COLLISION = 1 << 18

MAX_MASK_BITS = 60                     # a 16-slot request's mask + the 4 slot bits fit the 64-bit UID
VALUE_BLOCK = 0
READ_TRIES = 3
KNOWN_VALUES = 1024                    # the chips a reader alone keeps values of (chiptable: 36 bytes each)
MAX_FOUND = 96                         # chips one read lists: more than an INVENTORY holds (85)
PREFIX_WISE = 5                        # prefixes of 2+ chips last time from which the first round is skipped


def crc16(data: bytes) -> int:
    """ISO/IEC 13239 CRC-16 of ``data``: polynomial 0x8408 (reflected), preset 0xFFFF, inverted."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def frame_ok(frame: bytes) -> bool:
    """Whether ``frame`` (a response with its CRC, least significant byte first) has a good CRC."""
    return len(frame) > 2 and crc16(frame[:-2]) == frame[-2] | (frame[-1] << 8)


def uid_bytes(frame: bytes, at: int) -> bytes:
    """The UID sent least significant byte first at ``frame[at:at + 8]``, as 8 bytes most significant
    first."""
    return bytes(frame[at + 7 - i] for i in range(8))


def air_uid(uid: "bytes | memoryview") -> bytes:
    """``uid`` (8 bytes, most significant first) as the air sends it, least significant byte first."""
    return bytes(uid[7 - i] for i in range(8))


def low_bits(uid: "bytes | memoryview", bits: int) -> int:
    """The ``bits`` lowest bits of ``uid`` (8 bytes, most significant first), as an int."""
    if bits <= 0:
        return 0
    size = (bits + 7) // 8
    return int.from_bytes(bytes(uid[8 - size :]), "big") & ((1 << bits) - 1)


def _bit(uid: "bytes | memoryview", bit: int) -> int:
    return (uid[7 - (bit >> 3)] >> (bit & 7)) & 1


class ReadFailed(Exception):
    """A stack could not be read completely (a slot that never resolves, a value that cannot be read)."""


def _finish(steps: "Generator[None, None, T]") -> "T":
    """Run a step-by-step read to its end: what it returns."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class Found:
    """The chips one read found: at most :data:`MAX_FOUND` record numbers of the chip table, allocated once
    (``overflow``: more tags answered, or the table had no room for one)."""

    def __init__(self) -> None:
        self.records = array.array("H", bytes(2 * MAX_FOUND))
        self.count = 0
        self.overflow = False

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> "Generator[int, None, None]":
        for i in range(self.count):
            yield self.records[i]


class Inventory:
    """Reads the UIDs and values of the tags in the field of a PN5180 (a ``pn5180.PN5180``) into ``chips``
    (a ``chiptable.ChipTable``: its own of :data:`KNOWN_VALUES` chips unless given one)."""

    def __init__(self, chip: "PN5180", quiet: bool = False,
                 chips: "chiptable.ChipTable | None" = None) -> None:
        self.chip = chip
        self.quiet = quiet
        self.chips = chiptable.ChipTable(KNOWN_VALUES) if chips is None else chips
        self.found = Found()
        """What the last read found (the same object every read; valid until the next one starts)."""
        self.rounds = 0

    def read(self, previous: "Sequence[bytes | memoryview] | None" = None) -> "dict[bytes, int]":
        """Every tag in the field, uid -> value, at once (``reading`` step by step; for tests)."""
        found = _finish(self.reading(previous))
        chips = self.chips
        return {bytes(chips.uid(record)): chips.values[record] for record in found}

    def uids(self, previous: "Sequence[bytes | memoryview] | None" = None) -> "set[bytes]":
        """The UIDs of every tag in the field, at once (``_uid_steps`` step by step; for tests)."""
        self._begin()
        _finish(self._uid_steps(previous))
        self._release()
        return {bytes(self.chips.uid(record)) for record in self.found}

    def reading(self, previous: "Sequence[bytes | memoryview] | None" = None
                ) -> "Generator[None, None, Found]":
        """A read of every tag in the field into :attr:`found`, that yields after each round of the
        anticollision and each value read (the caller may pause there, the field left on); raises
        ``ReadFailed`` if any slot or value stays unread. ``previous``: the UIDs the last read of this
        field found (None: not read yet)."""
        self._begin()
        yield from self._uid_steps(previous)
        chips, found = self.chips, self.found
        for i in range(found.count):
            record = found.records[i]
            if chips.flags[record] & chiptable.NO_VALUE:
                chips.values[record] = self.read_value(chips.uid(record))
                chips.flags[record] &= ~chiptable.NO_VALUE
                yield
        self._release()
        return found

    def _begin(self) -> None:
        self._release()
        self.found.count = 0
        self.found.overflow = False

    def _release(self) -> None:
        """The records of the read under way (or of one given up) may be taken for other chips again."""
        flags = self.chips.flags
        for record in self.found:
            flags[record] &= ~chiptable.IN_READ

    def _add(self, uid: "bytes") -> None:
        """A tag read alone in its slot: its record (a new one if the table had none) in :attr:`found`."""
        chips, found = self.chips, self.found
        record = chips.find(uid)
        if record >= 0 and chips.flags[record] & chiptable.IN_READ:
            return                                          # found again by another request of this read
        if found.count >= MAX_FOUND:
            found.overflow = True
            return
        if record < 0:
            record = chips.add(uid, 0)
            if record < 0:
                found.overflow = True
                return
            chips.flags[record] = chiptable.NO_VALUE
        chips.flags[record] |= chiptable.IN_READ
        found.records[found.count] = record
        found.count += 1

    def _uid_steps(self, previous: "Sequence[bytes | memoryview] | None") -> "Generator[None, None, None]":
        """The UIDs of every tag in the field into :attr:`found`: 16-slot rounds, a colliding slot split
        depth first (or, with ``quiet``, 1-slot requests split bit by bit, each tag read sent to Stay
        Quiet, as jef-sure's driver does). ``previous``, the UIDs the last read of this field found
        (None: not read yet), only chooses where to start (``_start``): whatever it holds, every tag in
        the field is found."""
        if self.quiet:
            self._uids_quieting()
            return
        unresolved = 0
        masks = self._start(previous)
        while masks:
            yield
            bits, mask = masks.pop()
            split: list[tuple[int, int]] = []
            for slot, uid in enumerate(self._round(bits, mask)):
                if uid is None:
                    continue
                if uid:
                    self._add(uid)
                elif bits + 4 <= MAX_MASK_BITS:
                    self._split(bits + 4, mask | (slot << bits), previous, split)
                else:
                    unresolved += 1
            masks.extend(reversed(split))
        if unresolved:
            raise ReadFailed(f"{unresolved} slot(s) never gave one readable answer")

    def _start(self, previous: "Sequence[bytes | memoryview] | None") -> "list[tuple[int, int]]":
        """The masks to run 16-slot rounds on first (a stack: the last is run first).

        Not read yet, or few chips last time: the whole field, from an empty mask. At most one chip
        last time: a 1-slot request first, which no answer or one clean answer settles. Where the last
        read had several 4-bit prefixes of two chips or more (``PREFIX_WISE``), the first round would
        mostly collide: each such prefix gets its own round at once, and every other prefix a 1-slot
        request (a round too if that one collides)."""
        if previous is None:
            return [(0, 0)]
        if len(previous) <= 1:
            uid = self._probe(0, 0)
            if uid:
                self._add(uid)
            return [(0, 0)] if uid is not None and not uid else []
        counts = [0] * 16
        for known in previous:
            counts[known[7] & 0xF] += 1
        if sum(1 for count in counts if count >= 2) < PREFIX_WISE:
            return [(0, 0)]
        masks: list[tuple[int, int]] = []
        for prefix in range(16):
            if counts[prefix] >= 2:
                self._split(4, prefix, previous, masks)
            else:
                self._expect(4, prefix, masks)
        masks.reverse()
        return masks

    def _split(self, bits: int, mask: int, previous: "Sequence[bytes | memoryview] | None",
               masks: "list[tuple[int, int]]") -> None:
        """Read the tags under a mask that collided: a 16-slot round on it (added to ``masks``), or,
        where the last read found exactly two tags there, 1-slot requests along their two UIDs: one on
        each side of every bit they share (where no tag is expected), one for each where they part."""
        known = [uid for uid in previous or () if low_bits(uid, bits) == mask]
        if len(known) != 2:
            masks.append((bits, mask))
            return
        a, b = known
        while bits < 63 and _bit(a, bits) == _bit(b, bits):
            shared = _bit(a, bits)
            self._expect(bits + 1, mask | ((shared ^ 1) << bits), masks)
            mask |= shared << bits
            bits += 1
        for uid in (a, b):
            self._expect(bits + 1, mask | (_bit(uid, bits) << bits), masks)

    def _expect(self, bits: int, mask: int, masks: "list[tuple[int, int]]") -> None:
        """A 1-slot request on a mask: a tag that answers alone is found; a collision gets a 16-slot
        round on the mask cut to a multiple of 4 bits (it covers the mask's tags and some more, and
        its collisions can be split down to the UID's last 4 bits like any other round's)."""
        uid = self._probe(bits, mask)
        if uid:
            self._add(uid)
        elif uid is not None:
            bits = min(bits, MAX_MASK_BITS) // 4 * 4
            masks.append((bits, mask & ((1 << bits) - 1)))

    def _probe(self, bits: int, mask: int) -> "bytes | None":
        """A 1-slot INVENTORY: None (no answer), the UID of the one tag, or b"" (collided, unreadable)."""
        request = bytes([FLAG_HIGH_RATE | FLAG_INVENTORY | FLAG_ONE_SLOT, CMD_INVENTORY, bits])
        request += mask.to_bytes((bits + 7) // 8, "little")
        return self._slot(self.chip.transceive(request), bits, mask, 0, 0)

    def _uids_quieting(self) -> None:
        masks = [(0, 0)]
        while masks:
            bits, mask = masks.pop()
            uid = self._probe(bits, mask)
            if uid:
                self._add(uid)
                quiet = bytes([FLAG_HIGH_RATE | FLAG_ADDRESS, CMD_STAY_QUIET]) + air_uid(uid)
                self.chip.transceive(quiet)
            elif uid is not None and bits < 64:
                masks += [(bits + 1, mask | (1 << bits)), (bits + 1, mask)]
            elif uid is not None:
                raise ReadFailed("a slot never gave one readable answer")

    def _round(self, bits: int, mask: int) -> "list[bytes | None]":
        """One 16-slot INVENTORY: per slot None (empty), the UID read, or b"" (collided or unreadable)."""
        self.rounds += 1
        chip = self.chip
        request = bytes([FLAG_HIGH_RATE | FLAG_INVENTORY, CMD_INVENTORY, bits])
        request += mask.to_bytes((bits + 7) // 8, "little")
        slots = [self._slot(chip.transceive(request), bits, mask, 0, 4)]
        chip.symbols_only(True)
        try:
            for slot in range(1, 16):
                slots.append(self._slot(chip.transceive(b""), bits, mask, slot, 4))
        finally:
            chip.symbols_only(False)
        return slots

    @staticmethod
    def _slot(answer: "tuple[int, bytes] | None", bits: int, mask: int, slot: int,
              slot_bits: int) -> "bytes | None":
        if answer is None:
            return None
        status, frame = answer
        if status & (RX_COLLISION | RX_PROTOCOL_ERROR) or len(frame) != 12 or not frame_ok(frame):
            return b""
        if frame[0] & FLAG_ERROR:
            return b""
        width = bits + slot_bits
        if width:
            low = int.from_bytes(frame[2 : 2 + (width + 7) // 8], "little") & ((1 << width) - 1)
            if low != mask | (slot << bits):
                return b""             # a tag that should not answer here: not to be trusted
        return uid_bytes(frame, 2)

    def read_value(self, uid: "bytes | memoryview") -> int:
        """The value in block 0 of the tag ``uid`` (addressed READ SINGLE BLOCK), tried a few times."""
        request = bytes([FLAG_HIGH_RATE | FLAG_ADDRESS, CMD_READ_SINGLE_BLOCK]) + air_uid(uid)
        request += bytes([VALUE_BLOCK])
        for _ in range(READ_TRIES):
            answer = self.chip.transceive(request)
            if answer is None:
                continue
            status, frame = answer
            if status & (RX_COLLISION | RX_PROTOCOL_ERROR) or len(frame) != 7 or not frame_ok(frame):
                continue
            if frame[0] & FLAG_ERROR:
                continue
            return int.from_bytes(frame[1:5], "little")
        raise ReadFailed(f"the value of chip {bytes(uid).hex()} could not be read")
