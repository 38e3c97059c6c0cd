"""One hand of Buster Blackjack X: frozen, with ``verify_x()`` / ``x()`` per decision (:data:`ACTION_TABLE`).

The deal: a card face up to each seat in play (seat order), the player-dealer's
up card, a second card to each seat, the player-dealer's hole card face down.
With an ace up (and ``insurance``) each seat in turn takes insurance or not;
then the hole card is checked: a player-dealer Blackjack X or Natural 31 is
turned up and ends the hand at once. Otherwise each seat plays each of its
hands in turn: a card drawn from the shoe is a hit (or, with ``hit_button``,
the card that HIT asked for), and ``stand``, ``double``, ``split`` and
``surrender`` are taken by button or control command; a double's or a split's
second wager is read from the seat's main spot, insurance from its insurance
spot. A hand ends by itself on 31, on 22 to 30 (lost), after a double's card
and on a split ace's card. Then the hole card is turned up and the
player-dealer draws by its chart while any result still depends on it (always
with a Buster bonus in play); then every wager is settled, the bank pays what
it can, and a Blazing 7's jackpot is announced for a supervisor to confirm.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from controller.games.buster_blackjack_x.bank import BANKED_SPOTS
from controller.games.buster_blackjack_x.rules import METER, BusterRules
from controller.games.buster_blackjack_x.seats import (
    HandCard,
    HandState,
    PlayerHand,
    SeatPlay,
    double_problem,
    split_problem,
    surrender_problem,
    who,
)
from controller.games.buster_blackjack_x.settlement import Settlement, payout_lines, settle
from controller.games.buster_blackjack_x.totals import (
    Count,
    count_cards,
    dealer_must_draw,
    dealer_standing,
    natural_of,
    player_standing,
    player_total,
    total_words,
)
from controller.games.interface import (
    Acted,
    CardsView,
    Dealt,
    Decision,
    GameEvent,
    Hand,
    HandView,
    MeterChanged,
    Option,
    Revealed,
    RuleError,
    SeatHandView,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.actions import Action, Actions, no_amount
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.money import dollars

Phase = Literal["dealing", "insurance", "players", "dealer", "complete"]

PHASES: tuple[Phase, ...] = ("dealing", "insurance", "players", "dealer", "complete")
FLOW = (("dealing", "insurance"), ("dealing", "players"), ("dealing", "complete"),
        ("insurance", "players"), ("insurance", "complete"), ("players", "dealer"),
        ("dealer", "complete"))
"""How a hand moves between its phases (a player-dealer natural ends it at the check)."""

NEXT_STATE: dict[str, HandState] = {"stand": "stood", "double": "doubling", "surrender": "surrendered"}
"""A hand's state after a decision that changes it."""


@dataclass(frozen=True)
class BusterHand(Hand):
    """One hand of Buster Blackjack X.

    ``dealer`` holds the player-dealer's cards (the up card, then the hole
    card); ``banker`` is the player-dealer's seat (None: the house banks) and
    ``bank`` its stack as the hand began; ``meter`` the Blazing 7's meter with
    this hand's wagers added (``meter_before`` without them); ``turn`` the
    (seat, hand index) deciding; ``hit_called`` that HIT was pressed (with
    ``hit_button``); ``settled`` the settlement once complete.
    """

    rules: BusterRules
    seats: tuple[SeatPlay, ...]
    banker: int | None = None
    bank: int = 0
    meter_before: int = 0
    meter: int = 0
    dealer: tuple[HandCard, ...] = ()
    hole_revealed: bool = False
    phase: Phase = "dealing"
    turn: tuple[int, int] | None = None
    hit_called: bool = False
    settled: Settlement | None = None

    # -- looking things up -------------------------------------------------------

    def seat_play(self, seat: int) -> SeatPlay:
        """The seat in play, or RuleError for a seat not in this hand."""
        for play in self.seats:
            if play.seat == seat:
                return play
        raise RuleError(f"seat {seat} is not in this hand")

    def in_turn(self) -> tuple[SeatPlay, PlayerHand] | None:
        """The seat and the hand whose turn it is, during the players' turns."""
        if self.turn is None or self.phase != "players":
            return None
        play = self.seat_play(self.turn[0])
        return play, play.hands[self.turn[1]]

    def up_card(self) -> Card | None:
        """The player-dealer's up card, once dealt."""
        return self.dealer[0].card if self.dealer else None

    def dealer_count(self, include_hole: bool) -> Count:
        """The player-dealer's count: of every card if ``include_hole``, else of the cards showing."""
        return count_cards(held.card for held in self.dealer
                           if include_hole or held.face_up or self.hole_revealed)

    def dealer_natural(self) -> str | None:
        """The player-dealer's two-card 31, if it holds one."""
        return natural_of([held.card for held in self.dealer])

    # -- the one question -------------------------------------------------------

    def next_target(self) -> Target | None:
        """Where the next card drawn from the shoe goes; None when no card may be drawn now."""
        if self.phase == "dealing":
            for round_cards in (0, 1):
                for play in self.seats:
                    if len(play.hands[0].cards) == round_cards:
                        return Target("seat", play.seat, 0, face_up=True)
                if len(self.dealer) == round_cards:
                    return Target("dealer", self.banker, 0, face_up=round_cards == 0)
        if self.phase == "players":
            found = self.in_turn()
            assert found is not None and self.turn is not None
            _, hand = found
            waiting = len(hand.cards) < 2 or hand.state == "doubling" or self.hit_called
            if waiting or not self.rules.hit_button:
                return Target("seat", self.turn[0], self.turn[1], face_up=True)
            return None
        if self.phase == "dealer":
            return Target("dealer", self.banker, 0, face_up=True)
        return None

    def options(self) -> dict[str, Option]:
        """The decisions allowed now, with the amount each takes."""
        if self.phase == "insurance" and self.turn is not None:
            play = self.seat_play(self.turn[0])
            return {"insurance": Option(1, play.base // 2, "insurance"), "next": Option()}
        found = self.in_turn()
        if found is None or self.hit_called:
            return {}
        play, hand = found
        if len(hand.cards) < 2 or hand.state != "playing":
            return {}
        allowed: dict[str, Option] = {"stand": Option()}
        if self.rules.hit_button:
            allowed["hit"] = Option()
        main = play.main_total()
        if double_problem(self.rules, hand) is None:
            allowed["double"] = Option(main + 1, main + play.base, "main")
        if split_problem(play, hand) is None:
            allowed["split"] = Option(main + play.base, main + play.base, "main")
        if surrender_problem(hand) is None:
            allowed["surrender"] = Option()
        return allowed

    def decision(self) -> Decision | None:
        """Who decides now, what they may do, where the next card goes; None once settled."""
        if self.phase == "complete":
            return None
        target = self.next_target()
        actions = self.options()
        seat = self.turn[0] if self.turn is not None and self.phase in ("insurance", "players") else None
        index = self.turn[1] if self.turn is not None and self.phase == "players" else 0
        return Decision(seat, index, actions, target, self._prompt(target, actions))

    def _prompt(self, target: Target | None, actions: Mapping[str, Option]) -> str:
        """The dealer's instruction for the decision."""
        if self.phase == "insurance" and self.turn is not None:
            high = actions["insurance"].high or 0
            return (f"Seat {self.turn[0]}: insurance? Up to {dollars(high)} on the insurance spot, "
                    "then press INSURANCE; or press NEXT for none")
        if self.phase == "players" and self.turn is not None:
            hand = who(self.seat_play(self.turn[0]), self.turn[1])
            if not actions:
                return f"Deal {hand} a card"
            press = ", ".join(name.upper() for name in actions)
            draw = "" if self.rules.hit_button else "draw a card to hit, or "
            return f"{hand.capitalize()}: {draw}press {press}"
        if target is not None and target.to == "dealer":
            way = "face up" if target.face_up else "face down"
            return f"Deal the player-dealer a card {way}"
        if target is not None:
            return f"Deal a card face up to seat {target.seat}"
        return "Wait"

    def results(self) -> tuple[WagerResult, ...] | None:
        """Every wager's result once the hand is complete."""
        return self.settled.results if self.settled is not None else None

    def house_result(self) -> int:
        """House-banked: every wager's. With a player-dealer the bank covers the base wagers and
        insurance, so the house has the bonus and Blazing 7's wagers, and the bank's collection fee."""
        if self.banker is None:
            return super().house_result()
        house = [r for r in self.results() or () if r.spot not in BANKED_SPOTS]
        return self.rules.collection_fee - sum(r.payout for r in house)

    # -- cards ------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now."""
        if self.phase == "complete":
            raise RuleError("the hand is settled: no more cards may be dealt")
        if self.phase == "insurance":
            raise RuleError("insurance first: each seat takes insurance or presses NEXT")
        if self.next_target() is None:
            raise RuleError("press HIT before drawing a card for the seat in turn")

    def deal(self, card: Card, index: int) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """Put ``card`` (shoe ``index``) where ``next_target()`` says; the events start with
        ``Dealt`` and go on with whatever the card brings about (the check, the next turn, the
        reveal, the settlement)."""
        self.verify_deal()
        target = self.next_target()
        assert target is not None
        held = HandCard(card, index, target.face_up)
        events: tuple[GameEvent, ...] = (Dealt(target, card, index),)
        if target.to == "dealer":
            hand = replace(self, dealer=(*self.dealer, held))
            if self.phase == "dealing":
                return hand._after_deal(events) if len(hand.dealer) == 2 else (hand, events)
            return hand._dealer_plays(events)
        assert target.seat is not None
        hand = self._with_card(target.seat, target.hand_index, held)
        if self.phase == "dealing":
            return hand, events
        return hand._next_turn(events)

    def _with_card(self, seat: int, index: int, held: HandCard) -> BusterHand:
        """This hand with ``held`` added to hand ``index`` of ``seat``, and that hand's state."""
        play = self.seat_play(seat)
        hand = play.hands[index]
        hits = hand.hits + (len(hand.cards) >= 2)
        grown = replace(hand, cards=(*hand.cards, held), hits=hits)
        if self.phase == "players":
            grown = replace(grown, state=self._state_after_card(grown))
        hands = tuple(grown if n == index else h for n, h in enumerate(play.hands))
        return replace(self, seats=self._replace_seat(replace(play, hands=hands)), hit_called=False)

    def _state_after_card(self, hand: PlayerHand) -> HandState:
        """A playing hand's state after a card: done on 31 or 22 and more, after a double's card
        and a split ace's card."""
        if hand.state == "doubling":
            return "doubled"
        if hand.split_aces and len(hand.cards) == 2:
            return "done"
        total = player_total(self.rules, hand.count())
        return "done" if total >= 22 else "playing"

    def _replace_seat(self, play: SeatPlay) -> tuple[SeatPlay, ...]:
        return tuple(play if other.seat == play.seat else other for other in self.seats)

    # -- decisions --------------------------------------------------------------

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError, in the dealer's words with amounts, unless ``action`` with ``amount``
        is allowed now."""
        found = ACTION_TABLE.find(action)
        if self.phase == "complete":
            raise RuleError("the hand is settled")
        if self.phase == "insurance" and action not in ("insurance", "next"):
            assert self.turn is not None
            raise RuleError(f"seat {self.turn[0]}: insurance first (INSURANCE, or NEXT for none)")
        found.verify(self, amount)

    def _playing(self) -> tuple[SeatPlay, PlayerHand, str]:
        """The seat and hand in turn in the players' turns, and who they are in words."""
        found = self.in_turn()
        if found is None:
            raise RuleError("no seat is in turn" if self.phase != "dealing"
                            else "the cards are still being dealt")
        play, hand = found
        return play, hand, who(play, self.turn[1] if self.turn else 0)

    def _deciding(self) -> tuple[SeatPlay, PlayerHand, str]:
        """The hand in turn, ready for a decision (not waiting for a card)."""
        play, hand, deciding = self._playing()
        if len(hand.cards) < 2 or hand.state == "doubling" or self.hit_called:
            raise RuleError(f"{deciding} is waiting for a card")
        return play, hand, deciding

    def verify_stand(self, amount: int | None = None) -> None:
        """Raise RuleError unless the hand in turn may stand."""
        self._deciding()
        no_amount("stand", amount)

    def verify_hit(self, amount: int | None = None) -> None:
        """Raise RuleError unless the hand in turn may press HIT (with ``hit_button``)."""
        self._deciding()
        if not self.rules.hit_button:
            raise RuleError("draw the card from the shoe: a card drawn is the hit")
        no_amount("hit", amount)

    def verify_double(self, amount: int | None = None) -> None:
        """Raise RuleError unless the hand in turn may double with the main spot at ``amount``."""
        play, hand, _ = self._deciding()
        self._verify_wager("double", play, hand, amount)

    def verify_split(self, amount: int | None = None) -> None:
        """Raise RuleError unless the hand in turn may split with the main spot at ``amount``."""
        play, hand, _ = self._deciding()
        self._verify_wager("split", play, hand, amount)

    def verify_surrender(self, amount: int | None = None) -> None:
        """Raise RuleError unless the hand in turn may surrender."""
        _, hand, deciding = self._deciding()
        no_amount("surrender", amount)
        problem = surrender_problem(hand)
        if problem is not None:
            raise RuleError(f"{deciding}: {problem}")

    def verify_insurance(self, amount: int | None = None) -> None:
        """Raise RuleError unless the seat asked about insurance may take ``amount`` of it."""
        if self.phase != "insurance":
            raise RuleError(f"insurance is not offered now: {self._playing()[2]} is playing")
        assert self.turn is not None
        play = self.seat_play(self.turn[0])
        high = play.base // 2
        if amount is None or amount <= 0:
            raise RuleError(f"seat {play.seat}: place the insurance wager (up to {dollars(high)}) "
                            "on the insurance spot first")
        if amount > high:
            raise RuleError(f"seat {play.seat}: insurance is at most {dollars(high)}, half the "
                            f"base wager; the insurance spot reads {dollars(amount)}")

    def verify_next(self, amount: int | None = None) -> None:
        """Raise RuleError unless the seat asked about insurance may take none (NEXT)."""
        if self.phase != "insurance":
            raise RuleError(f"next is not offered now: {self._playing()[2]} is playing")
        no_amount("next", amount)

    def _verify_wager(self, action: str, play: SeatPlay, hand: PlayerHand, amount: int | None) -> None:
        """A double's or a split's wager, read from the main spot: what the spot holds after it."""
        deciding = who(play, self.turn[1] if self.turn else 0)
        problem = double_problem(self.rules, hand) if action == "double" else split_problem(play, hand)
        if problem is not None:
            raise RuleError(f"{deciding}: {problem}")
        main = play.main_total()
        reads = amount if amount is not None else main
        added = reads - main
        if action == "split" and added != play.base:
            raise RuleError(f"seat {play.seat}: a split needs exactly {dollars(play.base)} more on the "
                            f"main spot (it should read {dollars(main + play.base)}, it reads "
                            f"{dollars(reads)})")
        if action == "double" and not 0 < added <= play.base:
            raise RuleError(f"seat {play.seat}: a double adds up to {dollars(play.base)} to the main "
                            f"spot (at most {dollars(main + play.base)} in all, more than "
                            f"{dollars(main)}); it reads {dollars(reads)}")

    def take(self, action: str, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """Take ``action`` (:meth:`verify` allowed it); the events start with its ``Acted`` record."""
        return ACTION_TABLE.take(self, action, amount)

    def hit(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """HIT pressed: the next card drawn goes to the hand in turn."""
        assert self.turn is not None
        return replace(self, hit_called=True), (Acted(self.turn[0], self.turn[1], "hit"),)

    def stand(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The hand in turn stands; the turn moves on."""
        return self._decide("stand", amount)

    def double(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The hand in turn doubles to the main spot's ``amount``; one card follows."""
        return self._decide("double", amount)

    def surrender(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The hand in turn surrenders; the turn moves on."""
        return self._decide("surrender", amount)

    def _decide(self, action: str, amount: int | None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """Stand, double or surrender: the hand in turn's new state (:data:`NEXT_STATE`)."""
        found = self.in_turn()
        assert found is not None and self.turn is not None
        play, hand = found
        index = self.turn[1]
        state = NEXT_STATE[action]
        extra = (amount or 0) - play.main_total() if action == "double" else 0
        changed = replace(hand, state=state, doubled=extra, wager=hand.wager + extra)
        hands = tuple(changed if n == index else h for n, h in enumerate(play.hands))
        moved = replace(self, seats=self._replace_seat(replace(play, hands=hands)))
        acted = Acted(play.seat, index, action, extra if action == "double" else None)
        if action == "double":
            return moved, (acted,)
        return moved._next_turn((acted,))

    def split(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The pair in turn becomes two hands, the new one last, each with the base wager."""
        found = self.in_turn()
        assert found is not None and self.turn is not None
        play, hand = found
        index = self.turn[1]
        first, second = hand.cards
        aces = first.card.rank == 1
        kept = PlayerHand((first,), play.base, split=True, split_aces=aces)
        moved = PlayerHand((second,), play.base, split=True, split_aces=aces)
        hands = (*(kept if n == index else h for n, h in enumerate(play.hands)), moved)
        split = replace(self, seats=self._replace_seat(replace(play, hands=hands)))
        return split, (Acted(play.seat, index, "split", play.base),)

    def insurance(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The seat asked takes ``amount`` of insurance."""
        return self._insure("insurance", amount)

    def next(self, amount: int | None = None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The seat asked takes no insurance."""
        return self._insure("next", amount)

    def _insure(self, action: str, amount: int | None) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        assert self.turn is not None
        play = self.seat_play(self.turn[0])
        wager = (amount or 0) if action == "insurance" else 0
        acted = Acted(play.seat, 0, "insurance" if wager else "no_insurance", wager or None)
        hand = replace(self, seats=self._replace_seat(replace(play, insurance=wager)))
        waiting = [p.seat for p in hand.seats if p.insurance is None]
        if waiting:
            return replace(hand, turn=(waiting[0], 0)), (acted,)
        return hand._check((acted,))

    # -- moving on by itself -----------------------------------------------------

    def _after_deal(self, events: tuple[GameEvent, ...]) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """Every card of the deal is out: naturals stand; insurance with an ace up; the check."""
        seats = tuple(
            replace(play, first_two=tuple(held.card for held in play.hands[0].cards),
                    hands=(replace(play.hands[0], state="done"),)
                    if play.hands[0].natural() is not None else play.hands)
            for play in self.seats
        )
        hand = replace(self, seats=seats)
        up = self.up_card()
        if up is not None and up.rank == 1 and self.rules.insurance:
            return replace(hand, phase="insurance", turn=(seats[0].seat, 0)), events
        return hand._check(events)

    def _check(self, events: tuple[GameEvent, ...]) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The hole card is checked: a player-dealer natural is turned up and settles the hand."""
        if self.dealer_natural() is not None:
            hand, revealed = self._reveal()
            return hand._settle((*events, *revealed))
        return replace(self, phase="players", turn=None)._next_turn(events)

    def _next_turn(self, events: tuple[GameEvent, ...]) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The turn goes to the first hand still playing; when none is, the player-dealer plays."""
        for play in self.seats:
            for index, held in enumerate(play.hands):
                if held.state in ("playing", "doubling"):
                    return replace(self, turn=(play.seat, index)), events
        hand, revealed = self._reveal()
        return hand._dealer_plays((*events, *revealed))

    def _reveal(self) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        hole = self.dealer[1]
        revealed = Revealed("dealer", self.banker, 0, hole.card, hole.index)
        return replace(self, phase="dealer", turn=None, hole_revealed=True), (revealed,)

    def _dealer_plays(self, events: tuple[GameEvent, ...]) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """The player-dealer draws while its chart says so and any result depends on it."""
        if self._dealer_matters() and dealer_must_draw(self.rules, self.dealer_count(True)):
            return self, events
        return self._settle(events)

    def _dealer_matters(self) -> bool:
        """Whether any result still depends on the player-dealer's next cards: a Buster bonus in
        play, or a hand of 21 or less or a 31 that is not a natural."""
        for play in self.seats:
            if play.bonus:
                return True
            for hand in play.hands:
                standing = player_standing(self.rules, hand.count(), hand.natural(),
                                           hand.state == "surrendered")
                if standing.kind in ("total", "31"):
                    return True
        return False

    def _settle(self, events: tuple[GameEvent, ...]) -> tuple[BusterHand, tuple[GameEvent, ...]]:
        """Every wager settled (:func:`~controller.games.buster_blackjack_x.settlement.settle`)."""
        up = self.up_card()
        assert up is not None
        dealer = dealer_standing(self.rules, self.dealer_count(True), self.dealer_natural())
        settled = settle(self.rules, self.seats, dealer, up, self.meter, self.banker, self.bank)
        done = replace(self, phase="complete", turn=None, settled=settled, meter=settled.meter)
        return done, (*events, *settled.events, Settled(settled.results))

    # -- what the table checks and shows ---------------------------------------

    def committed(self) -> Mapping[tuple[int, str], int]:
        """What each spot holds now: the base with every double and split on ``main``, the bonus,
        Blazing 7's and insurance as placed. Losing chips are collected after settlement."""
        held: dict[tuple[int, str], int] = {}
        for play in self.seats:
            held[(play.seat, "main")] = play.main_total()
            for spot, amount in (("side", play.bonus), ("progressive", play.progressive),
                                 ("insurance", play.insurance or 0)):
                if amount:
                    held[(play.seat, spot)] = amount
        return held

    def view(self) -> HandView:
        """The hand as the pit and the display may see it; the hole card is None until revealed."""
        rules = self.rules
        showing = tuple(str(held.card) if held.face_up or self.hole_revealed else None
                        for held in self.dealer)
        dealer_natural = self.dealer_natural() if self.hole_revealed else None
        dealer = CardsView(showing, total_words(rules, self.dealer_count(False), dealer_natural, True))
        seats = tuple(
            SeatHandView(play.seat, tuple(
                CardsView(tuple(str(held.card) for held in hand.cards),
                          total_words(rules, hand.count(), hand.natural(), False),
                          hand.wager, _status(hand))
                for hand in play.hands), in_turn=self.turn is not None and self.turn[0] == play.seat
                and self.phase in ("insurance", "players"))
            for play in self.seats
        )
        payouts = () if self.settled is None else payout_lines(self.rules, self.settled, self.banker,
                                                                  self.bank)
        return HandView(self.phase, seats, dealer, self.banker, payouts=payouts)

    def void(self) -> tuple[GameEvent, ...]:
        """A misdeal: the hole card is turned up if it was dealt, and the Blazing 7's wagers, which
        are returned, come off the meter again."""
        events: list[GameEvent] = []
        if len(self.dealer) > 1 and not self.hole_revealed:
            hole = self.dealer[1]
            events.append(Revealed("dealer", self.banker, 0, hole.card, hole.index))
        if self.meter != self.meter_before:
            events.append(MeterChanged(METER, self.meter_before))
        return tuple(events)


def _status(hand: PlayerHand) -> str | None:
    return {"stood": "stood", "doubled": "doubled", "doubling": "doubled",
            "surrendered": "surrendered"}.get(hand.state)


ACTION_TABLE: Actions[BusterHand] = Actions("Buster Blackjack X", {
    "stand": Action(BusterHand.verify_stand, BusterHand.stand, "Stand"),
    "hit": Action(BusterHand.verify_hit, BusterHand.hit, "Hit"),
    "double": Action(BusterHand.verify_double, BusterHand.double, "Double down"),
    "split": Action(BusterHand.verify_split, BusterHand.split, "Split"),
    "surrender": Action(BusterHand.verify_surrender, BusterHand.surrender, "Surrender"),
    "insurance": Action(BusterHand.verify_insurance, BusterHand.insurance, "Insurance"),
    "next": Action(BusterHand.verify_next, BusterHand.next, "Next"),
})
"""Every decision a hand may offer (``next``: no insurance for the seat asked), with the methods
that verify and take it."""

ACTIONS = ACTION_TABLE.names
"""Every decision's name."""
