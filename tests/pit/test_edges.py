"""``edges_of``: each wager spot's house edge at a table from its game's own math, for each game at its
example rules, with the spots a player-dealer banks and the rake flag; bad rules refused.

The figures are those ``table-controller math --json`` prints for the same rules."""

from __future__ import annotations

import pytest

from controller.plugins import PluginError
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.figures import edges_of

EXACT = "exact: "
BUSTER_MAIN = (0.028600653380415224, (0.028100940780996078, 0.02910036597983437))
"""Buster's base wager: 20,250,000 rounds simulated, and the 95% interval."""


def figures(edges: Edges) -> dict[str, tuple[float, tuple[float, float] | None]]:
    return {spot: (edge.house_edge, edge.interval) for spot, edge in edges.spots.items()}


def test_easy_jack_every_spot_exact_and_house_banked() -> None:
    edges = edges_of("easy-jack", {"side_min_bet": 500, "side_max_bet": 10000})
    assert figures(edges) == {"main": (pytest.approx(0.009336213734831178, rel=1e-12), None),
                              "side": (pytest.approx(0.09497598956708905, rel=1e-12), None)}
    assert edges.spots["main"].method == "exact" and edges.spots["main"].exact
    assert (edges.player_banked, edges.rake) == (frozenset(), False)
    assert edges.rules["decks"] == 6 and edges.rules["side_max_bet"] == 10000     # every option in force
    assert Edges.from_json(edges.to_json()) == edges


def test_buster_simulated_base_exact_side_bets_and_the_banked_spots() -> None:
    edges = edges_of("buster-blackjack-x", {"collection_fee": 100})
    assert figures(edges) == {
        "main": (pytest.approx(BUSTER_MAIN[0], rel=1e-12), pytest.approx(BUSTER_MAIN[1], rel=1e-12)),
        "side": (pytest.approx(0.06174870846064129, rel=1e-12), None),          # the Buster bonus
        "insurance": (pytest.approx(0.07469879518072287, rel=1e-12), None),
        "progressive": (pytest.approx(0.07191374192421862, rel=1e-12), None),   # Blazing 7's, long run
    }
    assert edges.spots["main"].method.startswith("simulated: 20,250,000 rounds")
    assert edges.spots["side"].method.startswith(EXACT) and not edges.spots["main"].exact
    assert (edges.player_banked, edges.rake) == (frozenset({"main", "insurance"}), False)
    assert edges.edge("main", banked=True) is None and edges.edge("insurance", banked=True) is None
    assert edges.edge("side", banked=True) == edges.edge("side", banked=False) == edges.spots["side"]
    assert edges.edge("main", banked=False) == edges.spots["main"]               # while the house banks
    assert edges.bank_fee == 100                        # the collection fee a player-dealer's bank pays
    assert Edges.from_json(edges.to_json()) == edges
    recorded_before = {k: v for k, v in edges.to_json().items() if k != "bank_fee"}
    assert Edges.from_json(recorded_before).bank_fee == 0                  # a rating's record from before
    assert edges_of("buster-blackjack-x", {}).bank_fee == 0 and edges_of("easy-jack", {}).bank_fee == 0


def test_blackjack_extreme_the_players_bank_every_wager() -> None:
    edges = edges_of("blackjack-extreme", {"min_buy_in": 10000})
    assert dict(edges.spots) == {}                       # its math's "bank" is the bank's, not the house's
    assert (edges.player_banked, edges.rake) == (frozenset({"main"}), False)
    assert edges.edge("main", banked=True) is None


def test_holdem_blackjack_the_house_takes_a_rake() -> None:
    edges = edges_of("holdem-blackjack", {"stakes": "10/20/20-100", "chip_unit": 500, "rake_percent": 5,
                                          "rake_cap": 1000, "min_buy_in": 20000, "max_buy_in": 100000})
    assert (dict(edges.spots), edges.player_banked, edges.rake) == ({}, frozenset(), True)
    assert edges.rules["rake_percent"] == 5


def test_equal_rules_give_the_same_record() -> None:
    limits = {"side_min_bet": 500, "side_max_bet": 10000}
    assert edges_of("easy-jack", {**limits, "decks": 6}) is edges_of("easy-jack", limits)  # one math run


def test_bad_rules_and_unknown_games_are_refused() -> None:
    with pytest.raises(ValueError, match=r"game\.decks: must be an integer, not a string"):
        edges_of("easy-jack", {"decks": "six"})
    with pytest.raises(ValueError, match=r"game\.banker: must be one of"):
        edges_of("buster-blackjack-x", {"banker": "nobody"})
    with pytest.raises(PluginError, match="no-such-game"):
        edges_of("no-such-game", {})
