"""The player-dealer's bank: who banks the next hand, and what the bank can pay.

A seat becomes a bank by buying in (``buy_in``, ``top_up``, ``cash_out``: the
seat stacks of :mod:`controller.games.parts.stacks`); the table keeps the
bank's stack. With ``banker = "rotate"`` the player-dealer position moves
after every hand to the next seat (clockwise: the next seat number, wrapping
round) whose bank holds at least ``min_bank``; with ``"fixed"`` it stays at
``banker_seat``; with ``"house"`` the house banks and no seat needs a stack.

The bank covers the base wagers (with doubles and splits) and insurance; the
Buster bonus and Blazing 7's are the house's. At settlement the bank first
takes the ``collection_fee``, then collects every losing wager it covers, then
pays the winning ones in ``cover_order``: each in full while it can; from the
first one it cannot pay in full, that wager and every one after it are returned
to their players (a push).

>>> from controller.games.interface import Session, Stacks
>>> from controller.games.buster_blackjack_x.rules import BusterRules
>>> session = Session.of(Stacks({2: 20_000, 5: 30_000, 6: 5_000}))
>>> banker_for(BusterRules(), session), next_banker(BusterRules(), session, 5)
(2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.interface import Button, Session, Stacks, WagerResult

BANKED_SPOTS = ("main", "insurance")
"""The wagers the player-dealer's bank covers; the others are the house's."""

RETURNED = "not covered by the bank: returned"
"""The label of a winning wager the bank could not pay."""


def banks(rules: BusterRules, session: Session) -> list[int]:
    """The seats whose bank may deal (a stack of at least ``min_bank``), in seat order."""
    return sorted(seat for seat, stack in session[Stacks].stacks.items() if stack >= rules.min_bank)


def banker_for(rules: BusterRules, session: Session) -> int | None:
    """The seat that banks the next hand: the fixed seat, the seat at the player-dealer position
    while its bank may deal, else the next one that may; None when the house banks or no seat may."""
    if rules.banker == "house":
        return None
    if rules.banker == "fixed":
        return rules.banker_seat
    candidates = banks(rules, session)
    if session[Button].seat in candidates:
        return session[Button].seat
    return _after(candidates, session[Button].seat)


def next_banker(rules: BusterRules, session: Session, banker: int | None) -> int | None:
    """Where the player-dealer position goes after a hand banked by ``banker``."""
    if rules.banker != "rotate":
        return banker_for(rules, session)
    return _after(banks(rules, session), banker)


def _after(candidates: Sequence[int], seat: int | None) -> int | None:
    """The first of ``candidates`` after ``seat`` clockwise (wrapping round), or None."""
    if not candidates:
        return None
    if seat is None:
        return candidates[0]
    later = [candidate for candidate in candidates if candidate > seat]
    return later[0] if later else candidates[0]


def cover(rules: BusterRules, banker: int, bank: int,
          results: Sequence[WagerResult]) -> tuple[tuple[WagerResult, ...], int]:
    """The results after the bank of ``bank`` cents at seat ``banker`` has paid what it can, and
    the bank afterwards (the fee taken, its losers collected, its winners paid).

    >>> from controller.games.buster_blackjack_x.rules import BusterRules
    >>> results = [WagerResult(1, "main", 0, "win", 1000, 1000),
    ...            WagerResult(3, "main", 0, "natural", 1000, 3000),
    ...            WagerResult(4, "main", 0, "lose", 500, -500)]
    >>> covered, after = cover(BusterRules(collection_fee=100), 2, 3000, results)
    >>> [(r.seat, r.payout) for r in covered], after
    ([(1, 0), (3, 3000), (4, -500)], 400)
    """
    available = bank - rules.collection_fee
    available += sum(-r.payout for r in results if r.spot in BANKED_SPOTS and r.payout < 0)
    winners = sorted((n for n, r in enumerate(results) if r.spot in BANKED_SPOTS and r.payout > 0),
                     key=lambda n: (_order(rules, banker, results[n].seat), results[n].hand_index,
                                    results[n].spot))
    returned: set[int] = set()
    for n in winners:
        if returned or results[n].payout > available:
            returned.add(n)
        else:
            available -= results[n].payout
    covered = tuple(
        replace(r, outcome="push", payout=0, label=RETURNED) if n in returned else r
        for n, r in enumerate(results)
    )
    return covered, available


def _order(rules: BusterRules, banker: int, seat: int) -> int:
    """Where ``seat`` comes in the order the bank pays in."""
    return seat if rules.cover_order == "seat" else (seat - banker) % 1000
