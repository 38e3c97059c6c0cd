"""Simulated players of known behaviour at a real Easy Jack table, for game protection's tests and bench.

A :class:`SimTable` is the real table core (:class:`~controller.table.machine.Table`
with the real Easy Jack game, on a real journal when given a folder) driven as a
dealer would: chips on the spots, DEAL, cards out of a shuffled six-deck shoe,
each seat's hit or stand, NEXT; the cut card, and a new shoe after it. Its
events are those the table publishes.

Each seat holds a :class:`Player`, who sees every card shown (and keeps a Hi-Lo
count of them, as a counter does) and says what to bet at the next hand:

* :class:`FlatBettor`: the same bet every hand (``noise``: now and then one unit
  more or less, at random; ``breaks``: now and then a hand sat out, at random);
* :class:`Counter`: a Hi-Lo counter with a 1-8 spread (1 unit to +1, 2 at +2,
  4 at +3, 8 from +4), who keeps a one-card 6 at +2 or more, where the
  strategy hits;
* :class:`Wonger`: watches from behind, sits down when the true count reaches
  +2, leaves when it drops below 0; flat bets while in;
* :class:`RandomBettor`: 1 to 8 units at random, whatever the count.

Every player but the counter plays Easy Jack's best play (the game's own
solver). Nothing here is the pit's: a player's count is its own, worked out
from the shoe it sees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from controller.events.envelope import decode_body
from controller.games.catalog import rules_json
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.math import EasyJackSolver
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.journal.log import Journal
from controller.table.machine import Table, TableSettings
from drivers.inputs import CardDrawn, CutCard, DeviceOnline, ShoeLoaded, SpotWager
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject

UNIT = 1000
"""A unit bet, in cents."""

DECKS = 6
CUT_AT = 234
"""Cards dealt before the cut card comes out (three quarters of six decks)."""

HI_LO = {1: -1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 0, 8: 0, 9: 0, 10: -1, 11: -1, 12: -1, 13: -1}


@dataclass
class Player:
    """A player: sees the cards shown and counts them (Hi-Lo), bets, hits or stands."""

    unit: int = UNIT
    running: int = 0
    seen: int = 0
    drawn: int = 0

    def new_shoe(self) -> None:
        self.running = self.seen = self.drawn = 0

    def sees(self, rank: int) -> None:
        self.running += HI_LO[rank]
        self.seen += 1

    @property
    def true(self) -> float:
        """The player's true count: running count per deck left (at least a quarter)."""
        return self.running / max(0.25, (DECKS * 52 - self.drawn) / 52)

    def bet(self, rng: random.Random) -> int | None:
        """Cents to bet on the next hand (None: sit it out)."""
        return self.unit

    def hits(self, points: list[int], solver: EasyJackSolver) -> bool:
        """Whether to hit the hand ``points`` (an ace as 1)."""
        return solver.should_hit(points)


@dataclass
class FlatBettor(Player):
    noise: float = 0.0
    breaks: float = 0.0

    def bet(self, rng: random.Random) -> int | None:
        if rng.random() < self.breaks:
            return None
        if rng.random() < self.noise:
            return self.unit * rng.choice((1, 2))
        return self.unit


@dataclass
class Counter(Player):
    def bet(self, rng: random.Random) -> int | None:
        true = int(self.true) if self.true > 0 else 0
        return self.unit * (1 if true < 2 else 2 if true == 2 else 4 if true == 3 else 8)

    def hits(self, points: list[int], solver: EasyJackSolver) -> bool:
        if points == [6] and self.true >= 2:
            return False
        return solver.should_hit(points)


@dataclass
class Wonger(Player):
    enter: float = 2.0
    leave: float = 0.0
    seated: bool = False

    def new_shoe(self) -> None:
        super().new_shoe()
        self.seated = False

    def bet(self, rng: random.Random) -> int | None:
        if self.seated and self.true < self.leave:
            self.seated = False
        elif not self.seated and self.true >= self.enter:
            self.seated = True
        return self.unit if self.seated else None


@dataclass
class RandomBettor(Player):
    def bet(self, rng: random.Random) -> int | None:
        return self.unit * rng.randint(1, 8)


@dataclass
class SimTable:
    """The real Easy Jack table core, dealt to the seats' players."""

    players: dict[int, Player]
    seed: int = 1
    folder: Path | None = None
    name: str = "T01"
    published: list[JsonObject] = field(default_factory=list)
    on_event: Callable[[JsonObject], None] | None = None
    """Called with each event as the table publishes it (else they are kept in ``published``)."""

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        rules = EasyJackRules(decks=DECKS)
        self.solver = _solver(DECKS)
        journal = Journal.open(self.folder / "journal.log") if self.folder is not None else None
        settings = TableSettings(self.name, "easy-jack", 7, {"min_bet": 500, "max_bet": 50_000},
                                 ("deal", "stand", "next", "void"), ("shoe", "rfid"), payout_check=False,
                                 rules=rules_json(rules))
        ticks = iter(range(10**12))
        self.table = Table(settings, EasyJack(rules, Limits(500, 50_000)),
                           clock=lambda: _clock(next(ticks)),
                           write=(lambda records: journal.append(*records)) if journal is not None
                           else (lambda records: None))
        self.table.set_publisher(lambda topic, body: self._published(decode_body(body)))
        self.table.open(recovered=False)
        self.table.handle(DeviceOnline("shoe", "shoe-1.0", "SH-1"))
        self.table.handle(DeviceOnline("rfid", "rfid-1.0", "RF-1"))
        self.shoe_id = 0
        self.shoes: dict[int, list[Card]] = {}
        """Each shoe dealt, by id: its cards in order."""
        self.cards: list[Card] = []
        self.index = 0
        self.bets: dict[int, int] = {}
        self._hole: tuple[int, Card] | None = None

    def _published(self, event: JsonObject) -> None:
        if self.on_event is not None:
            self.on_event(event)
        else:
            self.published.append(event)

    def new_shoe(self) -> None:
        """Shuffle six decks and load them."""
        self.shoe_id += 1
        self.cards = [Card(rank, suit) for rank in range(1, 14) for suit in range(4)] * DECKS
        self.rng.shuffle(self.cards)
        self.shoes[self.shoe_id] = self.cards
        self.index = 0
        for player in self.players.values():
            player.new_shoe()
        self.table.handle(ShoeLoaded(self.shoe_id, DECKS))

    def _draw(self, shown: bool = True) -> Card:
        card = self.cards[self.index]
        self.index += 1
        self.table.handle(CardDrawn(self.shoe_id, self.index, card))
        for player in self.players.values():
            player.drawn = self.index
            if shown:
                player.sees(card.rank)
        return card

    def hand(self) -> None:
        """One hand: the bets, the deal, each seat's play, the dealer's, NEXT; a new shoe once the cut
        card is out."""
        if not self.cards or self.index >= CUT_AT:
            if self.cards:
                self.table.handle(CutCard(self.shoe_id, self.index))
            self.new_shoe()
        for seat, player in sorted(self.players.items()):
            amount = player.bet(self.rng) or 0
            if amount != self.bets.get(seat, 0):
                chips = (f"{seat:02d}m",) if amount else ()
                self.table.handle(SpotWager(seat, "main", seat * 2 - 1, amount, chips))
                self.bets[seat] = amount
        if not any(self.bets.values()):
            return
        reason = self.table.press("deal")
        assert reason is None, reason
        held: dict[int, list[int]] = {}
        hole: Card | None = None
        while (decision := self.table.decision()) is not None:
            target = decision.card
            if decision.seat is not None:
                points = held[decision.seat]
                if not self.players[decision.seat].hits(points, self.solver):
                    assert self.table.press("stand") is None
                    continue
            face_up = target is None or target.face_up
            card = self._draw(shown=face_up)
            if target is not None and target.to == "seat" and target.seat is not None:
                held.setdefault(target.seat, []).append(min(card.rank, 10))
            elif not face_up:
                hole = card
        if hole is not None and self.table.state.hand is not None and \
                getattr(self.table.state.hand, "hole_revealed", False):
            for player in self.players.values():
                player.sees(hole.rank)
        assert self.table.press("next") is None


@cache
def _solver(decks: int) -> EasyJackSolver:
    """Easy Jack's solver for its default rules with ``decks`` decks, made once (it remembers what it
    worked out)."""
    solver = EasyJackSolver(EasyJackRules(decks=decks))
    solver.house_edge()             # walks every hand once, so that each decision is looked up
    return solver


def _clock(tick: int) -> str:
    """A pit timestamp a tenth of a second after the last (hand after hand, in order)."""
    seconds = tick // 10
    return (f"2026-11-21T{8 + seconds // 3600 % 16:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}."
            f"{tick % 10}00Z")
