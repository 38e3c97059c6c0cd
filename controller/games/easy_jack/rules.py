"""Easy Jack: blackjack to 11, one card each, with the Dealer Bust side wager.

This module holds the rules options (``EasyJackRules``), the pure settlement
functions shared with the house-edge math (``turn_over``, ``dealer_must_draw``,
``main_result``, ``side_result``), the game bound to the table limits
(``EasyJack``) and the frozen hand state (``EasyJackHand``) with
``can_x()`` / ``verify_x()`` / ``x()`` per action. The rule choices are
written out in ``docs/games/easy-jack.md``.

A whole hand: seat 1 draws a 9 and hits a 2 (11), the dealer shows 5 then
draws a king and busts in two cards.

>>> from firmware_bridge.cards import Card
>>> game = EasyJack(EasyJackRules(), Limits(500, 50000))
>>> hand = game.start({1: {"main": 1000, "side": 500}})
>>> for index, text in enumerate(["9h", "5c", "2d"]):
...     hand, events = hand.deal(Card.parse(text), index)
>>> hand, events = hand.stand()
>>> [type(event).__name__ for event in events]
['Acted', 'Revealed']
>>> hand, events = hand.deal(Card.parse("Ks"), 3)
>>> [(r.spot, r.outcome, r.payout) for r in hand.results or ()]
[('main', 'win', 1000), ('side', 'win', 1500)]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from controller.games.interface import (
    Acted,
    Bets,
    Dealt,
    GameEvent,
    Limits,
    Revealed,
    RuleError,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.totals import TARGET, Total, card_points, total_of
from firmware_bridge.cards import Card

DEALER_STANDS_ON = 7
"""The dealer draws while below this total."""

SPOTS = ("main", "side")
"""The bet spots: the Easy Jack wager and the Dealer Bust side wager."""

Phase = Literal["dealing", "players", "dealer", "complete"]


def _default_bust_pays() -> dict[int, int]:
    return {2: 3, 3: 4, 4: 10, 5: 50, 6: 500}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class EasyJackRules:
    """The ``[game]`` options of Easy Jack, with the house defaults.

    ``dealer_bust_pays`` maps the number of cards in the dealer's busted hand
    to the Dealer Bust odds (N to 1); its largest key also pays for more cards.
    ``side_min_bet`` / ``side_max_bet`` of None take the table limits.

    >>> EasyJackRules().problems()
    []
    >>> EasyJackRules(decks=7, dealer_bust_pays={2: 3, 4: 10}).problems()
    ['game.decks: must be 6 or 8, not 7', 'game.dealer_bust_pays: no payout for 3 cards']
    """

    decks: int = 6
    peek_for_ace: bool = False
    natural_pays_6_5: bool = False
    dealer_bust_pays: dict[int, int] = field(default_factory=_default_bust_pays)
    side_min_bet: int | None = None
    side_max_bet: int | None = None
    stand_on_11: bool = False

    def problems(self) -> list[str]:
        """Every wrong value, one line each: ``game.<key>: <what is wrong>``; empty when all is well."""
        found: list[str] = []
        if not _is_int(self.decks) or self.decks not in (6, 8):
            found.append(f"game.decks: must be 6 or 8, not {self.decks!r}")
        for key in ("peek_for_ace", "natural_pays_6_5", "stand_on_11"):
            value = getattr(self, key)
            if not isinstance(value, bool):
                found.append(f"game.{key}: must be true or false, not {value!r}")
        found.extend(self._pays_problems())
        for key in ("side_min_bet", "side_max_bet"):
            value = getattr(self, key)
            if value is not None and (not _is_int(value) or value <= 0):
                found.append(f"game.{key}: must be a positive number of cents, not {value!r}")
        low, high = self.side_min_bet, self.side_max_bet
        if isinstance(low, int) and isinstance(high, int) and low > high:
            found.append(f"game.side_min_bet: {low} is above game.side_max_bet {high}")
        return found

    def _pays_problems(self) -> list[str]:
        pays = self.dealer_bust_pays
        if not isinstance(pays, dict) or not pays:
            return ["game.dealer_bust_pays: must be a table of card count -> odds"]
        found: list[str] = []
        for cards, odds in pays.items():
            if not _is_int(cards) or cards < 2:
                found.append(f"game.dealer_bust_pays: card count {cards!r} must be 2 or more")
            if not _is_int(odds) or odds <= 0:
                found.append(f"game.dealer_bust_pays: odds for {cards!r} cards must be positive")
        if found:
            return found
        return [
            f"game.dealer_bust_pays: no payout for {cards} cards"
            for cards in range(2, max(pays))
            if cards not in pays
        ]

    def bust_odds(self, cards: int) -> int:
        """The Dealer Bust odds (N to 1) for a busted dealer hand of ``cards`` cards.

        >>> EasyJackRules().bust_odds(4), EasyJackRules().bust_odds(7)
        (10, 500)
        """
        return self.dealer_bust_pays[min(cards, max(self.dealer_bust_pays))]


def turn_over(rules: EasyJackRules, total: Total) -> bool:
    """Whether a seat's turn ends by itself: bust, natural, or 11 with ``stand_on_11``."""
    return total.bust or total.natural or (rules.stand_on_11 and total.points == TARGET)


def dealer_must_draw(total: Total) -> bool:
    """Whether the dealer draws another card: below 7 (an ace counting 11 unless that busts)."""
    return total.points < DEALER_STANDS_ON


def main_result(
    rules: EasyJackRules, player: Total, dealer: Total, wager: int
) -> tuple[str, int, str | None]:
    """The Easy Jack wager's (outcome, net payout, label); fractions of a cent round down.

    >>> rules = EasyJackRules()
    >>> main_result(rules, total_of([1]), total_of([5, 3]), 1001)
    ('natural', 1501, 'natural 3:2')
    >>> main_result(rules, total_of([1]), total_of([1]), 1000)
    ('push', 0, None)
    >>> main_result(rules, total_of([9, 5]), total_of([6, 10]), 1000)
    ('lose', -1000, None)
    """
    if player.natural:
        if rules.natural_pays_6_5:
            return "natural", wager * 6 // 5, "natural 6:5"
        if dealer.natural:
            return "push", 0, None
        return "natural", wager * 3 // 2, "natural 3:2"
    if player.bust or dealer.natural:
        return "lose", -wager, None
    if dealer.bust or player.points > dealer.points:
        return "win", wager, None
    if player.points == dealer.points:
        return "push", 0, None
    return "lose", -wager, None


def side_result(rules: EasyJackRules, dealer: Total, wager: int) -> tuple[str, int, str | None]:
    """The Dealer Bust wager's (outcome, net payout, label) for the dealer's final total.

    >>> side_result(EasyJackRules(), total_of([2, 1, 1, 1, 1, 9]), 100)
    ('win', 50000, 'dealer bust in 6 cards pays 500 to 1')
    >>> side_result(EasyJackRules(), total_of([6, 5]), 100)
    ('lose', -100, None)
    """
    if not dealer.bust:
        return "lose", -wager, None
    odds = rules.bust_odds(dealer.cards)
    return "win", wager * odds, f"dealer bust in {dealer.cards} cards pays {odds} to 1"


@dataclass(frozen=True)
class HandCard:
    """A card in a hand: the card, its shoe index, and whether it was dealt face up."""

    card: Card
    index: int
    face_up: bool


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


class EasyJack:
    """The game bound to its rules and the table limits."""

    def __init__(self, rules: EasyJackRules, limits: Limits) -> None:
        """Bind ``rules`` and ``limits``; raises ValueError if ``rules.problems()`` finds any."""
        problems = rules.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.rules = rules
        self.limits = limits

    def bet_problems(self, bets: Bets) -> list[str]:
        """Why these wagers may not be dealt, one line per reason; empty means the hand may start.

        >>> game = EasyJack(EasyJackRules(), Limits(500, 50000))
        >>> game.bet_problems({2: {"main": 300}, 4: {"side": 500}})
        ['seat 2 main 300 is below the table minimum 500', 'seat 4 has a Dealer Bust wager but no main wager']
        >>> game.bet_problems({})
        ['no seat has a main wager']
        """
        rules, table = self.rules, self.limits
        side = Limits(rules.side_min_bet or table.min_bet, rules.side_max_bet or table.max_bet)
        side_words = (
            "table" if rules.side_min_bet is None else "Dealer Bust",
            "table" if rules.side_max_bet is None else "Dealer Bust",
        )
        found: list[str] = []
        for seat in sorted(bets):
            spots = bets[seat]
            for spot in sorted(spots):
                amount = spots[spot]
                if spot not in SPOTS:
                    found.append(f"seat {seat} has a wager on an unknown spot {spot!r}")
                elif not _is_int(amount) or amount < 0:
                    found.append(f"seat {seat} {spot} {amount!r} is not a wager in cents")
            main, bust = spots.get("main", 0), spots.get("side", 0)
            if _wagered(main):
                found.extend(_limit_problems(f"seat {seat} main", main, table, ("table", "table")))
            if _wagered(bust):
                if not _wagered(main):
                    found.append(f"seat {seat} has a Dealer Bust wager but no main wager")
                found.extend(_limit_problems(f"seat {seat} Dealer Bust", bust, side, side_words))
        if not any(_wagered(spots.get("main", 0)) for spots in bets.values()):
            found.append("no seat has a main wager")
        return found

    def start(self, bets: Bets) -> EasyJackHand:
        """A new hand for these wagers, waiting for its first card; raises RuleError if ``bet_problems``.

        Seats in play are the seats with a main wager, in seat order.
        """
        problems = self.bet_problems(bets)
        if problems:
            raise RuleError("; ".join(problems))
        seats = tuple(
            SeatHand(seat, bets[seat]["main"], bets[seat].get("side", 0))
            for seat in sorted(bets)
            if bets[seat].get("main", 0) > 0
        )
        return EasyJackHand(rules=self.rules, seats=seats)


def _wagered(amount: object) -> bool:
    """Whether a spot holds a wager (a whole number of cents above 0)."""
    return isinstance(amount, int) and not isinstance(amount, bool) and amount > 0


def _limit_problems(what: str, amount: int, limits: Limits, words: tuple[str, str]) -> list[str]:
    """The reason ``amount`` breaks ``limits``, if it does; ``words`` name whose min and max apply."""
    what = f"{what} {amount}"
    if amount < limits.min_bet:
        return [f"{what} is below the {words[0]} minimum {limits.min_bet}"]
    if amount > limits.max_bet:
        return [f"{what} is above the {words[1]} maximum {limits.max_bet}"]
    return []


@dataclass(frozen=True)
class EasyJackHand:
    """One hand of Easy Jack: the seats in play, the dealer's cards, and where play stands.

    ``dealer`` holds the dealer's cards, the first being the hole card (dealt
    face down, visible once ``hole_revealed``); ``turn`` is the seat in turn
    during the "players" phase; ``results`` is set once the hand is complete.
    """

    rules: EasyJackRules
    seats: tuple[SeatHand, ...]
    dealer: tuple[HandCard, ...] = ()
    hole_revealed: bool = False
    turn: int | None = None
    phase: Phase = "dealing"
    results: tuple[WagerResult, ...] | None = None

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

    def can_deal(self) -> bool:
        """Whether a card may be drawn from the shoe now."""
        return self.phase != "complete"

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now."""
        if not self.can_deal():
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

    def can_stand(self) -> bool:
        """Whether the seat in turn may stand now."""
        return self.phase == "players"

    def verify_stand(self) -> None:
        """Raise RuleError if no seat may stand now, saying why."""
        if self.phase == "dealing":
            raise RuleError("no seat may stand before every seat and the dealer have a card")
        if self.phase != "players":
            raise RuleError("no seat is in turn: the players' turns are over")

    def stand(self) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """The seat in turn stands; the events start with ``Acted(seat, 0, "stand")``."""
        self.verify_stand()
        assert self.turn is not None
        seat_number = self.turn
        seats = tuple(
            replace(seat, done=True) if seat.seat == seat_number else seat for seat in self.seats
        )
        hand, events = replace(self, seats=seats)._progress()
        return hand, (Acted(seat_number, 0, "stand"), *events)

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

    def public_view(self) -> dict[str, Any]:
        """The hand as the pit and the display may see it (JSON-able); a face-down card is None."""
        showing = [
            str(held.card) if held.face_up or self.hole_revealed else None for held in self.dealer
        ]
        dealer_total = self.dealer_total(include_hole=False)
        return {
            "game": "easy-jack",
            "phase": self.phase,
            "turn": self.turn,
            "seats": [
                {
                    "seat": seat.seat,
                    "main": seat.main,
                    "side": seat.side,
                    "cards": [str(held.card) for held in seat.cards],
                    "total": seat.total().points,
                    "natural": seat.total().natural,
                    "bust": seat.total().bust,
                    "done": seat.done,
                }
                for seat in self.seats
            ],
            "dealer": {
                "cards": showing,
                "total": dealer_total.points if dealer_total.cards else None,
                "natural": dealer_total.natural,
                "bust": dealer_total.bust,
            },
            "results": None
            if self.results is None
            else [
                {
                    "seat": r.seat,
                    "spot": r.spot,
                    "hand_index": r.hand_index,
                    "outcome": r.outcome,
                    "wager": r.wager,
                    "payout": r.payout,
                    "label": r.label,
                }
                for r in self.results
            ],
        }

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
        hand = replace(self, phase="complete", turn=None, results=settled)
        return hand, (*events, Settled(settled))


def _add_card(rules: EasyJackRules, seat: SeatHand, held: HandCard) -> SeatHand:
    grown = replace(seat, cards=(*seat.cards, held))
    return replace(grown, done=turn_over(rules, grown.total()))
