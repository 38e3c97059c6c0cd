"""The chips a reader knows, in buffers allocated once: each chip's UID (8 bytes) and value, by record number.

A Pico's heap (about 190 KB) must hold a whole table's chips, thousands of them, for as long as the
board runs; kept as 64-bit ints in dicts (each a big int of its own, the dicts growing and resized as
chips come and go) they fragmented the heap until an allocation failed. Here a chip is a record
number into buffers made at boot and never grown: its UID as 8 bytes, most significant first (so
that comparing two UIDs' bytes compares the numbers), its value (u32, cents), and two counts the
reader keeps, ``refs`` (the spots that hold it) and ``seen`` (the antennas whose last read saw it), and
``flags`` (found by the read under way, value not read yet).
A hash on the UID's two lowest bytes (a tag's serial number, no two alike in a stack) chains the
records of a bucket, so a UID is found in a step or two.

A chip the table has no room for takes the place of the oldest record that nothing holds (``refs``
0, not in the read under way; a ring: the records in the order they were filled, the oldest taken
first), so the values of chips seen lately stay known; when every record is held,
:meth:`ChipTable.add` says -1 and the chip goes unlisted (the reader then reports a spot it cannot
list whole, STATUS bit 2).
"""

import array

NONE = 0xFFFF
"""No record (the end of a chain, an empty bucket)."""
IN_READ = 1
"""``flags``: found by the read under way (not to be taken for another chip before the read ends)."""
NO_VALUE = 2
"""``flags``: the chip's value is not read yet."""


class ChipTable:
    """``size`` records (fewer than 65535) of UID, value, ``refs``, ``seen`` and ``flags``; 18 bytes a record
    (the module docstring)."""

    def __init__(self, size: int) -> None:
        if not 0 < size < NONE:
            raise ValueError(f"a table of {size} chips: 1 to {NONE - 1}")
        self.size = size
        self.uids = bytearray(8 * size)
        self._view = memoryview(self.uids)
        self.values = array.array("I", bytes(4 * size))
        self.refs = bytearray(size)
        """How many spots hold each record (a record held is never taken for another chip)."""
        self.seen = bytearray(size)
        """How many antennas' last read saw each record."""
        self.flags = bytearray(size)
        """:data:`IN_READ`, :data:`NO_VALUE`."""
        buckets = 1
        while buckets < size // 2:
            buckets <<= 1
        self._mask = buckets - 1
        self._buckets = array.array("H", b"\xff\xff" * buckets)
        self._next = array.array("H", b"\xff\xff" * size)
        self.count = 0
        """Records filled so far (they all are once the table has been full)."""
        self._hand = 0

    def uid(self, record: int) -> memoryview:
        """The UID of ``record``: 8 bytes, most significant first (a view into the table)."""
        return self._view[8 * record : 8 * record + 8]

    def find(self, uid: "bytes | memoryview") -> int:
        """The record of ``uid`` (8 bytes, most significant first), or -1."""
        view = self._view
        record = self._buckets[(uid[6] << 8 | uid[7]) & self._mask]
        while record != NONE:
            if view[8 * record : 8 * record + 8] == uid:
                return record
            record = self._next[record]
        return -1

    def add(self, uid: "bytes | memoryview", value: int) -> int:
        """A record for ``uid`` (not in the table) with ``value``, ``refs`` and ``seen`` 0: a free one,
        else the oldest that nothing holds; -1 if every record is held."""
        if self.count < self.size:
            record = self.count
            self.count += 1
        else:
            record = self._free()
            if record < 0:
                return -1
            self._unlink(record)
        self._view[8 * record : 8 * record + 8] = uid
        self.values[record] = value
        self.refs[record] = 0
        self.seen[record] = 0
        self.flags[record] = 0
        bucket = (uid[6] << 8 | uid[7]) & self._mask
        self._next[record] = self._buckets[bucket]
        self._buckets[bucket] = record
        return record

    def _free(self) -> int:
        refs, flags, size = self.refs, self.flags, self.size
        for _ in range(size):
            record = self._hand
            self._hand = record + 1 if record + 1 < size else 0
            if not refs[record] and not flags[record] & IN_READ:
                return record
        return -1

    def _unlink(self, record: int) -> None:
        view = self._view
        bucket = (view[8 * record + 6] << 8 | view[8 * record + 7]) & self._mask
        at = self._buckets[bucket]
        if at == record:
            self._buckets[bucket] = self._next[record]
            return
        while at != NONE:
            following = self._next[at]
            if following == record:
                self._next[at] = self._next[record]
                return
            at = following
