"""The players' actions before play: a chip count and declining while the blinds are in, then the
betting round (check, raise, fold). Each action is a ``verify_x`` and an ``x`` function of the
hand, dispatched by :data:`~controller.games.blackjack_extreme.hand.ACTION_TABLE`.

In the blinds the action's amount is a seat number (the seat that asks or
declines); in the betting round it is what the main spot holds after a raise.
"""

from __future__ import annotations

from dataclasses import replace

from controller.games.blackjack_extreme.hand_state import H, HandState
from controller.games.blackjack_extreme.offers import option
from controller.games.blackjack_extreme.play import half
from controller.games.blackjack_extreme.seats import SeatPlay
from controller.games.interface import Acted, RuleError
from controller.games.parts.actions import Moved, no_amount
from firmware_bridge.kernel.money import dollars

# -- the blinds: a chip count, declining ----------------------------------------------------------


def verify_count(hand: HandState, amount: int | None) -> None:
    """A chip count for seat ``amount``, a player in this hand, before the first card."""
    option(hand, "count")
    seat = _seat_amount(hand, "count", amount)
    if not seat.playing:
        raise RuleError(f"seat {seat.seat} has declined this hand")


def count(hand: H, amount: int | None) -> Moved[H]:
    """Seat ``amount`` asks for the dealer's chip count: the event carries the count."""
    assert amount is not None
    return hand, (Acted(amount, 0, "count", hand.dealer_stack),)


def verify_decline(hand: HandState, amount: int | None) -> None:
    """Seat ``amount`` may decline: it is in the hand and the dealer cannot pay it the minimum."""
    option(hand, "decline")
    seat = _seat_amount(hand, "decline", amount)
    if not seat.playing:
        raise RuleError(f"seat {seat.seat} has already declined")
    if seat.seat in hand.required:
        raise RuleError(f"seat {seat.seat} must play: the dealer's {dollars(hand.dealer_stack)} "
                        f"pays it at least the {dollars(hand.minimum)} minimum")


def decline(hand: H, amount: int | None) -> Moved[H]:
    """Seat ``amount`` takes its blind back and sits this hand out."""
    assert amount is not None
    after, events = hand.with_seat(amount, state="declined").progress()
    return after, (Acted(amount, 0, "decline", hand.seat(amount).blind), *events)


def _seat_amount(hand: HandState, action: str, amount: int | None) -> SeatPlay:
    if amount is None:
        raise RuleError(f"{action} needs the seat number as its amount")
    return hand.seat(amount)


# -- the betting round: check, raise, fold --------------------------------------------------------


def verify_check(hand: HandState, amount: int | None) -> None:
    """The seat in turn plays its blind only."""
    option(hand, "check")
    no_amount("check", amount)


def check(hand: H, amount: int | None) -> Moved[H]:
    """The seat in turn checks."""
    seat = hand.betting_turn()
    assert seat is not None
    after, events = hand.with_seat(seat.seat, acted=True).progress()
    return after, (Acted(seat.seat, 0, "check"), *events)


def verify_raise(hand: HandState, amount: int | None) -> None:
    """The main spot must now hold at least double the blind and no more than the stack."""
    raising = option(hand, "raise")
    seat = hand.betting_turn()
    assert seat is not None and raising.low is not None
    if amount is None:
        raise RuleError(f"seat {seat.seat}: a raise is read from the main spot")
    if amount < raising.low:
        raise RuleError(f"seat {seat.seat}: a raise makes the bet at least {dollars(raising.low)} "
                        f"(double the {dollars(seat.blind)} blind); the spot reads {dollars(amount)}")
    if amount > seat.stack:
        raise RuleError(f"seat {seat.seat}: table stakes, the bet may be at most the stack "
                        f"{dollars(seat.stack)}; the spot reads {dollars(amount)}")


def raise_(hand: H, amount: int | None) -> Moved[H]:
    """The seat in turn raises its bet to ``amount`` (the main spot's total)."""
    assert amount is not None
    seat = hand.betting_turn()
    assert seat is not None
    first = replace(seat.hands[0], wager=amount)
    after = hand.with_seat(seat.seat, acted=True, raised=True, hands=(first, *seat.hands[1:]))
    after, events = after.progress()
    return after, (Acted(seat.seat, 0, "raise", amount), *events)


def verify_fold(hand: HandState, amount: int | None) -> None:
    """The seat in turn gives up, keeping half its blind."""
    option(hand, "fold")
    no_amount("fold", amount)


def fold(hand: H, amount: int | None) -> Moved[H]:
    """The seat in turn folds: the dealer takes half the blind, the player the rest."""
    seat = hand.betting_turn()
    assert seat is not None
    after, events = hand.with_seat(seat.seat, acted=True, state="folded").progress()
    return after, (Acted(seat.seat, 0, "fold", half(seat.blind)), *events)
