"""The demo's boards run by the reference firmware: ``make demo DEMO_ARGS=--reference-firmware``.

The firmware of ``firmware_bridge/firmware`` runs on the host as each board
(:class:`~firmware_bridge.firmware_host.runner.FirmwareRunner`, on a pty behind
the same symlink the simulator uses), with its physical world around it: a
shoe of marked cards pushed past the scanner and through the beam, and chips'
tags in the fields of the 32-antenna reader's PN5180 model. :class:`ReferenceShoe`
and :class:`ReferenceReader` give the dealer the same small interface as the
simulated boards (``load_shoe``, ``draw``; ``place``, ``clear``; ``start``,
``close``). The shoe's acts take their physical time: each is played after the
one before, while the dealer waits for the table to show it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_bridge.firmware_host.flash import MAX_ANTENNAS, board_config
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.firmware_host.shoe_world import Timeline
from firmware_bridge.kernel.cards import Card

log = logging.getLogger(__name__)


class ReferenceBoard:
    """One board of the reference firmware, its flash in ``folder / "<kind>-flash"``."""

    def __init__(self, kind: str, folder: Path, rng: random.Random,
                 antennas: list[int] | None = None) -> None:
        flash = folder / f"{kind}-flash"
        flash.mkdir(exist_ok=True)
        self.runner = FirmwareRunner(board_config(kind, f"REF-{kind.upper()}-0001", antennas=antennas), flash,
                                     link=folder / kind, rng=rng)
        self._acts: asyncio.Task[None] | None = None

    async def start(self) -> str:
        """Power the board on; the path the daemon opens."""
        return await self.runner.start()

    async def close(self) -> None:
        """Power off, dropping any act not yet played."""
        if self._acts is not None:
            self._acts.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._acts
        await self.runner.close()

    def act(self, make: Callable[[], Timeline]) -> None:
        """Play the physical acts ``make()`` gives once those before are played (``make`` runs then)."""
        before = self._acts

        async def play() -> None:
            if before is not None:
                await before
            try:
                await self.runner.play(make())
            except ValueError as error:
                log.error("%s: %s", self.runner.kind, error)

        self._acts = asyncio.get_running_loop().create_task(play())


class ReferenceShoe(ReferenceBoard):
    """The reference shoe board, told what the dealer does."""

    def __init__(self, folder: Path, rng: random.Random) -> None:
        super().__init__("shoe", folder, rng)

    def load_shoe(self, decks: int, cards: Sequence[tuple[int, int]] | None = None,
                  cut_at: int | None = None) -> None:
        """Fill the shoe (``cards`` as ``(rank, suit)``, else ``decks`` shuffled decks) and press LOAD."""
        shoe = self.runner.world
        named = None if cards is None else [str(Card(rank, suit)) for rank, suit in cards]
        self.act(lambda: shoe.load(decks, named, cut_at))

    def draw(self, count: int = 1) -> None:
        """Push ``count`` cards out past the scanner and through the beam."""
        shoe = self.runner.world
        self.act(lambda: shoe.draw(count))


class ReferenceReader(ReferenceBoard):
    """The reference spot reader of 32 antennas, its spots' chips set by the players and the dealer."""

    def __init__(self, folder: Path, rng: random.Random) -> None:
        super().__init__("rfid", folder, rng, antennas=list(range(1, MAX_ANTENNAS + 1)))

    def place(self, antenna: int, chips: Sequence[tuple[str, int]]) -> None:
        """Put chips (uid in hex, cents) on the spot over ``antenna``."""
        assert self.runner.rfid is not None
        self.runner.rfid.place(antenna, list(chips))
        self.runner.wake()

    def clear(self, antenna: int) -> None:
        """Take every chip off the spot over ``antenna``."""
        assert self.runner.rfid is not None
        self.runner.rfid.clear(antenna)
        self.runner.wake()
