"""A small test game, outside the shipped package, that drives the table through what Easy Jack lacks.

Each seat with a ``main`` wager gets a card face up and a card face down, the
dealer one card face up. In turn, a seat may ``raise`` (the ``main`` spot must
then hold from twice the wager up to its whole stack), ``split`` a pair (the
spot must hold exactly twice the wager; the second hand gets its own cards) or
``stand`` on each hand. A hand beats the dealer's single card by having more
points (cards count their rank, faces 10); the table keeps stacks, changed by
buy-ins and by each hand's results.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from controller.games.interface import (
    Acted,
    Bets,
    CardsView,
    Dealt,
    Decision,
    Game,
    GameEvent,
    Hand,
    HandView,
    Limits,
    Option,
    Revealed,
    RuleError,
    SeatHandView,
    Session,
    SessionEvent,
    Settled,
    StackChanged,
    Stacks,
    Target,
    WagerResult,
)
from controller.games.parts.stacks import STACK_COMMANDS, StackRules, stack_command
from controller.games.spec import GameSpec, MathReport
from firmware_bridge.kernel.cards import Card


def points(cards: tuple[Card, ...]) -> int:
    return sum(min(card.rank, 10) for card in cards)


@dataclass(frozen=True)
class ToyHand:
    """One hand of a seat: its cards, what rides on it, whether it stood."""

    cards: tuple[Card, ...] = ()
    wager: int = 0
    done: bool = False
    hidden: int | None = None
    """The shoe index of the second card while it lies face down."""


@dataclass(frozen=True)
class ToySeat:
    seat: int
    stack: int
    hands: tuple[ToyHand, ...]


@dataclass(frozen=True)
class ToyRound(Hand):
    seats: tuple[ToySeat, ...]
    dealer: tuple[Card, ...] = ()
    settlement: tuple[WagerResult, ...] | None = None

    @property
    def phase(self) -> str:
        if self.settlement is not None:
            return "complete"
        return "dealing" if self._deal_target() is not None else "players"

    def _deal_target(self) -> Target | None:
        """Where the next card of the first deal goes (None once the dealer has a card)."""
        if self.dealer:
            return None
        for seat in self.seats:
            if len(seat.hands[0].cards) == 0:
                return Target("seat", seat.seat, 0, True)
        for seat in self.seats:
            if len(seat.hands[0].cards) == 1:
                return Target("seat", seat.seat, 0, False)
        return Target("dealer", None, 0, True)

    def _turn(self) -> tuple[ToySeat, int] | None:
        for seat in self.seats:
            for index, hand in enumerate(seat.hands):
                if not hand.done:
                    return seat, index
        return None

    def decision(self) -> Decision | None:
        if self.settlement is not None:
            return None
        target = self._deal_target()
        if target is not None:
            return Decision(None, 0, {}, target, "Deal")
        turn = self._turn()
        assert turn is not None
        seat, index = turn
        hand = seat.hands[index]
        if len(hand.cards) < 2:
            return Decision(seat.seat, index, {}, Target("seat", seat.seat, index, True),
                            f"Deal seat {seat.seat} hand {index + 1} its second card")
        actions = {"stand": Option()}
        total = sum(h.wager for h in seat.hands)
        if len(seat.hands) == 1 and seat.stack >= 2 * hand.wager:
            actions["raise"] = Option(2 * hand.wager, seat.stack, "main")
            if hand.cards[0].rank == hand.cards[1].rank:
                actions["split"] = Option(total + hand.wager, total + hand.wager, "main")
        return Decision(seat.seat, index, actions, None, f"Seat {seat.seat}: raise, split or stand")

    def results(self) -> tuple[WagerResult, ...] | None:
        return self.settlement

    def verify_deal(self) -> None:
        decision = self.decision()
        if decision is None or decision.card is None:
            raise RuleError("no card is wanted now")

    def deal(self, card: Card, index: int) -> tuple[ToyRound, tuple[GameEvent, ...]]:
        self.verify_deal()
        target = self.decision().card  # type: ignore[union-attr]
        assert target is not None
        if target.to == "dealer":
            done = replace(self, dealer=(*self.dealer, card))
            return done._settle_if_over((Dealt(target, card, index),))
        down = None if target.face_up else index
        seats = tuple(
            replace(seat, hands=tuple(
                replace(h, cards=(*h.cards, card), hidden=h.hidden if down is None else down)
                if i == target.hand_index else h
                for i, h in enumerate(seat.hands)))
            if seat.seat == target.seat else seat for seat in self.seats)
        return replace(self, seats=seats), (Dealt(target, card, index),)

    def verify(self, action: str, amount: int | None = None) -> None:
        decision = self.decision()
        if decision is None or decision.seat is None:
            raise RuleError("no seat is in turn")
        option = decision.actions.get(action)
        if option is None:
            raise RuleError(f"seat {decision.seat} may not {action} now")
        if not option.allows(amount):
            raise RuleError(f"seat {decision.seat}: {action} needs {option.low} to {option.high} "
                            f"cents on the spot, it reads {amount}")

    def take(self, action: str, amount: int | None = None) -> tuple[ToyRound, tuple[GameEvent, ...]]:
        """Take ``action`` (:meth:`verify` allowed it)."""
        turn = self._turn()
        assert turn is not None
        seat, index = turn
        hands = list(seat.hands)
        shown: tuple[GameEvent, ...] = ()
        if action == "stand":
            hands[index] = replace(hands[index], done=True)
        elif action == "raise":
            assert amount is not None
            hands[index] = replace(hands[index], wager=amount, done=True)
        else:
            first = hands[0]
            if first.hidden is not None:
                shown = (Revealed("seat", seat.seat, 0, first.cards[1], first.hidden),)
            hands = [replace(first, cards=first.cards[:1], hidden=None),
                     ToyHand(first.cards[1:], first.wager)]
        new_seat = replace(seat, hands=tuple(hands))
        hand = replace(self, seats=tuple(new_seat if s.seat == seat.seat else s for s in self.seats))
        return hand._settle_if_over((Acted(seat.seat, index, action, amount), *shown))

    def _settle_if_over(self, events: tuple[GameEvent, ...]) -> tuple[ToyRound, tuple[GameEvent, ...]]:
        if self._deal_target() is not None or self._turn() is not None or not self.dealer:
            return self, events
        dealer = points(self.dealer)
        results = []
        shown: list[GameEvent] = []
        seats = []
        for seat in self.seats:
            seats.append(replace(seat, hands=tuple(replace(h, hidden=None) for h in seat.hands)))
            for index, hand in enumerate(seat.hands):
                if hand.hidden is not None:
                    shown.append(Revealed("seat", seat.seat, index, hand.cards[1], hand.hidden))
                mine = points(hand.cards)
                net = hand.wager if mine > dealer else 0 if mine == dealer else -hand.wager
                outcome = "win" if net > 0 else "push" if net == 0 else "lose"
                results.append(WagerResult(seat.seat, "main", index, outcome, hand.wager, net))
        settled = tuple(results)
        return (replace(self, seats=tuple(seats), settlement=settled),
                (*events, *shown, Settled(settled)))

    def committed(self) -> Mapping[tuple[int, str], int]:
        return {(seat.seat, "main"): sum(h.wager for h in seat.hands) for seat in self.seats}

    def view(self) -> HandView:
        turn = self._turn() if self.settlement is None else None
        seats = tuple(
            SeatHandView(seat.seat, tuple(
                CardsView(tuple(None if hand.hidden is not None and n == 1 else str(c)
                                for n, c in enumerate(hand.cards)),
                          None, hand.wager, "stood" if hand.done else None)
                for i, hand in enumerate(seat.hands)),
                in_turn=turn is not None and turn[0].seat == seat.seat)
            for seat in self.seats)
        return HandView(self.phase, seats, CardsView(tuple(str(c) for c in self.dealer)))


class Toy(Game[ToyRound]):
    """The toy game with its stacks."""

    spots = ("main",)
    actions = ("stand", "raise", "split")
    phases = ("dealing", "players", "complete")
    flow = (("dealing", "players"), ("players", "complete"))
    commands = STACK_COMMANDS

    @property
    def decks(self) -> int:
        return 6

    def bet_problems(self, bets: Bets, session: Session) -> list[str]:
        problems = [f"seat {seat} bets {spots['main']} with a stack of {session[Stacks].stack(seat)}"
                    for seat, spots in sorted(bets.items())
                    if spots.get("main", 0) > session[Stacks].stack(seat)]
        if not any(spots.get("main", 0) for spots in bets.values()):
            problems.append("no seat has a main wager")
        return problems

    def start(self, bets: Bets, session: Session) -> tuple[ToyRound, tuple[GameEvent, ...]]:
        seats = tuple(ToySeat(seat, session[Stacks].stack(seat), (ToyHand(wager=spots["main"]),))
                      for seat, spots in sorted(bets.items()) if spots.get("main", 0))
        return ToyRound(seats), ()

    def finish(self, hand: Hand, session: Session) -> tuple[SessionEvent, ...]:
        net: dict[int, int] = {}
        for result in hand.results() or ():
            net[result.seat] = net.get(result.seat, 0) + result.payout
        return tuple(StackChanged(seat, session[Stacks].stack(seat) + amount, "result")
                     for seat, amount in sorted(net.items()) if amount)

    def command(self, name: str, args: Mapping[str, object], session: Session,
                in_hand: bool) -> tuple[SessionEvent, ...]:
        return stack_command(name, args, session, in_hand, StackRules(min_buy_in=1000))


@dataclass(frozen=True)
class ToyRules:
    """The toy game's ``[game]`` options: it has none."""

    def problems(self) -> list[str]:
        return []


def make(rules: ToyRules, limits: Limits) -> Toy:
    return Toy()


def math(rules: ToyRules) -> MathReport:
    return {}


GAME = GameSpec(Toy, ToyRules, ("deal", "stand", "next"), ("raise", "split", "void"), make, math)
"""The toy game as a plug-in (``toy = "tests.table.toy_game:GAME"`` in ``table_controller.games``)."""
