"""What each wager spot of a table is worth to the house: its house edge under the table's rules.

The figures come from the game's own math (``table-controller math``): exact
where the game works them out exactly, the simulated figure with its 95%
interval otherwise. A rating records the :class:`Edges` it used, so an audit
can redo its theoretical win (the sum of each wager times its spot's edge).

>>> edges = Edges("easy-jack", {"decks": 6}, {"main": Edge(0.0093, "exact")}, frozenset(), False)
>>> Edges.from_json(edges.to_json()) == edges
True
>>> edges.edge("main", banked=False)
Edge(house_edge=0.0093, method='exact', interval=None)
>>> edges.edge("side", banked=False) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.events.codec import integer, text
from firmware_bridge.kernel.json import JsonObject, JsonValue


@dataclass(frozen=True)
class Edge:
    """The house edge of one wager spot: the fraction of each wager the house expects to keep."""

    house_edge: float
    method: str
    """How it was found, in the math's own words."""
    interval: tuple[float, float] | None = None
    """The 95% interval of a simulated figure (None: exact)."""

    @property
    def exact(self) -> bool:
        """Whether the figure is exact (not simulated)."""
        return self.interval is None

    def to_json(self) -> JsonObject:
        """The edge as a rating records it."""
        return {"house_edge": self.house_edge, "method": self.method,
                "interval": None if self.interval is None else list(self.interval)}

    @classmethod
    def from_json(cls, data: JsonValue) -> Edge:
        """The edge :meth:`to_json` wrote (ValueError if it is not one)."""
        data = _object(data)
        interval = data.get("interval")
        if interval is not None and (not isinstance(interval, list) or len(interval) != 2):
            raise ValueError(f"an edge's interval is two numbers, not {interval!r}")
        return cls(number(data["house_edge"]), text(data["method"]),
                   None if interval is None else (number(interval[0]), number(interval[1])))


@dataclass(frozen=True)
class Edges:
    """Every wager spot's edge at one table, under its rules."""

    game: str
    rules: Mapping[str, JsonValue]
    """The game's options the figures are for, as the table published them (``table.opened``)."""
    spots: Mapping[str, Edge]
    """Wager spot -> its edge when the house banks it (a spot not listed: no figure, theo 0)."""
    player_banked: frozenset[str]
    """The spots a player-dealer banks when one deals the hand: the house has no edge on them then."""
    rake: bool
    """The house's take is a rake on the pots (``pot.awarded``'s ``rake``), not an edge on wagers."""
    bank_fee: int = 0
    """Cents the house takes from a player-dealer's bank each hand it banks (Buster Blackjack X's
    collection fee): a certain win, counted whole in theo and taken from the bank's result."""

    def edge(self, spot: str, *, banked: bool) -> Edge | None:
        """The edge on a wager at ``spot`` (``banked``: a player-dealer dealt the hand); None: the
        house has no edge on it (no figure, or a player banks it)."""
        if banked and spot in self.player_banked:
            return None
        return self.spots.get(spot)

    def to_json(self) -> JsonObject:
        """What a rating records (and an audit reads back with :meth:`from_json`)."""
        return {"game": self.game, "rules": dict(self.rules),
                "spots": {spot: edge.to_json() for spot, edge in sorted(self.spots.items())},
                "player_banked": list[JsonValue](sorted(self.player_banked)), "rake": self.rake,
                "bank_fee": self.bank_fee}

    @classmethod
    def from_json(cls, data: JsonValue) -> Edges:
        """The edges :meth:`to_json` wrote (ValueError, KeyError if they are not)."""
        data = _object(data)
        banked = data["player_banked"]
        if not isinstance(banked, list):
            raise ValueError(f"player_banked is a list of spots, not {banked!r}")
        return cls(text(data["game"]), _object(data["rules"]),
                   {spot: Edge.from_json(edge) for spot, edge in _object(data["spots"]).items()},
                   frozenset(text(s) for s in banked), bool(data["rake"]),
                   integer(data.get("bank_fee", 0)))      # recorded before the fee was counted: none


def number(value: object) -> float:
    """``value``, a JSON number, as a float (ValueError otherwise)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise ValueError(f"not a number: {value!r}")
    return float(value)


def _object(value: JsonValue) -> JsonObject:
    """``value``, a JSON object (ValueError otherwise)."""
    if not isinstance(value, dict):
        raise ValueError(f"not a JSON object: {value!r}")
    return value
