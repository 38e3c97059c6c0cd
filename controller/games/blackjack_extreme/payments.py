"""Who the dealer pays, how much and in which order: the seed's short-stack payment order.

Every hand in play ends as a :class:`Claim`: what the dealer owes it
(``owed`` > 0), collects from it (< 0) or neither (a push). :func:`plan` turns
the claims into the dealer's payment lines, in the seed's order, paying out of
the dealer's ``bankroll`` (her stack at the start of the hand, plus any
re-buy) until it runs out:

1. every losing bet is collected (a fold's half blind too), into the bankroll;
2. naturals are paid in full (3:2), clockwise;
3. every winning hand is paid the table minimum out of its blind, clockwise;
4. then the rest of its blind, clockwise;
5. then its raise, clockwise: for each seat the raise on its first hand, then
   each later split hand whole (the seed counts those as raises).

When the bankroll runs out, the line being paid gets what is left and later
lines get nothing: those winners pull back their bets unpaid (or part paid).
A dealer who covers everything pays in the same order, only nobody waits.
Claims are given in clockwise order from the dealer's left, each seat's hands
in hand order.

>>> claims = (Claim(3, 0, "win", 3000, 3000, 1000), Claim(4, 0, "lose", 1000, -1000, 0),
...           Claim(5, 0, "natural", 1000, 1500, 0, "natural 3:2"), Claim(5, 1, "win", 1000, 1000, 0))
>>> [(line.step, line.seat, line.amount, line.due) for line in plan(claims, 2000, 500)]
[('collect', None, 1000, 1000), ('natural', 5, 1500, 1500), ('minimum', 3, 500, 500), \
('blind', 3, 500, 500), ('raise', 3, 500, 2000)]
>>> paid(claims, plan(claims, 2000, 500))
{(3, 0): 1500, (4, 0): -1000, (5, 0): 1500, (5, 1): 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

Step = Literal["collect", "natural", "minimum", "blind", "raise"]
STEPS: tuple[Step, ...] = ("collect", "natural", "minimum", "blind", "raise")


@dataclass(frozen=True)
class Claim:
    """How one hand ended: ``owed`` cents from the dealer (negative: the dealer collects).

    ``blind`` is the part of a win paid in the blind rounds (steps 3 and 4):
    the blind of a seat's first hand, the half blind of a dealer's surrender, 0
    for later split hands and for naturals (paid whole in step 2).
    """

    seat: int
    hand_index: int
    outcome: str
    wager: int
    owed: int
    blind: int
    label: str | None = None


@dataclass(frozen=True)
class Line:
    """One payment line: ``amount`` paid (or collected) of the ``due`` this step owes.

    A ``collect`` line gathers every losing bet (``seat`` None); the others pay
    one hand. ``amount`` < ``due`` where the dealer ran out on this line.
    """

    step: Step
    seat: int | None
    hand_index: int
    amount: int
    due: int


def _parts(claim: Claim, minimum: int) -> dict[Step, int]:
    """What each step owes a winning claim."""
    if claim.outcome == "natural":
        return {"natural": claim.owed}
    first = min(minimum, claim.blind)
    return {"minimum": first, "blind": claim.blind - first, "raise": claim.owed - claim.blind}


def plan(claims: Sequence[Claim], bankroll: int, minimum: int) -> tuple[Line, ...]:
    """The payment lines for ``claims`` out of ``bankroll``, in the seed's order (see above)."""
    lines: list[Line] = []
    collected = sum(-claim.owed for claim in claims if claim.owed < 0)
    if collected:
        lines.append(Line("collect", None, 0, collected, collected))
    left = bankroll + collected
    winners = [claim for claim in claims if claim.owed > 0]
    for step in STEPS[1:]:
        for claim in winners:
            due = _parts(claim, minimum).get(step, 0)
            if due <= 0:
                continue
            if left <= 0:
                return tuple(lines)
            amount = min(due, left)
            left -= amount
            lines.append(Line(step, claim.seat, claim.hand_index, amount, due))
    return tuple(lines)


def paid(claims: Iterable[Claim], lines: Iterable[Line]) -> dict[tuple[int, int], int]:
    """Each claim's net result, by (seat, hand index): a loser's ``owed`` (negative), a push's 0,
    a winner's payments in ``lines`` (less than owed where the dealer ran out)."""
    net = {(claim.seat, claim.hand_index): min(claim.owed, 0) for claim in claims}
    for line in lines:
        if line.seat is not None:
            net[(line.seat, line.hand_index)] += line.amount
    return net


def owed_in_full(claims: Iterable[Claim]) -> int:
    """What the dealer owes the winners in all, before collecting the losers."""
    return sum(claim.owed for claim in claims if claim.owed > 0)


def collected(claims: Iterable[Claim]) -> int:
    """What the dealer collects from the losers."""
    return sum(-claim.owed for claim in claims if claim.owed < 0)
