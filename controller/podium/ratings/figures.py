"""Each wager spot's house edge at a table, from its game's own math under the rules it published.

:func:`edges_of` takes the game's name and its rules as ``table.opened`` gives
them, rebuilds the rules through the configuration's checks, asks the game
plug-in's ``math`` (what ``table-controller math`` prints) and keeps, for each
of the game's wager spots, the report's figure named like the spot, and the
report's ``bank_fee`` (its ``value``: cents a player-dealer's bank pays the
house each hand, where the game charges one). Which spots a player-dealer
banks, and whether the house takes a rake instead, are the game class's data.
No game is named here.

>>> edges = edges_of("holdem-blackjack", {"rake_percent": 5})
>>> dict(edges.spots), edges.player_banked, edges.rake, edges.rules["rake_percent"]
({}, frozenset(), True, 5)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from functools import lru_cache

from controller.games.catalog import find_game, rules_from_json, rules_json
from controller.podium.ratings.edges import Edge, Edges, number
from controller.podium.ratings.hands import Rules

BANK_FEE = "bank_fee"
"""The math report's entry for what a player-dealer's bank pays the house each hand it banks."""


def edges_of(game: str, rules: Rules) -> Edges:
    """The :class:`Edges` of a table of the installed game ``game`` under ``rules`` (its ``[game]``
    options as JSON, as ``table.opened`` publishes them; the record keeps every option in force).

    Pure, but it may take seconds (the game's math runs; Buster Blackjack X's base wager is
    simulated unless its result is stored for rules like these), so call it off an event loop.
    The result is remembered for equal rules. Raises ValueError for rules the configuration
    would refuse (naming each key) or a math report a spot cannot be read from, and
    :class:`~controller.plugins.PluginError` for a game that is not installed."""
    typed = rules_from_json(game, rules)
    return _edges(game, json.dumps(rules_json(typed), sort_keys=True))


@lru_cache(maxsize=64)
def _edges(game: str, rules_text: str) -> Edges:
    spec = find_game(game)
    kind = spec.game_type
    stray = sorted(set(kind.player_banked) - set(kind.spots))
    if stray:
        raise ValueError(f"{game}: player_banked names spots the game does not have: {', '.join(stray)}")
    rules = json.loads(rules_text)
    report = spec.math(rules_from_json(game, rules))
    spots = {spot: _edge(game, spot, report[spot]) for spot in kind.spots
             if spot in report and "house_edge" in report[spot]}
    fee = report.get(BANK_FEE, {}).get("value", 0) if kind.player_banked else 0
    if not isinstance(fee, int) or isinstance(fee, bool) or fee < 0:
        raise ValueError(f"{game} math: {BANK_FEE}: {fee!r} is not a number of cents")
    return Edges(game, rules, spots, frozenset(kind.player_banked), kind.house_rakes, fee)


def _edge(game: str, spot: str, figure: object) -> Edge:
    """One report entry as an :class:`Edge`; ValueError if it is not a figure."""
    try:
        if not isinstance(figure, Mapping):
            raise TypeError(f"{figure!r} is not a figure")
        interval = figure.get("interval")
        if interval is not None and not isinstance(interval, list | tuple):
            raise TypeError(f"interval {interval!r} is not two numbers")
        edge = Edge(number(figure["house_edge"]), str(figure["method"]),
                    None if interval is None else (number(interval[0]), number(interval[1])))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ValueError(f"{game} math: {spot}: not a house edge with its method ({exc!r})") from exc
    numbers = (edge.house_edge, *(edge.interval or ()))
    if not all(math.isfinite(number) for number in numbers):
        raise ValueError(f"{game} math: {spot}: the house edge is not a finite number")
    return edge
