"""The play of the hands: each seat's hand in turn hits, stands or splits, and so does the dealer on
her turn where her rule lets her; and a face-down card turned up by mistake. Each action is a
``verify_x`` and an ``x`` function of the hand, dispatched by
:data:`~controller.games.blackjack_extreme.hand.ACTION_TABLE`.

A hit is only a word: the next card drawn from the shoe is the hit
(:meth:`~controller.games.blackjack_extreme.hand.BlackjackExtremeHand.deal`).
"""

from __future__ import annotations

from dataclasses import replace

from controller.games.blackjack_extreme.dealer import show
from controller.games.blackjack_extreme.hand_state import H, HandState
from controller.games.blackjack_extreme.offers import exposable, not_now, option, options
from controller.games.blackjack_extreme.seats import PlayHand
from controller.games.interface import Acted, GameEvent, Revealed, RuleError
from controller.games.parts.actions import Moved, no_amount
from firmware_bridge.kernel.money import dollars

# -- hit, stand, split ----------------------------------------------------------------------------


def verify_hit(hand: HandState, amount: int | None) -> None:
    """The hand in turn asks for a card: only a card may follow."""
    option(hand, "hit")
    no_amount("hit", amount)


def hit(hand: H, amount: int | None) -> Moved[H]:
    """The hand in turn (or the dealer) says hit; the next card drawn is its."""
    decision = hand.decision()
    assert decision is not None and decision.seat is not None
    return replace(hand, hit_called=True), (Acted(decision.seat, decision.hand_index, "hit"),)


def verify_stand(hand: HandState, amount: int | None) -> None:
    """The hand in turn stands (a raised hand only after a card), or the dealer where she may."""
    if "stand" not in options(hand):
        if hand.phase == "players":
            turn = hand.play_turn()
            assert turn is not None
            seat, index = turn
            if seat.raised and not seat.hands[index].drew and len(seat.hands[index].cards) >= 2:
                raise RuleError(f"seat {seat.seat} raised: its hand must take at least one card")
        raise RuleError(not_now(hand, "stand"))
    no_amount("stand", amount)


def stand(hand: H, amount: int | None) -> Moved[H]:
    """The hand in turn (or the dealer) stands."""
    if hand.phase == "dealer":
        after, events = replace(hand, dealer_stood=True).progress()
        return after, (Acted(hand.dealer_seat, 0, "stand"), *events)
    turn = hand.play_turn()
    assert turn is not None
    seat, index = turn
    after, events = hand.with_hand(seat.seat, index, lambda h: replace(h, done=True)).progress()
    return after, (Acted(seat.seat, index, "stand"), *events)


def verify_split(hand: HandState, amount: int | None) -> None:
    """The hand in turn is a pair: the main spot must now hold one more bet equal to the first."""
    splitting = option(hand, "split")
    turn = hand.play_turn()
    assert turn is not None and splitting.low is not None
    seat = turn[0]
    if amount != splitting.low:
        reads = "nothing" if amount is None else dollars(amount)
        raise RuleError(f"seat {seat.seat}: a split adds {dollars(seat.hands[0].wager)}, so the spot "
                        f"must read {dollars(splitting.low)}; it reads {reads}")


def split(hand: H, amount: int | None) -> Moved[H]:
    """The pair in turn becomes two hands, the new one last, each with the whole bet."""
    turn = hand.play_turn()
    assert turn is not None
    seat, index = turn
    pair = seat.hands[index]
    bet = seat.hands[0].wager
    kept = replace(pair, cards=pair.cards[:1], split=True, drew=False)
    new = PlayHand(cards=pair.cards[1:], wager=bet, split=True)
    hands = (*seat.hands[:index], kept, *seat.hands[index + 1:], new)
    return hand.with_seat(seat.seat, hands=hands), (Acted(seat.seat, index, "split", bet),)


# -- a card turned up by mistake ------------------------------------------------------------------


def verify_expose(hand: HandState, amount: int | None) -> None:
    """Seat ``amount`` (the dealer's seat for her hole card) has a face-down card shown by mistake."""
    option(hand, "expose")
    if amount is None or amount not in exposable(hand):
        if amount == hand.dealer_seat:
            raise RuleError("the dealer has two cards down: turn_up the one that shows")
        raise RuleError(f"seat {amount} has no card face down")


def expose(hand: H, amount: int | None) -> Moved[H]:
    """The card is public from now on and the hand plays on as dealt."""
    assert amount is not None
    if amount == hand.dealer_seat:
        position = next(i for i, held in enumerate(hand.dealer) if not held.shown)
        after, shown = show(hand, position)
        after, events = after.progress()
        return after, (Acted(amount, 0, "expose"), shown, *events)
    seat = hand.seat(amount)
    revealed: list[GameEvent] = []
    hands = []
    for index, played in enumerate(seat.hands):
        cards = []
        for held in played.cards:
            if not held.shown:
                revealed.append(Revealed("seat", amount, index, held.card, held.index))
                held = replace(held, shown=True)
            cards.append(held)
        hands.append(replace(played, cards=tuple(cards)))
    after, events = hand.with_seat(amount, hands=tuple(hands)).progress()
    return after, (Acted(amount, 0, "expose"), *revealed, *events)
