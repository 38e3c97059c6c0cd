"""Pure models of the simulated boards' physical side: a card shoe and an RFID bet-spot reader.

Nothing here does I/O or reads a clock. Each model keeps the physical state of
its board (cards left in the shoe, chips on each antenna) and turns what a
dealer or a player does into the link messages the board's firmware would send
(:mod:`firmware_bridge.link.messages`). :class:`firmware_bridge.simulator.board.SimulatedBoard`
puts these messages on the wire.

A scripted shoe:

>>> shoe = ShoeModel(first_shoe_id=7)
>>> shoe.load(1, cards=[(1, 3), (13, 1), (12, 2)], cut_at=2)
ShoeLoaded(shoe_id=7, decks=1)
>>> shoe.draw()
[Card(index=1, rank=1, suit=3)]
>>> shoe.arm_unreadable()
>>> shoe.draw()
[CardUnreadable(index=2), CutCard(index=2)]
>>> shoe.draw()
[Card(index=3, rank=12, suit=2)]
>>> shoe.draw(), shoe.status_flags == SHOE_EMPTY
([], True)

Chips on a bet spot:

>>> rfid = RfidModel()
>>> rfid.place(3, [("00000000000000aa", 500), ("00000000000000bb", 2500)]).chips
(Chip(uid='00000000000000aa', value=500), Chip(uid='00000000000000bb', value=2500))
>>> rfid.remove(3, ["00000000000000aa"]).chips
(Chip(uid='00000000000000bb', value=2500),)
>>> rfid.antennas_in_use
(3,)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from firmware_bridge.link.messages import (
    ANTENNA_FAULT,
    LID_OPEN,
    MAX_CHIPS,
    OPTICAL_FAULT,
    RF_FIELD_FAULT,
    SHOE_EMPTY,
    TOO_MANY_CHIPS,
    Card,
    CardUnreadable,
    Chip,
    CutCard,
    Inventory,
    Message,
    ShoeLoaded,
)

__all__ = [
    "ANTENNA_FAULT",
    "LID_OPEN",
    "OPTICAL_FAULT",
    "RF_FIELD_FAULT",
    "SHOE_EMPTY",
    "TOO_MANY_CHIPS",
    "RfidModel",
    "ShoeModel",
    "full_deck",
    "parse_card",
]

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "cdhs"
DEFAULT_CUT_FRACTION = 0.75
"""Where the cut card goes in a shoe when no position is given: after 75 % of its cards."""


def parse_card(text: str) -> tuple[int, int]:
    """A card in pit notation (``"Qh"``, ``"Tc"``) as the protocol's ``(rank, suit)``.

    Ranks are ``A23456789TJQK`` (rank 1 to 13) and suits ``cdhs`` (suit 0 to 3).

    >>> parse_card("Qh"), parse_card("As"), parse_card("Tc")
    ((12, 2), (1, 3), (10, 0))
    >>> parse_card("10h")
    Traceback (most recent call last):
    ...
    ValueError: not a card in pit notation: '10h'
    """
    if len(text) != 2 or text[0] not in RANK_CHARS or text[1] not in SUIT_CHARS:
        raise ValueError(f"not a card in pit notation: {text!r}")
    return RANK_CHARS.index(text[0]) + 1, SUIT_CHARS.index(text[1])


def full_deck() -> list[tuple[int, int]]:
    """The 52 cards of one deck as ``(rank, suit)``, clubs to spades, Ace to King.

    >>> deck = full_deck()
    >>> len(deck), deck[0], deck[-1]
    (52, (1, 0), (13, 3))
    """
    return [(rank, suit) for suit in range(4) for rank in range(1, 14)]


def _check_card(card: tuple[int, int]) -> tuple[int, int]:
    rank, suit = card
    if not (isinstance(rank, int) and isinstance(suit, int) and 1 <= rank <= 13 and 0 <= suit <= 3):
        raise ValueError(f"no such card: {card!r}")
    return rank, suit


class ShoeModel:
    """The physical card shoe: the stack of cards, the cut card and the draw counter.

    :param first_shoe_id:
        The ``shoe_id`` of the first :meth:`load`. Every later load takes the
        next number, so a model never reuses one. A board picks a random start
        so that two simulator runs are unlikely to share ids.

    The model produces the shoe board's data messages: :meth:`load` gives the
    SHOE_LOADED, :meth:`draw` the CARD (or CARD_UNREADABLE) with the CUT_CARD
    that follows it, and :attr:`status_flags` the STATUS flag bits.
    """

    def __init__(self, *, first_shoe_id: int = 1) -> None:
        if not 1 <= first_shoe_id <= 0xFFFFFFFF:
            raise ValueError(f"shoe_id {first_shoe_id} is not 1 to 2**32-1")
        self._next_shoe_id = first_shoe_id
        self._cards: list[tuple[int, int]] = []
        self._shoe_id: int | None = None
        self._decks = 0
        self._index = 0
        self._cut_at = 0
        self._cut_out = False
        self._unreadable = False
        self.lid_open = False
        """Whether the lid is open (STATUS flag bit 0). Set it to simulate the dealer opening it."""
        self.optical_fault = False
        """Whether the optical sensor is faulty (STATUS flag bit 2)."""

    def load(
        self,
        decks: int,
        *,
        rng: random.Random | None = None,
        cards: Sequence[tuple[int, int]] | None = None,
        cut_at: int | None = None,
    ) -> ShoeLoaded:
        """Put a new shoe in and return its SHOE_LOADED message (with a new ``shoe_id``).

        :param decks: the number of decks, reported in SHOE_LOADED (1 to 255).
        :param rng: shuffles ``decks`` full decks when no ``cards`` are given
            (required then).
        :param cards: a scripted order of ``(rank, suit)`` cards, first drawn
            first; any length, duplicates allowed.
        :param cut_at: the cut card sits behind this many cards: it comes out
            with the draw of card ``cut_at`` and CUT_CARD names that index.
            ``0`` puts no cut card in the shoe. Default: 75 % of the cards.

        Anything left of the previous shoe is taken out. An armed unreadable
        draw (:meth:`arm_unreadable`) stays armed.
        """
        if not 1 <= decks <= 255:
            raise ValueError(f"decks {decks} is not 1 to 255")
        if cards is None:
            if rng is None:
                raise ValueError("a shuffled shoe needs an rng (or give the cards)")
            stack = full_deck() * decks
            rng.shuffle(stack)
        else:
            stack = [_check_card(card) for card in cards]
        if cut_at is None:
            cut_at = round(len(stack) * DEFAULT_CUT_FRACTION)
        if not 0 <= cut_at <= len(stack):
            raise ValueError(f"cut_at {cut_at} is not 0 to {len(stack)} (the cards in the shoe)")
        if self._next_shoe_id > 0xFFFFFFFF:
            self._next_shoe_id = 1
        shoe_id = self._next_shoe_id
        self._next_shoe_id += 1
        self._shoe_id = shoe_id
        self._decks = decks
        self._cards = stack
        self._index = 0
        self._cut_at = cut_at
        self._cut_out = cut_at == 0
        return ShoeLoaded(shoe_id=shoe_id, decks=decks)

    def arm_unreadable(self) -> None:
        """Make the next card drawn unreadable: :meth:`draw` reports CARD_UNREADABLE for it."""
        self._unreadable = True

    def draw(self) -> list[Message]:
        """The dealer draws one card; returns the messages the shoe sends for it.

        ``[CARD]`` (or ``[CARD_UNREADABLE]`` when :meth:`arm_unreadable` was
        called), followed by CUT_CARD when this card was the last before the
        cut card. An empty (or never loaded) shoe returns ``[]`` and shows
        :data:`SHOE_EMPTY` in :attr:`status_flags`.
        """
        if self.remaining == 0:
            return []
        rank, suit = self._cards[self._index]
        self._index += 1
        out: list[Message] = []
        if self._unreadable:
            self._unreadable = False
            out.append(CardUnreadable(index=self._index))
        else:
            out.append(Card(index=self._index, rank=rank, suit=suit))
        out.extend(self._cut_card())
        return out

    def skip(self) -> list[Message]:
        """A card leaves the shoe unseen: the index advances and no CARD is sent for it.

        The next :meth:`draw` shows the host a gap in the indices. Returns the
        CUT_CARD if the skipped card was the last before the cut card (the cut
        card sensor still sees it), else ``[]``; ``[]`` on an empty shoe too.
        """
        if self.remaining == 0:
            return []
        self._index += 1
        return self._cut_card()

    def _cut_card(self) -> list[Message]:
        if not self._cut_out and self._index == self._cut_at:
            self._cut_out = True
            return [CutCard(index=self._index)]
        return []

    @property
    def loaded(self) -> bool:
        """Whether a shoe was ever loaded (it may be empty by now)."""
        return self._shoe_id is not None

    @property
    def shoe_id(self) -> int | None:
        """The ``shoe_id`` of the shoe now loaded, or ``None`` before the first load."""
        return self._shoe_id

    @property
    def decks(self) -> int:
        """The number of decks of the shoe now loaded (0 before the first load)."""
        return self._decks

    @property
    def position(self) -> int:
        """The index of the last card that left the shoe (drawn or skipped); 0 right after a load."""
        return self._index

    @property
    def remaining(self) -> int:
        """How many cards are left in the shoe."""
        return len(self._cards) - self._index

    @property
    def cut_at(self) -> int:
        """The index of the last card before the cut card (0: no cut card in this shoe)."""
        return self._cut_at

    @property
    def cut_card_out(self) -> bool:
        """Whether the cut card has come out of this shoe."""
        return self._cut_out and self._cut_at != 0

    @property
    def status_flags(self) -> int:
        """The shoe's STATUS flags: :data:`LID_OPEN`, :data:`SHOE_EMPTY`, :data:`OPTICAL_FAULT`."""
        flags = SHOE_EMPTY if self.remaining == 0 else 0
        if self.lid_open:
            flags |= LID_OPEN
        if self.optical_fault:
            flags |= OPTICAL_FAULT
        return flags


def _check_antenna(antenna: int) -> int:
    if not (isinstance(antenna, int) and 1 <= antenna <= 32):
        raise ValueError(f"antenna {antenna!r} is not 1 to 32")
    return antenna


def _check_uid(uid: str) -> str:
    if not isinstance(uid, str) or len(uid) != 16:
        raise ValueError(f"chip uid {uid!r} is not 16 hex digits")
    try:
        int(uid, 16)
    except ValueError:
        raise ValueError(f"chip uid {uid!r} is not 16 hex digits") from None
    return uid.lower()


def _to_chip(chip: Chip | tuple[str, int]) -> Chip:
    uid, value = (chip.uid, chip.value) if isinstance(chip, Chip) else chip
    if not (isinstance(value, int) and 0 <= value <= 0xFFFFFFFF):
        raise ValueError(f"chip value {value!r} is not 0 to 2**32-1 cents")
    return Chip(_check_uid(uid), value)


class RfidModel:
    """The chips lying on each antenna (bet spot) of the RFID reader.

    :param antennas: antennas in use from the start (reported even while
        empty). An antenna is also in use from the first time anything is
        placed on it, and stays in use after it is cleared.

    Every change returns the INVENTORY the reader sends for it: the complete
    set on that antenna, at most 85 chips (a spot holding more lists the
    first 85 placed and sets :data:`TOO_MANY_CHIPS` in :attr:`status_flags`).
    """

    def __init__(self, antennas: Iterable[int] = ()) -> None:
        self._spots: dict[int, dict[str, int]] = {_check_antenna(a): {} for a in antennas}
        self.antenna_fault = False
        """Whether an antenna is faulty (STATUS flag bit 0)."""
        self.rf_field_fault = False
        """Whether the RF field is faulty (STATUS flag bit 1)."""

    def place(self, antenna: int, chips: Iterable[Chip | tuple[str, int]]) -> Inventory:
        """Put ``chips`` (``Chip`` or ``(uid, value_cents)``) on ``antenna``; returns its INVENTORY.

        A uid already on that antenna is read again with the new value. All
        chips are checked before any is placed.
        """
        spot = self._spots.get(_check_antenna(antenna))
        new = [_to_chip(chip) for chip in chips]
        if spot is None:
            spot = self._spots[antenna] = {}
        for chip in new:
            spot[chip.uid] = chip.value
        return self.inventory(antenna)

    def remove(self, antenna: int, uids: Iterable[str]) -> Inventory:
        """Take the chips with these ``uids`` off ``antenna`` (unknown ones are ignored); its INVENTORY."""
        spot = self._spots.setdefault(_check_antenna(antenna), {})
        for uid in [_check_uid(uid) for uid in uids]:
            spot.pop(uid, None)
        return self.inventory(antenna)

    def clear(self, antenna: int) -> Inventory:
        """Take every chip off ``antenna``; returns its (empty) INVENTORY."""
        self._spots.setdefault(_check_antenna(antenna), {}).clear()
        return self.inventory(antenna)

    def chips(self, antenna: int) -> tuple[Chip, ...]:
        """Every chip on ``antenna``, in the order they were placed (may be more than 85)."""
        spot = self._spots.get(_check_antenna(antenna), {})
        return tuple(Chip(uid, value) for uid, value in spot.items())

    def inventory(self, antenna: int) -> Inventory:
        """The INVENTORY of ``antenna``: its chips in the order placed, at most the first 85."""
        return Inventory(antenna=antenna, chips=self.chips(antenna)[:MAX_CHIPS])

    @property
    def antennas_in_use(self) -> tuple[int, ...]:
        """The antennas the reader reports, in order."""
        return tuple(sorted(self._spots))

    @property
    def status_flags(self) -> int:
        """The reader's STATUS flags: :data:`ANTENNA_FAULT`, :data:`RF_FIELD_FAULT`,
        :data:`TOO_MANY_CHIPS`."""
        flags = TOO_MANY_CHIPS if any(len(s) > MAX_CHIPS for s in self._spots.values()) else 0
        if self.antenna_fault:
            flags |= ANTENNA_FAULT
        if self.rf_field_fault:
            flags |= RF_FIELD_FAULT
        return flags
