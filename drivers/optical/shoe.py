"""The optical shoe as a shoe driver: the shoe board's beam says a card left, the camera's frame says which.

The shoe board (the reference firmware, docs/boards.md) speaks the link protocol on
``port`` as ever: LOAD gives SHOE_LOADED, the cut card's printed code gives CUT_CARD, and every card
through the beam gives CARD_UNREADABLE (a house's own cards carry no code for its scanner) or CARD (a
marked card whose code the scanner read). At each card the driver asks the
:class:`~drivers.optical.capture.Capture` for the card's frame and reads it with every taught design,
off the loop; the
:class:`~drivers.shoe.Shoe` role then hands the table a ``CardDrawn`` or a ``CardUnreadable`` as the
marked shoe does, in the order the board spoke. Never a guess; the card is unreadable when:

- the camera gave no frame (a :class:`~drivers.optical.capture.CaptureError` is also the board's FAULT 1,
  sensor fault, folded like the board's own faults);
- no design reads it (:meth:`drivers.optical.read.Reader.read`: its rank and suit glyphs and the ink's
  colour must agree), or two designs read it as different cards;
- the board's scanner read another card than the camera (a marked card: either alone is taken);
- it would be one copy more of that card than the shoe's decks hold (the shoe's own count, from the
  journal's reads after a restart).

A card sent again after a link reset is handed on as it was decided, with no new frame.

Configuration (``[devices.shoe]``, docs/configuration.md): ``driver = "optical"``, ``port``, ``camera``
(a V4L2 device, or ``rendered:<design>:<script>`` for :class:`~drivers.optical.scripted.ScriptedFrames`),
``designs`` (the taught files) and ``window`` (the camera's pixels that show the index corner).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from drivers.board import BoardDriver, BoardSetup, Role
from drivers.link_driver import LinkDriver
from drivers.optical.capture import Camera, Capture, CaptureError
from drivers.optical.designs import design
from drivers.optical.frames import FrameMaker
from drivers.optical.read import Reader
from drivers.optical.scripted import ScriptedFrames
from drivers.optical.taught import TaughtError, load
from drivers.shoe import Shoe
from firmware_bridge.kernel.cards import Card
from firmware_bridge.link import messages

NAME = "optical"
"""The driver's name in ``[devices.shoe] driver``."""

RENDERED = "rendered:"
"""A ``camera`` that starts so is :class:`ScriptedFrames`: ``rendered:<design>:<script file>``."""

SENSOR_FAULT = 1
"""The link protocol's FAULT code the camera's failures are raised with (docs/protocol.md, FAULT)."""

_CARD_MESSAGES = (messages.Card, messages.CardUnreadable, messages.ShoeLoaded, messages.CutCard)

log = logging.getLogger(__name__)


def capture_for(camera: str, window: tuple[int, ...] | None) -> Capture:
    """The capture ``camera`` names: the scripted frames of a design, or a V4L2 camera."""
    if camera.startswith(RENDERED):
        name, script = _rendered(camera)
        return ScriptedFrames(FrameMaker(design(name)), Path(script))
    if window is None:
        return Camera(camera)
    x, y, width, height = window
    return Camera(camera, (x, y, width, height))


def _rendered(camera: str) -> tuple[str, str]:
    """A rendered camera's design and script (empty when it names none).

    >>> _rendered("rendered:standard:frames.txt"), _rendered("rendered:standard")
    (('standard', 'frames.txt'), ('standard', ''))
    """
    name, _, script = camera.removeprefix(RENDERED).partition(":")
    return name, script


@dataclass(frozen=True)
class Looked:
    """What the camera made of one card: the card (None: unreadable, ``reason`` says why), and whether
    the capture failed (``fault``)."""

    card: Card | None
    reason: str = ""
    fault: bool = False


class OpticalShoeDriver(LinkDriver):
    """The shoe board on ``options.port`` for the beam, the camera ``options.camera`` for the cards."""

    roles = ("shoe",)

    @dataclass(frozen=True)
    class Options(BoardDriver.Options):
        """``[devices.shoe]`` for the optical shoe: the board's ``port``, the ``camera``, the taught
        ``designs`` and the camera's ``window`` (x, y, width, height; left out: its whole image)."""

        camera: str
        designs: tuple[str, ...]
        window: tuple[int, ...] | None = None

        def problems(self) -> list[str]:
            """What is wrong beyond the types (the files are checked by :meth:`OpticalShoeDriver.beside`)."""
            found = []
            if self.camera.startswith(RENDERED) and not _rendered(self.camera)[1]:
                found.append(f"camera: {self.camera!r} is not {RENDERED}<design>:<script file>")
            window = self.window
            if window is not None and (len(window) != 4 or min(window[:2]) < 0 or min(window[2:]) < 1):
                found.append(f"window: must be [x, y, width, height] in the camera's pixels, x and y 0 or "
                             f"more, width and height 1 or more, not {list(window)}")
            return found

    @classmethod
    def beside(cls, options: object, folder: Path) -> tuple[object, list[str]]:
        """The options :meth:`placed` in ``folder``, each taught file loaded and checked (one missing or
        corrupt is a line), at least one named, and a rendered camera's design there."""
        assert isinstance(options, OpticalShoeDriver.Options)
        placed = cls.placed(options, folder)
        problems = []
        if not placed.designs:
            problems.append("designs: name at least one taught design (table-controller teach makes one)")
        for path in placed.designs:
            try:
                load(Path(path))
            except TaughtError as fault:
                problems.append(f"designs: {fault}")
        if placed.camera.startswith(RENDERED):
            try:
                design(_rendered(placed.camera)[0])
            except LookupError as missing:
                problems.append(f"camera: {missing}")
        return placed, problems

    @staticmethod
    def placed(options: OpticalShoeDriver.Options, folder: Path) -> OpticalShoeDriver.Options:
        """The options with the taught designs and a rendered camera's script taken from ``folder``."""
        camera = options.camera
        if camera.startswith(RENDERED):
            name, script = _rendered(camera)
            camera = f"{RENDERED}{name}:{folder / script}"
        return replace(options, designs=tuple(str(folder / path) for path in options.designs), camera=camera)

    def __init__(self, options: OpticalShoeDriver.Options, role: Role, *, offline_after: float = 3.0,
                 reopen_interval: float = 1.0) -> None:
        super().__init__(options, role, offline_after=offline_after, reopen_interval=reopen_interval)
        if not isinstance(role, Shoe):
            raise TypeError(f"the optical driver plays a shoe, not {role.device!r}")
        self.shoe = role
        self.readers = [Reader(load(Path(path))) for path in options.designs]
        self.capture = capture_for(options.camera, options.window)
        self.decks = 0
        """The decks of the shoe loaded (0: none known)."""
        self.read: dict[int, Card | None] = {}
        """The card decided at each index of the shoe loaded (None: unreadable)."""
        self._shoe_id: int | None = None
        self._seen: Counter[Card] = Counter()
        self._jobs: asyncio.Queue[tuple[float, messages.Message]] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._counts = {"cards_read": 0, "cards_unreadable": 0}

    @classmethod
    def from_setup(cls, setup: BoardSetup, role: Role) -> OpticalShoeDriver:
        """The driver, told the shoe the table had loaded before a restart and what it read of it."""
        assert isinstance(setup.options, OpticalShoeDriver.Options)
        driver = cls(setup.options, role)
        driver._shoe_id, driver.decks = setup.shoe_id, setup.shoe_decks
        driver.read = {index: None if card is None else Card.parse(card)
                       for index, card in setup.shoe_read.items()}
        driver._seen = Counter(card for card in driver.read.values() if card is not None)
        return driver

    def counters(self) -> dict[str, int]:
        """The link's statistics, and the cards the camera read and could not read."""
        return {**super().counters(), **self._counts}

    async def start(self) -> None:
        """Start the camera, the reading of the cards in turn, and the link."""
        self.capture.start()
        self._worker = asyncio.get_running_loop().create_task(self._work(), name="optical shoe")
        await super().start()

    async def close(self) -> None:
        """Close the link, stop reading and let the camera go."""
        await super().close()
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
        self.capture.close()

    def _on_message(self, message: messages.Message) -> None:
        if isinstance(message, _CARD_MESSAGES):
            if self._accepted:
                self._jobs.put_nowait((time.monotonic(), message))
            return
        super()._on_message(message)

    async def _work(self) -> None:
        """The board's shoe messages in the order they came, each card read before the next is told."""
        while True:
            at, message = await self._jobs.get()
            if isinstance(message, messages.ShoeLoaded):
                if message.shoe_id != self._shoe_id:
                    self._shoe_id, self.decks = message.shoe_id, message.decks
                    self.read, self._seen = {}, Counter()
                self.shoe.loaded(message.shoe_id, message.decks)
            elif isinstance(message, messages.CutCard):
                self.shoe.cut_card(message.index)
            elif isinstance(message, messages.Card | messages.CardUnreadable):
                await self._card(at, message)

    async def _card(self, at: float, message: messages.Card | messages.CardUnreadable) -> None:
        index = message.index
        if index not in self.read:
            looked = await asyncio.to_thread(self._look, at)
            if looked.fault:
                self.shoe.fault(SENSOR_FAULT, looked.reason, asyncio.get_running_loop().time())
            card, reason = self._decide(looked, message)
            self.read[index] = card
            if card is None:
                self._counts["cards_unreadable"] += 1
                log.warning("shoe card %d unreadable: %s", index, reason)
            else:
                self._counts["cards_read"] += 1
                self._seen[card] += 1
        card = self.read[index]
        if card is None:
            self.shoe.unreadable(index)
        else:
            self.shoe.card(index, card.rank, card.suit)

    def _look(self, at: float) -> Looked:
        """The card in the camera's frame of ``at``, by every taught design (off the loop)."""
        try:
            frame = self.capture.frame(at)
        except CaptureError as fault:
            return Looked(None, str(fault), fault=True)
        if frame is None:
            return Looked(None, "the camera had no frame of it")
        try:
            readings = [(reader.taught.design, reader.read(frame)) for reader in self.readers]
        except Exception as error:          # a reader's fault must not stop the shoe: that card is unreadable
            log.exception("shoe: the reader failed on a frame")
            return Looked(None, f"the reader failed: {type(error).__name__}: {error}")
        cards = {reading.card for _, reading in readings if reading.card is not None}
        if len(cards) == 1:
            return Looked(cards.pop())
        if cards:
            return Looked(None, "the designs read it differently: " + ", ".join(
                f"{name} {reading.card}" for name, reading in readings if reading.card is not None))
        return Looked(None, "; ".join(f"{name}: {reading.reason}" for name, reading in readings))

    def _decide(self, looked: Looked, message: messages.Card | messages.CardUnreadable
                ) -> tuple[Card | None, str]:
        """The card taken, or None and why: the camera's card and the board's scanner's must agree where
        both read one, and no card may come more often than the shoe's decks hold it."""
        card = looked.card
        if isinstance(message, messages.Card):
            try:
                scanned = Card(message.rank, message.suit)
            except ValueError:
                return None, f"the board sent rank {message.rank} suit {message.suit}, which is no card"
            if card is not None and card != scanned:
                return None, f"the camera read {card}, the board's scanner {scanned}"
            card = scanned
        if card is None:
            return None, looked.reason
        if self.decks and self._seen[card] >= self.decks:
            return None, f"read as {card}, one more than the {self.decks} its {self.decks}-deck shoe holds"
        return card, ""
