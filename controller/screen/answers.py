"""The answers the table gave during the hand in play: the words of an action whose amount answers a
question (Blackjack Extreme's chip count: "Seat 3 asked: the dealer has $1,250.00").

A game declares the words beside the action (``Action.answer``, the game's
``action_answers``); the screen takes each ``player.action`` of such an action
from the pit stream and shows its answer until the hand ends. Nothing here
names a game.
"""

from __future__ import annotations

from controller.events.hand import Acted
from controller.follow.records import FollowedEvent
from controller.screen.forms import action_answers
from firmware_bridge.kernel.money import dollars

ENDS = frozenset({"hand.ended", "hand.voided"})
"""The events that end the hand in play, and its answers."""


class Answers:
    """The answers of the hand in play, oldest first."""

    def __init__(self) -> None:
        self.hand: int | None = None
        self.shown: list[str] = []

    def clear(self) -> None:
        """A fresh start (a snapshot): no answer is known."""
        self.hand, self.shown = None, []

    def event(self, event: FollowedEvent, game: str | None) -> bool:
        """Take one event of the stream at a table of ``game`` (the picture's); whether the answers
        changed.

        >>> body = (b'{"v":1,"table":"T07","seq":9,"ts":"2026-11-21T22:14:05.123Z","type":"player.action",'
        ...         b'"hand":4,"data":{"seat":3,"hand_index":0,"action":"count","amount":125000}}')
        >>> asked = FollowedEvent(9, "2026-11-21T22:14:05.123Z", None, "player.action", 4, b"", body)
        >>> answers = Answers()
        >>> answers.event(asked, "blackjack-extreme")
        True
        >>> answers.now(4), answers.now(5)
        (['Seat 3 asked: the dealer has $1,250.00'], [])
        """
        if event.type in ENDS:
            changed = bool(self.shown)
            self.clear()
            return changed
        if event.type != Acted.pit_type:
            return False
        acted = event.event
        if not isinstance(acted, Acted) or acted.amount is None:
            return False
        words = action_answers(game).get(acted.action)
        if words is None:
            return False
        if event.hand != self.hand:
            self.hand, self.shown = event.hand, []
        self.shown.append(f"Seat {acted.seat} asked: {words.format(amount=dollars(acted.amount))}")
        return True

    def now(self, hand: int | None) -> list[str]:
        """The answers to show while ``hand`` is in play (none for another hand)."""
        return list(self.shown) if hand is not None and hand == self.hand else []
