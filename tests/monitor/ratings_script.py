"""Hand-made event sequences for the rating and shift tests: known hands, known times, and the edges
``table-controller math --json`` prints for the deployed tables."""

from __future__ import annotations

from typing import Any

from controller.events.envelope import encode_event
from controller.podium.monitor.stores.events import Row
from controller.podium.ratings.edges import Edge, Edges

EJ_MAIN = 0.009336213734831178
EJ_SIDE = 0.09497598956708905
"""Easy Jack's exact edges under deploy/table.toml (``table-controller math --json``)."""

EASY_JACK = Edges("easy-jack", {"decks": 6}, {"main": Edge(EJ_MAIN, "exact"), "side": Edge(EJ_SIDE, "exact")},
                  frozenset(), False)

BBX_MAIN = Edge(0.028600653380415224, "simulated: 20,250,000 rounds",
                (0.028100940780996078, 0.02910036597983437))
BUSTER = Edges("buster-blackjack-x", {}, {"main": BBX_MAIN, "side": Edge(0.06174870846064129, "exact"),
                                          "insurance": Edge(0.07469879518072287, "exact")},
               frozenset({"main", "insurance"}), False)
"""Buster Blackjack X: the main wager's edge simulated; a player-dealer banks main and insurance."""

EXTREME = Edges("blackjack-extreme", {}, {}, frozenset({"main"}), False)
"""Blackjack Extreme: a player banks every wager, the house has no edge."""

HOLDEM = Edges("holdem-blackjack", {}, {}, frozenset(), True)
"""Hold'em Blackjack: the house takes a rake."""


def result(seat: int, spot: str, wager: int, payout: int, outcome: str | None = None) -> dict[str, Any]:
    """One wager's result in ``hand.settled``."""
    outcome = outcome or ("win" if payout > 0 else "lose" if payout < 0 else "push")
    return {"seat": seat, "spot": spot, "hand_index": 0, "outcome": outcome, "wager": wager, "payout": payout}


class Script:
    """A table's events, numbered as published, at given times of one day."""

    def __init__(self, table: str = "T07", day: str = "2026-11-21") -> None:
        self.table = table
        self.day = day
        self.messages: list[dict[str, Any]] = []
        self.hand = 0

    def ts(self, time: str) -> str:
        return time if "T" in time else f"{self.day}T{time}.000Z"

    def add(self, time: str, type: str, hand: int | None, data: dict[str, Any]) -> dict[str, Any]:
        message = {"seq": len(self.messages) + 1, "ts": self.ts(time), "type": type, "hand": hand,
                   "data": data}
        self.messages.append(message)
        return message

    def play(self, start: str, end: str, results: list[dict[str, Any]], *, dealer: int | None = None,
             rakes: tuple[int, ...] = (), void: bool = False) -> int:
        """One hand: started, bets closed at ``start``, pots awarded and settled at ``end`` (or voided)."""
        self.hand += 1
        n = self.hand
        self.add(start, "hand.started", n, {"seats": sorted({r["seat"] for r in results}),
                                            "dealer_seat": dealer})
        self.add(start, "bets.closed", n, {"bets": [{"seat": r["seat"], "spot": r["spot"],
                                                     "amount": r["wager"]} for r in results]})
        if void:
            self.add(end, "hand.voided", n, {"reason": "voided by the dealer"})
            return n
        for pot, rake in enumerate(rakes):
            self.add(end, "pot.awarded", n, {"pot": pot, "seats": [1], "amount": 0, "rake": rake})
        self.add(end, "hand.settled", n, {"results": results})
        self.add(end, "hand.ended", n, {"hand": n})
        return n

    def rows(self, epoch: str = "1") -> list[Row]:
        """The events as a recorder stores them."""
        rows = []
        for m in self.messages:
            topic, body = encode_event(self.table, m["seq"], m["ts"], m["type"], m["hand"], m["data"],
                                       epoch=int(epoch))
            rows.append(Row(self.table, epoch, m["seq"], m["ts"], m["type"], m["hand"], topic.decode(),
                            body.decode()))
        return rows
