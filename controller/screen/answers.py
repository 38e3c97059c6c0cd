"""The answers the table gave during the hand in play: the words of an action whose amount answers a
question (Blackjack Extreme's chip count: "Seat 3 asked: the dealer has $1,250.00").

A game declares the words beside the action (``Action.answer``, the game's
``action_answers``); the screen takes each ``player.action`` of such an action
from the pit stream and shows its answer until the hand ends. Nothing here
names a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from controller.screen.forms import action_answers
from firmware_bridge.kernel.money import dollars


class Answers:
    """The answers of the hand in play, oldest first."""

    def __init__(self) -> None:
        self.hand: int | None = None
        self.shown: list[str] = []

    def clear(self) -> None:
        """A fresh start (a snapshot): no answer is known."""
        self.hand, self.shown = None, []

    def event(self, message: Mapping[str, Any], picture: Mapping[str, Any] | None) -> bool:
        """Take one event of the stream; whether the answers changed.

        >>> answers = Answers()
        >>> answers.event({"type": "player.action", "hand": 4, "data": {"seat": 3, "action": "count",
        ...                "amount": 125000}}, {"game": "blackjack-extreme"})
        True
        >>> answers.now(4), answers.now(5)
        (['Seat 3 asked: the dealer has $1,250.00'], [])
        """
        kind, data = message.get("type"), message.get("data") or {}
        if kind in ("hand.ended", "hand.voided"):
            changed = bool(self.shown)
            self.clear()
            return changed
        if kind != "player.action":
            return False
        words = action_answers(picture).get(str(data.get("action")))
        amount = data.get("amount")
        if words is None or not isinstance(amount, int):
            return False
        if message.get("hand") != self.hand:
            self.hand, self.shown = message.get("hand"), []
        self.shown.append(f"Seat {data.get('seat')} asked: {words.format(amount=dollars(amount))}")
        return True

    def now(self, hand: int | None) -> list[str]:
        """The answers to show while ``hand`` is in play (none for another hand)."""
        return list(self.shown) if hand is not None and hand == self.hand else []
