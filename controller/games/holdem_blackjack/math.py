"""What ``table-controller math`` reports for Hold'em Blackjack: the rake, or that there is no edge.

The players bet against each other and the house only deals, so no wager has
a house edge. The house's only take is the rake, and what it takes from a hand
depends on how much the players bet, which no rule fixes. So the report gives
the rake rule and what it takes from well-defined hands at the configured
stakes: a pot that every player calls to the showdown without a raise, and a
pot capped in every round (a bet and every raise allowed, by every player), at
two and at six players. Every figure is exact for the hand it names.

>>> house_take(HoldemBlackjackRules())["house"]["value"]
'none: the players bet against each other, the house only deals and takes no rake'
>>> figures = house_take(HoldemBlackjackRules(rake_percent=5, rake_cap=300))
>>> figures["called 6"]["cents"], figures["capped 6"]["cents"]
(0, 300)
"""

from __future__ import annotations

from controller.games.holdem_blackjack.rules import MAX_PLAYERS, HoldemBlackjackRules
from controller.games.parts.pots import rake_due
from controller.games.spec import Figure
from firmware_bridge.kernel.money import dollars as money


def _rake_words(rules: HoldemBlackjackRules) -> str:
    cap = f", at most {money(rules.rake_cap)}" if rules.rake_cap is not None else ", no cap"
    first = "" if rules.rake_first_round else "; none when the hand ends in the first round"
    return (f"{rules.rake_percent}% of the pots{cap}, in whole {money(rules.chip_unit)} chips "
            f"(rounded down){first}")


def house_take(rules: HoldemBlackjackRules) -> dict[str, Figure]:
    """The figures ``table-controller math`` prints: the rake rule and the rake of the called and
    the capped hand at 2 and 6 players (``cents``, with ``value`` in words), or that the house
    has no edge and no take."""
    if rules.rake_percent == 0:
        return {"house": {
            "value": "none: the players bet against each other, the house only deals and takes no rake",
            "method": "rules: no house edge exists in a pot game"}}
    stakes = rules.parsed_stakes
    bets = 1 + rules.raise_cap
    figures: dict[str, Figure] = {
        "rake": {"value": _rake_words(rules), "method": "rules: the house's only take"}}
    for players in (2, MAX_PLAYERS):
        called = players * (rules.ante + stakes.first)
        capped = players * (rules.ante + bets * (stakes.first + stakes.second + stakes.final_high))
        for name, pot, how in (
            ("called", called, "every player calls the big blind, then checks to the showdown"),
            ("capped", capped, "every player puts in a bet and every raise allowed, in every round"),
        ):
            rake = rake_due(pot, rules.rake_percent, rules.rake_cap, rules.chip_unit)
            figures[f"{name} {players}"] = {
                "value": f"{money(rake)} a hand (pots of {money(pot)})", "cents": rake,
                "method": f"exact: {players} players, {how}"}
    return figures
