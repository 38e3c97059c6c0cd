"""A hand's actions declared as data: each name with its ``verify`` and its ``take`` function.

Every game's :meth:`~controller.games.interface.Hand.verify` and
:meth:`~controller.games.interface.Hand.act` look the action up here, by name,
instead of building a method name from a string: an action the game does not
have is refused in one place, in the same words for every game, and the table
says in one place which functions check and take each action (pokerkit's
``verify_x`` and ``x``). ``verify`` raises :class:`RuleError` in a dealer's
words; ``take`` makes the move on a hand already verified, so a hand's ``act``
is its ``verify`` (with any check of its own that comes first) and then
:meth:`Actions.take`.

>>> from controller.games.interface import RuleError
>>> bell = Actions("Bell", {"ring": Action(lambda n, amount: no_amount("ring", amount),
...                                        lambda n, amount: (n + 1, ()), "Ring the bell")})
>>> bell.names, bell.labels, bell.take(41, "ring", None)
(('ring',), {'ring': 'Ring the bell'}, (42, ()))
>>> bell.verify(41, "knock", None)
Traceback (most recent call last):
...
controller.games.interface.RuleError: Bell has no 'knock'
>>> bell.verify(41, "ring", 500)
Traceback (most recent call last):
...
controller.games.interface.RuleError: ring takes no amount
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from controller.games.interface import GameEvent, RuleError

HandT = TypeVar("HandT")

Moved = tuple[HandT, tuple[GameEvent, ...]]
"""A hand after an action, and the events the action brought."""


@dataclass(frozen=True)
class Action(Generic[HandT]):
    """One action: ``verify(hand, amount)`` raises RuleError unless it is allowed now, saying why;
    ``take(hand, amount)`` returns the hand after it and its events (the ``Acted`` record first);
    ``label``: its name for people (the dealer screen's button), declared beside it; ``danger``:
    it cannot be taken back (a dealer leaving the game), so a screen asks for a second touch;
    ``answer``: for an action whose ``Acted`` amount answers a question (a chip count), the words
    of that answer with ``{amount}`` for the amount in dollars."""

    verify: Callable[[HandT, int | None], None]
    take: Callable[[HandT, int | None], Moved[HandT]]
    label: str
    danger: bool = False
    answer: str | None = None


@dataclass(frozen=True)
class Actions(Generic[HandT]):
    """A game's actions by name (in the order a game lists them), and how a hand dispatches to them."""

    game: str
    table: Mapping[str, Action[HandT]]

    @property
    def names(self) -> tuple[str, ...]:
        """Every action's name, in the table's order."""
        return tuple(self.table)

    @property
    def labels(self) -> dict[str, str]:
        """Every action's label for people, by name."""
        return {name: action.label for name, action in self.table.items()}

    @property
    def dangerous(self) -> tuple[str, ...]:
        """The actions a screen confirms by a second touch."""
        return tuple(name for name, action in self.table.items() if action.danger)

    @property
    def answers(self) -> dict[str, str]:
        """The words of each action whose amount answers a question, by name."""
        return {name: action.answer for name, action in self.table.items() if action.answer is not None}

    def find(self, name: str) -> Action[HandT]:
        """The action ``name``; raises RuleError if the game has no such action."""
        action = self.table.get(name)
        if action is None:
            raise RuleError(f"{self.game} has no {name!r}")
        return action

    def verify(self, hand: HandT, name: str, amount: int | None) -> None:
        """Raise RuleError unless ``hand`` allows action ``name`` with ``amount`` now."""
        self.find(name).verify(hand, amount)

    def take(self, hand: HandT, name: str, amount: int | None) -> Moved[HandT]:
        """Take action ``name`` on ``hand`` (after :meth:`verify` and whatever the game checks first)."""
        return self.find(name).take(hand, amount)


def no_amount(action: str, amount: int | None) -> None:
    """Raise RuleError if an action that takes no amount was given one."""
    if amount is not None:
        raise RuleError(f"{action} takes no amount")
