"""What a Blackjack Extreme hand allows now: where a card from the shoe goes, who decides, and the
actions open with their amounts; and the refusal when an action is not among them.

Every ``verify_x`` of the actions starts from :func:`option`: an action that is
not open now is refused with what the hand waits for instead.
"""

from __future__ import annotations

from controller.games.blackjack_extreme.hand_state import HandState
from controller.games.blackjack_extreme.play import BLACKJACK
from controller.games.blackjack_extreme.seats import SPOT, PlayHand, SeatPlay
from controller.games.interface import Option, RuleError, Target


def deal_target(hand: HandState) -> Target | None:
    """Where the next card of the first deal goes (None once it is dealt)."""
    for round_ in (0, 1):
        for seat in hand.playing():
            if len(seat.hands[0].cards) <= round_:
                return Target("seat", seat.seat, 0, face_up=round_ == 1)
        if len(hand.dealer) <= round_:
            return Target("dealer", hand.dealer_seat, 0, face_up=False)
    return None


def card_target(hand: HandState) -> Target | None:
    """Where a card drawn from the shoe goes now (None: no card may be drawn)."""
    if hand.phase in ("blinds", "dealing"):
        return deal_target(hand)
    if hand.phase == "players":
        turn = hand.play_turn()
        if turn is None:
            return None
        seat, index = turn
        held = seat.hands[index]
        if held.total(seat.raised).points >= BLACKJACK:
            return None
        return Target("seat", seat.seat, index, face_up=True)
    if hand.phase == "dealer" and hand.dealer_move() != "stand":
        return Target("dealer", hand.dealer_seat, 0, face_up=True)
    return None


def decider(hand: HandState) -> int | None:
    """The seat whose decision the hand waits for: the player in turn, the dealer on her
    choices and draws; None while only a card or the house dealer's NEXT is awaited."""
    if hand.phase in ("upcard", "dealer_choice", "dealer"):
        return hand.dealer_seat
    if hand.phase == "betting":
        turn = hand.betting_turn()
        return turn.seat if turn is not None else None
    if hand.phase == "players":
        play = hand.play_turn()
        return play[0].seat if play is not None else None
    if hand.phase == "paying" and hand.choice_pending():
        return hand.dealer_seat
    return None


def options(hand: HandState) -> dict[str, Option]:
    """The actions allowed now, each with its amount's range."""
    actions: dict[str, Option] = {}
    phase = hand.phase
    if phase == "blinds":
        seats = [seat.seat for seat in hand.playing()]
        actions["count"] = Option(min(seats), max(seats))
        free = [seat for seat in seats if seat not in hand.required]
        if free:
            actions["decline"] = Option(min(free), max(free))
    elif phase == "upcard":
        actions["turn_up"] = Option(1, 2)
    elif phase == "betting":
        turn = hand.betting_turn()
        assert turn is not None
        actions["check"] = Option()
        if turn.stack >= 2 * turn.blind:
            actions["raise"] = Option(2 * turn.blind, turn.stack, SPOT)
        actions["fold"] = Option()
    elif phase == "dealer_choice":
        actions["surrender"] = Option()
        actions["play"] = Option()
    elif phase in ("players", "dealer"):
        actions.update(play_options(hand))
    elif phase == "paying":
        if hand.choice_pending():
            actions["rebuy"] = Option(hand.shortfall(), None)
            actions["leave"] = Option()
        else:
            actions["next"] = Option()
    seats_down = exposable(hand)
    if seats_down and phase not in ("paying", "complete"):
        actions["expose"] = Option(min(seats_down), max(seats_down))
    return actions


def play_options(hand: HandState) -> dict[str, Option]:
    """The hand in turn's (or the drawing dealer's) actions: hit, stand where allowed, split."""
    actions: dict[str, Option] = {}
    can_card = card_target(hand) is not None
    if can_card and not hand.hit_called:
        actions["hit"] = Option()
    if hand.phase == "dealer":
        if hand.dealer_move() == "choose" and not hand.hit_called:
            actions["stand"] = Option()
        return actions
    turn = hand.play_turn()
    assert turn is not None
    seat, index = turn
    held = seat.hands[index]
    if hand.hit_called or len(held.cards) < 2:
        return actions
    if held.drew or not seat.raised or held.split:
        actions["stand"] = Option()
    if may_split(seat, held):
        total = seat.staked() + seat.hands[0].wager
        actions["split"] = Option(total, total, SPOT)
    return actions


def may_split(seat: SeatPlay, held: PlayHand) -> bool:
    """Whether ``held`` is a pair and the seat's stack covers one more bet (table stakes)."""
    cards = held.cards
    return (len(cards) == 2 and cards[0].card.rank == cards[1].card.rank
            and seat.staked() + seat.hands[0].wager <= seat.stack)


def exposable(hand: HandState) -> list[int]:
    """The seats with a face-down card that ``expose`` may turn up now."""
    seats = [seat.seat for seat in hand.seats
             if any(not held.shown for played in seat.hands for held in played.cards)]
    hidden = [held for held in hand.dealer if not held.shown]
    if len(hidden) == 1 and hand.phase != "upcard":
        seats.append(hand.dealer_seat)
    return sorted(seats)


def option(hand: HandState, action: str) -> Option:
    """The open ``action``'s option; raises RuleError saying what the hand waits for if it is not open."""
    found = options(hand).get(action)
    if found is None:
        raise RuleError(not_now(hand, action))
    return found


def not_now(hand: HandState, action: str) -> str:
    """Why ``action`` is refused: what the hand waits for instead."""
    decision = hand.decision()
    waiting = decision.prompt if decision is not None else "the hand is settled"
    return f"no {action} now: {waiting}"
