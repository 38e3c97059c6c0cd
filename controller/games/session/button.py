"""The dealer button, or the player-dealer seat, and the seats waiting for it to pass them.

``waiting`` holds the seats that bought in while the game was under way (a
button was set) and wait for the button to pass them, the card room's rule for
joining a game with a moving button (a game that has no such rule ignores it).
The button passes a seat when it moves onto it or over it clockwise (seat
numbers rising, then wrapping round); a cash-out ends the wait.

>>> from controller.games.session.stacks import StackChanged
>>> button = Button(seat=2).apply(StackChanged(5, 900, "buy_in"))
>>> button.waiting, button.apply(ButtonMoved(3)).waiting, button.apply(ButtonMoved(1)).waiting
((5,), (5,), ())
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Self

from controller.events.registry import Event, event
from controller.games.session.part import SessionPart, session_part
from controller.games.session.stacks import StackChanged

SEAT_WRAP = 1000
"""More than any table has seats: clockwise distances between seats are taken modulo this."""


@event("button.moved")
@dataclass(frozen=True)
class ButtonMoved(Event):
    """The dealer button, or the player-dealer position, is now at ``seat`` (``button.moved``)."""

    seat: int | None


@session_part("button")
@dataclass(frozen=True)
class Button(SessionPart):
    """The button's ``seat`` (None: not set yet) and the seats ``waiting`` for it to pass them."""

    events = (ButtonMoved, StackChanged)

    seat: int | None = None
    waiting: tuple[int, ...] = ()

    def apply(self, event: Event) -> Self:
        """The button after it moved, or after a seat bought in or cashed out."""
        if isinstance(event, ButtonMoved):
            return replace(self, seat=event.seat, waiting=self._still_waiting(event.seat))
        assert isinstance(event, StackChanged)
        if event.amount == 0 and event.reason == "cash_out":
            return replace(self, waiting=tuple(seat for seat in self.waiting if seat != event.seat))
        if event.reason == "buy_in" and self.seat is not None and event.seat not in self.waiting:
            return replace(self, waiting=(*self.waiting, event.seat))
        return self

    def _still_waiting(self, button: int | None) -> tuple[int, ...]:
        """The waiting seats the button does not pass when it moves from :attr:`seat` to ``button``."""
        old = self.seat
        if old is None or button is None:
            return self.waiting
        reach = (button - old) % SEAT_WRAP
        return tuple(seat for seat in self.waiting if not 0 < (seat - old) % SEAT_WRAP <= reach)
