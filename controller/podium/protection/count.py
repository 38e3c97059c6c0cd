"""One table's shoe counted from its events, as a card counter at the table would count it.

:class:`ShoeCount` is fed the table's events in order. ``shoe.loaded`` starts a
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

>>> from controller.podium.protection.systems import SYSTEMS
>>> shoe = ShoeCount(SYSTEMS["hi-lo"])
>>> shoe.feed({"type": "shoe.loaded", "data": {"shoe_id": 7, "decks": 1}})
>>> for index, card in ((1, "5h"), (2, None), (3, "3c")):
...     shoe.feed({"type": "card.dealt", "data": {"index": index, "card": card}})
>>> shoe.now().running, shoe.now().drawn
(2, 3)
>>> shoe.feed({"type": "card.revealed", "data": {"index": 2, "card": "Kd"}})
>>> now = shoe.now()
>>> now.running, round(now.decks_left, 4), round(now.true, 3)
(1, 0.9423, 1.061)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.podium.protection.systems import CountSystem
from firmware_bridge.kernel.cards import Card

CARDS_PER_DECK = 52

LEAST_DECKS = 0.25
"""The fewest decks left a true count divides by (a quarter deck: late in a shoe the count per deck
would otherwise grow without bound)."""

COUNTED = ("shoe.loaded", "card.dealt", "card.revealed")
"""The event types a count reads."""


class CountError(ValueError):
    """An event a count cannot read; the message says what is wrong."""


@dataclass(frozen=True)
class CountAt:
    """The count of a shoe at one moment."""

    shoe_id: Any
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

    def to_json(self) -> dict[str, Any]:
        return {"shoe_id": self.shoe_id, "decks": self.decks, "drawn": self.drawn, "counted": self.counted,
                "running": self.running, "true": round(self.true, 2),
                "decks_left": round(self.decks_left, 2), "cut_card_out": self.cut_card_out}


def card_rank(text: Any, kind: str) -> int:
    """The rank (1 = ace ... 13 = king) of a card in pit notation; CountError if it is not one."""
    if not isinstance(text, str):
        raise CountError(f"{kind}: card is {text!r}, not a card")
    try:
        return Card.parse(text).rank
    except ValueError as exc:
        raise CountError(f"{kind}: card {text!r} is not a card ({exc})") from None


class ShoeCount:
    """The count of the shoe in play at one table, fed its events in order."""

    def __init__(self, system: CountSystem) -> None:
        self.system = system
        self.shoe_id: Any = None
        self.decks: int | None = None
        self.running = 0
        self.drawn = 0
        self.counted = 0
        self.cut_card_out = False
        self._hidden: set[int] = set()
        """Indexes dealt face down and not yet revealed."""

    def feed(self, message: Mapping[str, Any]) -> None:
        """One event of the table (only :data:`COUNTED` types are read); CountError for one whose
        fields are not what docs/pit-events.md says (nothing is changed then)."""
        kind = message.get("type")
        if kind not in COUNTED and kind != "shoe.cut_card":
            return
        data = message.get("data")
        if not isinstance(data, Mapping):
            raise CountError(f"{kind}: data is not an object")
        if kind == "shoe.loaded":
            decks = data.get("decks")
            if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
                raise CountError(f"shoe.loaded: decks is {decks!r}, not a number of decks")
            self.shoe_id, self.decks = data.get("shoe_id"), decks
            self.running, self.drawn, self.counted = self.system.initial(decks), 0, 0
            self.cut_card_out = False
            self._hidden.clear()
            return
        if self.decks is None:
            return                      # the middle of a shoe not seen loaded: nothing known
        if kind == "shoe.cut_card":
            self.cut_card_out = True
            return
        index = data.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise CountError(f"{kind}: index is {index!r}, not a whole number")
        card = data.get("card")
        if kind == "card.dealt":
            rank = None if card is None else card_rank(card, kind)
            self.drawn = max(self.drawn, index)
            if rank is None:
                self._hidden.add(index)
            else:
                self._count(rank)
        elif index in self._hidden:
            rank = card_rank(card, kind)
            self._hidden.discard(index)
            self._count(rank)

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
