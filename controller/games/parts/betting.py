"""Betting rounds of pot games: fixed or spread limit, a cap on raises, all-ins, and who acts next.

A :class:`Round` is frozen. Its :class:`Bettor` records are listed in the
order the seats act, the first to act first; each holds the chips the seat
has bet in this round (on its spot) and the chips still behind it. Every
amount is the seat's *whole* bet in the round once the action is taken, which
is what its betting spot must then hold, in cents.

- :meth:`Round.turn` is the seat to act (None once the round is over): the
  next seat clockwise that still has chips and has not folded, and either
  faces a bet it has not matched or has not acted yet while another seat
  could still answer it. A round is over when every bet is matched, or
  fewer than two seats are left in it.
- :meth:`Round.options` are the actions open to that seat with the amounts
  its spot must hold: ``check`` or ``call`` (all in for less when the stack
  is short), ``bet`` (and ``raise`` meaning the same, when nobody has bet
  yet) or ``raise``, and ``fold`` (allowed even when the seat could check).
- A bet or raise adds ``Sizes.low`` to ``Sizes.high`` to the bet to match
  (equal in fixed limit). At most one bet and ``raise_cap`` raises are made
  in a round; a big blind posted counts as the first round's bet.
- A seat may bet more than it holds: never (table stakes). A seat whose stack
  is short of a full raise may raise all in for what it holds; such a short
  raise does not count as a raise and does not reopen the betting for seats
  that have acted (``reopen="full"``); with ``reopen="half"`` one of at least
  half a full raise does both (the limit cardrooms' half-bet rule).

>>> rnd = Round((Bettor(1, 1000), Bettor(2, 1000)), Sizes(200, 200))
>>> rnd.turn(), sorted(rnd.options())
(1, ['bet', 'check', 'fold', 'raise'])
>>> rnd, acted = rnd.act("bet", 200)
>>> acted, rnd.turn(), rnd.options()["call"]
(Acted(seat=1, hand_index=0, action='bet', amount=200), 2, Option(low=200, high=200, spot='bet'))
>>> rnd.verify("call", 100)
Traceback (most recent call last):
...
controller.games.interface.RuleError: seat 2: $2.00 to call, so the spot should read $2.00; it reads $1.00
>>> rnd, _ = rnd.act("call", 200)
>>> rnd.turn() is None, rnd.bets()
(True, {1: 200, 2: 200})
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from controller.games.interface import Acted, Option, RuleError
from firmware_bridge.kernel.money import dollars as money

ACTIONS = ("check", "call", "bet", "raise", "fold")
"""Every action of a betting round."""


@dataclass(frozen=True)
class Sizes:
    """What a bet or a raise adds to the bet to match in a round, in cents: ``low`` to ``high``
    (fixed limit: ``low == high``; spread limit: any amount between)."""

    low: int
    high: int


@dataclass(frozen=True)
class BettingRules:
    """The house rules of every round: ``raise_cap`` raises after the bet (None: no cap), and
    what an all-in raise short of a full raise does (``reopen``: ``"full"`` or ``"half"``)."""

    raise_cap: int | None = 3
    reopen: Literal["full", "half"] = "full"


@dataclass(frozen=True)
class Bettor:
    """One seat in a round: chips ``behind`` (not bet yet), its ``bet`` in this round, whether it
    folded, whether it has acted in this round, and how many full bets had been made when it last
    acted (``seen``: a seat may raise again only after a full raise since)."""

    seat: int
    behind: int
    bet: int = 0
    folded: bool = False
    acted: bool = False
    seen: int = 0

    @property
    def can_act(self) -> bool:
        """Whether the seat still has a decision to make in the hand: not folded, chips behind."""
        return not self.folded and self.behind > 0

    @property
    def total(self) -> int:
        """The most its spot may hold in this round: its bet and every chip behind."""
        return self.bet + self.behind


@dataclass(frozen=True)
class Round:
    """One betting round: the seats in acting order, the bet sizes, the bet to match
    (``current``), the full bets made so far (the bet and the full raises), the index of the
    last seat to act (-1: none yet), and the last seat to bet or raise (``aggressor``).
    ``spot`` names the betting spot that carries every amount."""

    bettors: tuple[Bettor, ...]
    sizes: Sizes
    rules: BettingRules = BettingRules()
    current: int = 0
    full_bets: int = 0
    last: int = -1
    aggressor: int | None = None
    spot: str = "bet"

    # -- who acts -------------------------------------------------------------------------------

    def live(self) -> tuple[int, ...]:
        """The seats that have not folded, in acting order."""
        return tuple(b.seat for b in self.bettors if not b.folded)

    def bets(self) -> dict[int, int]:
        """Every seat's bet in this round (folded seats' bets too: they stay in)."""
        return {b.seat: b.bet for b in self.bettors}

    def bettor(self, seat: int) -> Bettor:
        """The seat's record; raises RuleError for a seat not in the round."""
        for bettor in self.bettors:
            if bettor.seat == seat:
                return bettor
        raise RuleError(f"seat {seat} is not in this hand")

    def _others_can_act(self, index: int) -> bool:
        return any(b.can_act for j, b in enumerate(self.bettors) if j != index)

    def _to_match(self, index: int) -> int:
        """The bet the seat must match: the bet to match, or, when no other seat can answer any
        more, only the largest bet of the others (a seat need not call more than anyone holds)."""
        if self._others_can_act(index):
            return self.current
        return max((b.bet for j, b in enumerate(self.bettors) if j != index and not b.folded),
                   default=0)

    def _needs_action(self, index: int) -> bool:
        bettor = self.bettors[index]
        if not bettor.can_act or len(self.live()) < 2:
            return False
        return bettor.bet < self._to_match(index) or (not bettor.acted and self._others_can_act(index))

    def _turn_index(self) -> int | None:
        count = len(self.bettors)
        for step in range(1, count + 1):
            index = (self.last + step) % count
            if self._needs_action(index):
                return index
        return None

    def turn(self) -> int | None:
        """The seat to act, or None once the round is over."""
        index = self._turn_index()
        return None if index is None else self.bettors[index].seat

    # -- what the seat in turn may do ----------------------------------------------------------

    def _raise_refusal(self, index: int) -> str | None:
        """Why the seat may not bet or raise now, or None if it may."""
        bettor = self.bettors[index]
        seat = bettor.seat
        if bettor.total <= self._to_match(index):
            return f"seat {seat} is all in to call: call or fold"
        if not self._others_can_act(index):
            return f"seat {seat}: every other seat is all in, nobody could call a raise: call or fold"
        cap = self.rules.raise_cap
        if cap is not None and self.full_bets >= cap + 1:
            return f"seat {seat}: the betting is capped (a bet and {cap} raises): call or fold"
        if bettor.acted and self.full_bets <= bettor.seen:
            return (f"seat {seat} has acted and no full raise came since (an all-in short of a "
                    "full raise does not reopen the betting): call or fold")
        return None

    def _raise_range(self, index: int) -> tuple[int, int]:
        """The smallest and largest bet a bet or raise may make (all in for less when short)."""
        total = self.bettors[index].total
        low, high = self.current + self.sizes.low, self.current + self.sizes.high
        if total < low:
            return total, total
        return low, min(high, total)

    def options(self) -> dict[str, Option]:
        """The actions open to the seat in turn, each with the amount its spot must then hold."""
        index = self._turn_index()
        if index is None:
            return {}
        bettor = self.bettors[index]
        match = self._to_match(index)
        found: dict[str, Option] = {}
        if match > bettor.bet:
            target = min(match, bettor.total)
            found["call"] = Option(target, target, self.spot)
        else:
            found["check"] = Option(bettor.bet, bettor.bet, self.spot)
        if self._raise_refusal(index) is None:
            low, high = self._raise_range(index)
            if self.current == 0:
                found["bet"] = Option(low, high, self.spot)
            found["raise"] = Option(low, high, self.spot)
        found["fold"] = Option()
        return found

    def prompt(self) -> str:
        """What the seat in turn may do, in a dealer's words with the amounts."""
        index = self._turn_index()
        if index is None:
            return "The betting round is over"
        bettor = self.bettors[index]
        options = self.options()
        words: list[str] = []
        if "call" in options:
            target = options["call"].low or 0
            all_in = " (all in)" if target == bettor.total else ""
            words.append(f"{money(target - bettor.bet)} to call{all_in}")
        else:
            words.append("check")
        raising = options.get("raise")
        if raising is not None and raising.low is not None and raising.high is not None:
            verb = "bet" if "bet" in options else "raise to"
            amount = money(raising.low) if raising.low == raising.high else \
                f"{money(raising.low)} to {money(raising.high)}"
            all_in = " (all in)" if raising.high == bettor.total else ""
            words.append(f"{verb} {amount}{all_in}")
        return f"Seat {bettor.seat}: " + ", ".join(words) + ", or fold"

    # -- taking an action ------------------------------------------------------------------------

    def verify(self, action: str, amount: int | None) -> None:
        """Raise RuleError unless the seat in turn may take ``action`` with its spot at ``amount``."""
        index = self._turn_index()
        if index is None:
            raise RuleError("the betting round is over")
        if action not in ACTIONS:
            raise RuleError(f"there is no {action!r} in a betting round")
        bettor = self.bettors[index]
        seat = bettor.seat
        if action == "fold":
            if amount is not None:
                raise RuleError("fold takes no amount")
            return
        # Whether the action is open at all comes first: a button pressed for an action not on
        # offer reaches here with no amount (the table reads the spot only for actions offered).
        options = self.options()
        match = self._to_match(index)
        if action == "check" and "check" not in options:
            raise RuleError(f"seat {seat} cannot check: {money(match - bettor.bet)} to call")
        if action == "call" and "call" not in options:
            raise RuleError(f"seat {seat} has no bet to call: check or bet")
        if action in ("bet", "raise"):
            self._verify_raise_open(index, action)
        if amount is None:
            raise RuleError(f"seat {seat}: {action} needs the amount on the {self.spot} spot")
        if amount > bettor.total:
            raise RuleError(f"seat {seat} has {money(bettor.total)} in all (table stakes); "
                            f"the spot reads {money(amount)}")
        if action == "check":
            if amount != bettor.bet:
                raise RuleError(f"seat {seat} checks: the spot should read {money(bettor.bet)}; "
                                f"it reads {money(amount)}")
        elif action == "call":
            target = options["call"].low or 0
            if amount != target:
                words = "all in for" if target == bettor.total else "so the spot should read"
                raise RuleError(f"seat {seat}: {money(target - bettor.bet)} to call, {words} "
                                f"{money(target)}; it reads {money(amount)}")
        else:
            low, high = self._raise_range(index)
            if not low <= amount <= high:
                verb = "a bet makes the spot" if self.current == 0 else "a raise makes the bet"
                allowed = money(low) if low == high else f"{money(low)} to {money(high)}"
                raise RuleError(f"seat {seat}: {verb} {allowed}; the spot reads {money(amount)}")

    def _verify_raise_open(self, index: int, action: str) -> None:
        """Raise RuleError if the seat may not make ``action`` (a bet or raise) of any amount now."""
        seat = self.bettors[index].seat
        if action == "bet" and self.current > 0:
            raise RuleError(f"seat {seat}: there is a bet of {money(self.current)} already: "
                            "raise, call or fold")
        refusal = self._raise_refusal(index)
        if refusal is not None:
            raise RuleError(refusal)

    def act(self, action: str, amount: int | None) -> tuple[Round, Acted]:
        """Take ``action`` (after :meth:`verify`): the new round and its ``Acted`` record, whose
        amount is the seat's whole bet in the round (None for a fold). ``raise`` with no bet to
        raise is recorded as ``bet``."""
        self.verify(action, amount)
        index = self._turn_index()
        assert index is not None
        bettor = self.bettors[index]
        full_bets, current, aggressor = self.full_bets, self.current, self.aggressor
        if action == "fold":
            changed = replace(bettor, folded=True, acted=True)
            recorded: Acted = Acted(bettor.seat, 0, "fold")
        else:
            assert amount is not None
            name = action
            if action in ("bet", "raise"):
                name = "bet" if self.current == 0 else "raise"
                added = amount - self.current
                full = added >= self.sizes.low or (
                    self.rules.reopen == "half" and 2 * added >= self.sizes.low)
                full_bets += 1 if full else 0
                current, aggressor = amount, bettor.seat
            changed = replace(bettor, bet=amount, behind=bettor.total - amount, acted=True,
                              seen=full_bets)
            recorded = Acted(bettor.seat, 0, name, amount)
        bettors = (*self.bettors[:index], changed, *self.bettors[index + 1:])
        return replace(self, bettors=bettors, current=current, full_bets=full_bets, last=index,
                       aggressor=aggressor), recorded
