"""A floor of simulated tables (:class:`~controller.devkit.floor_sim.Dealer`) heard live by a monitor's
:class:`~controller.podium.monitor.models.floor.Floor` with game protection: hundreds of players and seats,
for the tests of the game protection list."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.devkit.floor_sim import Dealer
from controller.events.envelope import decode_body, encode_event, now_timestamp
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.protection.settings import DEFAULT, Settings
from controller.podium.protection.watch import Protection

LENIENT = replace(DEFAULT, min_hands=3, confidence=0.5, min_count_plays=1)
"""Settings that flag some players of a few hands each (for their count plays)."""


@dataclass
class Heard:
    """Where an event was heard from, as a follower tells the floor (its table and epoch)."""

    name: str
    epoch: str = ""


@dataclass
class ProtectedFloor:
    """The floor and its simulated tables, each with the seq of its last event."""

    floor: Floor
    tables: list[tuple[Heard, Iterator[Any]]]
    seqs: dict[str, int] = field(default_factory=dict)

    @property
    def protection(self) -> Protection:
        """The floor's game protection."""
        assert self.floor.protection is not None
        return self.floor.protection

    def deal(self, events: int) -> None:
        """``events`` more events of each simulated table, heard live by the floor."""
        for heard, steps in self.tables:
            for kind, hand, data in itertools.islice(steps, events):
                self.seqs[heard.name] = seq = self.seqs.get(heard.name, 0) + 1
                topic, body = encode_event(heard.name, seq, now_timestamp(), kind, hand, data)
                self.floor.event(heard, decode_body(body), topic, body, True)  # type: ignore[arg-type]


def protected_floor(folder: Path, tables: int, events: int = 120,
                    settings: Settings = DEFAULT) -> ProtectedFloor:
    """A floor of ``tables`` simulated tables (``T00``, ``T01``, ...; six regulars each) with game
    protection (its ``settings``), that dealt ``events`` events each; its acknowledgements in
    ``folder``."""
    names = [f"T{n:02d}" for n in range(tables)]
    floor = Floor(names, AlertBook(folder / "acks.jsonl"))
    floor.protect(Protection(settings))
    dealt = ProtectedFloor(floor, [(Heard(name), Dealer(random.Random(n), regulars=frozenset(range(1, 7)))
                                    .events()) for n, name in enumerate(names)])
    dealt.deal(events)
    return dealt
