"""The physical card shoe around the reference shoe firmware: marked cards, scanner, beam, load button.

:class:`ShoeWorld` holds the cards in the shoe, each with its printed code
(cardcode.py; deck marks 1, 2, ... in the order a card's copies come), the cut
card, and what happens to them. What a dealer does becomes a *timeline*, a
list of ``(ms from now, action)``: a draw is the scanner module emitting the
card's code (a line ending in CR LF, as commodity modules do) as the card
slides past it, then the infrared beam at the mouth blocked by the card and
clear again. The runner plays a timeline on its loop; the actions act on a
:class:`~firmware_bridge.firmware_host.machine_fake.FakeMachine` (pin levels,
UART bytes), never on the firmware.

Faults a dealer or the hardware can cause: the next card's code smudged
(no read), the scanner reading a card twice, scanner garbage, a card pushed
past the scanner and back (a read with no beam), a card stuck in the mouth
(the beam blocked until the dealer pulls it out).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from firmware_bridge.firmware import cardcode
from firmware_bridge.firmware_host.machine_fake import FakeMachine

RANKS = "A23456789TJQK"
SUITS = "cdhs"
Timeline = list[tuple[int, Callable[[], None]]]
READ_TO_BLOCK_MS = 30
BLOCKED_MS = 100
BETWEEN_CARDS_MS = 700
PRESS_MS = 100


def card_code(card: str, deck: int) -> str:
    """The printed code of ``card`` (pit notation, ``Qh``) of deck mark ``deck``."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ValueError(f"not a card in pit notation: {card!r}")
    return str(cardcode.code(deck, RANKS.index(card[0]) + 1, SUITS.index(card[1])))


class ShoeWorld:
    """The shoe's physical side; ``pins`` (beam, load, scanner_uart) are the board config's."""

    def __init__(self, pins: dict[str, int], scanner_uart: int, rng: random.Random, blocked_level: int = 0):
        self.beam_pin = pins["beam"]
        self.load_pin = pins["load"]
        self.scanner_uart = scanner_uart
        self.rng = rng
        self.blocked_level = blocked_level
        self.levels: dict[int, int] = {self.beam_pin: 1 - blocked_level, self.load_pin: 1}
        """The pins' levels: the physical world, kept across the board's reboots."""
        self.machine: FakeMachine | None = None
        self.stack: list[str] = []
        """The codes in the shoe, the next one out first (the cut card's among them)."""
        self.drawn = 0
        self.cut_at = 0
        self.stuck = False
        self._smudged = False
        self._twice = False

    def attach(self, machine: FakeMachine) -> None:
        """The board (re)booted with this machine."""
        self.machine = machine

    @property
    def remaining(self) -> int:
        """Playing cards left in the shoe."""
        return sum(1 for code in self.stack if cardcode.parse(code) != cardcode.CUT)

    def load(self, decks: int, cards: Sequence[str] | None, cut_at: int | None) -> Timeline:
        """Fill the shoe (``cards`` in pit notation, or ``decks`` shuffled decks) and press LOAD."""
        if cards is None:
            codes = [card_code(r + s, deck) for deck in range(1, decks + 1) for s in SUITS for r in RANKS]
            self.rng.shuffle(codes)
        else:
            seen: dict[str, int] = {}
            codes = []
            for card in cards:
                seen[card] = seen.get(card, 0) + 1
                if seen[card] > cardcode.MAX_DECK:
                    raise ValueError(f"more than {cardcode.MAX_DECK} copies of {card}: no deck mark for it")
                codes.append(card_code(card, seen[card]))
        if cut_at is None:
            cut_at = round(len(codes) * 0.75)
        if not 0 <= cut_at <= len(codes):
            raise ValueError(f"cut_at {cut_at} is not 0 to {len(codes)} (the cards in the shoe)")
        if cut_at:
            codes.insert(cut_at, cardcode.code_cut())
        self.stack, self.drawn, self.cut_at = codes, 0, cut_at
        return [(0, lambda: self._drive(self.load_pin, 0)), (PRESS_MS, lambda: self._drive(self.load_pin, 1))]

    def draw(self, count: int) -> Timeline:
        """The dealer draws ``count`` cards (fewer if the shoe runs out), and the cut card when it comes."""
        if self.stuck:
            raise ValueError("a card is stuck in the mouth: unstick it first")
        timeline: Timeline = []
        at = 0
        for _ in range(count):
            if not self.stack:
                break
            at = self._pass_card(timeline, at, self.stack.pop(0))
            self.drawn += 1
            if self.stack and cardcode.parse(self.stack[0]) == cardcode.CUT:
                at = self._pass_card(timeline, at, self.stack.pop(0))
        return timeline

    def _pass_card(self, timeline: Timeline, at: int, code: str) -> int:
        if self._smudged:
            self._smudged = False
        else:
            line = (code + "\r\n").encode()
            timeline.append((at, lambda: self._scan(line + line if self._twice else line)))
            self._twice = False
        timeline.append((at + READ_TO_BLOCK_MS, lambda: self._beam(blocked=True)))
        timeline.append((at + READ_TO_BLOCK_MS + BLOCKED_MS, lambda: self._beam(blocked=False)))
        return at + BETWEEN_CARDS_MS

    def smudge(self) -> None:
        """The next card's code cannot be read (no read at all)."""
        self._smudged = True

    def read_twice(self) -> None:
        """The scanner reports the next card's code twice."""
        self._twice = True

    def scanner_line(self, data: bytes) -> Timeline:
        """The scanner emits a line (garbage, or any code), ending in CR LF."""
        return [(0, lambda: self._scan(data.rstrip(b"\r\n") + b"\r\n"))]

    def peek(self) -> Timeline:
        """The next card is pushed past the scanner and back: read, but the beam never sees it."""
        if not self.stack:
            return []
        line = (self.stack[0] + "\r\n").encode()
        return [(0, lambda: self._scan(line))]

    def stick(self) -> Timeline:
        """The next card slides past the scanner and sticks in the mouth: the beam stays blocked."""
        if self.stuck:
            raise ValueError("a card is already stuck in the mouth")
        self.stuck = True
        timeline: Timeline = [(READ_TO_BLOCK_MS, lambda: self._beam(blocked=True))]
        if self.stack:
            line = (self.stack[0] + "\r\n").encode()
            timeline.insert(0, (0, lambda: self._scan(line)))
        return timeline

    def unstick(self) -> Timeline:
        """The dealer pulls the stuck card out: the beam is clear again and the card has left the shoe."""
        if not self.stuck:
            raise ValueError("no card is stuck")
        self.stuck = False
        if self.stack:
            self.stack.pop(0)
            self.drawn += 1
        return [(0, lambda: self._beam(blocked=False))]

    def _scan(self, data: bytes) -> None:
        if self.machine is not None and self.scanner_uart in self.machine.uarts:
            self.machine.uarts[self.scanner_uart].receive(data)

    def _beam(self, *, blocked: bool) -> None:
        self._drive(self.beam_pin, self.blocked_level if blocked else 1 - self.blocked_level)

    def _drive(self, pin: int, level: int) -> None:
        if self.machine is None:
            self.levels[pin] = level
        else:
            self.machine.drive(pin, level)
