"""A hand of Buster Blackjack X driven step by step, as the table drives it, for the tests."""

from __future__ import annotations

from typing import Any

from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.hand import BusterHand
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.interface import Bets, GameEvent, Limits, Session
from firmware_bridge.kernel.cards import Card

LIMITS = Limits(500, 50000)


def game(**options: Any) -> BusterBlackjackX:
    """The game with these options (house-banked unless ``banker`` says otherwise)."""
    options.setdefault("banker", "house")
    return BusterBlackjackX(BusterRules(**options), LIMITS)


class Play:
    """One hand: ``card("Kh")``, ``act("double", 2000)``; every event kept in ``events``."""

    def __init__(self, bets: Bets, session: Session | None = None, **options: Any) -> None:
        self.game = game(**options)
        self.session = session or Session()
        self.hand: BusterHand
        self.hand, started = self.game.start(bets, self.session)
        self.events: list[GameEvent] = list(started)
        self.index = 0

    def card(self, *texts: str) -> list[GameEvent]:
        """Deal these cards in order; return the events of the last."""
        events: tuple[GameEvent, ...] = ()
        for text in texts:
            self.index += 1
            self.hand, events = self.hand.deal(Card.parse(text), self.index)
            self.events += events
        return list(events)

    def act(self, action: str, amount: int | None = None) -> list[GameEvent]:
        self.hand, events = self.hand.act(action, amount)
        self.events += events
        return list(events)

    def results(self) -> list[tuple[int, str, int, str, int]]:
        """(seat, spot, hand index, outcome, payout) of every wager."""
        return [(r.seat, r.spot, r.hand_index, r.outcome, r.payout) for r in self.hand.results() or ()]

    def kinds(self, events: list[GameEvent] | None = None) -> list[str]:
        return [type(event).__name__ for event in (self.events if events is None else events)]
