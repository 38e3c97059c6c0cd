"""What the reference shoe keeps across resets: shoe ids in flash, the shoe in the watchdog scratch.

:class:`ShoeIds` hands out shoe ids that are never reused: a counter in a
file of the board's flash filesystem, written (to a new file, then renamed
over the old) before the id is used. Its first value is random (``os.urandom``),
so a board whose filesystem was wiped does not start again from an id it
handed out before. ``firmware-bridge flash`` never copies that file.

:class:`ShoeMemory` keeps the loaded shoe (shoe id, decks, cards drawn) in
three of the RP2040's watchdog scratch registers: they survive a watchdog
reset, not a power cut. A check word (a magic number XOR the others) tells
a kept shoe from power-on noise. ``words`` is indexable like a list of
32-bit ints: on the Pico the scratch registers (main.py), in tests a list.
"""

import os

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: MicroPython has no typing module
    from typing import Protocol

    class Words(Protocol):
        """32-bit words by index: the scratch registers (main.Scratch), or a list in tests."""

        def __getitem__(self, index: int) -> int: ...
        def __setitem__(self, index: int, value: int) -> None: ...

MAGIC = 0x5C0E1D01


class ShoeIds:
    """Shoe ids from a counter file at ``path``: 1 to 2**32-1, each handed out once."""

    def __init__(self, path: str) -> None:
        self.path = path

    def take(self) -> int:
        """The next shoe id, written to flash before it is returned."""
        try:
            with open(self.path) as file:
                value = int(file.read().strip())
        except (OSError, ValueError):
            value = 1 + int.from_bytes(os.urandom(4), "little") % 0x7FFFFFFF
        if not 1 <= value <= 0xFFFFFFFF:
            value = 1
        temporary = self.path + ".new"
        with open(temporary, "w") as file:
            file.write(str(value % 0xFFFFFFFF + 1) + "\n")
        os.rename(temporary, self.path)
        return value


class ShoeMemory:
    """The loaded shoe in three watchdog scratch words: shoe id; index | decks << 16 | 1 << 24; check."""

    def __init__(self, words: "Words") -> None:
        self.words = words

    def load(self) -> "tuple[int, int, int] | None":
        """``(shoe_id, decks, index)`` of the shoe kept, or None (power-on, or never loaded)."""
        shoe_id, packed, check = self.words[0], self.words[1], self.words[2]
        if check != (MAGIC ^ shoe_id ^ packed) & 0xFFFFFFFF or not packed >> 24 & 1:
            return None
        return shoe_id, packed >> 16 & 0xFF, packed & 0xFFFF

    def save(self, shoe_id: int, decks: int, index: int) -> None:
        """Keep the loaded shoe (index counted mod 65536, more than a shoe of 35 decks holds)."""
        packed = (index & 0xFFFF) | (decks & 0xFF) << 16 | 1 << 24
        self.words[0] = shoe_id
        self.words[1] = packed
        self.words[2] = (MAGIC ^ shoe_id ^ packed) & 0xFFFFFFFF
