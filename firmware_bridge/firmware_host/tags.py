"""Simulated ISO/IEC 15693 tags (ICODE SLIX-class, 64-bit UID) for the PN5180 model.

A tag answers what ISO/IEC 15693-3 has it answer: INVENTORY (16 slots or 1, with a mask of the UID's
low bits), STAY QUIET, SELECT, RESET TO READY and READ SINGLE BLOCK, in the states Ready, Quiet and
Selected; losing the field (power off) puts it back to Ready. Block 0 holds the chip's value in cents
(u32, least significant byte first). Faults a test may give a tag: answers with a bad CRC, answering
only one request in ``answer_every``.
"""

from __future__ import annotations

READY, QUIET, SELECTED = "ready", "quiet", "selected"

FLAG_HIGH_RATE = 0x02
FLAG_INVENTORY = 0x04
FLAG_SELECT = 0x10
FLAG_ADDRESS = 0x20
FLAG_ONE_SLOT = 0x20
FLAG_AFI = 0x10
CMD_INVENTORY = 0x01
CMD_STAY_QUIET = 0x02
CMD_READ_SINGLE_BLOCK = 0x20
CMD_SELECT = 0x25
CMD_RESET_TO_READY = 0x26
ERROR_BLOCK = bytes([0x01, 0x10])          # error flag, "the specified block is not available"


def crc16(data: bytes) -> int:
    """ISO/IEC 13239 CRC-16 (ISO/IEC 15693-3 annex C): reflected poly 0x8408, preset and final xor 0xFFFF."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc ^ 0xFFFF


def with_crc(data: bytes) -> bytes:
    """``data`` followed by its CRC, least significant byte first, as it goes on the air."""
    return data + (crc16(data)).to_bytes(2, "little")


class Tag:
    """One chip: ``uid`` (u64), ``value`` in cents in block 0, and the faults it may have."""

    def __init__(self, uid: int, value: int, *, blocks: int = 28, bad_crc: bool = False,
                 answer_every: int = 1) -> None:
        if not 0 <= uid < 1 << 64:
            raise ValueError(f"uid {uid:#x} is not 64 bits")
        self.uid = uid
        self.blocks = [value.to_bytes(4, "little")] + [bytes(4)] * (blocks - 1)
        self.bad_crc = bad_crc
        self.answer_every = answer_every
        self.state = READY
        self._requests = 0

    @property
    def value(self) -> int:
        """The value in cents written in block 0."""
        return int.from_bytes(self.blocks[0], "little")

    def power_off(self) -> None:
        """The field is gone: the tag forgets Quiet and Selected."""
        self.state = READY

    def _frame(self, data: bytes) -> bytes:
        frame = with_crc(data)
        if self.bad_crc:
            frame = frame[:-1] + bytes([frame[-1] ^ 0x5A])
        return frame

    def _answers(self) -> bool:
        self._requests += 1
        return self._requests % self.answer_every == 0

    def inventory_slot(self, request: bytes) -> int | None:
        """The slot (0 to 15; 0 for a 1-slot request) in which this tag answers an INVENTORY, or None."""
        flags = request[0]
        if self.state == QUIET or len(request) < 3:
            return None
        at = 2
        if flags & FLAG_AFI:
            at += 1                                  # an AFI this tag does not check (its AFI is 0: any)
        bits = request[at]
        mask = int.from_bytes(request[at + 1 : at + 1 + (bits + 7) // 8], "little") & ((1 << bits) - 1)
        if bits > 64 or self.uid & ((1 << bits) - 1) != mask:
            return None
        if bits > 60 and not flags & FLAG_ONE_SLOT:
            return None
        if not self._answers():
            return None
        return 0 if flags & FLAG_ONE_SLOT else (self.uid >> bits) & 0xF

    def inventory_answer(self) -> bytes:
        """The INVENTORY answer: flags, DSFID 0, UID, CRC."""
        return self._frame(bytes([0, 0]) + self.uid.to_bytes(8, "little"))

    def command(self, request: bytes) -> bytes | None:
        """Handle a request that is not an INVENTORY; the answer with its CRC, or None."""
        if len(request) < 2:
            return None
        flags, command = request[0], request[1]
        at = 2
        if flags & FLAG_ADDRESS:
            if request[2:10] != self.uid.to_bytes(8, "little") or len(request) < 10:
                return None
            at = 10
        elif flags & FLAG_SELECT:
            if self.state != SELECTED:
                return None
        elif self.state == QUIET:
            return None
        if command == CMD_STAY_QUIET and flags & FLAG_ADDRESS:
            self.state = QUIET
            return None
        if command == CMD_SELECT and flags & FLAG_ADDRESS:
            self.state = SELECTED
            return self._frame(bytes([0]))
        if command == CMD_RESET_TO_READY:
            self.state = READY
            return self._frame(bytes([0]))
        if command == CMD_READ_SINGLE_BLOCK and len(request) > at:
            if not self._answers():
                return None
            block = request[at]
            if block >= len(self.blocks):
                return self._frame(ERROR_BLOCK)
            return self._frame(bytes([0]) + self.blocks[block])
        return None
