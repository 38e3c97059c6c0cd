"""Each decision of a hand, read from the events, against the game's basic strategy and the count.

:class:`PlayReader` follows one table's hands. A decision is an explicit
``player.action`` (``stand``, ``hit``, ``double``, ``split``, ``surrender``,
``insurance``, ``no_insurance``), or a hit that is only a card: a ``card.dealt``
to a hand that holds its first cards (:attr:`GameStrategy.first_cards`) and is
owed none (a double's, a split's or an announced hit's card is owed). Each is
checked against the strategy's advice for the hand as it was just before, and
carries the true count at that moment (before the card it asks for).

A deviation from basic strategy *goes with the count* when it is the play a
counter makes there: a more daring play (a stand where the strategy hits,
a double, a split, a surrender, insurance) at a true count of +1 or more
(insurance: at the insurance index, +3 with Hi-Lo, or more), or a more timid
one (a hit where the strategy stands, no double) at -1 or less. In Easy Jack,
target 11, that is a one-card 6 kept at a high count (the strategy hits it); in
Buster Blackjack X, target 31, a stand on a low total where the strategy hits.

>>> d = Decision("T1", 5, 3, 0, "play", "stand", "hit", 2.4)
>>> d.matched, d.direction, d.with_count(3.0)
(False, 'daring', True)
>>> Decision("T1", 5, 3, 0, "insurance", "insurance", "no_insurance", 1.0).with_count(3.0)
False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from controller.events.hand import Acted, DealtInPublic
from controller.events.registry import Event
from controller.events.table import HandStarted
from controller.podium.protection.strategies import GameStrategy, Situation
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject

DARING = {"hit": 0, "no_insurance": 0, "stand": 1, "double": 2, "split": 2, "surrender": 2, "insurance": 2}
"""How daring a play is: a counter takes the more daring one as the count rises."""

PLAYS = ("stand", "hit", "double", "split", "surrender")
INSURANCE = ("insurance", "no_insurance")


@dataclass(frozen=True)
class Decision:
    """One decision of one hand of one seat, against the strategy, at a true count."""

    table: str
    hand: int | None
    seat: int
    hand_index: int
    kind: str
    """``play`` or ``insurance``."""
    taken: str
    advised: str
    true: float

    @property
    def matched(self) -> bool:
        return self.taken == self.advised

    @property
    def direction(self) -> str | None:
        """``daring`` or ``timid`` for a deviation, None when it matched or neither is more daring."""
        step = DARING.get(self.taken, 0) - DARING.get(self.advised, 0)
        return "daring" if step > 0 else "timid" if step < 0 else None

    def with_count(self, insurance_index: float) -> bool:
        """A deviation the count explains (see the module's words)."""
        direction = self.direction
        if direction == "daring":
            return self.true >= (insurance_index if self.kind == "insurance" else 1.0)
        return direction == "timid" and self.true <= -1.0

    def to_json(self) -> JsonObject:
        """The decision as a subject's page shows it."""
        return {"table": self.table, "hand": self.hand, "seat": self.seat, "hand_index": self.hand_index,
                "kind": self.kind, "taken": self.taken, "advised": self.advised, "true": round(self.true, 2)}


@dataclass
class _Cards:
    points: list[int] = field(default_factory=list)
    owed: int = 0
    hit: bool = False
    split_aces: bool = False
    unknown: bool = False


def points(card: Card | None) -> int | None:
    """A card's points (ace 1, ten-point cards 10), None for a hidden card."""
    return None if card is None else min(card.rank, 10)


class PlayReader:
    """One table's decisions, fed its events in order; ``count`` gives the true count now."""

    def __init__(self, table: str, count: Callable[[], float | None]) -> None:
        self.table = table
        self.count = count
        self.strategy: GameStrategy | None = None
        self._hand: int | None = None
        self._hands: dict[tuple[int, int], _Cards] = {}
        self._up: int | None = None

    def feed(self, hand: int | None, record: Event) -> list[Decision]:
        """One event (its record, of hand number ``hand``; before the count reads it); the
        decisions it took."""
        if isinstance(record, HandStarted):
            self._hand, self._hands, self._up = hand, {}, None
            return []
        if self.strategy is None or hand != self._hand or self._hand is None:
            return []
        if isinstance(record, DealtInPublic):
            return self._card(record)
        if isinstance(record, Acted):
            return self._action(record)
        return []

    @staticmethod
    def _key(seat: object, index: object) -> tuple[int, int] | None:
        if not isinstance(seat, int) or not isinstance(index, int):
            return None
        return seat, index

    def _card(self, dealt: DealtInPublic) -> list[Decision]:
        point = points(dealt.card)
        if dealt.target.to == "dealer":
            if self._up is None and dealt.target.face_up and point is not None:
                self._up = point
            return []
        key = self._key(dealt.target.seat, dealt.target.hand_index)
        if key is None:
            return []
        hand = self._hands.setdefault(key, _Cards())
        found: list[Decision] = []
        if hand.owed:
            hand.owed -= 1
        elif len(hand.points) >= self._first_cards():
            found = self._decided(key, hand, "play", "hit")
            hand.hit = True
        if point is None:
            hand.unknown = True
        else:
            hand.points.append(point)
        return found

    def _first_cards(self) -> int:
        return self.strategy.first_cards if self.strategy is not None else 1

    def _action(self, acted: Acted) -> list[Decision]:
        action, key = acted.action, self._key(acted.seat, acted.hand_index)
        if key is None or not isinstance(action, str):
            return []
        if action in INSURANCE:
            true = self.count()
            if true is None:
                return []
            return [Decision(self.table, self._hand, key[0], key[1], "insurance", action, "no_insurance",
                             true)]
        if action not in PLAYS:
            return []
        hand = self._hands.setdefault(key, _Cards())
        found = self._decided(key, hand, "play", action)
        if action in ("hit", "double"):
            hand.owed += 1
            hand.hit = hand.hit or action == "hit"
        elif action == "split" and len(hand.points) == 2:
            seat = key[0]
            new = 1 + max(index for s, index in self._hands if s == seat)
            aces = hand.points[0] == 1
            self._hands[(seat, new)] = _Cards([hand.points.pop()], owed=1, split_aces=aces)
            hand.owed, hand.split_aces = 1, aces
        return found

    def _decided(self, key: tuple[int, int], hand: _Cards, kind: str, taken: str) -> list[Decision]:
        """The decision ``taken`` on ``hand`` as it is now, if the strategy advises there."""
        if self.strategy is None or hand.unknown or len(hand.points) < self.strategy.first_cards:
            return []
        hands = sum(1 for seat, _ in self._hands if seat == key[0])
        advised = self.strategy.advice(Situation(tuple(hand.points), self._up, hand.hit, hand.split_aces,
                                                 hands))
        true = self.count()
        if advised is None or true is None:
            return []
        return [Decision(self.table, self._hand, key[0], key[1], kind, taken, advised, true)]
