"""One hand of Easy Jack: frozen, with ``can_x()`` / ``verify_x()`` / ``x()`` per action.

The hand deals one card to each seat in play, face up, then the dealer's hole
card face down; each seat in turn draws (a card from the shoe is a hit) or
stands; the dealer turns the hole card up and draws to 7 or more while any
result still depends on it; then every wager is settled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from controller.games.easy_jack.rules import (
    EasyJackRules,
    dealer_must_draw,
    main_result,
    side_result,
    turn_over,
)
from controller.games.interface import (
    Acted,
    CardsView,
    Dealt,
    Decision,
    GameEvent,
    Hand,
    HandView,
    Option,
    Revealed,
    RuleError,
    SeatHandView,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.actions import Action, Actions, no_amount
from controller.games.parts.held import HandCard
from controller.games.parts.totals import Total, card_points, total_of, total_words
from firmware_bridge.kernel.cards import Card

Phase = Literal["dealing", "players", "dealer", "complete"]

PHASES: tuple[Phase, ...] = ("dealing", "players", "dealer", "complete")
FLOW = (("dealing", "players"), ("dealing", "complete"), ("players", "dealer"),
        ("players", "complete"), ("dealer", "complete"))
"""How a hand moves between its phases (a dealer natural seen on the peek settles at once)."""


@dataclass(frozen=True)
class SeatHand:
    """One seat in play: its wagers in cents, its cards, and whether its turn has ended."""

    seat: int
    main: int
    side: int
    cards: tuple[HandCard, ...] = ()
    done: bool = False

    def total(self) -> Total:
        """The seat's total."""
        return total_of(card_points(held.card) for held in self.cards)


@dataclass(frozen=True)
class EasyJackHand(Hand):
    """One hand of Easy Jack: the seats in play, the dealer's cards, and where play stands.

    ``dealer`` holds the dealer's cards, the first being the hole card (dealt
    face down, visible once ``hole_revealed``); ``turn`` is the seat in turn
    during the "players" phase; ``settlement`` is set once the hand is complete.
    """

    rules: EasyJackRules
    seats: tuple[SeatHand, ...]
    dealer: tuple[HandCard, ...] = ()
    hole_revealed: bool = False
    turn: int | None = None
    phase: Phase = "dealing"
    settlement: tuple[WagerResult, ...] | None = None

    # -- the one question -------------------------------------------------------

    def next_target(self) -> Target | None:
        """Where the next card drawn from the shoe goes; None once the hand is complete."""
        if self.phase == "dealing":
            for seat in self.seats:
                if not seat.cards:
                    return Target(to="seat", seat=seat.seat, hand_index=0, face_up=True)
            return Target(to="dealer", seat=None, hand_index=0, face_up=False)
        if self.phase == "players":
            return Target(to="seat", seat=self.turn, hand_index=0, face_up=True)
        if self.phase == "dealer":
            return Target(to="dealer", seat=None, hand_index=0, face_up=True)
        return None

    def decision(self) -> Decision | None:
        """Who decides now: during the deal and the dealer's draw only a card is awaited; in a
        seat's turn, a card from the shoe is a hit and ``stand`` ends the turn."""
        target = self.next_target()
        if target is None:
            return None
        if self.phase == "players":
            return Decision(self.turn, 0, {"stand": Option()}, target,
                            f"Seat {self.turn}: draw a card to hit, or press STAND")
        if target.to == "dealer":
            way = "face up" if target.face_up else "face down"
            return Decision(None, 0, {}, target, f"Deal the dealer a card {way}")
        return Decision(None, 0, {}, target, f"Deal a card face up to seat {target.seat}")

    def results(self) -> tuple[WagerResult, ...] | None:
        """Every wager's result once the hand is complete."""
        return self.settlement

    # -- cards ------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now."""
        if self.phase == "complete":
            raise RuleError("the hand is settled: no more cards may be dealt")

    def deal(self, card: Card, index: int) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """Put ``card`` (shoe index ``index``) where ``next_target()`` says; return the new hand and events.

        The events start with ``Dealt`` and may go on with ``Revealed`` and
        ``Settled`` when this card ends the players' turns or the hand.
        """
        self.verify_deal()
        target = self.next_target()
        assert target is not None
        held = HandCard(card, index, target.face_up)
        if target.to == "dealer":
            hand = replace(self, dealer=(*self.dealer, held))
        else:
            seats = tuple(
                _add_card(self.rules, seat, held) if seat.seat == target.seat else seat
                for seat in self.seats
            )
            hand = replace(self, seats=seats)
        hand, events = hand._progress()
        return hand, (Dealt(target, card, index), *events)

    # -- actions ----------------------------------------------------------------

    def can_stand(self) -> bool:
        """Whether the seat in turn may stand now."""
        return self.phase == "players"

    def verify_stand(self, amount: int | None = None) -> None:
        """Raise RuleError if no seat may stand now (with no amount), saying why."""
        no_amount("stand", amount)
        if self.phase == "dealing":
            raise RuleError("no seat may stand before every seat and the dealer have a card")
        if self.phase != "players":
            raise RuleError("no seat is in turn: the players' turns are over")

    def stand(self, amount: int | None = None) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """The seat in turn stands; the events start with ``Acted(seat, 0, "stand")``."""
        self.verify_stand(amount)
        assert self.turn is not None
        seat_number = self.turn
        seats = tuple(
            replace(seat, done=True) if seat.seat == seat_number else seat for seat in self.seats
        )
        hand, events = replace(self, seats=seats)._progress()
        return hand, (Acted(seat_number, 0, "stand"), *events)

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError unless ``action`` is ``stand`` (with no amount) and a seat may stand."""
        ACTION_TABLE.verify(self, action, amount)

    def take(self, action: str, amount: int | None = None) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """Take ``action`` (only ``stand`` exists)."""
        return ACTION_TABLE.take(self, action, amount)

    # -- what the table checks and shows ---------------------------------------

    def committed(self) -> Mapping[tuple[int, str], int]:
        """Each seat's wagers as they closed: nothing is added or taken back during a hand."""
        held: dict[tuple[int, str], int] = {}
        for seat in self.seats:
            held[(seat.seat, "main")] = seat.main
            if seat.side:
                held[(seat.seat, "side")] = seat.side
        return held

    def seat_total(self, seat: int) -> Total:
        """The total of a seat in play; raises RuleError for a seat not in this hand."""
        for held in self.seats:
            if held.seat == seat:
                return held.total()
        raise RuleError(f"seat {seat} is not in this hand")

    def dealer_total(self, include_hole: bool) -> Total:
        """The dealer's total: of every card if ``include_hole``, else of the cards showing."""
        return total_of(
            card_points(held.card)
            for held in self.dealer
            if include_hole or held.face_up or self.hole_revealed
        )

    def view(self) -> HandView:
        """The hand as the pit and the display may see it; the hole card is None until revealed."""
        showing = tuple(
            str(held.card) if held.face_up or self.hole_revealed else None for held in self.dealer
        )
        seats = tuple(
            SeatHandView(
                seat.seat,
                (CardsView(tuple(str(held.card) for held in seat.cards), total_words(seat.total()),
                           seat.main, "stood" if seat.done and not seat.total().bust else None),),
                in_turn=self.phase == "players" and self.turn == seat.seat,
            )
            for seat in self.seats
        )
        return HandView(self.phase, seats,
                        CardsView(showing, total_words(self.dealer_total(include_hole=False))))

    # -- moving on by itself -----------------------------------------------------

    def _progress(self) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """Move on as far as the rules go without a card or a decision."""
        hand: EasyJackHand = self
        events: tuple[GameEvent, ...] = ()
        if hand.phase == "dealing":
            if not hand.dealer:
                return hand, events
            if hand.rules.peek_for_ace and hand.dealer_total(include_hole=True).natural:
                hand, events = hand._reveal()
                return hand._settle(events)
            hand = replace(hand, phase="players")
        if hand.phase == "players":
            waiting = [seat.seat for seat in hand.seats if not seat.done]
            if waiting:
                return replace(hand, turn=waiting[0]), events
            hand, events = hand._reveal()
        if dealer_must_draw(hand.dealer_total(include_hole=True)) and hand._dealer_matters():
            return hand, events
        return hand._settle(events)

    def _reveal(self) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        hole = self.dealer[0]
        revealed = Revealed("dealer", None, 0, hole.card, hole.index)
        return replace(self, phase="dealer", turn=None, hole_revealed=True), (revealed,)

    def _dealer_matters(self) -> bool:
        """Whether any result still depends on the dealer's next cards."""
        return any(
            seat.side > 0 or not (seat.total().bust or seat.total().natural) for seat in self.seats
        )

    def _settle(
        self, events: tuple[GameEvent, ...]
    ) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        dealer = self.dealer_total(include_hole=True)
        results: list[WagerResult] = []
        for seat in self.seats:
            outcome, payout, label = main_result(self.rules, seat.total(), dealer, seat.main)
            results.append(WagerResult(seat.seat, "main", 0, outcome, seat.main, payout, label))
            if seat.side > 0:
                outcome, payout, label = side_result(self.rules, dealer, seat.side)
                results.append(WagerResult(seat.seat, "side", 0, outcome, seat.side, payout, label))
        settled = tuple(results)
        hand = replace(self, phase="complete", turn=None, settlement=settled)
        return hand, (*events, Settled(settled))


def _add_card(rules: EasyJackRules, seat: SeatHand, held: HandCard) -> SeatHand:
    grown = replace(seat, cards=(*seat.cards, held))
    return replace(grown, done=turn_over(rules, grown.total()))


ACTION_TABLE: Actions[EasyJackHand] = Actions("Easy Jack", {
    "stand": Action(EasyJackHand.verify_stand, EasyJackHand.stand, "Stand"),
})
"""The one action of a hand, with the methods that verify and take it."""
