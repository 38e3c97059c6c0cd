"""A capture for the tests and the simulation: frames rendered from a deck design for a script of cards.

The script is a text file, one card a line, in the order the cards pass the shoe's beam; each call of
:meth:`ScriptedFrames.frame` gives the next line's frame:

- ``Kc``: the king of clubs as the camera sees it in the teach pass (:data:`~drivers.optical.frames.CLEAN`);
- ``Kc hidden``: the king of clubs with the shoe's lip over its whole index: a frame that cannot be read.

Blank lines and ``#`` comments are skipped. The file is read again at each frame, so a test or a
simulated dealer may write the cards as it deals them; a card through the beam beyond the script's last
line has no frame (None: the camera saw nothing). A script that cannot be read, or a line that is no card,
is a :class:`~drivers.optical.capture.CaptureError` naming it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from drivers.optical.capture import CaptureError
from drivers.optical.distort import Distortion
from drivers.optical.frames import CLEAN, Frame, FrameMaker
from firmware_bridge.kernel.cards import Card

HIDDEN = Distortion(lip=0.6)
"""The shoe's lip over the top 60 % of the frame: the whole index under it."""


@dataclass(frozen=True)
class Shown:
    """One line of a script: the card, and whether the lip hides its index."""

    card: Card
    hidden: bool = False


def parse_script(text: str) -> list[Shown]:
    """The cards a script shows, in order; CaptureError naming the first line that is no card.

    >>> parse_script("Kc\\n# the cut card comes next\\n\\n9d hidden\\n")
    [Shown(card=Card('Kc'), hidden=False), Shown(card=Card('9d'), hidden=True)]
    >>> parse_script("Kc\\n10h")
    Traceback (most recent call last):
    ...
    drivers.optical.capture.CaptureError: line 2: '10h' is not a card like Kc or Kc hidden
    """
    shown = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if words[1:] not in ([], ["hidden"]):
                raise ValueError(words)
            shown.append(Shown(Card.parse(words[0]), hidden=words[1:] == ["hidden"]))
        except ValueError:
            raise CaptureError(f"line {number}: {line.strip()!r} is not a card like Kc or Kc hidden"
                               ) from None
    return shown


class ScriptedFrames:
    """The frames of ``maker``'s design for the cards the file ``script`` lists, one per call."""

    def __init__(self, maker: FrameMaker, script: Path) -> None:
        self.maker = maker
        self.script = script
        self.given = 0
        """How many frames were asked for (the next one is the script's card of that number, from 0)."""
        self._lock = threading.Lock()

    def start(self) -> None:
        """Nothing to open: the script is read at each frame."""

    def frame(self, at: float) -> Frame | None:
        """The next card's frame (``at`` plays no part: the script is in the beam's order)."""
        with self._lock:
            number = self.given
            self.given += 1
        try:
            text = self.script.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as fault:
            raise CaptureError(f"the script {self.script} cannot be read: {fault}") from fault
        try:
            shown = parse_script(text)
        except CaptureError as fault:
            raise CaptureError(f"{self.script}: {fault}") from None
        if number >= len(shown):
            return None
        card = shown[number]
        return self.maker.frame(card.card, HIDDEN if card.hidden else CLEAN)

    def close(self) -> None:
        """Nothing to let go."""
