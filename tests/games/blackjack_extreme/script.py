"""Scripted Blackjack Extreme hands for the tests: a table of stacks, blinds, cards and actions."""

from __future__ import annotations

from typing import Any

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.hand import BlackjackExtremeHand
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.interface import Button, GameEvent, Limits, Session, Stacks, Tournament, WagerResult
from firmware_bridge.kernel.cards import Card

LIMITS = Limits(500, 50000)


def make_game(**rules: Any) -> BlackjackExtreme:
    """The game with these options and table limits of $5.00 to $500.00."""
    return BlackjackExtreme(BlackjackExtremeRules(**rules), LIMITS)


class Play:
    """One hand driven step by step; every step's events are kept."""

    def __init__(self, stacks: dict[int, int], button: int, blinds: dict[int, int],
                 session: Session | None = None, **rules: Any) -> None:
        self.game = make_game(**rules)
        self.session = session or Session.of(Stacks(dict(stacks)), Button(button))
        if self.game.rules.tournament and session is None:   # a tournament under way, at the table minimum
            self.session = Session.of(Stacks(dict(stacks)), Button(button), Tournament(
                level=1, blinds=(500, 1000, 1500), ends_at="2027-03-01T20:20:00.000Z"))
        self.hand: BlackjackExtremeHand
        self.hand, _ = self.game.start({seat: {"main": amount} for seat, amount in blinds.items()},
                                       self.session)
        self.index = 0
        self.events: list[GameEvent] = []

    def cards(self, *texts: str) -> Play:
        for text in texts:
            self.index += 1
            self.hand, events = self.hand.deal(Card.parse(text), self.index)
            self.events.extend(events)
        return self

    def act(self, action: str, amount: int | None = None) -> Play:
        self.hand, events = self.hand.act(action, amount)
        self.events.extend(events)
        return self

    def acts(self, *steps: str | tuple[str, int]) -> Play:
        for step in steps:
            if isinstance(step, tuple):
                self.act(*step)
            else:
                self.act(step)
        return self

    def results(self) -> list[tuple[int, int, str, int, int]]:
        """(seat, hand index, outcome, wager, payout) per result."""
        found: tuple[WagerResult, ...] | None = self.hand.results()
        assert found is not None, self.hand.decision()
        return [(r.seat, r.hand_index, r.outcome, r.wager, r.payout) for r in found]

    def finish(self) -> Session:
        """The session after the hand's ``finish`` events."""
        session = self.session
        for event in self.game.finish(self.hand, session):
            session = session.apply(event)
        return session

    @property
    def prompt(self) -> str:
        decision = self.hand.decision()
        assert decision is not None
        return decision.prompt

    @property
    def actions(self) -> set[str]:
        decision = self.hand.decision()
        assert decision is not None
        return set(decision.actions)
