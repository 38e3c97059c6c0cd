"""One hand of Hold'em Blackjack: frozen, with ``verify`` / ``can`` / ``act`` per action.

The blinds and antes are posted before the deal (the table checks them on
the spots; :func:`forced_bets`). Each seat gets a first card face down, and
the first round of betting is fixed limit from the left of the big blind;
a second card face up, and a second fixed-limit round from the left of the
button; then each seat in turn completes its hand (a card from the shoe is a
hit, dealt face down; ``stand`` ends the turn; a seventh card ends it by
itself); then a spread-limit final round from the left of the button, and
the showdown. Whenever all but one seat have folded, that seat takes the
pots at once, unseen.

The betting itself is :mod:`controller.games.parts.betting`; the pots, the
uncalled bets, the splits and the rake are :mod:`controller.games.parts.pots`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from controller.games.holdem_blackjack.rules import (
    MAX_CARDS,
    SPOT,
    TARGET,
    HoldemBlackjackRules,
    hand_total,
    rank,
    rank_words,
)
from controller.games.holdem_blackjack.stakes import Stakes
from controller.games.interface import (
    Acted,
    CardsView,
    Dealt,
    Decision,
    GameEvent,
    Hand,
    HandView,
    Move,
    Option,
    Pot,
    PotAwarded,
    PotsChanged,
    Revealed,
    RuleError,
    SeatHandView,
    Settled,
    Target,
    WagerResult,
)
from controller.games.parts.actions import Action, Actions, no_amount
from controller.games.parts.betting import ACTIONS, BettingRules, Bettor, Round
from controller.games.parts.blinds import Seating, clockwise
from controller.games.parts.held import HandCard
from controller.games.parts.pots import build_pots, rake_by_pot, rake_due, split, uncalled
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.money import dollars as money

Phase = Literal["first_card", "first_round", "second_card", "second_round", "completion",
                "final_round", "complete"]

PHASES: tuple[Phase, ...] = ("first_card", "first_round", "second_card", "second_round",
                             "completion", "final_round", "complete")
FLOW = (
    ("first_card", "first_round"), ("first_card", "second_card"),
    ("first_round", "second_card"), ("first_round", "complete"),
    ("second_card", "second_round"), ("second_card", "completion"),
    ("second_round", "completion"), ("second_round", "complete"),
    ("completion", "final_round"), ("completion", "complete"),
    ("final_round", "complete"),
)
"""How a hand moves between its phases: a round nobody can bet in (all in) is passed over, and a
hand where all but one seat fold ends at once."""

BETTING_ROUND: dict[str, int] = {"first_round": 1, "second_round": 2, "final_round": 3}
AFTER_ROUND: dict[str, Phase] = {"first_round": "second_card", "second_round": "completion",
                                 "final_round": "complete"}


@dataclass(frozen=True)
class Player:
    """One seat dealt in: its ``stack`` when the hand began, the chips it has put in the pots
    (antes and the bets of rounds gathered), its cards, whether it folded, whether it has
    completed its hand."""

    seat: int
    stack: int
    put_in: int = 0
    cards: tuple[HandCard, ...] = ()
    folded: bool = False
    stood: bool = False

    def held(self) -> tuple[Card, ...]:
        """The seat's cards."""
        return tuple(held.card for held in self.cards)

    def can_hit(self) -> bool:
        """Whether the seat may draw: fewer than seven cards and not over 21."""
        return len(self.cards) < MAX_CARDS and hand_total(self.held()) <= TARGET


@dataclass(frozen=True)
class Award:
    """Chips of pot ``pot`` (its index) that went to ``seat`` at the end of the hand."""

    pot: int
    seat: int
    amount: int


def forced_bets(rules: HoldemBlackjackRules, seating: Seating,
                stacks: Mapping[int, int]) -> dict[int, tuple[int, int]]:
    """Each seat's (ante, blind) in cents: the ante first, then the blind, each as far as the
    stack goes (a short stack is all in).

    >>> from controller.games.parts.blinds import seating
    >>> rules = HoldemBlackjackRules(ante=50)
    >>> forced_bets(rules, seating((1, 2, 3), 1), {1: 5000, 2: 5000, 3: 120})
    {1: (50, 0), 2: (50, 100), 3: (50, 70)}
    """
    found: dict[int, tuple[int, int]] = {}
    for seat in seating.seats:
        stack = stacks[seat]
        ante = min(rules.ante, stack)
        blind = {seating.small_blind: rules.small_blind_amount,
                 seating.big_blind: rules.big_blind}.get(seat, 0)
        found[seat] = (ante, min(blind, stack - ante))
    return found


@dataclass(frozen=True)
class HoldemHand(Hand):
    """One hand: the players in seat order, the button and blinds, where play stands.

    ``round`` is the betting round under way (round 1 exists from the start: the blinds are its
    bets); ``pots`` and ``rake`` are the pots as last gathered and the rake due on them;
    ``raked`` says whether the hand pays rake; ``aggressor`` is the last seat to bet or raise in
    the final round (it shows first); ``shown`` the seats whose hands were turned up;
    ``gathered`` the bets of the last round that ended, seat by seat, as they went into the pots,
    and ``returned`` its uncalled bet (seat, chips); ``awards`` and ``settlement`` are set once
    the hand is complete.
    """

    rules: HoldemBlackjackRules
    stakes: Stakes
    players: tuple[Player, ...]
    button: int
    small_blind: int
    big_blind: int
    phase: Phase = "first_card"
    round: Round | None = None
    pots: tuple[Pot, ...] = ()
    rake: int = 0
    raked: bool = False
    aggressor: int | None = None
    shown: tuple[int, ...] = ()
    gathered: tuple[tuple[int, int], ...] = ()
    returned: tuple[int, int] | None = None
    awards: tuple[Award, ...] = ()
    settlement: tuple[WagerResult, ...] | None = None

    # -- the start ---------------------------------------------------------------------------------

    @classmethod
    def begin(cls, rules: HoldemBlackjackRules, seating: Seating,
              stacks: Mapping[int, int]) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """A hand for ``seating`` with these stacks: antes into the pot, blinds as the first
        round's bets; the events are each ante and blind posted, then the pot of the antes."""
        stakes = rules.parsed_stakes
        posts = forced_bets(rules, seating, stacks)
        events: list[GameEvent] = [
            Acted(seat, 0, "ante", posts[seat][0])
            for seat in seating.from_left_of(seating.button) if posts[seat][0]
        ]
        for seat, name in ((seating.small_blind, "small_blind"), (seating.big_blind, "big_blind")):
            if posts[seat][1]:
                events.append(Acted(seat, 0, name, posts[seat][1]))
        players = tuple(Player(seat, stacks[seat], put_in=posts[seat][0]) for seat in seating.seats)
        checks_back = not rules.big_blind_option
        bettors = tuple(
            Bettor(seat, stacks[seat] - sum(posts[seat]), bet=posts[seat][1],
                   acted=checks_back and seat == seating.big_blind,
                   seen=1 if checks_back and seat == seating.big_blind else 0)
            for seat in seating.from_left_of(seating.big_blind)
        )
        first = Round(bettors, stakes.sizes(1), _betting_rules(rules), current=stakes.first,
                      full_bets=1, spot=SPOT)
        hand = cls(rules, stakes, players, seating.button, seating.small_blind, seating.big_blind,
                   round=first, raked=rules.rake_first_round)
        hand, pots = hand._update_pots()
        return hand, (*events, *pots)

    # -- who is where ------------------------------------------------------------------------------

    def player(self, seat: int) -> Player:
        """The seat's record; raises RuleError for a seat not dealt in."""
        for player in self.players:
            if player.seat == seat:
                return player
        raise RuleError(f"seat {seat} is not in this hand")

    def live(self) -> tuple[int, ...]:
        """The seats that have not folded, clockwise from the left of the button."""
        folded = {b.seat for b in self.round.bettors if b.folded} if self.round else set()
        return tuple(seat for seat in self.deal_order()
                     if not self.player(seat).folded and seat not in folded)

    def deal_order(self) -> tuple[int, ...]:
        """Every seat dealt in, clockwise from the left of the button."""
        return clockwise(tuple(p.seat for p in self.players), self.button)

    def completing(self) -> int | None:
        """The seat completing its hand now (phase ``completion``), or None."""
        if self.phase != "completion":
            return None
        return next((seat for seat in self.live() if not self.player(seat).stood), None)

    def next_target(self) -> Target | None:
        """Where the next card from the shoe goes, or None if no card is wanted now."""
        if self.phase == "first_card":
            seat = next((s for s in self.deal_order() if not self.player(s).cards), None)
            return None if seat is None else Target("seat", seat, 0, face_up=False)
        if self.phase == "second_card":
            seat = next((s for s in self.live() if len(self.player(s).cards) < 2), None)
            return None if seat is None else Target("seat", seat, 0, face_up=True)
        seat = self.completing()
        if seat is not None and self.player(seat).can_hit():
            return Target("seat", seat, 0, face_up=False)
        return None

    # -- the one question --------------------------------------------------------------------------

    def decision(self) -> Decision | None:
        """Who decides now: a card to deal, a seat betting (with the amounts its spot must hold),
        or a seat completing its hand (a card is a hit; a seat over 21 may only stand, and the
        dealer is told the same words either way: the cards are face down)."""
        if self.phase == "complete":
            return None
        target = self.next_target()
        if self.phase in ("first_card", "second_card"):
            assert target is not None
            which = "first card face down" if self.phase == "first_card" else "second card face up"
            return Decision(None, 0, {}, target, f"Deal seat {target.seat} its {which}")
        if self.phase == "completion":
            seat = self.completing()
            return Decision(seat, 0, {"stand": Option()}, target,
                            f"Seat {seat}: draw a card to hit (face down), or press STAND")
        assert self.round is not None
        return Decision(self.round.turn(), 0, self.round.options(), None, self.round.prompt())

    def results(self) -> tuple[WagerResult, ...] | None:
        """Each seat's result once the hand is complete: its chips in, its net."""
        return self.settlement

    def house_result(self) -> int:
        """Nothing in the tray: the pots go to the players, and the rake to the drop box."""
        return 0

    def final_stacks(self) -> dict[int, int]:
        """Each seat's stack after the hand (its stack, less its chips in, plus what it won)."""
        return {p.seat: p.stack - p.put_in + sum(a.amount for a in self.awards if a.seat == p.seat)
                for p in self.players}

    # -- cards -------------------------------------------------------------------------------------

    def verify_deal(self) -> None:
        """Raise RuleError if no card may be drawn now, saying why."""
        if self.next_target() is not None:
            return
        if self.phase == "complete":
            raise RuleError("the hand is over: no more cards")
        if self.phase == "completion":
            raise RuleError(f"seat {self.completing()} may only stand")
        raise RuleError("no card now: the seats are betting")

    def deal(self, card: Card, index: int) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Put ``card`` (shoe ``index``) where :meth:`next_target` says; a seventh card ends the
        seat's turn. The events start with ``Dealt``."""
        self.verify_deal()
        target = self.next_target()
        assert target is not None and target.seat is not None
        held = HandCard(card, index, target.face_up)
        player = self.player(target.seat)
        grown = replace(player, cards=(*player.cards, held))
        if self.phase == "completion" and len(grown.cards) == MAX_CARDS:
            grown = replace(grown, stood=True)
        hand, events = self._with_player(grown)._progress()
        return hand, (Dealt(target, card, index), *events)

    # -- actions -----------------------------------------------------------------------------------

    def _not_betting(self) -> str:
        if self.phase == "completion":
            return f"no seat is betting now: seat {self.completing()} is completing its hand"
        if self.phase == "complete":
            return "the hand is over"
        return "no seat is betting now: the cards are being dealt"

    def verify_stand(self, amount: int | None = None) -> None:
        """Raise RuleError unless the seat completing its hand may stand (with no amount)."""
        no_amount("stand", amount)
        if self.phase != "completion":
            raise RuleError("no seat is completing its hand now" +
                            ("" if self.round is None else f": {self.round.prompt()}"))

    def stand(self, amount: int | None = None) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """The seat completing its hand stands (after :meth:`verify_stand`)."""
        seat = self.completing()
        assert seat is not None
        hand, events = self._with_player(replace(self.player(seat), stood=True))._progress()
        return hand, (Acted(seat, 0, "stand"), *events)

    def verify_betting(self, action: str, amount: int | None) -> None:
        """Raise RuleError unless the betting round under way lets the seat in turn take ``action``
        (one of :data:`~controller.games.parts.betting.ACTIONS`) with its spot at ``amount``."""
        if self.round is None or self.phase not in BETTING_ROUND:
            raise RuleError(self._not_betting())
        self.round.verify(action, amount)

    def take_betting(self, action: str, amount: int | None) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """The seat in turn takes betting ``action`` (after :meth:`verify_betting`); then whatever
        follows by itself (bets gathered, pots, the showdown)."""
        assert self.round is not None
        after, acted = self.round.act(action, amount)
        hand, events = replace(self, round=after)._progress()
        return hand, (acted, *events)

    def verify(self, action: str, amount: int | None = None) -> None:
        """Raise RuleError unless ``action`` with ``amount`` (the seat's spot once the action is
        taken) is allowed now, saying why with the amounts."""
        ACTION_TABLE.verify(self, action, amount)

    def take(self, action: str, amount: int | None = None) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Take ``action``; the events start with its ``Acted`` record, then whatever follows by
        itself (bets gathered, pots, the showdown)."""
        return ACTION_TABLE.take(self, action, amount)

    # -- what the table checks and shows -----------------------------------------------------------

    def _round_bet(self, seat: int) -> int:
        if self.round is None:
            return 0
        return next((b.bet for b in self.round.bettors if b.seat == seat), 0)

    def committed(self) -> Mapping[tuple[int, str], int]:
        """Each seat's bet spot holds its bet in the round under way; between rounds, nothing
        (the bets are gathered into the pot)."""
        return {(p.seat, SPOT): self._round_bet(p.seat) for p in self.players}

    def staked(self) -> Mapping[int, int]:
        """Each seat's chips out of its stack: what it put in the pots and its bet of the round."""
        return {p.seat: p.put_in + self._round_bet(p.seat) for p in self.players}

    def _status(self, player: Player) -> str | None:
        seat = player.seat
        roles = ((self.button, "button"), (self.small_blind, "small blind"), (self.big_blind, "big blind"))
        words = [name for at, name in roles if at == seat]
        if seat not in self.live():
            words.append("folded")
        elif self.phase == "complete":
            won = sum(a.amount for a in self.awards if a.seat == seat)
            words.append(f"wins {money(won)}" if won else "mucked" if seat not in self.shown else "loses")
        else:
            if player.stack - player.put_in - self._round_bet(seat) == 0:
                words.append("all in")
            if player.stood:
                words.append("stood")
        return ", ".join(words) or None

    def _live_pots(self) -> tuple[Pot, ...]:
        """The pots as gathered, with only the seats still in as eligible."""
        live = set(self.live())
        return tuple(Pot(p.amount, tuple(s for s in p.seats if s in live)) for p in self.pots)

    def view(self) -> HandView:
        """What the public may see: face-down cards are None until shown; a mucked hand's never."""
        decision = self.decision()
        seats = []
        for player in self.players:
            shown = player.seat in self.shown
            cards = tuple(str(h.card) if h.face_up or shown else None for h in player.cards)
            up = [h.card for h in player.cards if h.face_up]
            total = rank_words(player.held()) if shown else f"shows {hand_total(up)}" if up else None
            wager = player.put_in + self._round_bet(player.seat)
            seats.append(SeatHandView(
                player.seat, (CardsView(cards, total, wager, self._status(player)),),
                in_turn=decision is not None and decision.seat == player.seat))
        return HandView(self.phase, tuple(seats), pots=self._live_pots(), payouts=self._payout_lines(),
                        moves=self._moves())

    def _payout_lines(self) -> tuple[str, ...]:
        """At the end: what each pot pays to whom, the rake, and the hands to muck unseen."""
        if self.phase != "complete":
            return ()
        lines = []
        rakes = rake_by_pot(self.pots, self.rake)
        for number, pot in enumerate(self.pots):
            taken = ", ".join(f"seat {a.seat} takes {money(a.amount)}"
                              for a in self.awards if a.pot == number)
            rake = f", rake {money(rakes[number])}" if rakes[number] else ""
            lines.append(f"Pot {number + 1} of {money(pot.amount)}{rake}: {taken}")
        if self.rake:
            lines.append(f"Rake {money(self.rake)} to the drop box")
        mucked = [s for s in self.live() if s not in self.shown and len(self.live()) > 1]
        lines.extend(f"Seat {seat}: muck the hand unseen" for seat in mucked)
        return tuple(lines)

    def _moves(self) -> tuple[Move, ...]:
        """At the end, the chips to move in order: the uncalled bet back, the last round's bets
        (still on the spots) into the pot, the rake to the drop box, each pot or share pushed to
        its winner, and the hands to muck unseen."""
        if self.phase != "complete":
            return ()
        moves = []
        if self.returned is not None:
            seat, chips = self.returned
            moves.append(Move("return", f"Give back the uncalled {money(chips)}", seat, chips))
        moves.extend(Move("gather", f"Gather the bet {money(chips)} into the pot", seat, chips)
                     for seat, chips in self.gathered)
        if self.rake:
            moves.append(Move("rake", f"Rake {money(self.rake)} to the drop box", None, self.rake))
        alone = len(self.live()) == 1
        for award in self.awards:
            pot = "" if len(self.pots) == 1 else "main pot: " if award.pot == 0 else f"side pot {award.pot}: "
            words = f"{pot}push {money(award.amount)} to seat {award.seat}"
            words += " (the others folded)" if alone else ""
            moves.append(Move("push", words[0].upper() + words[1:], award.seat, award.amount, award.pot))
        moves.extend(Move("muck", "Muck the hand unseen", seat)
                     for seat in self.live() if seat not in self.shown and not alone)
        return tuple(moves)

    # -- moving on by itself -----------------------------------------------------------------------

    def _with_player(self, player: Player) -> HoldemHand:
        players = tuple(player if p.seat == player.seat else p for p in self.players)
        return replace(self, players=players)

    def _open_round(self, number: int) -> Round:
        """Betting round 2 or 3: the seats still in, from the left of the button."""
        bettors = tuple(Bettor(seat, self.player(seat).stack - self.player(seat).put_in)
                        for seat in self.live())
        return Round(bettors, self.stakes.sizes(number), _betting_rules(self.rules), spot=SPOT)

    def _progress(self) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Move on as far as the rules go without a card or a decision."""
        hand: HoldemHand = self
        events: list[GameEvent] = []
        while hand.phase != "complete":
            if hand.phase in ("first_card", "second_card"):
                if hand.next_target() is not None:
                    break
                if hand.phase == "first_card":
                    hand = replace(hand, phase="first_round")
                else:
                    hand = replace(hand, phase="second_round", round=hand._open_round(2))
            elif hand.phase == "completion":
                if hand.completing() is not None:
                    break
                hand = replace(hand, phase="final_round", round=hand._open_round(3))
            else:
                assert hand.round is not None
                if hand.round.turn() is not None:
                    break
                hand, gathered = hand._gather()
                events.extend(gathered)
                if len(hand.live()) == 1:
                    hand, ended = hand._award(hand.live())
                    events.extend(ended)
                elif AFTER_ROUND[hand.phase] == "complete":
                    hand, ended = hand._showdown()
                    events.extend(ended)
                else:
                    hand = replace(hand, phase=AFTER_ROUND[hand.phase])
        return hand, tuple(events)

    def _gather(self) -> tuple[HoldemHand, list[GameEvent]]:
        """The round is over: an uncalled bet goes back, the bets go into the pots."""
        assert self.round is not None
        events: list[GameEvent] = []
        bets = self.round.bets()
        back = uncalled(bets)
        if back is not None:
            seat, chips = back
            bets[seat] -= chips
            events.append(Acted(seat, 0, "uncalled", chips))
        folded = {b.seat for b in self.round.bettors if b.folded}
        players = tuple(replace(p, put_in=p.put_in + bets.get(p.seat, 0),
                                folded=p.folded or p.seat in folded) for p in self.players)
        hand = replace(self, players=players, round=None, returned=back,
                       gathered=tuple((seat, chips) for seat, chips in sorted(bets.items()) if chips))
        hand = replace(hand, raked=hand.raked or (self.phase == "first_round" and len(hand.live()) > 1),
                       aggressor=self.round.aggressor if self.phase == "final_round" else None)
        hand, pots = hand._update_pots()
        return hand, [*events, *pots]

    def _update_pots(self) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """The pots of every chip put in so far, and a ``PotsChanged`` if they or the rake changed."""
        pots = build_pots({p.seat: p.put_in for p in self.players}, self.live())
        rules = self.rules
        rake = rake_due(sum(p.amount for p in pots), rules.rake_percent, rules.rake_cap,
                        rules.chip_unit) if self.raked else 0
        if (pots, rake) == (self.pots, self.rake):
            return self, ()
        return replace(self, pots=pots, rake=rake), (PotsChanged(pots, rake),)

    def _showdown(self) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Each pot to the best hand among its seats; the hands that win something are turned up
        (every hand still in, without ``muck_losing_hands``), in showdown order: from the last
        seat to bet or raise in the final round (or, when none did or by ``showdown_order``, the
        first seat still in left of the button), clockwise."""
        live = self.live()
        first = self.aggressor if self.rules.showdown_order == "last_aggressor" else None
        start = first if first in live else live[0]
        order = clockwise(live, start)[-1:] + clockwise(live, start)[:-1]
        ranks = {seat: rank(self.player(seat).held(), self.rules.charlie_ties) for seat in live}
        winners = {}
        for number, pot in enumerate(self.pots):
            best = max(ranks[seat] for seat in pot.seats)
            winners[number] = tuple(seat for seat in pot.seats if ranks[seat] == best)
        shown = {seat for seats in winners.values() for seat in seats}
        if not self.rules.muck_losing_hands:
            shown = set(live)
        revealed: list[GameEvent] = [
            Revealed("seat", seat, 0, held.card, held.index)
            for seat in order if seat in shown
            for held in self.player(seat).cards if not held.face_up
        ]
        odd_order = order if self.rules.odd_chip == "showdown_order" else live
        hand = replace(self, shown=tuple(seat for seat in order if seat in shown))
        chosen = {number: tuple(s for s in odd_order if s in seats) for number, seats in winners.items()}
        hand, awarded = hand._award_pots(chosen)
        return hand, (*revealed, *awarded)

    def _award(self, seats: tuple[int, ...]) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Every pot to the one seat left in, unseen."""
        return self._award_pots({number: seats for number in range(len(self.pots))})

    def _award_pots(self, winners: Mapping[int, tuple[int, ...]]) -> tuple[HoldemHand, tuple[GameEvent, ...]]:
        """Pay each pot, less its part of the rake, to its winners (in the order odd chips go);
        then settle. One ``PotAwarded`` per different share of a pot, the rake on the first."""
        rakes = rake_by_pot(self.pots, self.rake)
        awards: list[Award] = []
        events: list[GameEvent] = []
        for number, pot in enumerate(self.pots):
            shares = split(pot.amount - rakes[number], winners[number], self.rules.chip_unit)
            paid = tuple(zip(winners[number], shares, strict=True))
            awards.extend(Award(number, seat, share) for seat, share in paid)
            for position, share in enumerate(dict.fromkeys(shares)):
                seats = tuple(seat for seat, got in paid if got == share)
                events.append(PotAwarded(number, seats, share, rakes[number] if position == 0 else 0))
        hand = replace(self, phase="complete", round=None, awards=tuple(awards))
        results = []
        for player in hand.players:
            won = sum(a.amount for a in awards if a.seat == player.seat)
            net = won - player.put_in
            outcome = "fold" if player.folded else "win" if net > 0 else "push" if net == 0 else "lose"
            label = rank_words(player.held()) if player.seat in hand.shown else None
            results.append(WagerResult(player.seat, SPOT, 0, outcome, player.put_in, net, label))
        settled = tuple(results)
        return replace(hand, settlement=settled), (*events, Settled(settled))


def _betting_rules(rules: HoldemBlackjackRules) -> BettingRules:
    reopen: Literal["full", "half"] = "half" if rules.all_in_reopens == "half" else "full"
    return BettingRules(raise_cap=rules.raise_cap, reopen=reopen)


def _round_action(action: str) -> Action[HoldemHand]:
    """Betting ``action``, verified and taken by the round under way."""
    return Action(lambda hand, amount: hand.verify_betting(action, amount),
                  lambda hand, amount: hand.take_betting(action, amount), action.capitalize())


ACTION_TABLE: Actions[HoldemHand] = Actions("Hold'em Blackjack", {
    **{action: _round_action(action) for action in ACTIONS},
    "stand": Action(HoldemHand.verify_stand, HoldemHand.stand, "Stand"),
})
"""Every action of a hand: the betting round's, and ``stand`` to complete a hand."""
