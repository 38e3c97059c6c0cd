"""The optical shoe driver on a real link: a simulated shoe board on a pty (its beam: CARD_UNREADABLE for
each house card, CARD for a marked one) and the frames rendered of the standard design for a script of
cards. Every card reaches the role as the marked shoe's do, in the board's order; a frame that cannot be
read, none at all, a card the shoe cannot hold again, a scanner that disagrees and designs that disagree
are each an unreadable card, never a guess."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from drivers.board import BoardSetup
from drivers.chips import ChipRegistry
from drivers.inputs import CardDrawn, CardUnreadable, CutCard, DeviceFault, DriverInput, ShoeLoaded
from drivers.optical.designs import deck
from drivers.optical.frames import FrameMaker
from drivers.optical.shoe import OpticalShoeDriver
from drivers.optical.teach import teach
from drivers.shoe import Shoe
from firmware_bridge.kernel.cards import Card
from firmware_bridge.link.messages import CardUnreadable as CardUnreadableMessage
from firmware_bridge.simulator.board import SimulatedBoard

TIMEOUT = 10.0


@pytest.fixture(scope="module")
def taught(standard: FrameMaker, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The standard design taught from a clean pass, as a file."""
    path = tmp_path_factory.mktemp("taught") / "standard.npz"
    teach("standard", ((card, standard.frame(card)) for card in deck())).save(path)
    return path


@dataclass
class Optical:
    """A simulated shoe board, the optical driver on its pty, what the role handed on."""

    board: SimulatedBoard
    script: Path
    designs: list[Path]
    driver: OpticalShoeDriver | None = None
    inputs: list[DriverInput] = field(default_factory=list)
    _event: asyncio.Event = field(default_factory=asyncio.Event)

    def notify(self, *_: object) -> None:
        self._event.set()

    async def connect(self, shoe_id: int | None = None, decks: int = 0,
                      read: Mapping[int, str | None] | None = None) -> None:
        """A driver on the board's pty, online; ``shoe_id``, ``decks`` and ``read`` are the shoe the
        table knew before a restart."""
        def on_input(item: DriverInput) -> None:
            self.inputs.append(item)
            self.notify()

        options = OpticalShoeDriver.Options(port=str(self.board.link),
                                            camera=f"rendered:standard:{self.script}",
                                            designs=tuple(str(path) for path in self.designs))
        setup = BoardSetup("shoe", options, on_input, antennas={}, registry=ChipRegistry(), shoe_id=shoe_id,
                           shoe_decks=decks, shoe_read=read or {})
        self.driver = driver = OpticalShoeDriver.from_setup(setup, Shoe.from_setup(setup))
        await driver.start()
        await self.until(lambda: driver.is_online)

    async def restart(self) -> None:
        """The daemon restarted: a new driver, told what the table knew of the loaded shoe."""
        assert self.driver is not None
        await self.driver.close()
        shoe = self.loaded()
        read = {item.index: str(item.card) if isinstance(item, CardDrawn) else None
                for item in self.cards() if not isinstance(item, CutCard)}
        await self.connect(shoe.shoe_id, shoe.decks, read)

    def loaded(self) -> ShoeLoaded:
        return [item for item in self.inputs if isinstance(item, ShoeLoaded)][-1]

    def cards(self) -> list[DriverInput]:
        return [item for item in self.inputs if isinstance(item, CardDrawn | CardUnreadable | CutCard)]

    async def until(self, predicate: Callable[[], bool]) -> None:
        async with asyncio.timeout(TIMEOUT):
            while not predicate():
                self._event.clear()
                await self._event.wait()

    async def deal(self, count: int, *, marked: bool = False) -> list[DriverInput]:
        """``count`` cards through the beam (house cards unless ``marked``); what they came to."""
        before = len(self.cards())
        for _ in range(count):
            if not marked:
                self.board.arm_unreadable()
            self.board.draw()
        await self.until(lambda: sum(not isinstance(c, CutCard) for c in self.cards()) >= before + count)
        return self.cards()[before:]


@asynccontextmanager
async def optical(tmp_path: Path, designs: list[Path], frames: str) -> AsyncIterator[Optical]:
    """The board and the driver, online, the script holding ``frames``."""
    script = tmp_path / "frames.txt"
    script.write_text(frames)
    board = SimulatedBoard("shoe", link=tmp_path / "shoe", rng=random.Random(3), rto=0.05)
    rig = Optical(board, script, designs)
    board.on_message = rig.notify
    await board.start()
    try:
        await rig.connect()
        yield rig
    finally:
        if rig.driver is not None:
            await rig.driver.close()
        await board.close()


def cards(text: str) -> list[tuple[int, int]]:
    return [(card.rank, card.suit) for card in map(Card.parse, text.split())]


async def test_house_cards_through_the_beam_are_read_from_their_frames_in_the_boards_order(
        tmp_path: Path, taught: Path) -> None:
    async with optical(tmp_path, [taught], "5h\n9d\nKc\n2s\nAd\n") as rig:
        rig.board.load_shoe(6, cards("2c 2c 2c 2c 2c"), cut_at=3)     # the board's cards play no part
        dealt = await rig.deal(5)
        shoe = rig.loaded().shoe_id
        assert dealt == [CardDrawn(shoe, 1, Card.parse("5h")), CardDrawn(shoe, 2, Card.parse("9d")),
                         CardDrawn(shoe, 3, Card.parse("Kc")), CutCard(shoe, 3),
                         CardDrawn(shoe, 4, Card.parse("2s")), CardDrawn(shoe, 5, Card.parse("Ad"))]
        assert rig.driver is not None
        counters = rig.driver.counters()
        assert (counters["cards_read"], counters["cards_unreadable"]) == (5, 0)


async def test_a_frame_that_cannot_be_read_or_no_frame_is_an_unreadable_card(tmp_path: Path,
                                                                            taught: Path) -> None:
    async with optical(tmp_path, [taught], "5h\nQs hidden\n9d\n") as rig:
        rig.board.load_shoe(6, cards("2c 2c 2c 2c"), cut_at=0)
        dealt = await rig.deal(4)
        shoe = rig.loaded().shoe_id
        assert dealt == [CardDrawn(shoe, 1, Card.parse("5h")), CardUnreadable(shoe, 2),
                         CardDrawn(shoe, 3, Card.parse("9d")), CardUnreadable(shoe, 4)]  # 4: past the script
        assert rig.driver is not None and rig.driver.counters()["cards_unreadable"] == 2


async def test_a_card_shown_more_often_than_the_shoe_holds_it_is_unreadable(tmp_path: Path,
                                                                           taught: Path) -> None:
    async with optical(tmp_path, [taught], "Kc\n5h\nKc\nKc\n") as rig:
        rig.board.load_shoe(1, cards("2c 2c 2c 2c"), cut_at=0)        # one deck: one king of clubs
        dealt = await rig.deal(4)
        first = rig.loaded().shoe_id
        assert dealt == [CardDrawn(first, 1, Card.parse("Kc")), CardDrawn(first, 2, Card.parse("5h")),
                         CardUnreadable(first, 3), CardUnreadable(first, 4)]
        rig.script.write_text("Kc\n5h\nKc\nKc\nKc\n")
        rig.board.load_shoe(1, cards("2c"), cut_at=0)                 # a new shoe counts afresh
        dealt = await rig.deal(1)
        assert dealt == [CardDrawn(rig.loaded().shoe_id, 1, Card.parse("Kc"))]


async def test_a_card_sent_again_is_what_it_was_and_the_count_outlives_a_restart(tmp_path: Path,
                                                                                 taught: Path) -> None:
    async with optical(tmp_path, [taught], "Kc\nQs hidden\nKc\n7d\n") as rig:
        rig.board.load_shoe(1, cards("2c 2c 2c 2c"), cut_at=0)
        assert len(await rig.deal(2)) == 2                             # Kc, and one unreadable
        shoe = rig.loaded().shoe_id
        before = rig.cards()
        rig.board.send(CardUnreadableMessage(index=1))                 # as after a link reset
        rig.board.send(CardUnreadableMessage(index=2))
        await rig.until(lambda: len(rig.cards()) == 4)
        assert rig.cards()[2:] == before                               # no frame taken for them
        rig.script.write_text("Kc\n7d\n")
        await rig.restart()                                            # its capture from the script's top
        # card 3 shows Kc: the one-deck shoe gave it before the restart
        assert await rig.deal(2) == [CardUnreadable(shoe, 3), CardDrawn(shoe, 4, Card.parse("7d"))]


async def test_a_marked_card_is_taken_when_the_scanner_and_the_camera_agree_or_one_reads_it(
        tmp_path: Path, taught: Path) -> None:
    async with optical(tmp_path, [taught], "5h\n9d\nKc hidden\n") as rig:
        rig.board.load_shoe(6, cards("5h 9c Kc"), cut_at=0)     # codes on the cards, read by the scanner
        dealt = await rig.deal(3, marked=True)
        shoe = rig.loaded().shoe_id
        assert dealt == [
            CardDrawn(shoe, 1, Card.parse("5h")),      # both read 5h
            CardUnreadable(shoe, 2),                   # the camera read 9d, the scanner 9c
            CardDrawn(shoe, 3, Card.parse("Kc"))]      # the camera could not read it: the code alone


async def test_a_capture_that_fails_is_a_sensor_fault_and_its_cards_are_unreadable(tmp_path: Path,
                                                                                  taught: Path) -> None:
    async with optical(tmp_path, [taught], "5h\n") as rig:
        rig.script.unlink()
        rig.board.load_shoe(6, cards("2c 2c"), cut_at=0)
        dealt = await rig.deal(2)
        shoe = rig.loaded().shoe_id
        assert dealt == [CardUnreadable(shoe, 1), CardUnreadable(shoe, 2)]
        faults = [item for item in rig.inputs if isinstance(item, DeviceFault)]
        assert len(faults) == 1 and faults[0].code == 1 and "frames.txt cannot be read" in faults[0].text


async def test_designs_that_read_a_frame_as_different_cards_make_it_unreadable(
        tmp_path: Path, standard: FrameMaker, taught: Path) -> None:
    swapped = {0: 3, 1: 2, 2: 1, 3: 0}              # clubs <-> spades, diamonds <-> hearts: same colours
    wrong = tmp_path / "wrong.npz"
    teach("standard", ((Card(card.rank, swapped[card.suit]), standard.frame(card)) for card in deck())
          ).save(wrong)
    async with optical(tmp_path, [taught, wrong], "Kc\n") as rig:
        rig.board.load_shoe(6, cards("2c"), cut_at=0)
        assert await rig.deal(1) == [CardUnreadable(rig.loaded().shoe_id, 1)]
    (tmp_path / "alone").mkdir()
    async with optical(tmp_path / "alone", [wrong], "Kc\n") as rig:
        rig.board.load_shoe(6, cards("2c"), cut_at=0)
        assert await rig.deal(1) == [CardDrawn(rig.loaded().shoe_id, 1, Card.parse("Ks"))]  # its Ks alone
