"""One teach pass: the frames of a deck dealt through the shoe in a known order, or rendered of a design.

Through the shoe (:func:`shoe_pass`): the shoe board's link (its ``port``) says when each card passes the
beam, and the capture gives that card's frame, as when the table deals; the ``cards`` are taken to come
in their order (:func:`drivers.optical.designs.deck`: clubs, diamonds, hearts, spades, each Ace to King).
LOAD pressed again starts the pass again; a card sent again after a link reset is the same card. A card
the camera had no frame of stops the pass (:class:`LessonError`): the pass is dealt again.

In simulation (:func:`rendered_pass`): the clean frames of one of Debian's designs, in the same order.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence

from drivers.board import BoardDriver
from drivers.inputs import (
    CardDrawn,
    CardUnreadable,
    DeviceFault,
    DeviceOffline,
    DeviceOnline,
    DriverInput,
    ShoeLoaded,
)
from drivers.link_driver import LinkDriver
from drivers.optical.capture import Capture, CaptureError
from drivers.optical.designs import deck, design
from drivers.optical.frames import Frame, FrameMaker
from drivers.shoe import Shoe
from firmware_bridge.kernel.cards import Card


class LessonError(RuntimeError):
    """A pass that cannot be taught from: the message says which card and why."""


def rendered_pass(name: str) -> list[tuple[Card, Frame]]:
    """The clean frames of Debian's design ``name``, a deck in the teach order (LookupError when the design
    is not there, :class:`~drivers.optical.render.RenderError` when it cannot be drawn)."""
    maker = FrameMaker(design(name))
    return [(card, maker.frame(card)) for card in deck()]


async def shoe_pass(port: str, capture: Capture, cards: Sequence[Card],
                    say: Callable[[str], None]) -> list[tuple[Card, Frame]]:
    """The frames of ``cards`` dealt through the shoe whose board is on ``port``, in that order; ``say``
    tells the person dealing what to do and how far the pass is."""
    beams: asyncio.Queue[tuple[float, DriverInput]] = asyncio.Queue()
    shoe = Shoe(lambda item: beams.put_nowait((time.monotonic(), item)))
    board = LinkDriver(BoardDriver.Options(port), shoe)
    frames: list[tuple[Card, Frame]] = []
    seen: set[tuple[int, int]] = set()
    capture.start()
    await board.start()
    say(f"waiting for the shoe board on {port}")
    try:
        while len(frames) < len(cards):
            at, item = await beams.get()
            if isinstance(item, DeviceOnline):
                say(f"the shoe board is online: press LOAD, then deal the {len(cards)} cards in this order: "
                    + " ".join(map(str, cards)))
            elif isinstance(item, DeviceOffline):
                say(f"the shoe board went offline ({item.reason}): the pass goes on when it is back")
            elif isinstance(item, DeviceFault):
                say(f"the shoe board reports fault {item.code}: {item.text}")
            elif isinstance(item, ShoeLoaded):
                say(f"LOAD pressed: the pass starts {'again ' if frames else ''}from {cards[0]}")
                frames.clear()
            elif isinstance(item, CardDrawn | CardUnreadable) and (item.shoe_id, item.index) not in seen:
                seen.add((item.shoe_id, item.index))
                card = cards[len(frames)]
                frames.append((card, await _frame(capture, at, len(frames) + 1, card)))
                say(f"{len(frames)}/{len(cards)} {card}")
    finally:
        await board.close()
        capture.close()
    return frames


async def _frame(capture: Capture, at: float, number: int, card: Card) -> Frame:
    try:
        frame = await asyncio.to_thread(capture.frame, at)
    except CaptureError as fault:
        raise LessonError(f"card {number} ({card}): {fault}: deal the pass again") from None
    if frame is None:
        raise LessonError(f"card {number} ({card}): the camera had no frame of it: deal the pass again")
    return frame
