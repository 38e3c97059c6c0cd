"""Hold'em Blackjack bound to its rules: who is dealt in, the blinds due before the deal, the
start of a hand, the stacks and the button after it, and the seats' buy-ins.

Every seat with chips in its stack is dealt in (seats 1 to 6). The table keeps
the stacks (:mod:`controller.games.parts.stacks`); a hand's results change
them when the dealer closes it, and the button moves one seat clockwise then.

A whole hand, heads-up at 2/4/4-20: seat 1 has the button and posts the small
blind, seat 2 the big blind; both check or call to the end, and seat 2's 19
(9, queen) beats seat 1's 15 (king, 5).

>>> from controller.games.interface import Button, Session, StackChanged, Stacks
>>> from firmware_bridge.kernel.cards import Card
>>> game = HoldemBlackjack(HoldemBlackjackRules(), Limits(200, 2000))
>>> session = Session.of(Stacks({1: 10000, 2: 10000}), Button(1))
>>> game.bet_problems({1: {"bet": 100}}, session)
['seat 2 posts the big blind $2.00: its bet spot should read $2.00; it reads $0.00']
>>> hand, events = game.start({1: {"bet": 100}, 2: {"bet": 200}}, session)
>>> for index, text in enumerate(["9h", "Kc", "Qd", "5s"], start=1):
...     hand, events = hand.deal(Card.parse(text), index)
...     if index == 2:
...         hand, _ = hand.act("call", 200)
...         hand, _ = hand.act("check", 200)
>>> for action in ("check", "check", "stand", "stand", "check", "check"):
...     hand, events = hand.act(action, None if action == "stand" else 0)
>>> [type(event).__name__ for event in events]
['Acted', 'Revealed', 'PotAwarded', 'Settled']
>>> game.finish(hand, session)
(StackChanged(seat=1, amount=9800, reason='result'), StackChanged(seat=2, amount=10200, reason='result'), \
ButtonMoved(seat=2))
"""

from __future__ import annotations

from collections.abc import Mapping

from controller.games.holdem_blackjack.hand import ACTION_TABLE, FLOW, PHASES, HoldemHand, forced_bets
from controller.games.holdem_blackjack.rules import MAX_PLAYERS, SPOT, HoldemBlackjackRules
from controller.games.interface import (
    Bets,
    Button,
    ButtonMoved,
    Game,
    GameEvent,
    Hand,
    Limits,
    RuleError,
    Session,
    SessionEvent,
    StackChanged,
    Stacks,
)
from controller.games.parts.blinds import Seating, next_clockwise, seating
from controller.games.parts.stacks import STACK_COMMANDS, StackRules, stack_command
from firmware_bridge.kernel.money import dollars as money


class HoldemBlackjack(Game[HoldemHand]):
    """The game bound to its rules (the table's ``[limits]`` play no part: the stakes say it all)."""

    spots = (SPOT,)
    actions = ACTION_TABLE.names
    action_labels = tuple(ACTION_TABLE.labels.items())
    phases = PHASES
    flow = FLOW
    commands = STACK_COMMANDS
    session_parts = (Stacks, Button)
    house_rakes = True

    def __init__(self, rules: HoldemBlackjackRules, limits: Limits) -> None:
        """Bind ``rules`` (``limits``, the table's, are not used); raises ValueError if
        ``rules.problems()`` finds any."""
        problems = rules.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.rules = rules
        self.stack_rules = StackRules(rules.buy_in_minimum, rules.max_buy_in, MAX_PLAYERS)

    @property
    def decks(self) -> int:
        """The decks the shoe holds."""
        return self.rules.decks

    def players(self, session: Session) -> tuple[int, ...]:
        """The seats dealt in next: every seat with chips, in seat order."""
        return tuple(seat for seat, stack in sorted(session[Stacks].stacks.items()) if stack > 0)

    def seating(self, session: Session) -> Seating | None:
        """The button and blinds of the next hand, or None while fewer than two seats have chips."""
        players = self.players(session)
        if len(players) < 2:
            return None
        return seating(players, session[Button].seat, self.rules.heads_up_button_small_blind)

    def bet_problems(self, bets: Bets, session: Session) -> list[str]:
        """Why the hand may not be dealt: fewer than two stacks, or a bet spot that does not hold
        exactly the seat's ante and blind, one line per seat with the amounts."""
        found = [f"seat {seat} has chips on an unknown spot {spot!r}"
                 for seat in sorted(bets) for spot, amount in bets[seat].items()
                 if spot != SPOT and amount]
        reads = {seat: spots.get(SPOT, 0) for seat, spots in bets.items()}
        players = self.players(session)
        for seat in sorted(reads):
            if seat not in players and reads[seat]:
                found.append(f"seat {seat} has chips on its bet spot but no stack: buy in first, "
                             "or take them off")
        place = self.seating(session)
        if place is None:
            found.append("at least two seats need chips to play: a supervisor buys them in")
            return found
        stacks = {seat: session[Stacks].stack(seat) for seat in place.seats}
        posts = forced_bets(self.rules, place, stacks)
        for seat in place.seats:
            ante, blind = posts[seat]
            reading = reads.get(seat, 0)
            if reading == ante + blind:
                continue
            owed = []
            if blind:
                which = "small" if seat == place.small_blind else "big"
                owed.append(f"the {which} blind {money(blind)}")
            if ante:
                owed.append(f"the ante {money(ante)}")
            all_in = " (all in)" if ante + blind == stacks[seat] else ""
            what = " and ".join(owed) if owed else "nothing before the deal"
            found.append(f"seat {seat} posts {what}{all_in}: its bet spot should read "
                         f"{money(ante + blind)}; it reads {money(reading)}")
        return found

    def seats_in_play(self, bets: Bets, session: Session) -> tuple[int, ...]:
        """The seats dealt in: every seat with chips."""
        return self.players(session)

    def start(self, bets: Bets, session: Session) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """A new hand: the button where it stands (moved on first if its seat has left), antes
        and blinds posted; raises RuleError if :meth:`bet_problems` finds any."""
        problems = self.bet_problems(bets, session)
        place = self.seating(session)
        if problems or place is None:
            raise RuleError("; ".join(problems))
        moved: tuple[GameEvent, ...] = ()
        if place.button != session[Button].seat:
            moved = (ButtonMoved(place.button),)
        hand, events = HoldemHand.begin(self.rules, place,
                                        {seat: session[Stacks].stack(seat) for seat in place.seats})
        return hand, (*moved, *events)

    def finish(self, hand: Hand, session: Session) -> tuple[SessionEvent, ...]:
        """Each stack the hand changed (``result``), then the button one seat clockwise, to the
        next seat that still has chips."""
        assert isinstance(hand, HoldemHand), "a hand this game started"
        events: list[SessionEvent] = []
        stacks = dict(session[Stacks].stacks)
        for seat, stack in hand.final_stacks().items():
            if stack != session[Stacks].stack(seat):
                events.append(StackChanged(seat, stack, "result"))
                stacks[seat] = stack
        button = next_clockwise([seat for seat, stack in stacks.items() if stack > 0], hand.button)
        if button != session[Button].seat:
            events.append(ButtonMoved(button))
        return tuple(events)

    def command(self, name: str, args: Mapping[str, object], session: Session,
                in_hand: bool) -> tuple[SessionEvent, ...]:
        """``buy_in``, ``top_up`` and ``cash_out`` (seat, amount in cents), between hands only."""
        return stack_command(name, args, session, in_hand, self.stack_rules)
