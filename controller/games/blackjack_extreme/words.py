"""What a Blackjack Extreme hand tells the dealer and shows the public: the prompt for each step,
the payment lines in the seed's order, and the public view with face-down cards hidden."""

from __future__ import annotations

from controller.games.blackjack_extreme.hand_state import HandState
from controller.games.blackjack_extreme.offers import decider, may_split, play_options
from controller.games.blackjack_extreme.play import half, total_words
from controller.games.blackjack_extreme.seats import SeatPlay
from controller.games.interface import CardsView, HandView, SeatHandView, Target
from controller.games.parts.hand_names import hand_number
from firmware_bridge.kernel.money import dollars


def prompt(hand: HandState, target: Target | None) -> str:
    """The one line that tells the dealer what happens next."""
    phase = hand.phase
    dealer = f"Dealer (seat {hand.dealer_seat})"
    if phase == "blinds":
        return _blinds_prompt(hand, target)
    if phase == "dealing":
        return card_words(target)
    if phase == "upcard":
        return f"{dealer}: look at both cards and turn one up: TURN_UP"
    if phase == "betting":
        turn = hand.betting_turn()
        assert turn is not None
        words = f"Seat {turn.seat}: CHECK, "
        if turn.stack >= 2 * turn.blind:
            words += f"RAISE to {dollars(2 * turn.blind)} or more (up to {dollars(turn.stack)}), "
        return words + f"or FOLD keeping {dollars(turn.blind - half(turn.blind))}"
    if phase == "dealer_choice":
        pay = sum(half(seat.blind) for seat in hand.playing())
        who = ", ".join(str(seat.seat) for seat in hand.playing())
        return f"{dealer}: PLAY, or SURRENDER paying half the blind to seats {who} ({dollars(pay)})"
    if phase == "players":
        return _players_prompt(hand, target)
    if phase == "dealer":
        total = total_words(hand.dealer_count())
        if hand.dealer_move() == "hit":
            return f"{dealer} has {total}: must hit. Draw a card"
        return f"{dealer} has {total}: draw a card to hit, or STAND"
    if hand.choice_pending():
        return (f"{dealer} is {dollars(hand.shortfall())} short: re-buy at least that much to pay "
                "everyone in full: REBUY; or leave the game: LEAVE, and winners are paid in the "
                "short-stack order")
    step = hand.confirmed
    text = line_words(hand)[step] if step < hand.steps() else ""
    return f"Step {step + 1} of {hand.steps()}: {text}. Then press NEXT"


def _blinds_prompt(hand: HandState, target: Target | None) -> str:
    words = card_words(target)
    free = [seat.seat for seat in hand.playing() if seat.seat not in hand.required]
    if not free:
        return words
    covers = ", ".join(map(str, hand.required)) or "no seat"
    names = ("Seats " if len(free) > 1 else "Seat ") + ", ".join(map(str, free))
    return (f"Dealer (seat {hand.dealer_seat}) has {dollars(hand.dealer_stack)}: covers {covers} "
            f"for the {dollars(hand.minimum)} minimum. {names} may ask for a chip count: COUNT, "
            f"or decline: DECLINE. {words}")


def _players_prompt(hand: HandState, target: Target | None) -> str:
    turn = hand.play_turn()
    assert turn is not None
    seat, index = turn
    held = seat.hands[index]
    name = f"Seat {seat.seat}" + hand_number(index, len(seat.hands) > 1)
    total = total_words(held.points(), seat.raised and not held.split)
    if len(held.cards) < 2:
        return f"{name}: deal its second card"
    if hand.hit_called:
        return f"{name} ({total}) hits: draw a card"
    options = ["draw a card to hit"] if target is not None else []
    if "stand" in play_options(hand):
        options.append("STAND")
    elif options:
        options[0] = "raised: must draw a card"
    if may_split(seat, held):
        options.append(f"SPLIT (add {dollars(seat.hands[0].wager)} to the spot)")
    return f"{name} ({total}): " + ", or ".join(options)


def line_words(hand: HandState) -> tuple[str, ...]:
    """The payment lines in words, in the seed's order, and the pull-back where winners go unpaid."""
    words = []
    for line in hand.lines:
        if line.step == "collect":
            losers = ", ".join(f"seat {c.seat}{hand_name(hand, c.seat, c.hand_index)} {dollars(-c.owed)}"
                               for c in hand.claims if c.owed < 0)
            words.append(f"Collect {dollars(line.amount)} from the losing bets ({losers})")
            continue
        what = {"natural": "natural 3:2", "minimum": "the minimum of its blind",
                "blind": "the rest of its blind",
                "raise": "its raise" if line.hand_index == 0 else "a split hand, paid as a raise"}
        amount = dollars(line.amount)
        if line.amount < line.due:
            amount += f" of {dollars(line.due)} (all the dealer has left)"
        assert line.seat is not None                    # only the collect line has no seat
        who = f"seat {line.seat}{hand_name(hand, line.seat, line.hand_index)}"
        words.append(f"Pay {who} {amount}: {what[line.step]}")
    unpaid = hand.unpaid()
    if unpaid:
        names = ", ".join(f"seat {c.seat}{hand_name(hand, c.seat, c.hand_index)}" for c in unpaid)
        words.append(f"The dealer is out of chips: {names} pull back their bets")
    return tuple(words)


def public_view(hand: HandState) -> HandView:
    """The hand as the pit and the display may see it: face-down cards are None; once results are
    known, the payment lines (numbered, the one to do now marked, during short-stack payments)."""
    turn = decider(hand) if hand.phase in ("betting", "players") else None
    seats = tuple(
        SeatHandView(seat.seat, tuple(_hand_view(seat, i) for i in range(len(seat.hands))),
                     in_turn=turn == seat.seat)
        for seat in hand.seats
    )
    shown = tuple(held.points for held in hand.dealer if held.shown)
    status = "surrendered" if hand.surrendered else "stood" if hand.dealer_stood else None
    dealer = CardsView(tuple(str(h.card) if h.shown else None for h in hand.dealer),
                       total_words(shown), None, status)
    payouts = line_words(hand) if hand.claims else ()
    if hand.phase == "paying" and not hand.choice_pending():
        payouts = tuple(
            f"{n + 1}. {words}" + (" (done)" if n < hand.confirmed else
                                   " <- now" if n == hand.confirmed else "")
            for n, words in enumerate(payouts))
    return HandView(hand.phase, seats, dealer, hand.dealer_seat, (), payouts)


def _hand_view(seat: SeatPlay, index: int) -> CardsView:
    held = seat.hands[index]
    cards = tuple(str(h.card) if h.shown else None for h in held.cards)
    shown = tuple(h.points for h in held.cards if h.shown)
    everything = len(shown) == len(held.cards)
    natural = everything and index == 0 and seat.natural()
    total = total_words(shown, seat.raised and everything and not held.split, natural)
    if seat.state != "in":
        status: str | None = seat.state
    elif natural or (everything and held.total(seat.raised).bust):
        status = None                                   # the total says it: "natural", "bust 24"
    elif held.done:
        status = "stood"
    elif seat.raised:
        status = "raised"
    else:
        status = None
    return CardsView(cards, total, held.wager, status)


def hand_name(hand: HandState, seat: int, index: int) -> str:
    """`` hand 2`` for the second hand of a seat that split (`` hand 1`` for its first), nothing for
    a seat with one hand."""
    return hand_number(index, len(hand.seat(seat).hands) > 1)


def card_words(target: Target | None) -> str:
    """Where the next card goes, in a dealer's words."""
    if target is None:
        return "Wait"
    way = "face up" if target.face_up else "face down"
    if target.to == "dealer":
        return f"Deal the dealer (seat {target.seat}) a card {way}"
    return f"Deal seat {target.seat} a card {way}"
