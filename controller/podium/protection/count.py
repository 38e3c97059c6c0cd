"""One table's shoe counted from its events, as a card counter at the table would count it.

:class:`ShoeCount` is fed the table's events (their records) in order. ``shoe.loaded`` starts a
count (``decks`` from the event); every ``card.dealt`` named face up is
counted at once; a card dealt face down (``card: null``) is counted only once
its ``card.revealed`` names it, as a player sees it; a card never shown is never
counted. The cards out of the shoe are the highest ``index`` dealt (a card drawn
unseen, a ``card_gap``, has left the shoe all the same), so the decks left are
``(decks x 52 - cards out) / 52``.

The *true count* of a balanced system is the running count per deck left (the
decks left taken as at least :data:`LEAST_DECKS`); an unbalanced system's is
its running count. Until a ``shoe.loaded`` is seen (a monitor started in the
middle of a shoe) the count is unknown: :meth:`ShoeCount.now` gives None.

>>> from controller.events.hand import DealtInPublic, Revealed, Target
>>> from firmware_bridge.kernel.cards import Card
>>> from controller.events.table import ShoeLoaded
>>> from controller.podium.protection.systems import SYSTEMS
>>> shoe = ShoeCount(SYSTEMS["hi-lo"])
>>> shoe.feed(ShoeLoaded(7, 1))
>>> for index, card in ((1, "5h"), (2, None), (3, "3c")):
...     shoe.feed(DealtInPublic(Target("seat", 1, 0, card is not None), card and Card.parse(card), index))
>>> shoe.now().running, shoe.now().drawn
(2, 3)
>>> shoe.feed(Revealed("seat", 1, 0, Card.parse("Kd"), 2))
>>> now = shoe.now()
>>> now.running, round(now.decks_left, 4), round(now.true, 3)
(1, 0.9423, 1.061)
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.events.hand import DealtInPublic, Revealed
from controller.events.registry import Event
from controller.events.table import CutCardOut, ShoeLoaded
from controller.podium.protection.systems import CountSystem
from firmware_bridge.kernel.json import JsonObject

CARDS_PER_DECK = 52

LEAST_DECKS = 0.25
"""The fewest decks left a true count divides by (a quarter deck: late in a shoe the count per deck
would otherwise grow without bound)."""

class CountError(ValueError):
    """An event a count cannot read; the message says what is wrong."""


@dataclass(frozen=True)
class CountAt:
    """The count of a shoe at one moment."""

    shoe_id: int | None
    decks: int
    drawn: int
    """Cards out of the shoe (the highest index dealt)."""
    counted: int
    """Cards counted (seen face up, or revealed)."""
    running: int
    true: float
    """Running count per deck left (balanced), or the running count (unbalanced)."""
    cut_card_out: bool = False

    @property
    def decks_left(self) -> float:
        """Decks still in the shoe."""
        return max(0.0, (self.decks * CARDS_PER_DECK - self.drawn) / CARDS_PER_DECK)

    def to_json(self) -> JsonObject:
        """The count as the table's page shows it."""
        return {"shoe_id": self.shoe_id, "decks": self.decks, "drawn": self.drawn, "counted": self.counted,
                "running": self.running, "true": round(self.true, 2),
                "decks_left": round(self.decks_left, 2), "cut_card_out": self.cut_card_out}


class ShoeCount:
    """The count of the shoe in play at one table, fed its events in order."""

    def __init__(self, system: CountSystem) -> None:
        self.system = system
        self.shoe_id: int | None = None
        self.decks: int | None = None
        self.running = 0
        self.drawn = 0
        self.counted = 0
        self.cut_card_out = False
        self._hidden: set[int] = set()
        """Indexes dealt face down and not yet revealed."""

    def feed(self, record: Event) -> None:
        """One event of the table (only a shoe loaded, its cut card, and the cards are read);
        CountError for one whose fields are not what docs/pit-events.md says (nothing is changed
        then)."""
        if isinstance(record, ShoeLoaded):
            decks = record.decks
            if type(decks) is not int or decks < 1:
                raise CountError(f"shoe.loaded: decks is {decks!r}, not a number of decks")
            self.shoe_id, self.decks = record.shoe_id, decks
            self.running, self.drawn, self.counted = self.system.initial(decks), 0, 0
            self.cut_card_out = False
            self._hidden.clear()
            return
        if self.decks is None or not isinstance(record, DealtInPublic | Revealed | CutCardOut):
            return                      # not a card, or the middle of a shoe not seen loaded
        if isinstance(record, CutCardOut):
            self.cut_card_out = True
            return
        index = record.index
        if type(index) is not int:
            raise CountError(f"{record.pit_type}: index is {index!r}, not a whole number")
        if isinstance(record, DealtInPublic):
            self.drawn = max(self.drawn, index)
            if record.card is None:
                self._hidden.add(index)
            else:
                self._count(record.card.rank)
        elif index in self._hidden:
            self._hidden.discard(index)
            self._count(record.card.rank)

    def _count(self, rank: int) -> None:
        self.running += self.system.tag(rank)
        self.counted += 1

    def now(self) -> CountAt | None:
        """The count now; None while no shoe was seen loaded."""
        if self.decks is None:
            return None
        return CountAt(self.shoe_id, self.decks, self.drawn, self.counted, self.running,
                       true_count(self.system, self.running, self.decks, self.drawn), self.cut_card_out)


def true_count(system: CountSystem, running: int, decks: int, drawn: int) -> float:
    """The running count per deck left (at least :data:`LEAST_DECKS`) of a balanced ``system``; an
    unbalanced system's running count.

    >>> from controller.podium.protection.systems import SYSTEMS
    >>> true_count(SYSTEMS["hi-lo"], 6, 6, 156), true_count(SYSTEMS["ko"], 6, 6, 156)
    (2.0, 6)
    """
    if not system.balanced:
        return running
    left = max(LEAST_DECKS, (decks * CARDS_PER_DECK - drawn) / CARDS_PER_DECK)
    return running / left
