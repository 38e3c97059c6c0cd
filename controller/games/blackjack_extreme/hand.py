"""One hand of Blackjack Extreme: frozen, with ``verify_x()`` / ``x()`` per action.

The phases, in order (``docs/games/blackjack-extreme.md`` says it in words):

- ``blinds``: the blinds are in. Any player may ask for the dealer's chip
  count; a player the dealer cannot pay the minimum may decline. The first
  card dealt closes it.
- ``dealing``: one card down to each player from the dealer's left, the
  dealer's first card down, one card up to each player, the dealer's second
  card down.
- ``upcard``: the dealer turns up the card of her choice (``turn_up`` 1 or 2).
- ``betting``: from the dealer's left, each player checks, raises (the main
  spot to at least double the blind, at most the stack) or folds (keeping half
  the blind).
- ``dealer_choice``: the dealer surrenders (half the blind to every player
  still in) or plays; on ``play`` the players' down cards are turned up and
  naturals are done.
- ``players``: from the dealer's left, each hand in turn takes cards (a card
  from the shoe is a hit), stands or splits; raised hands must take a card.
- ``dealer``: the dealer's hole card is turned up and she draws by her rule.
- ``paying``: only when the dealer cannot pay every winner in full: in a ring
  game she re-buys to cover or leaves; then the dealer is walked through the
  short-stack payment order, one line per ``next``.
- ``complete``: settled.

A card drawn from the shoe goes where :meth:`decision` says. Amounts are cents.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

from controller.games.blackjack_extreme.payments import Claim, Line, owed_in_full, paid, plan
from controller.games.blackjack_extreme.play import (
    BLACKJACK,
    DealerMove,
    dealer_rule,
    half,
    hand_outcome,
    natural_pays,
)
from controller.games.blackjack_extreme.play import count as count_of
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.blackjack_extreme.seats import Held, PlayHand, SeatPlay
from controller.games.blackjack_extreme.words import prompt, public_view
from controller.games.interface import (
    Acted,
    Dealt,
    Decision,
    GameEvent,
    Hand,
    HandView,
    Option,
    Revealed,
    RuleError,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.money import dollars
from firmware_bridge.cards import Card

Phase = Literal["blinds", "dealing", "upcard", "betting", "dealer_choice", "players", "dealer",
                "paying", "complete"]
PHASES: tuple[Phase, ...] = ("blinds", "dealing", "upcard", "betting", "dealer_choice", "players",
                             "dealer", "paying", "complete")
FLOW: tuple[tuple[Phase, Phase], ...] = (
    ("blinds", "dealing"), ("blinds", "complete"),
    ("dealing", "upcard"), ("dealing", "betting"), ("upcard", "betting"),
    ("betting", "dealer_choice"), ("betting", "paying"), ("betting", "complete"),
    ("dealer_choice", "players"), ("dealer_choice", "dealer"), ("dealer_choice", "paying"),
    ("dealer_choice", "complete"),
    ("players", "dealer"), ("dealer", "paying"), ("dealer", "complete"), ("paying", "complete"),
)
"""How a hand moves between its phases: everyone declining ends it at once; an up card already
shown by mistake skips the choice; all folded, or a surrender, settles before play; a table of
naturals goes straight to the dealer's reveal."""

ACTIONS = ("count", "decline", "turn_up", "check", "raise", "fold", "surrender", "play", "hit",
           "stand", "split", "expose", "rebuy", "leave")
"""Every action of a hand; ``next`` walks the short-stack payments."""

Moved = tuple["BlackjackExtremeHand", tuple[GameEvent, ...]]
"""A hand after a card or an action, and the events it brought."""

SPOT = "main"
"""The spot that holds all of a seat's chips in play: blind, raise, and every split hand's bet."""


@dataclass(frozen=True)
class BlackjackExtremeHand(Hand):
    """One hand: the players clockwise from the dealer's left, the dealer's cards, where play stands.

    ``dealer_stack`` is the dealer's stack at the start (what she can pay out
    besides what she collects); ``required`` the seats that had to play;
    ``claims``/``lines`` the results and payment lines once known, ``confirmed``
    the short-stack payment steps done.
    """

    rules: BlackjackExtremeRules
    minimum: int
    dealer_seat: int
    dealer_stack: int
    required: tuple[int, ...]
    seats: tuple[SeatPlay, ...]
    dealer: tuple[Held, ...] = ()
    phase: Phase = "blinds"
    hit_called: bool = False
    surrendered: bool = False
    dealer_stood: bool = False
    rebought: int = 0
    dealer_left: bool = False
    claims: tuple[Claim, ...] = ()
    lines: tuple[Line, ...] = ()
    confirmed: int = 0
    settlement: tuple[WagerResult, ...] | None = None

    # -- where things stand -------------------------------------------------------

    def seat(self, number: int) -> SeatPlay:
        """The seat ``number`` in this hand; raises RuleError if it is not in it."""
        for seat in self.seats:
            if seat.seat == number:
                return seat
        raise RuleError(f"seat {number} is not in this hand")

    def playing(self) -> tuple[SeatPlay, ...]:
        """The seats still in the hand, clockwise."""
        return tuple(seat for seat in self.seats if seat.playing)

    def betting_turn(self) -> SeatPlay | None:
        """The seat to act in the betting round, if any."""
        return next((seat for seat in self.playing() if not seat.acted), None)

    def play_turn(self) -> tuple[SeatPlay, int] | None:
        """The seat and hand index in turn while players take cards, if any."""
        for seat in self.playing():
            for index, hand in enumerate(seat.hands):
                if not hand.done:
                    return seat, index
        return None

    def dealer_count(self, shown_only: bool = False) -> tuple[int, ...]:
        """The points of the dealer's cards (only those shown, with ``shown_only``)."""
        return tuple(held.points for held in self.dealer if held.shown or not shown_only)

    def heads_up_losing(self) -> bool:
        """Whether the dealer may draw to a losing hard 17 to 20: ``heads_up_draw`` is on, only
        one player has hands the dealer's cards can still change, and one of them beats hers."""
        if not self.rules.heads_up_draw:
            return False
        live = [seat for seat in self.seats if seat.live()]
        if len(live) != 1:
            return False
        mine = count_of(self.dealer_count()).points
        return any(h.total(live[0].raised).points > mine for h in live[0].live())

    def steps(self) -> int:
        """The short-stack payment steps: each line, and one for the pull-back if anyone is unpaid."""
        return len(self.lines) + (1 if self.unpaid() else 0)

    def unpaid(self) -> tuple[Claim, ...]:
        """The winning claims the lines leave short: their players pull back their bets."""
        net = paid(self.claims, self.lines)
        return tuple(c for c in self.claims if c.owed > 0 and net[(c.seat, c.hand_index)] < c.owed)

    # -- the one question ---------------------------------------------------------

    def deal_target(self) -> Target | None:
        """Where the next card of the first deal goes (None once it is dealt)."""
        for round_ in (0, 1):
            for seat in self.playing():
                if len(seat.hands[0].cards) <= round_:
                    return Target("seat", seat.seat, 0, face_up=round_ == 1)
            if len(self.dealer) <= round_:
                return Target("dealer", self.dealer_seat, 0, face_up=False)
        return None

    def card_target(self) -> Target | None:
        """Where a card drawn from the shoe goes now (None: no card may be drawn)."""
        if self.phase in ("blinds", "dealing"):
            return self.deal_target()
        if self.phase == "players":
            turn = self.play_turn()
            if turn is None:
                return None
            seat, index = turn
            hand = seat.hands[index]
            if hand.total(seat.raised).points >= BLACKJACK:
                return None
            return Target("seat", seat.seat, index, face_up=True)
        if self.phase == "dealer" and self.dealer_move() != "stand":
            return Target("dealer", self.dealer_seat, 0, face_up=True)
        return None

    def decision(self) -> Decision | None:
        """Who decides now, what they may do, and where a card drawn now goes; None once settled."""
        if self.phase == "complete":
            return None
        target = self.card_target()
        actions = self._actions()
        seat = self.decider()
        index = 0
        turn = self.play_turn() if self.phase == "players" else None
        if turn is not None:
            index = turn[1]
        return Decision(seat, index, actions, target, prompt(self, target))

    def decider(self) -> int | None:
        """The seat whose decision the hand waits for: the player in turn, the dealer on her
        choices and draws; None while only a card or the house dealer's NEXT is awaited."""
        if self.phase in ("upcard", "dealer_choice", "dealer"):
            return self.dealer_seat
        if self.phase == "betting":
            turn = self.betting_turn()
            return turn.seat if turn is not None else None
        if self.phase == "players":
            play = self.play_turn()
            return play[0].seat if play is not None else None
        if self.phase == "paying" and self.choice_pending():
            return self.dealer_seat
        return None

    def _actions(self) -> dict[str, Option]:
        """The actions allowed now, each with its amount's range."""
        actions: dict[str, Option] = {}
        phase = self.phase
        if phase == "blinds":
            seats = [seat.seat for seat in self.playing()]
            actions["count"] = Option(min(seats), max(seats))
            free = [seat for seat in seats if seat not in self.required]
            if free:
                actions["decline"] = Option(min(free), max(free))
        elif phase == "upcard":
            actions["turn_up"] = Option(1, 2)
        elif phase == "betting":
            turn = self.betting_turn()
            assert turn is not None
            actions["check"] = Option()
            if turn.stack >= 2 * turn.blind:
                actions["raise"] = Option(2 * turn.blind, turn.stack, SPOT)
            actions["fold"] = Option()
        elif phase == "dealer_choice":
            actions["surrender"] = Option()
            actions["play"] = Option()
        elif phase in ("players", "dealer"):
            actions.update(self.play_actions())
        elif phase == "paying":
            if self.choice_pending():
                actions["rebuy"] = Option(self.shortfall(), None)
                actions["leave"] = Option()
            else:
                actions["next"] = Option()
        exposable = self._exposable()
        if exposable and phase not in ("paying", "complete"):
            actions["expose"] = Option(min(exposable), max(exposable))
        return actions

    def play_actions(self) -> dict[str, Option]:
        """The hand in turn's (or the drawing dealer's) actions: hit, stand where allowed, split."""
        actions: dict[str, Option] = {}
        can_card = self.card_target() is not None
        if can_card and not self.hit_called:
            actions["hit"] = Option()
        if self.phase == "dealer":
            if self.dealer_move() == "choose" and not self.hit_called:
                actions["stand"] = Option()
            return actions
        turn = self.play_turn()
        assert turn is not None
        seat, index = turn
        hand = seat.hands[index]
        if self.hit_called or len(hand.cards) < 2:
            return actions
        if hand.drew or not seat.raised or hand.split:
            actions["stand"] = Option()
        if self.may_split(seat, hand):
            total = seat.staked() + seat.hands[0].wager
            actions["split"] = Option(total, total, SPOT)
        return actions

    @staticmethod
    def may_split(seat: SeatPlay, hand: PlayHand) -> bool:
        """Whether ``hand`` is a pair and the seat's stack covers one more bet (table stakes)."""
        cards = hand.cards
        return (len(cards) == 2 and cards[0].card.rank == cards[1].card.rank
                and seat.staked() + seat.hands[0].wager <= seat.stack)

    def _exposable(self) -> list[int]:
        """The seats with a face-down card that ``expose`` may turn up now."""
        seats = [seat.seat for seat in self.seats
                 if any(not held.shown for hand in seat.hands for held in hand.cards)]
        hidden = [held for held in self.dealer if not held.shown]
        if len(hidden) == 1 and self.phase != "upcard":
            seats.append(self.dealer_seat)
        return sorted(seats)

    def dealer_move(self) -> DealerMove:
        """What the dealer's cards allow now: must hit, may choose, or must (or did) stand."""
        if self.dealer_stood:
            return "stand"
        return dealer_rule(count_of(self.dealer_count()), self.heads_up_losing())

    def choice_pending(self) -> bool:
        """A ring game's dealer who cannot pay in full has not yet chosen to re-buy or leave."""
        return (self.phase == "paying" and not self.rules.tournament and not self.dealer_left
                and self.rebought == 0)

    def shortfall(self) -> int:
        """What the dealer lacks to pay every winner in full, once the losers are collected."""
        claims = self.claims
        return max(0, owed_in_full(claims) - self.dealer_stack - self.rebought
                   - sum(-c.owed for c in claims if c.owed < 0))

    def results(self) -> tuple[WagerResult, ...] | None:
        """Every wager's result once the hand is settled."""
        return self.settlement

    def house_result(self) -> int:
        """Nothing: the players bank each other and the house only deals."""
        return 0

    # -- cards ----------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now, saying what the hand waits for."""
        if self.card_target() is None:
            decision = self.decision()
            waiting = decision.prompt if decision is not None else "the hand is settled"
            raise RuleError(f"no card now: {waiting}")

    def deal(self, card: Card, index: int) -> Moved:
        """Put ``card`` (shoe ``index``) where the decision says; the events start with ``Dealt``."""
        self.verify_deal()
        target = self.card_target()
        assert target is not None
        held = Held(card, index, target.face_up)
        hand = replace(self, hit_called=False, phase="dealing" if self.phase == "blinds" else self.phase)
        if target.to == "dealer":
            hand = replace(hand, dealer=(*hand.dealer, held))
        else:
            assert target.seat is not None
            hand = hand._with_hand(target.seat, target.hand_index, lambda h: _add(h, held, self.phase))
        hand, events = hand._progress()
        return hand, (Dealt(target, card, index), *events)

    def _with_hand(self, seat_number: int, index: int,
                   change: Callable[[PlayHand], PlayHand]) -> BlackjackExtremeHand:
        seats = []
        for seat in self.seats:
            if seat.seat == seat_number:
                hands = list(seat.hands)
                hands[index] = change(hands[index])
                hands[index] = _settle_hand(hands[index], seat.raised) if self.phase == "players" \
                    else hands[index]
                seat = replace(seat, hands=tuple(hands))
            seats.append(seat)
        return replace(self, seats=tuple(seats))

    def _with_seat(self, seat_number: int, **changes: Any) -> BlackjackExtremeHand:
        seats = tuple(replace(seat, **changes) if seat.seat == seat_number else seat
                      for seat in self.seats)
        return replace(self, seats=seats)

    # -- actions --------------------------------------------------------------------

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError unless ``action`` with ``amount`` is allowed now, saying why."""
        if action not in (*ACTIONS, "next"):
            raise RuleError(f"Blackjack Extreme has no {action!r}")
        if self.phase == "complete":
            raise RuleError("the hand is settled")
        getattr(self, f"verify_{action}")(amount)

    def act(self, action: str, amount: int | None = None) -> Moved:
        """Take ``action`` (after :meth:`verify`); the events start with its ``Acted`` record."""
        self.verify(action, amount)
        taken: Moved = getattr(self, "raise_" if action == "raise" else action)(amount)
        return taken

    def _offered(self, action: str) -> Option:
        option = self._actions().get(action)
        if option is None:
            raise RuleError(self._not_now(action))
        return option

    def _not_now(self, action: str) -> str:
        decision = self.decision()
        waiting = decision.prompt if decision is not None else "the hand is settled"
        return f"no {action} now: {waiting}"

    @staticmethod
    def _no_amount(action: str, amount: int | None) -> None:
        if amount is not None:
            raise RuleError(f"{action} takes no amount")

    # blinds: chip count and declining

    def verify_count(self, amount: int | None) -> None:
        """A chip count for seat ``amount``, a player in this hand, before the first card."""
        self._offered("count")
        seat = self._seat_amount("count", amount)
        if not seat.playing:
            raise RuleError(f"seat {seat.seat} has declined this hand")

    def count(self, amount: int | None) -> Moved:
        """Seat ``amount`` asks for the dealer's chip count: the event carries the count."""
        assert amount is not None
        return self, (Acted(amount, 0, "count", self.dealer_stack),)

    def verify_decline(self, amount: int | None) -> None:
        """Seat ``amount`` may decline: it is in the hand and the dealer cannot pay it the minimum."""
        self._offered("decline")
        seat = self._seat_amount("decline", amount)
        if not seat.playing:
            raise RuleError(f"seat {seat.seat} has already declined")
        if seat.seat in self.required:
            raise RuleError(f"seat {seat.seat} must play: the dealer's {dollars(self.dealer_stack)} "
                            f"pays it at least the {dollars(self.minimum)} minimum")

    def decline(self, amount: int | None) -> Moved:
        """Seat ``amount`` takes its blind back and sits this hand out."""
        assert amount is not None
        hand = self._with_seat(amount, state="declined")
        hand, events = hand._progress()
        return hand, (Acted(amount, 0, "decline", self.seat(amount).blind), *events)

    def _seat_amount(self, action: str, amount: int | None) -> SeatPlay:
        if amount is None:
            raise RuleError(f"{action} needs the seat number as its amount")
        return self.seat(amount)

    # the dealer's up card

    def verify_turn_up(self, amount: int | None) -> None:
        """The dealer turns up her card 1 or 2."""
        self._offered("turn_up")
        if amount not in (1, 2):
            raise RuleError("turn_up takes 1 (the dealer's first card) or 2 (her second)")

    def turn_up(self, amount: int | None) -> Moved:
        """The dealer's card ``amount`` is shown: ``Acted`` and its ``Revealed``."""
        assert amount is not None
        hand, shown = self._show_dealer(amount - 1)
        hand = replace(hand, phase="betting")
        hand, events = hand._progress()
        return hand, (Acted(self.dealer_seat, 0, "turn_up", amount), shown, *events)

    def _show_dealer(self, position: int) -> tuple[BlackjackExtremeHand, Revealed]:
        held = self.dealer[position]
        dealer = tuple(replace(h, shown=True) if i == position else h for i, h in enumerate(self.dealer))
        return replace(self, dealer=dealer), Revealed("dealer", self.dealer_seat, 0, held.card, held.index)

    # the second betting round

    def verify_check(self, amount: int | None) -> None:
        """The seat in turn plays its blind only."""
        self._offered("check")
        self._no_amount("check", amount)

    def check(self, amount: int | None) -> Moved:
        """The seat in turn checks."""
        seat = self.betting_turn()
        assert seat is not None
        hand, events = self._with_seat(seat.seat, acted=True)._progress()
        return hand, (Acted(seat.seat, 0, "check"), *events)

    def verify_raise(self, amount: int | None) -> None:
        """The main spot must now hold at least double the blind and no more than the stack."""
        option = self._offered("raise")
        seat = self.betting_turn()
        assert seat is not None and option.low is not None
        if amount is None:
            raise RuleError(f"seat {seat.seat}: a raise is read from the main spot")
        if amount < option.low:
            raise RuleError(f"seat {seat.seat}: a raise makes the bet at least {dollars(option.low)} "
                            f"(double the {dollars(seat.blind)} blind); the spot reads {dollars(amount)}")
        if amount > seat.stack:
            raise RuleError(f"seat {seat.seat}: table stakes, the bet may be at most the stack "
                            f"{dollars(seat.stack)}; the spot reads {dollars(amount)}")

    def raise_(self, amount: int | None) -> Moved:
        """The seat in turn raises its bet to ``amount`` (the main spot's total)."""
        assert amount is not None
        seat = self.betting_turn()
        assert seat is not None
        first = replace(seat.hands[0], wager=amount)
        hand = self._with_seat(seat.seat, acted=True, raised=True, hands=(first, *seat.hands[1:]))
        hand, events = hand._progress()
        return hand, (Acted(seat.seat, 0, "raise", amount), *events)

    def verify_fold(self, amount: int | None) -> None:
        """The seat in turn gives up, keeping half its blind."""
        self._offered("fold")
        self._no_amount("fold", amount)

    def fold(self, amount: int | None) -> Moved:
        """The seat in turn folds: the dealer takes half the blind, the player the rest."""
        seat = self.betting_turn()
        assert seat is not None
        hand, events = self._with_seat(seat.seat, acted=True, state="folded")._progress()
        return hand, (Acted(seat.seat, 0, "fold", half(seat.blind)), *events)

    # the dealer's choice

    def verify_surrender(self, amount: int | None) -> None:
        """The dealer may surrender after the betting round."""
        self._offered("surrender")
        self._no_amount("surrender", amount)

    def surrender(self, amount: int | None) -> Moved:
        """The dealer folds: each player still in is paid half its blind; raises come back."""
        hand, events = replace(self, surrendered=True)._settle()
        return hand, (Acted(self.dealer_seat, 0, "surrender"), *events)

    def verify_play(self, amount: int | None) -> None:
        """The dealer may play after the betting round."""
        self._offered("play")
        self._no_amount("play", amount)

    def play(self, amount: int | None) -> Moved:
        """The dealer plays: the players turn their down cards up; naturals are done."""
        events: list[GameEvent] = [Acted(self.dealer_seat, 0, "play")]
        seats = []
        for seat in self.seats:
            if seat.playing:
                first = seat.hands[0]
                for held in first.cards:
                    if not held.shown:
                        events.append(Revealed("seat", seat.seat, 0, held.card, held.index))
                cards = tuple(replace(held, shown=True) for held in first.cards)
                first = replace(first, cards=cards)
                seat = replace(seat, hands=(first, *seat.hands[1:]))
                if seat.natural():
                    seat = replace(seat, hands=(replace(first, done=True),))
            seats.append(seat)
        hand, more = replace(self, seats=tuple(seats), phase="players")._progress()
        return hand, (*events, *more)

    # the players' turns and the dealer's draws

    def verify_hit(self, amount: int | None) -> None:
        """The hand in turn asks for a card: only a card may follow."""
        self._offered("hit")
        self._no_amount("hit", amount)

    def hit(self, amount: int | None) -> Moved:
        """The hand in turn (or the dealer) says hit; the next card drawn is its."""
        decision = self.decision()
        assert decision is not None and decision.seat is not None
        return replace(self, hit_called=True), (Acted(decision.seat, decision.hand_index, "hit"),)

    def verify_stand(self, amount: int | None) -> None:
        """The hand in turn stands (a raised hand only after a card), or the dealer where she may."""
        if "stand" not in self._actions():
            if self.phase == "players":
                turn = self.play_turn()
                assert turn is not None
                seat, index = turn
                if seat.raised and not seat.hands[index].drew and len(seat.hands[index].cards) >= 2:
                    raise RuleError(f"seat {seat.seat} raised: its hand must take at least one card")
            raise RuleError(self._not_now("stand"))
        self._no_amount("stand", amount)

    def stand(self, amount: int | None) -> Moved:
        """The hand in turn (or the dealer) stands."""
        if self.phase == "dealer":
            hand, events = replace(self, dealer_stood=True)._progress()
            return hand, (Acted(self.dealer_seat, 0, "stand"), *events)
        turn = self.play_turn()
        assert turn is not None
        seat, index = turn
        hand = self._with_hand(seat.seat, index, lambda h: replace(h, done=True))
        hand, events = hand._progress()
        return hand, (Acted(seat.seat, index, "stand"), *events)

    def verify_split(self, amount: int | None) -> None:
        """The hand in turn is a pair: the main spot must now hold one more bet equal to the first."""
        option = self._offered("split")
        turn = self.play_turn()
        assert turn is not None and option.low is not None
        seat = turn[0]
        if amount != option.low:
            reads = "nothing" if amount is None else dollars(amount)
            raise RuleError(f"seat {seat.seat}: a split adds {dollars(seat.hands[0].wager)}, so the spot "
                            f"must read {dollars(option.low)}; it reads {reads}")

    def split(self, amount: int | None) -> Moved:
        """The pair in turn becomes two hands, the new one last, each with the whole bet."""
        turn = self.play_turn()
        assert turn is not None
        seat, index = turn
        hand = seat.hands[index]
        bet = seat.hands[0].wager
        kept = replace(hand, cards=hand.cards[:1], split=True, drew=False)
        new = PlayHand(cards=hand.cards[1:], wager=bet, split=True)
        hands = (*seat.hands[:index], kept, *seat.hands[index + 1:], new)
        after = self._with_seat(seat.seat, hands=hands)
        return after, (Acted(seat.seat, index, "split", bet),)

    # a card turned up by mistake

    def verify_expose(self, amount: int | None) -> None:
        """Seat ``amount`` (the dealer's seat for her hole card) has a face-down card shown by mistake."""
        self._offered("expose")
        if amount is None or amount not in self._exposable():
            if amount == self.dealer_seat:
                raise RuleError("the dealer has two cards down: turn_up the one that shows")
            raise RuleError(f"seat {amount} has no card face down")

    def expose(self, amount: int | None) -> Moved:
        """The card is public from now on and the hand plays on as dealt."""
        assert amount is not None
        if amount == self.dealer_seat:
            position = next(i for i, held in enumerate(self.dealer) if not held.shown)
            hand, shown = self._show_dealer(position)
            hand, events = hand._progress()
            return hand, (Acted(amount, 0, "expose"), shown, *events)
        seat = self.seat(amount)
        revealed: list[GameEvent] = []
        hands = []
        for index, held_hand in enumerate(seat.hands):
            cards = []
            for held in held_hand.cards:
                if not held.shown:
                    revealed.append(Revealed("seat", amount, index, held.card, held.index))
                    held = replace(held, shown=True)
                cards.append(held)
            hands.append(replace(held_hand, cards=tuple(cards)))
        hand = self._with_seat(amount, hands=tuple(hands))
        hand, events = hand._progress()
        return hand, (Acted(amount, 0, "expose"), *revealed, *events)

    # a short-stacked dealer

    def verify_rebuy(self, amount: int | None) -> None:
        """A ring game's dealer re-buys at least what she lacks to pay in full."""
        self._offered("rebuy")
        if amount is None or amount < self.shortfall():
            raise RuleError(f"the dealer must re-buy at least {dollars(self.shortfall())} to pay in full")

    def rebuy(self, amount: int | None) -> Moved:
        """The dealer re-buys ``amount`` and pays everyone in full."""
        assert amount is not None
        hand, events = replace(self, rebought=amount)._settle()
        return hand, (Acted(self.dealer_seat, 0, "rebuy", amount), *events)

    def verify_leave(self, amount: int | None) -> None:
        """A ring game's dealer may leave instead of re-buying."""
        self._offered("leave")
        self._no_amount("leave", amount)

    def leave(self, amount: int | None) -> Moved:
        """The dealer leaves the game: winners are paid in the short-stack order as far as she can."""
        return replace(self, dealer_left=True), (Acted(self.dealer_seat, 0, "leave"),)

    def verify_next(self, amount: int | None) -> None:
        """The payment line on the display is done."""
        self._offered("next")
        self._no_amount("next", amount)

    def next(self, amount: int | None) -> Moved:
        """One short-stack payment step done; after the last, the hand is settled."""
        step = self.confirmed
        events: list[GameEvent] = []
        if step < len(self.lines):
            line = self.lines[step]
            if line.seat is None:
                events.append(Acted(self.dealer_seat, 0, "collect", line.amount))
            else:
                events.append(Acted(line.seat, line.hand_index, "paid", line.amount))
        else:
            events.extend(Acted(c.seat, c.hand_index, "pull_back", c.wager) for c in self.unpaid())
        hand = replace(self, confirmed=step + 1)
        if hand.confirmed >= hand.steps():
            hand, more = hand._complete()
            events.extend(more)
        return hand, tuple(events)

    # -- what the table checks and shows ------------------------------------------

    def committed(self) -> Mapping[tuple[int, str], int]:
        """What each main spot should hold now: the blind, then the raised bet and split bets; a
        declined or folded seat's spot empties; once results are known, losers are collected,
        winners are paid line by line (the line on the display included) and the unpaid pull back."""
        if self.claims:
            return self._committed_paying()
        held: dict[tuple[int, str], int] = {}
        for seat in self.seats:
            if seat.playing:
                held[(seat.seat, SPOT)] = seat.staked()
        return held

    def _committed_paying(self) -> dict[tuple[int, str], int]:
        current = self.confirmed if self.phase == "paying" and not self.choice_pending() else (
            -1 if self.phase == "paying" else len(self.lines))
        net = paid(self.claims, self.lines[: current + 1])
        pulled = current >= len(self.lines)
        held: dict[tuple[int, str], int] = {}
        for claim in self.claims:
            key = (claim.seat, SPOT)
            amount = 0
            if claim.owed == 0:
                amount = claim.wager
            elif claim.owed > 0 and not (pulled and claim in self.unpaid()):
                amount = claim.wager + net[(claim.seat, claim.hand_index)]
            held[key] = held.get(key, 0) + amount
        return held

    def view(self) -> HandView:
        """What the public may see now (:func:`~controller.games.blackjack_extreme.words.public_view`)."""
        return public_view(self)

    def void(self) -> tuple[GameEvent, ...]:
        """A misdeal: every face-down card is turned up before the cards are mucked."""
        events: list[GameEvent] = []
        for seat in self.seats:
            for index, hand in enumerate(seat.hands):
                events.extend(Revealed("seat", seat.seat, index, h.card, h.index)
                              for h in hand.cards if not h.shown)
        events.extend(Revealed("dealer", self.dealer_seat, 0, h.card, h.index)
                      for h in self.dealer if not h.shown)
        return tuple(events)

    # -- moving on by itself ------------------------------------------------------

    def _progress(self) -> Moved:
        """Move on as far as the rules go without a card or a decision."""
        hand = self
        if hand.phase in ("blinds", "dealing") and not hand.playing():
            return hand._settle()
        if hand.phase == "dealing" and hand.deal_target() is None:
            shown = any(held.shown for held in hand.dealer)
            hand = replace(hand, phase="betting" if shown else "upcard")
        if hand.phase == "betting" and hand.betting_turn() is None:
            if not hand.playing():
                return hand._settle()
            hand = replace(hand, phase="dealer_choice")
        if hand.phase == "players" and hand.play_turn() is None:
            return hand._dealer_turn()
        if hand.phase == "dealer" and (hand.dealer_move() == "stand"
                                       or not any(seat.live() for seat in hand.seats)):
            return hand._settle()
        return hand, ()

    def _dealer_turn(self) -> Moved:
        """The players are done: the dealer's face-down card is turned up, and she plays if any
        result still depends on her cards."""
        hand = replace(self, phase="dealer")
        events: list[GameEvent] = []
        for position, held in enumerate(self.dealer):
            if not held.shown:
                hand, shown = hand._show_dealer(position)
                events.append(shown)
        if not any(seat.live() for seat in hand.seats) or hand.dealer_move() == "stand":
            hand, more = hand._settle()
            events.extend(more)
        return hand, tuple(events)

    def _settle(self) -> Moved:
        """The results are known: the claims and payment lines; settled at once if the dealer
        pays everyone in full, else the short-stack payments."""
        claims = self._claims()
        lines = plan(claims, self.dealer_stack + self.rebought, self.minimum)
        hand = replace(self, claims=claims, lines=lines, confirmed=0)
        if not hand.unpaid():
            return hand._complete()
        return replace(hand, phase="paying"), ()

    def _claims(self) -> tuple[Claim, ...]:
        dealer = count_of(self.dealer_count())
        claims: list[Claim] = []
        for seat in self.seats:
            if seat.state == "declined":
                continue
            if seat.state == "folded":
                claims.append(Claim(seat.seat, 0, "fold", seat.blind, -half(seat.blind), 0))
            elif self.surrendered:
                pay = half(seat.blind)
                claims.append(Claim(seat.seat, 0, "win", seat.hands[0].wager, pay, pay,
                                    "the dealer surrendered: half the blind"))
            elif seat.natural():
                claims.append(Claim(seat.seat, 0, "natural", seat.blind, natural_pays(seat.blind), 0,
                                    "natural 3:2"))
            else:
                for index, hand in enumerate(seat.hands):
                    outcome, owed, label = hand_outcome(hand.points(), hand.wager,
                                                        seat.raised and not hand.split, hand.split,
                                                        dealer)
                    blind = min(seat.blind, owed) if index == 0 and owed > 0 else 0
                    claims.append(Claim(seat.seat, index, outcome, hand.wager, owed, blind, label))
        return tuple(claims)

    def _complete(self) -> Moved:
        net = paid(self.claims, self.lines)
        results = []
        for claim in self.claims:
            payout = net[(claim.seat, claim.hand_index)]
            label = claim.label
            if 0 <= payout < claim.owed:
                label = f"the dealer ran out: paid {dollars(payout)} of {dollars(claim.owed)}"
            results.append(WagerResult(claim.seat, SPOT, claim.hand_index, claim.outcome, claim.wager,
                                       payout, label))
        settled = tuple(results)
        return replace(self, phase="complete", settlement=settled), (Settled(settled),)


def _add(hand: PlayHand, held: Held, phase: str) -> PlayHand:
    """``hand`` with one more card; a card after the first deal is a draw."""
    return replace(hand, cards=(*hand.cards, held), drew=hand.drew or phase == "players")


def _settle_hand(hand: PlayHand, raised: bool) -> PlayHand:
    """A hand in play is over by itself at 21 or over."""
    if len(hand.cards) >= 2 and hand.total(raised).points >= BLACKJACK:
        return replace(hand, done=True)
    return hand
