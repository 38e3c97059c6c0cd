"""Seat stacks: buy-in, top-up and cash-out by control command, for games where the table keeps stacks.

A stack is the chips in front of a seat, not on any betting spot. It changes
only through :class:`~controller.games.interface.StackChanged` events (the session's
:class:`~controller.games.interface.Stacks` part): these
commands between hands, and each hand's results (the game's ``finish``). Table
stakes: nobody bets more than the stack they had when the hand began.

>>> from controller.games.interface import Session
>>> session = Session()
>>> rules = StackRules(min_buy_in=2000, max_buy_in=50000)
>>> events = stack_command("buy_in", {"seat": 3, "amount": 10000}, session, False, rules)
>>> events
(StackChanged(seat=3, amount=10000, reason='buy_in'),)
>>> session = session.apply(events[0])
>>> stack_command("top_up", {"seat": 3, "amount": 500}, session, False, rules)
(StackChanged(seat=3, amount=10500, reason='rebuy'),)
>>> stack_command("cash_out", {"seat": 3}, session, True, rules)
Traceback (most recent call last):
...
controller.games.interface.RuleError: seat 3: stacks change only between hands
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.commands.registry import ANYONE, Command, cents, command, seat_field
from controller.games.interface import RuleError, Session, StackChanged, Stacks
from firmware_bridge.kernel.money import MAX_AMOUNT, dollars


@command("buy_in", who=ANYONE, label="Buy in")
@dataclass(frozen=True)
class BuyIn(Command):
    """A seat's first stack, in cents (a game may let a tournament's buy-in leave it out)."""

    seat: int = seat_field()
    amount: int | None = cents(optional=True)


@command("top_up", who=ANYONE, label="Top up")
@dataclass(frozen=True)
class TopUp(Command):
    """Chips added to a seat's stack, in cents (a tournament's re-buy may leave it out)."""

    seat: int = seat_field()
    amount: int | None = cents(optional=True)


@command("cash_out", who=ANYONE, label="Cash out", danger=True)
@dataclass(frozen=True)
class CashOut(Command):
    """A seat leaves with its stack."""

    seat: int = seat_field()


STACK_COMMANDS = (BuyIn.name, TopUp.name, CashOut.name)
"""The control commands of :func:`stack_command`."""


@dataclass(frozen=True)
class StackRules:
    """What a buy-in may be, in cents (``max_buy_in`` None: at most :data:`MAX_AMOUNT`, the ceiling
    of every amount); ``seats``: the most seats the game seats (None: as many as the table has; the
    table refuses a seat it does not have)."""

    min_buy_in: int
    max_buy_in: int | None = None
    seats: int | None = None


def _whole(args: Mapping[str, object], key: str) -> int:
    value = args.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleError(f"{key} must be a whole number" + (" of cents" if key == "amount" else ""))
    return value


def stack_command(name: str, args: Mapping[str, object], session: Session, in_hand: bool,
                  rules: StackRules) -> tuple[StackChanged, ...]:
    """The stack change that command ``name`` (``buy_in``, ``top_up``, ``cash_out``) with
    ``args`` (``seat``, ``amount`` in cents) makes; raises RuleError with the reason if refused."""
    seat = _whole(args, "seat")
    if rules.seats is not None and not 1 <= seat <= rules.seats:
        raise RuleError(f"this game seats players at seats 1 to {rules.seats}, not {seat}")
    if in_hand:
        raise RuleError(f"seat {seat}: stacks change only between hands")
    stack = session[Stacks].stacks.get(seat)
    if name == "cash_out":
        if stack is None:
            raise RuleError(f"seat {seat} has no stack to cash out")
        return (StackChanged(seat, 0, "cash_out"),)
    amount = _whole(args, "amount")
    if amount <= 0:
        raise RuleError(f"seat {seat}: {name} must be more than 0 cents")
    if name == "buy_in":
        if stack is not None:
            raise RuleError(f"seat {seat} already has a stack: top up instead")
        new = amount
        if new < rules.min_buy_in:
            raise RuleError(f"seat {seat}: the minimum buy-in is {dollars(rules.min_buy_in)}")
    elif name == "top_up":
        if stack is None:
            raise RuleError(f"seat {seat} has no stack: buy in first")
        new = stack + amount
    else:
        raise RuleError(f"no stack command {name!r}")
    ceiling = MAX_AMOUNT if rules.max_buy_in is None else rules.max_buy_in
    if new > ceiling:
        raise RuleError(f"seat {seat}: a stack may hold at most {dollars(ceiling)}")
    return (StackChanged(seat, new, "buy_in" if name == "buy_in" else "rebuy"),)
