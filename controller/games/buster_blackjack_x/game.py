"""Buster Blackjack X bound to its rules and the table limits: wagers, the start and end of a hand,
the bank's and the supervisor's commands, and the Blazing 7's meter between hands.

A whole hand, house-banked: seat 1 has 10 and 6 against a 9 up, hits a 5
(21); the player-dealer turns up a 7 (16), draws an 8 and busts at 24 in
three cards.

>>> from firmware_bridge.kernel.cards import Card
>>> game = BusterBlackjackX(BusterRules(banker="house"), Limits(500, 50000))
>>> hand, _ = game.start({1: {"main": 1000, "side": 500}}, Session())
>>> for index, text in enumerate(["Th", "9c", "6d", "7s", "5h"], start=1):
...     hand, events = hand.deal(Card.parse(text), index)
>>> hand, events = hand.act("stand")
>>> [type(event).__name__ for event in events]
['Acted', 'Revealed']
>>> hand, events = hand.deal(Card.parse("8c"), 6)
>>> [(r.spot, r.outcome, r.payout) for r in hand.results() or ()]
[('main', 'win', 1000), ('side', 'win', 1000)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from controller.commands.registry import SUPERVISOR, Command, command, seat_field
from controller.games.buster_blackjack_x.bank import BANKED_SPOTS, banker_for, next_banker
from controller.games.buster_blackjack_x.hand import ACTION_TABLE, ACTIONS, FLOW, PHASES, BusterHand
from controller.games.buster_blackjack_x.rules import METER, SPOTS, BusterRules
from controller.games.buster_blackjack_x.seats import PlayerHand, SeatPlay
from controller.games.interface import (
    Bets,
    Button,
    ButtonMoved,
    Game,
    GameEvent,
    Hand,
    Limits,
    MeterChanged,
    Progressive,
    ProgressivePaid,
    RuleError,
    Session,
    SessionEvent,
    StackChanged,
    Stacks,
)
from controller.games.parts.limits import limit_problems, spot_problems, wagered
from controller.games.parts.stacks import STACK_COMMANDS, StackRules, stack_command
from firmware_bridge.kernel.money import dollars


@command("confirm_progressive", who=SUPERVISOR, label="Confirm jackpot")
@dataclass(frozen=True)
class ConfirmProgressive(Command):
    """A supervisor confirms the oldest Blazing 7's jackpot waiting at a seat."""

    seat: int = seat_field()


CONFIRM = ConfirmProgressive.name
"""The supervisor's command that confirms a Blazing 7's jackpot."""


class BusterBlackjackX(Game[BusterHand]):
    """The game bound to its rules and the table limits."""

    spots = SPOTS
    actions = ACTIONS
    action_labels = tuple(ACTION_TABLE.labels.items())
    phases = PHASES
    flow = FLOW
    commands = (*STACK_COMMANDS, CONFIRM)
    betting_lights = ("progressive",)
    session_parts = (Stacks, Button, Progressive)
    player_banked = BANKED_SPOTS

    def __init__(self, rules: BusterRules, limits: Limits) -> None:
        """Bind ``rules`` and ``limits``; raises ValueError if ``rules.problems()`` finds any."""
        problems = rules.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.rules = rules
        self.limits = limits

    @property
    def decks(self) -> int:
        """The decks the shoe holds."""
        return self.rules.decks

    # -- wagers -------------------------------------------------------------------

    def bet_problems(self, bets: Bets, session: Session) -> list[str]:
        """Why these wagers may not be dealt, one line per reason; empty means the hand may start.

        >>> game = BusterBlackjackX(BusterRules(banker="house"), Limits(500, 50000))
        >>> game.bet_problems({2: {"main": 1000, "side": 1500, "progressive": 200}}, Session())
        ['seat 2 bonus $15.00 is more than its base wager $10.00', "seat 2 Blazing 7's must be exactly $1.00"]
        """
        found: list[str] = []
        for seat in sorted(bets):
            found.extend(self._seat_problems(seat, bets[seat]))
        if not any(wagered(spots.get("main", 0)) for spots in bets.values()):
            found.append("no seat has a base wager")
        found.extend(self._bank_problems(bets, session))
        for hit in session[Progressive].unpaid:
            found.append(f"seat {hit.seat}'s Blazing 7's jackpot {dollars(hit.amount)} waits for a "
                         f"supervisor: {ConfirmProgressive.label}")
        return found

    def _seat_problems(self, seat: int, spots: Mapping[str, int]) -> list[str]:
        rules, table = self.rules, self.limits
        found: list[str] = []
        found.extend(spot_problems(seat, spots, SPOTS))
        base, bonus = spots.get("main", 0), spots.get("side", 0)
        progressive, insurance = spots.get("progressive", 0), spots.get("insurance", 0)
        if wagered(base):
            found.extend(limit_problems(f"seat {seat} base", base, table, ("table", "table")))
        if wagered(bonus):
            if not wagered(base):
                found.append(f"seat {seat} has a bonus wager but no base wager")
            elif bonus > base:
                found.append(f"seat {seat} bonus {dollars(bonus)} is more than its base wager "
                             f"{dollars(base)}")
            limits = Limits(rules.bonus_min_bet or table.min_bet, rules.bonus_max_bet or table.max_bet)
            words = ("table" if rules.bonus_min_bet is None else "bonus",
                     "table" if rules.bonus_max_bet is None else "bonus")
            found.extend(limit_problems(f"seat {seat} bonus", bonus, limits, words))
        if wagered(progressive):
            if not wagered(base):
                found.append(f"seat {seat} has a Blazing 7's wager but no base wager")
            if progressive != rules.progressive_wager:
                found.append(f"seat {seat} Blazing 7's must be exactly {dollars(rules.progressive_wager)}")
        if wagered(insurance):
            found.append(f"seat {seat} has chips on the insurance spot: insurance is placed only when "
                         "it is offered")
        return found

    def _bank_problems(self, bets: Bets, session: Session) -> list[str]:
        rules = self.rules
        if rules.banker == "house":
            return []
        banker = banker_for(rules, session)
        if banker is None:
            return [f"no seat has a bank of at least {dollars(rules.min_bank)} to be the player-dealer: "
                    "a supervisor buys in a bank"]
        found = []
        stack = session[Stacks].stack(banker)
        if stack < max(rules.min_bank, rules.collection_fee):
            found.append(f"the player-dealer's bank at seat {banker} holds {dollars(stack)}, less than "
                         f"{dollars(max(rules.min_bank, rules.collection_fee))}: a supervisor tops it up")
        if any(wagered(amount) for amount in bets.get(banker, {}).values()):
            found.append(f"seat {banker} is the player-dealer: its spots must be empty")
        return found

    def seats_in_play(self, bets: Bets, session: Session) -> tuple[int, ...]:
        """The seats with a base wager, in seat order."""
        return tuple(seat for seat in sorted(bets) if wagered(bets[seat].get("main", 0)))

    def dealer_seat(self, session: Session) -> int | None:
        """The player-dealer's seat for the next hand (None: the house banks)."""
        return banker_for(self.rules, session)

    # -- a hand ---------------------------------------------------------------------

    def start(self, bets: Bets, session: Session) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """A new hand for these wagers, waiting for its first card; ``ButtonMoved`` to the player-dealer
        when the session's button is elsewhere or not set yet (the first hand), and each Blazing 7's
        wager adds its share to the meter (``MeterChanged``). Raises RuleError if ``bet_problems``."""
        problems = self.bet_problems(bets, session)
        if problems:
            raise RuleError("; ".join(problems))
        rules = self.rules
        seats = tuple(
            SeatPlay(seat, bets[seat]["main"], bets[seat].get("side", 0),
                     bets[seat].get("progressive", 0),
                     hands=(PlayerHand((), bets[seat]["main"]),))
            for seat in self.seats_in_play(bets, session)
        )
        before = session[Progressive].meters.get(METER, rules.progressive_base)
        meter = before + rules.progressive_increment * sum(1 for play in seats if play.progressive)
        banker = banker_for(rules, session)
        hand = BusterHand(rules=rules, seats=seats, banker=banker,
                          bank=session[Stacks].stack(banker) if banker is not None else 0,
                          meter_before=before, meter=meter)
        moved = () if banker == session[Button].seat else (ButtonMoved(banker),)
        return hand, (*moved, *((MeterChanged(METER, meter),) if meter != before else ()))

    def finish(self, hand: Hand, session: Session) -> tuple[SessionEvent, ...]:
        """The bank's stack after the hand, and where the player-dealer position goes next."""
        assert isinstance(hand, BusterHand), "a hand this game started"
        events: list[SessionEvent] = []
        after = hand.settled.bank_after if hand.settled is not None else None
        if hand.banker is not None and after is not None and after != hand.bank:
            events.append(StackChanged(hand.banker, after, "result"))
            session = session.apply(events[-1])
        following = next_banker(self.rules, session, hand.banker)
        if following != session[Button].seat:
            events.append(ButtonMoved(following))
        return tuple(events)

    # -- between hands --------------------------------------------------------------

    def command(self, name: str, args: Mapping[str, object], session: Session,
                in_hand: bool) -> tuple[SessionEvent, ...]:
        """A bank's ``buy_in``/``top_up``/``cash_out`` (between hands), or a supervisor's
        ``confirm_progressive`` (``seat``; any time) of the oldest jackpot waiting at that seat."""
        rules = self.rules
        if name == CONFIRM:
            return self._confirm(args, session)
        if rules.banker == "house":
            raise RuleError("the house banks this table: no seat keeps a bank")
        return stack_command(name, args, session, in_hand,
                             StackRules(min_buy_in=rules.min_bank, max_buy_in=rules.max_bank))

    def _confirm(self, args: Mapping[str, object], session: Session) -> tuple[SessionEvent, ...]:
        supervisor = args.get("supervisor")
        if not isinstance(supervisor, str) or not supervisor:
            raise RuleError("a supervisor must confirm a jackpot (supervisor and pin)")
        seat = args.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise RuleError("seat must be a whole number")
        for hit in session[Progressive].unpaid:
            if hit.seat == seat:
                return (ProgressivePaid(seat, hit.amount, supervisor),)
        raise RuleError(f"seat {seat} has no Blazing 7's jackpot waiting")

    def due(self, session: Session, now: str) -> tuple[SessionEvent, ...]:
        """The Blazing 7's meter appears at its base the first time the table looks (and after a
        restart with a journal that has none)."""
        if METER not in session[Progressive].meters:
            return (MeterChanged(METER, self.rules.progressive_base),)
        return ()
