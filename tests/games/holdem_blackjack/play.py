"""A hand of Hold'em Blackjack driven step by step for the tests, with every event kept.

``Play(stacks={1: 10000, 2: 10000}, button=1)`` posts the blinds and antes
the seating asks for and starts the hand; ``card("Qh", ...)`` deals cards from
the shoe in order; ``call()``, ``check()``, ``bet()``, ``raise_()`` take the
amount the decision offers (the lowest, unless given); ``fold()``, ``stand()``.
"""

from __future__ import annotations

from typing import Any

from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.hand import HoldemHand, forced_bets
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Button, GameEvent, Limits, Option, Session, Stacks
from firmware_bridge.kernel.cards import Card


class Play:
    """One hand in progress."""

    def __init__(self, stacks: dict[int, int], button: int | None = None, **options: Any) -> None:
        self.session = Session.of(Stacks(stacks), Button(button))
        self.game = HoldemBlackjack(HoldemBlackjackRules(**options), Limits(100, 100_000))
        place = self.game.seating(self.session)
        assert place is not None
        posts = forced_bets(self.game.rules, place, stacks)
        self.bets = {seat: {"bet": sum(posts[seat])} for seat in place.seats}
        self.hand: HoldemHand
        self.hand, start = self.game.start(self.bets, self.session)
        self.events: list[GameEvent] = list(start)
        self.index = 0

    def card(self, *texts: str) -> list[GameEvent]:
        """Deal these cards in order; the events of the last."""
        events: tuple[GameEvent, ...] = ()
        for text in texts:
            self.index += 1
            self.hand, events = self.hand.deal(Card.parse(text), self.index)
            self.events.extend(events)
        return list(events)

    def act(self, action: str, amount: int | None = None) -> list[GameEvent]:
        """Take ``action``; a spot action without ``amount`` takes the lowest the decision offers."""
        decision = self.hand.decision()
        assert decision is not None
        option = decision.actions.get(action)
        if amount is None and option is not None and option.low is not None:
            amount = option.low
        self.hand, events = self.hand.act(action, amount)
        self.events.extend(events)
        return list(events)

    def call(self, amount: int | None = None) -> list[GameEvent]:
        return self.act("call", amount)

    def check(self) -> list[GameEvent]:
        return self.act("check")

    def bet(self, amount: int | None = None) -> list[GameEvent]:
        return self.act("bet", amount)

    def raise_(self, amount: int | None = None) -> list[GameEvent]:
        return self.act("raise", amount)

    def fold(self) -> list[GameEvent]:
        return self.act("fold")

    def stand(self) -> list[GameEvent]:
        return self.act("stand")

    @property
    def turn(self) -> int | None:
        decision = self.hand.decision()
        return None if decision is None else decision.seat

    @property
    def options(self) -> dict[str, Option]:
        """The actions open now (none once the hand is over)."""
        decision = self.hand.decision()
        return {} if decision is None else dict(decision.actions)

    @property
    def prompt(self) -> str | None:
        decision = self.hand.decision()
        return None if decision is None else decision.prompt

    def of(self, kind: type) -> list[Any]:
        """Every event of this type so far."""
        return [event for event in self.events if isinstance(event, kind)]

    def finish(self) -> Session:
        """The session after the hand."""
        session = self.session
        for event in self.game.finish(self.hand, session):
            session = session.apply(event)
        return session
