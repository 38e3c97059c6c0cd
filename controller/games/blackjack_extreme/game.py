"""Blackjack Extreme bound to its rules and the table limits: who deals, who may and must play,
the start of a hand, what a hand changes in the session, the stack commands and the tournament clock.

A whole hand: seat 2 deals with $100.00; seat 3 blinds $10.00, is dealt 9 and
a king, checks and stands on 19; the dealer turns up her 8, has 18 and, heads-up
and losing, may draw on: she stands, and pays.

>>> from firmware_bridge.kernel.cards import Card
>>> game = BlackjackExtreme(BlackjackExtremeRules(), Limits(500, 5000))
>>> session = Session.of(Stacks({2: 10000, 3: 10000}), Button(2))
>>> hand, _ = game.start({3: {"main": 1000}}, session)
>>> for index, text in enumerate(["9h", "Tc", "Kd", "8s"], start=1):
...     hand, _ = hand.deal(Card.parse(text), index)
>>> for action, amount in [("turn_up", 2), ("check", None), ("play", None), ("stand", None)]:
...     hand, events = hand.act(action, amount)
>>> hand.decision().prompt
'Dealer (seat 2) has 18: draw a card to hit, or STAND'
>>> hand, events = hand.act("stand")
>>> [(r.seat, r.outcome, r.payout) for r in hand.results() or ()]
[(3, 'win', 1000)]
>>> game.finish(hand, session)
(StackChanged(seat=3, amount=11000, reason='result'), StackChanged(seat=2, amount=9000, reason='result'), \
ButtonMoved(seat=3))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.commands.registry import ANYONE, Command, command, seat_field
from controller.games.blackjack_extreme.hand import ACTION_TABLE, ACTIONS, BlackjackExtremeHand
from controller.games.blackjack_extreme.hand_state import FLOW, PHASES
from controller.games.blackjack_extreme.positions import clockwise, next_dealer, required
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.seats import SPOT, PlayHand, SeatPlay
from controller.games.interface import (
    Bets,
    Button,
    ButtonMoved,
    Game,
    GameEvent,
    Hand,
    Limits,
    PlayerEliminated,
    RuleError,
    Session,
    SessionEvent,
    StackChanged,
    Stacks,
    Tournament,
)
from controller.games.parts.limits import wagered
from controller.games.parts.stacks import STACK_COMMANDS, StackRules, stack_command
from controller.games.parts.tournament import Schedule, alive, eliminations
from firmware_bridge.kernel.money import dollars


@command("button", who=ANYONE, label="Give the deal")
@dataclass(frozen=True)
class GiveButton(Command):
    """Give the deal to a seat (in a tournament this starts the clock)."""

    seat: int = seat_field()


@command("pass_deal", who=ANYONE, label="Pass the deal")
@dataclass(frozen=True)
class PassDeal(Command):
    """The deal passes to the left without a hand (the dealer cannot cover one minimum)."""


COMMANDS = (*STACK_COMMANDS, GiveButton.name, PassDeal.name)


class BlackjackExtreme(Game[BlackjackExtremeHand]):
    """The game bound to its rules and the table limits."""

    spots = (SPOT,)
    actions = ACTIONS
    action_labels = tuple(ACTION_TABLE.labels.items())
    dangerous_actions = ACTION_TABLE.dangerous
    action_answers = tuple(ACTION_TABLE.answers.items())
    phases = PHASES
    flow = FLOW
    commands = COMMANDS
    session_parts = (Stacks, Button, Tournament)
    player_banked = spots       # the player-dealer banks every wager: the players bank each other

    def __init__(self, rules: BlackjackExtremeRules, limits: Limits) -> None:
        """Bind ``rules`` and ``limits``; raises ValueError if ``rules.problems()`` finds any."""
        problems = rules.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.rules = rules
        self.limits = limits
        minimums = rules.level_minimums()
        self.schedule = Schedule(tuple(self._blinds(minimum) for minimum in minimums),
                                 rules.level_minutes)

    def _blinds(self, minimum: int) -> tuple[int, ...]:
        """A level's blinds as the seed's chart gives them: the minimum, then each multiple up to the cap."""
        return tuple(minimum * times for times in range(1, max(self.rules.blind_cap, 1) + 1))

    @property
    def decks(self) -> int:
        """The decks in the shoe: 1 or 2."""
        return self.rules.decks

    # -- who plays ------------------------------------------------------------------

    def minimum(self, session: Session) -> int:
        """The minimum blind now: the table's, or the tournament level's."""
        if self.rules.tournament and session[Tournament].blinds:
            return session[Tournament].blinds[0]
        return self.limits.min_bet

    def cap(self, session: Session) -> int:
        """The largest blind now: ``blind_cap`` times the minimum, within the table maximum in a ring game."""
        minimum = self.minimum(session)
        cap = minimum * self.rules.blind_cap if self.rules.blind_cap else None
        if self.rules.tournament:
            return cap if cap is not None else minimum
        return min(cap, self.limits.max_bet) if cap is not None else self.limits.max_bet

    def _seated(self, session: Session) -> list[int]:
        """Seats that may deal or play: chips in front of them, not waiting, not knocked out."""
        return [seat for seat in sorted(session[Stacks].stacks)
                if session[Stacks].stacks[seat] > 0 and seat not in session[Button].waiting
                and seat not in session[Tournament].places]

    def dealer_seat(self, session: Session) -> int | None:
        """The player-dealer: the button's seat, or the first seat to its left that may deal."""
        seated = self._seated(session)
        if not seated:
            return session[Button].seat
        button = session[Button].seat
        if button is None:
            return seated[0]
        if button in seated:
            return button
        return next_dealer(seated, button)

    def positions(self, session: Session) -> tuple[int, ...]:
        """The players who may play the next hand, clockwise from the dealer's left (a ring game
        needs at least the minimum in front of a player)."""
        dealer = self.dealer_seat(session)
        if dealer is None:
            return ()
        least = self.minimum(session) if not self.rules.tournament else 1
        return clockwise((seat for seat in self._seated(session) if session[Stacks].stacks[seat] >= least),
                         dealer)

    def must_play(self, session: Session) -> tuple[int, ...]:
        """The positions the dealer can pay at least the minimum each, in order: they must play."""
        dealer = self.dealer_seat(session)
        if dealer is None:
            return ()
        return required(self.positions(session), session[Stacks].stack(dealer), self.minimum(session))

    def seats_in_play(self, bets: Bets, session: Session) -> tuple[int, ...]:
        """The seats with a blind, clockwise from the dealer's left."""
        dealer = self.dealer_seat(session)
        blinds = [seat for seat in bets if wagered(bets[seat].get(SPOT, 0))]
        return clockwise(blinds, dealer) if dealer is not None else tuple(sorted(blinds))

    # -- the blinds -------------------------------------------------------------------

    def bet_problems(self, bets: Bets, session: Session) -> list[str]:
        """Why these blinds may not be dealt, one line per reason; empty means the hand may start."""
        found = self._table_problems(session)
        if found:
            return found
        dealer = self.dealer_seat(session)
        assert dealer is not None
        minimum, cap = self.minimum(session), self.cap(session)
        positions = self.positions(session)
        for seat in sorted(bets):
            for spot, amount in sorted(bets[seat].items()):
                if spot != SPOT:
                    found.append(f"seat {seat} has a wager on an unknown spot {spot!r}")
                elif not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                    found.append(f"seat {seat} {spot} {amount!r} is not a wager in cents")
                elif amount:
                    found.extend(self._blind_problems(seat, amount, dealer, positions, session))
        for seat in self.must_play(session):
            if not wagered(bets.get(seat, {}).get(SPOT, 0)):
                found.append(f"seat {seat} must play: the dealer (seat {dealer}, "
                             f"{dollars(session[Stacks].stack(dealer))}) can pay it at least the "
                             f"{dollars(minimum)} minimum")
        if not any(wagered(spots.get(SPOT, 0)) for spots in bets.values()):
            found.append("no seat has a blind")
            if session[Stacks].stack(dealer) < minimum:
                found.append(f"the dealer (seat {dealer}) cannot cover one minimum: pass the deal "
                             "(pass_deal) if nobody wants to play")
            elif not positions:
                found.append(f"nobody may play against the dealer (seat {dealer}): pass the deal "
                             "(pass_deal)")
        if cap < minimum:
            found.append(f"the blind cap {dollars(cap)} is below the minimum {dollars(minimum)}")
        return found

    def _table_problems(self, session: Session) -> list[str]:
        if self.rules.tournament:
            if session[Tournament].winner is not None:
                return [f"the tournament is over: seat {session[Tournament].winner} won it"]
            if session[Tournament].level == 0:
                return ["the tournament has not started: give the deal to a seat (button) to start "
                        "the clock"]
        dealer = self.dealer_seat(session)
        if dealer is None or session[Stacks].stack(dealer) <= 0:
            return ["no seat has chips to deal: buy in first"]
        return []

    def _blind_problems(self, seat: int, amount: int, dealer: int, positions: tuple[int, ...],
                        session: Session) -> list[str]:
        minimum, cap = self.minimum(session), self.cap(session)
        stack = session[Stacks].stack(seat)
        what = f"seat {seat} blind {dollars(amount)}"
        if seat == dealer:
            return [f"seat {seat} deals this hand: it takes no blind"]
        if seat in session[Button].waiting:
            return [f"seat {seat} joined during the game: it waits until the deal has passed it"]
        if seat not in positions:
            if seat in session[Tournament].places:
                return [f"seat {seat} is out of the tournament"]
            if stack <= 0:
                return [f"seat {seat} has no chips: buy in first"]
            return [f"seat {seat} has {dollars(stack)}, less than the {dollars(minimum)} minimum: "
                    "top up first"]
        if amount > stack:
            return [f"{what} is more than its stack {dollars(stack)} (table stakes)"]
        if amount < minimum and not (self.rules.tournament and amount == stack):
            return [f"{what} is below the {dollars(minimum)} minimum"]
        if amount > cap:
            times = f" ({self.rules.blind_cap} times the minimum)" if self.rules.blind_cap else ""
            return [f"{what} is above the cap {dollars(cap)}{times}"]
        return []

    def start(self, bets: Bets, session: Session) -> tuple[BlackjackExtremeHand, tuple[GameEvent, ...]]:
        """A new hand for these blinds, waiting for its first card (with ``ButtonMoved`` to the dealer
        when the session's button is elsewhere or not set yet); raises RuleError if ``bet_problems``."""
        problems = self.bet_problems(bets, session)
        if problems:
            raise RuleError("; ".join(problems))
        dealer = self.dealer_seat(session)
        assert dealer is not None
        seats = tuple(
            SeatPlay(seat, session[Stacks].stack(seat), bets[seat][SPOT],
                     hands=(PlayHand(wager=bets[seat][SPOT]),))
            for seat in self.seats_in_play(bets, session)
        )
        hand = BlackjackExtremeHand(
            rules=self.rules, minimum=self.minimum(session), dealer_seat=dealer,
            dealer_stack=session[Stacks].stack(dealer), required=self.must_play(session), seats=seats)
        # The first hand (or one after the button's seat left) sets the button where the deal is.
        return hand, (() if dealer == session[Button].seat else (ButtonMoved(dealer),))

    # -- after the hand ---------------------------------------------------------------

    def finish(self, hand: Hand, session: Session) -> tuple[SessionEvent, ...]:
        """The stacks after the hand (a dealer's re-buy first), a ring dealer who left cashed out,
        eliminations and the winner in a tournament, and the deal passing to the left."""
        assert isinstance(hand, BlackjackExtremeHand), "a hand this game started"
        events: list[SessionEvent] = []
        dealer = hand.dealer_seat
        net: dict[int, int] = {}
        for result in hand.results() or ():
            net[result.seat] = net.get(result.seat, 0) + result.payout
        if hand.rebought:
            events.append(StackChanged(dealer, hand.dealer_stack + hand.rebought, "rebuy"))
        after = dict(session[Stacks].stacks)
        after[dealer] = hand.dealer_stack + hand.rebought - sum(net.values())
        for seat, amount in net.items():
            after[seat] = session[Stacks].stack(seat) + amount
        for seat in (*net, dealer):
            if after[seat] != session[Stacks].stack(seat) or (seat == dealer and hand.rebought):
                events.append(StackChanged(seat, after[seat], "result"))
        if hand.dealer_left:
            events.append(StackChanged(dealer, 0, "cash_out"))
            del after[dealer]
        if self.rules.tournament and not self._rebuys_open(session):
            before = {seat: session[Stacks].stack(seat) for seat in (*net, dealer)}
            events.extend(eliminations(before, after, session))
        out = {event.seat for event in events if isinstance(event, PlayerEliminated)}
        candidates = [seat for seat, stack in after.items()
                      if stack > 0 and seat not in session[Button].waiting
                      and seat not in session[Tournament].places and seat not in out]
        following = next_dealer(candidates, dealer)
        if following is not None and following != session[Button].seat:
            events.append(ButtonMoved(following))
        return tuple(events)

    def _rebuys_open(self, session: Session) -> bool:
        """Whether a tournament player who runs out may still re-buy (the first ``rebuy_levels``)."""
        return session[Tournament].level <= self.rules.rebuy_levels

    # -- between hands: stacks, the deal, the clock ------------------------------------

    def command(self, name: str, args: Mapping[str, object], session: Session,
                in_hand: bool) -> tuple[SessionEvent, ...]:
        """``buy_in``, ``top_up``, ``cash_out`` (ring: within the buy-in limits; tournament: the
        starting stack, before the start, and re-buys while open), ``button`` (give the deal to a
        seat; in a tournament this starts the clock) and ``pass_deal``."""
        if in_hand:
            raise RuleError("only between hands")
        if name == "button":
            return self._button(args, session)
        if name == "pass_deal":
            return self._pass_deal(session)
        if self.rules.tournament:
            return self._tournament_stack(name, args, session)
        least = self.rules.min_buy_in or self.limits.min_bet
        return stack_command(name, args, session, False, StackRules(least, self.rules.max_buy_in))

    def _button(self, args: Mapping[str, object], session: Session) -> tuple[SessionEvent, ...]:
        seat = args.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RuleError("button needs the seat that deals")
        if seat not in self._seated(session):
            raise RuleError(f"seat {seat} has no chips to deal with")
        if self.rules.tournament and session[Tournament].level == 0 and len(self._seated(session)) < 2:
            raise RuleError("a tournament needs two players seated before it starts")
        return (ButtonMoved(seat),)

    def _pass_deal(self, session: Session) -> tuple[SessionEvent, ...]:
        dealer = self.dealer_seat(session)
        if dealer is None:
            raise RuleError("nobody is dealing")
        minimum = self.minimum(session)
        stack = session[Stacks].stack(dealer)
        alone = not self.positions(session)
        if stack >= minimum and not alone:
            raise RuleError(f"the dealer (seat {dealer}) has {dollars(stack)}, enough "
                            f"to cover the {dollars(minimum)} minimum: the deal passes only after a hand")
        candidates = self._seated(session)
        if alone:                                   # nobody may play: a seat that waits may deal
            candidates = sorted({*candidates, *(seat for seat in session[Button].waiting
                                                if session[Stacks].stacks.get(seat, 0) > 0)})
        following = next_dealer(candidates, dealer)
        if following is None:
            raise RuleError("there is nobody to pass the deal to")
        return (ButtonMoved(following),)

    def _tournament_stack(self, name: str, args: Mapping[str, object],
                          session: Session) -> tuple[SessionEvent, ...]:
        seat = args.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1:
            raise RuleError(f"{name} needs a seat number")
        amount = args.get("amount", self.rules.starting_stack)
        stack = self.rules.starting_stack
        if amount != stack:
            raise RuleError(f"seat {seat}: every tournament stack is {dollars(stack)}")
        if name == "buy_in":
            if session[Tournament].level:
                raise RuleError("the tournament has started: no new players")
            if seat in session[Stacks].stacks:
                raise RuleError(f"seat {seat} already has a stack")
            return (StackChanged(seat, stack, "buy_in"),)
        if name == "cash_out":
            if session[Tournament].level:
                raise RuleError("the tournament has started: stacks stay until a player is out")
            if seat not in session[Stacks].stacks:
                raise RuleError(f"seat {seat} has no stack to cash out")
            return (StackChanged(seat, 0, "cash_out"),)
        if seat not in alive(session) or session[Stacks].stack(seat) > 0:
            raise RuleError(f"seat {seat}: a re-buy is for a player in the tournament who has run out")
        if not self._rebuys_open(session) or session[Tournament].level == 0:
            raise RuleError("re-buys are closed" if self.rules.rebuy_levels else
                            "this tournament is a freeze-out: no re-buys")
        return (StackChanged(seat, stack, "rebuy"),)

    def due(self, session: Session, now: str) -> tuple[SessionEvent, ...]:
        """A tournament level that starts at ``now``: level 1 once the deal has been given, then each
        level as the last one ends; when the re-buy levels end, players left with nothing are out."""
        if not self.rules.tournament or session[Tournament].winner is not None:
            return ()
        if session[Tournament].level == 0:
            return (self.schedule.start(now),) if session[Button].seat is not None else ()
        level = self.schedule.due(session, now)
        if level is None:
            return ()
        events: list[SessionEvent] = [level]
        if session[Tournament].level <= self.rules.rebuy_levels < level.level:
            broke = {seat: 0 for seat in alive(session) if session[Stacks].stack(seat) == 0}
            events.extend(eliminations(broke, dict(session[Stacks].stacks), session))
        return tuple(events)
