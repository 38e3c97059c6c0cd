"""Card-counting systems as data: the tag of each rank, and whether the count is balanced.

A balanced count (Hi-Lo, Hi-Opt I, Omega II) sums to 0 over a deck; its
*true count* is the running count per deck left in the shoe. An unbalanced one
(KO) starts from an initial running count (``initial_per_deck`` x decks, plus
``initial_offset``) and is used as it runs: its "true count" is its running count.

>>> SYSTEMS["hi-lo"].tag(5), SYSTEMS["hi-lo"].tag(13), SYSTEMS["omega-ii"].tag(9)
(1, -1, -1)
>>> [sum(s.tags) * 4 for s in SYSTEMS.values()]
[0, 4, 0, 0]
>>> SYSTEMS["ko"].initial(6)
-20
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firmware_bridge.kernel.json import JsonObject

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


@dataclass(frozen=True)
class CountSystem:
    """A counting system: ``tags[rank - 1]`` is added to the running count for a card of ``rank``
    (1 = ace ... 13 = king)."""

    name: str
    tags: tuple[int, ...]
    balanced: bool = True
    initial_per_deck: int = 0
    initial_offset: int = 0

    def tag(self, rank: int) -> int:
        """The tag of a card of ``rank`` (1 = ace ... 13 = king)."""
        return self.tags[rank - 1]

    def initial(self, decks: int) -> int:
        """The running count of a fresh shoe of ``decks`` decks (0 for a balanced count)."""
        return self.initial_per_deck * decks + self.initial_offset

    def to_json(self) -> JsonObject:
        """The system as the settings show it: its tags by rank letter."""
        return {"name": self.name, "tags": dict(zip(RANKS, self.tags, strict=True)),
                "balanced": self.balanced, "initial_per_deck": self.initial_per_deck,
                "initial_offset": self.initial_offset}


def _tags(by_rank: Mapping[str, int]) -> tuple[int, ...]:
    """Tags by rank letter (T J Q K may be given as ``"T"`` for all four ten-point ranks)."""
    return tuple(by_rank.get(rank, by_rank.get("T", 0) if rank in "JQK" else 0) for rank in RANKS)


SYSTEMS: dict[str, CountSystem] = {
    "hi-lo": CountSystem("hi-lo", _tags({"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "T": -1, "A": -1})),
    "ko": CountSystem("ko", _tags({"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "7": 1, "T": -1, "A": -1}),
                      balanced=False, initial_per_deck=-4, initial_offset=4),
    "hi-opt-i": CountSystem("hi-opt-i", _tags({"3": 1, "4": 1, "5": 1, "6": 1, "T": -1})),
    "omega-ii": CountSystem("omega-ii", _tags({"2": 1, "3": 1, "4": 2, "5": 2, "6": 2, "7": 1, "9": -1,
                                               "T": -2})),
}
"""The systems a floor may name (``[protection] count``); Hi-Lo is the default."""


def system_from(data: Mapping[str, object], name: str) -> CountSystem:
    """A system declared in a floor file (``[protection.systems.NAME]``: ``tags``, a table of rank
    letters A 2 ... 9 T J Q K to whole numbers (J Q K default to T's), ``balanced``,
    ``initial_per_deck``, ``initial_offset``); ValueError saying what is wrong."""
    tags = data.get("tags")
    if not isinstance(tags, Mapping) or not tags:
        raise ValueError(f"count system {name}: tags is a table of ranks to whole numbers")
    stray = sorted(set(tags) - set(RANKS))
    if stray:
        raise ValueError(f"count system {name}: no such rank {', '.join(map(str, stray))} (ranks: "
                         f"{' '.join(RANKS)})")
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in tags.values()):
        raise ValueError(f"count system {name}: every tag is a whole number")
    balanced = data.get("balanced", True)
    per_deck, offset = data.get("initial_per_deck", 0), data.get("initial_offset", 0)
    if not isinstance(balanced, bool):
        raise ValueError(f"count system {name}: balanced is true or false")
    for key, value in (("initial_per_deck", per_deck), ("initial_offset", offset)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"count system {name}: {key} is a whole number")
    assert isinstance(per_deck, int) and isinstance(offset, int)     # (checked just above)
    system = CountSystem(name, _tags(tags), balanced, per_deck, offset)
    total = sum(int(tag) for tag in system.tags)
    if balanced and total:
        raise ValueError(f"count system {name}: balanced, but its tags sum to {total} a suit, "
                         "not 0")
    return system
