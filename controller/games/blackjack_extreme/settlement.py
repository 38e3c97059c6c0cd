"""How a Blackjack Extreme hand ends: each hand's claim on the dealer, the payment lines, and, when
the dealer cannot pay every winner in full, her re-buy or leaving and the short-stack payments
walked NEXT by NEXT. The order of payment is :mod:`~controller.games.blackjack_extreme.payments`;
each action here is a ``verify_x`` and an ``x`` function of the hand, dispatched by
:data:`~controller.games.blackjack_extreme.hand.ACTION_TABLE`.
"""

from __future__ import annotations

from dataclasses import replace

from controller.games.blackjack_extreme.hand_state import H, HandState
from controller.games.blackjack_extreme.offers import option
from controller.games.blackjack_extreme.payments import Claim, paid, plan
from controller.games.blackjack_extreme.play import count, half, hand_outcome, natural_pays
from controller.games.blackjack_extreme.seats import SPOT
from controller.games.interface import Acted, GameEvent, RuleError, Settled, WagerResult
from controller.games.parts.actions import Moved, no_amount
from firmware_bridge.kernel.money import dollars

# -- the results ----------------------------------------------------------------------------------


def settle(hand: H) -> Moved[H]:
    """The results are known: the claims and payment lines; settled at once if the dealer
    pays everyone in full, else the short-stack payments."""
    claims = _claims(hand)
    lines = plan(claims, hand.dealer_stack + hand.rebought, hand.minimum)
    after = replace(hand, claims=claims, lines=lines, confirmed=0)
    if not after.unpaid():
        return _complete(after)
    return replace(after, phase="paying"), ()


def _claims(hand: HandState) -> tuple[Claim, ...]:
    dealer = count(hand.dealer_count())
    claims: list[Claim] = []
    for seat in hand.seats:
        if seat.state == "declined":
            continue
        if seat.state == "folded":
            claims.append(Claim(seat.seat, 0, "fold", seat.blind, -half(seat.blind), 0))
        elif hand.surrendered:
            pay = half(seat.blind)
            claims.append(Claim(seat.seat, 0, "win", seat.hands[0].wager, pay, pay,
                                "the dealer surrendered: half the blind"))
        elif seat.natural():
            claims.append(Claim(seat.seat, 0, "natural", seat.blind, natural_pays(seat.blind), 0,
                                "natural 3:2"))
        else:
            for index, played in enumerate(seat.hands):
                outcome, owed, label = hand_outcome(played.points(), played.wager,
                                                    seat.raised and not played.split, played.split,
                                                    dealer)
                blind = min(seat.blind, owed) if index == 0 and owed > 0 else 0
                claims.append(Claim(seat.seat, index, outcome, played.wager, owed, blind, label))
    return tuple(claims)


def _complete(hand: H) -> Moved[H]:
    net = paid(hand.claims, hand.lines)
    results = []
    for claim in hand.claims:
        payout = net[(claim.seat, claim.hand_index)]
        label = claim.label
        if 0 <= payout < claim.owed:
            label = f"the dealer ran out: paid {dollars(payout)} of {dollars(claim.owed)}"
        results.append(WagerResult(claim.seat, SPOT, claim.hand_index, claim.outcome, claim.wager,
                                   payout, label))
    settled = tuple(results)
    return replace(hand, phase="complete", settlement=settled), (Settled(settled),)


def committed_paying(hand: HandState) -> dict[tuple[int, str], int]:
    """What each main spot holds once the results are known: losers collected, winners paid line
    by line (the line on the display included), the unpaid pulled back."""
    current = hand.confirmed if hand.phase == "paying" and not hand.choice_pending() else (
        -1 if hand.phase == "paying" else len(hand.lines))
    net = paid(hand.claims, hand.lines[: current + 1])
    pulled = current >= len(hand.lines)
    held: dict[tuple[int, str], int] = {}
    for claim in hand.claims:
        key = (claim.seat, SPOT)
        amount = 0
        if claim.owed == 0:
            amount = claim.wager
        elif claim.owed > 0 and not (pulled and claim in hand.unpaid()):
            amount = claim.wager + net[(claim.seat, claim.hand_index)]
        held[key] = held.get(key, 0) + amount
    return held


# -- a short-stacked dealer -----------------------------------------------------------------------


def verify_rebuy(hand: HandState, amount: int | None) -> None:
    """A ring game's dealer re-buys at least what she lacks to pay in full."""
    option(hand, "rebuy")
    if amount is None or amount < hand.shortfall():
        raise RuleError(f"the dealer must re-buy at least {dollars(hand.shortfall())} to pay in full")


def rebuy(hand: H, amount: int | None) -> Moved[H]:
    """The dealer re-buys ``amount`` and pays everyone in full."""
    assert amount is not None
    after, events = settle(replace(hand, rebought=amount))
    return after, (Acted(hand.dealer_seat, 0, "rebuy", amount), *events)


def verify_leave(hand: HandState, amount: int | None) -> None:
    """A ring game's dealer may leave instead of re-buying."""
    option(hand, "leave")
    no_amount("leave", amount)


def leave(hand: H, amount: int | None) -> Moved[H]:
    """The dealer leaves the game: winners are paid in the short-stack order as far as she can."""
    return replace(hand, dealer_left=True), (Acted(hand.dealer_seat, 0, "leave"),)


def verify_next(hand: HandState, amount: int | None) -> None:
    """The payment line on the display is done."""
    option(hand, "next")
    no_amount("next", amount)


def next_(hand: H, amount: int | None) -> Moved[H]:
    """One short-stack payment step done; after the last, the hand is settled."""
    step = hand.confirmed
    events: list[GameEvent] = []
    if step < len(hand.lines):
        line = hand.lines[step]
        if line.seat is None:
            events.append(Acted(hand.dealer_seat, 0, "collect", line.amount))
        else:
            events.append(Acted(line.seat, line.hand_index, "paid", line.amount))
    else:
        events.extend(Acted(c.seat, c.hand_index, "pull_back", c.wager) for c in hand.unpaid())
    after = replace(hand, confirmed=step + 1)
    if after.confirmed >= after.steps():
        after, more = _complete(after)
        events.extend(more)
    return after, tuple(events)
