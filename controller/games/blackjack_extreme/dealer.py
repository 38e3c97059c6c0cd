"""The player-dealer's side of a Blackjack Extreme hand: her up card, her choice after the betting
round (surrender or play), and her turn once the players are done. Each action is a ``verify_x``
and an ``x`` function of the hand, dispatched by
:data:`~controller.games.blackjack_extreme.hand.ACTION_TABLE`; her draws and her stand are the
players' ``hit`` and ``stand`` (:mod:`~controller.games.blackjack_extreme.turns`).
"""

from __future__ import annotations

from dataclasses import replace

from controller.games.blackjack_extreme.hand_state import H, HandState
from controller.games.blackjack_extreme.offers import option
from controller.games.blackjack_extreme.settlement import settle
from controller.games.interface import Acted, GameEvent, Revealed, RuleError
from controller.games.parts.actions import Moved, no_amount

# -- her up card ----------------------------------------------------------------------------------


def verify_turn_up(hand: HandState, amount: int | None) -> None:
    """The dealer turns up her card 1 or 2."""
    option(hand, "turn_up")
    if amount not in (1, 2):
        raise RuleError("turn_up takes 1 (the dealer's first card) or 2 (her second)")


def turn_up(hand: H, amount: int | None) -> Moved[H]:
    """The dealer's card ``amount`` is shown: ``Acted`` and its ``Revealed``."""
    assert amount is not None
    after, shown = show(hand, amount - 1)
    after, events = replace(after, phase="betting").progress()
    return after, (Acted(hand.dealer_seat, 0, "turn_up", amount), shown, *events)


def show(hand: H, position: int) -> tuple[H, Revealed]:
    """The dealer's card at ``position`` turned face up, and its ``Revealed``."""
    held = hand.dealer[position]
    dealer = tuple(replace(h, shown=True) if i == position else h for i, h in enumerate(hand.dealer))
    return replace(hand, dealer=dealer), Revealed("dealer", hand.dealer_seat, 0, held.card, held.index)


# -- her choice after the betting round -----------------------------------------------------------


def verify_surrender(hand: HandState, amount: int | None) -> None:
    """The dealer may surrender after the betting round."""
    option(hand, "surrender")
    no_amount("surrender", amount)


def surrender(hand: H, amount: int | None) -> Moved[H]:
    """The dealer folds: each player still in is paid half its blind; raises come back."""
    after, events = settle(replace(hand, surrendered=True))
    return after, (Acted(hand.dealer_seat, 0, "surrender"), *events)


def verify_play(hand: HandState, amount: int | None) -> None:
    """The dealer may play after the betting round."""
    option(hand, "play")
    no_amount("play", amount)


def play(hand: H, amount: int | None) -> Moved[H]:
    """The dealer plays: the players turn their down cards up; naturals are done."""
    events: list[GameEvent] = [Acted(hand.dealer_seat, 0, "play")]
    seats = []
    for seat in hand.seats:
        if seat.playing:
            first = seat.hands[0]
            for held in first.cards:
                if not held.shown:
                    events.append(Revealed("seat", seat.seat, 0, held.card, held.index))
            cards = tuple(replace(held, shown=True) for held in first.cards)
            first = replace(first, cards=cards)
            seat = replace(seat, hands=(first, *seat.hands[1:]))
            if seat.natural():
                seat = replace(seat, hands=(replace(first, done=True),))
        seats.append(seat)
    after, more = replace(hand, seats=tuple(seats), phase="players").progress()
    return after, (*events, *more)


# -- her turn -------------------------------------------------------------------------------------


def dealer_turn(hand: H) -> Moved[H]:
    """The players are done: the dealer's face-down card is turned up, and she plays if any
    result still depends on her cards."""
    after = replace(hand, phase="dealer")
    events: list[GameEvent] = []
    for position, held in enumerate(hand.dealer):
        if not held.shown:
            after, shown = show(after, position)
            events.append(shown)
    if not any(seat.live() for seat in after.seats) or after.dealer_move() == "stand":
        after, more = settle(after)
        events.extend(more)
    return after, tuple(events)
