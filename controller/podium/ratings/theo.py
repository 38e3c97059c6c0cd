"""Wagers as theoretical win needs them, and the theoretical win itself.

:class:`Wagers` keeps, per wager spot, whole cents only: the hands with a
wager there, the sum wagered, and the part of it wagered in hands a
player-dealer dealt; the rake share of a pot game as an exact fraction; and,
per spot, what a player-dealer won banking it, and the hands she banked.
Nothing in it depends on the
edges, so the theoretical win is worked out when it is shown, from the
:class:`~controller.podium.ratings.edges.Edges` a rating recorded:

    theo = Σ over spots of (wagered - wagered in player-dealt hands, if a player-dealer banks
           that spot then) x that spot's house edge

plus, where a player-dealer's bank pays the house a fee each hand
(``Edges.bank_fee``), that fee for each hand banked; and, in a rake game
(``Edges.rake``), the rake share (see :meth:`Wagers.add_hand`). Each term
is kept (:class:`Term`) so an audit can redo the sum. A simulated edge gives
the interval too: the same sum with the low and the high end of its 95%
interval.

>>> from controller.podium.ratings.edges import Edge, Edges
>>> edges = Edges("easy-jack", {}, {"main": Edge(0.01, "exact"),
...               "side": Edge(0.1, "simulated", (0.09, 0.11))}, frozenset(), False)
>>> w = Wagers()
>>> w.spots["main"] = SpotWagers(hands=2, wagered=3000)
>>> w.spots["side"] = SpotWagers(hands=1, wagered=500)
>>> theo = theo_of(w, edges)
>>> round(theo.cents, 6), theo.interval
(80.0, (75.0, 85.0))
>>> theo_of(w, None).value is None
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from controller.events.hand import WagerResult
from controller.podium.ratings.edges import Edge, Edges
from firmware_bridge.kernel.json import JsonObject, JsonValue


@dataclass
class SpotWagers:
    """One wager spot: hands with a wager on it, cents wagered, and those in player-dealt hands."""

    hands: int = 0
    wagered: int = 0
    player_dealt: int = 0

    @property
    def average(self) -> int | None:
        """Cents per hand with a wager here, rounded (None without one)."""
        return round(self.wagered / self.hands) if self.hands else None


@dataclass
class Wagers:
    """What theoretical win and the bank's result are worked out from (whole cents, kept exact)."""

    spots: dict[str, SpotWagers] = field(default_factory=dict)
    rake: Fraction = Fraction(0)
    """The rake share: Σ over hands of the hand's rake x these wagers / all the hand's wagers."""
    bank: dict[str, int] = field(default_factory=dict)
    """Spot -> what a player-dealer won banking it (the other seats' payouts there, negated)."""
    banked_hands: int = 0
    """Hands a player-dealer banked (each pays the house the bank's fee, if the game has one)."""

    def add_hand(self, results: Iterable[WagerResult], *, player_dealt: bool, rake: int = 0,
                 pot: int = 0) -> None:
        """The wagers of one hand (of one seat, or of a whole table); ``rake`` and ``pot`` (the
        hand's) give the rake share of these wagers. A spot's ``hands`` counts a hand once however
        many of its wagers are on the spot (split hands, several seats)."""
        seen: set[str] = set()
        staked = 0
        for result in results:
            spot = self.spots.setdefault(result.spot, SpotWagers())
            spot.wagered += result.wager
            spot.player_dealt += result.wager if player_dealt else 0
            spot.hands += result.spot not in seen
            seen.add(result.spot)
            staked += result.wager
        if rake and pot:
            self.rake += Fraction(rake * staked, pot)

    def add_bank(self, results: Iterable[WagerResult]) -> None:
        """A hand a player-dealer dealt: the other seats' ``results`` are what she banked."""
        self.banked_hands += 1
        for result in results:
            self.bank[result.spot] = self.bank.get(result.spot, 0) - result.payout

    @property
    def wagered(self) -> int:
        """Cents wagered on every spot."""
        return sum(s.wagered for s in self.spots.values())

    def bank_result(self, edges: Edges | None) -> int:
        """What the player-dealer won on the spots she banks, less the bank's fees (without edges:
        on every spot, as the report by table counts it, and no fee)."""
        won = sum(won for spot, won in self.bank.items() if edges is None or spot in edges.player_banked)
        return won - (0 if edges is None else edges.bank_fee * self.banked_hands)


@dataclass(frozen=True)
class Term:
    """One term of a theoretical win: ``wagered`` cents at ``spot`` x its ``edge``."""

    spot: str
    wagered: int
    edge: Edge

    def to_json(self) -> JsonObject:
        """The term: its spot, the cents wagered there and the edge they are counted at."""
        return {"spot": self.spot, "wagered": self.wagered, **self.edge.to_json()}


@dataclass(frozen=True)
class Theo:
    """A theoretical win in cents (a float: an expectation, rounded only when shown)."""

    cents: float = 0.0
    low: float = 0.0
    high: float = 0.0
    simulated: bool = False
    """Some term's edge is simulated: ``low``/``high`` are the 95% interval."""
    unknown: int = 0
    """Parts (ratings, tables) whose edges are missing: the whole is then unknown."""
    terms: tuple[Term, ...] = ()
    no_edge: frozenset[str] = frozenset()
    """Spots wagered on that the edges give no figure for (they count 0)."""
    rake: bool = False
    """A rake game's: the rake share, no edge."""
    fees: int = 0
    """Cents of it that are the bank's fees (certain: the same at both ends of an interval)."""

    @property
    def value(self) -> float | None:
        """The theoretical win, None when unknown (never 0 in its place)."""
        return None if self.unknown else self.cents

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% interval where an edge is simulated, else None."""
        return (self.low, self.high) if self.simulated and not self.unknown else None

    def __add__(self, other: Theo) -> Theo:
        """The sum of two theoretical wins (the terms are left out: they belong to each part)."""
        return Theo(self.cents + other.cents, self.low + other.low, self.high + other.high,
                    self.simulated or other.simulated, self.unknown + other.unknown, (),
                    self.no_edge | other.no_edge, self.rake or other.rake, self.fees + other.fees)

    def to_json(self) -> JsonObject:
        """Cents (rounded to a hundredth of a cent), its interval, and the terms it was summed from."""
        interval = self.interval
        return {"cents": None if self.value is None else round(self.value, 2),
                "interval": None if interval is None else [round(interval[0], 2), round(interval[1], 2)],
                "rake_share": self.rake, "terms": [t.to_json() for t in self.terms],
                "no_edge": list[JsonValue](sorted(self.no_edge)), "bank_fees": self.fees}


UNKNOWN = Theo(unknown=1)
"""The theoretical win of wagers whose edges are missing."""


def theo_of(wagers: Wagers, edges: Edges | None) -> Theo:
    """The theoretical win of ``wagers`` under ``edges`` (unknown without them)."""
    if edges is None:
        return UNKNOWN
    if edges.rake:
        share = float(wagers.rake)
        return Theo(share, share, share, rake=True)
    fees = edges.bank_fee * wagers.banked_hands
    total = low = high = float(fees)
    simulated = False
    terms: list[Term] = []
    missing: set[str] = set()
    for name, spot in sorted(wagers.spots.items()):
        banked = spot.player_dealt if name in edges.player_banked else 0
        edge = edges.spots.get(name)
        at_risk = spot.wagered - banked
        if edge is None:
            if at_risk:
                missing.add(name)
            continue
        terms.append(Term(name, at_risk, edge))
        total += at_risk * edge.house_edge
        lo, hi = edge.interval or (edge.house_edge, edge.house_edge)
        low += at_risk * lo
        high += at_risk * hi
        simulated = simulated or edge.interval is not None
    return Theo(total, low, high, simulated, terms=tuple(terms), no_edge=frozenset(missing), fees=fees)
