"""Easy Jack bound to its rules and the table limits: which wagers may be dealt, and the start of a hand.

A whole hand: seat 1 draws a 9 and hits a 2 (11), the dealer shows 5 then
draws a king and busts in two cards.

>>> from firmware_bridge.kernel.cards import Card
>>> game = EasyJack(EasyJackRules(), Limits(500, 50000))
>>> hand, _ = game.start({1: {"main": 1000, "side": 500}}, Session())
>>> for index, text in enumerate(["9h", "5c", "2d"]):
...     hand, events = hand.deal(Card.parse(text), index)
>>> hand, events = hand.act("stand")
>>> [type(event).__name__ for event in events]
['Acted', 'Revealed']
>>> hand, events = hand.deal(Card.parse("Ks"), 3)
>>> [(r.spot, r.outcome, r.payout) for r in hand.results() or ()]
[('main', 'win', 1000), ('side', 'win', 1500)]
"""

from __future__ import annotations

from controller.games.easy_jack.hand import ACTION_TABLE, FLOW, PHASES, EasyJackHand, SeatHand
from controller.games.easy_jack.rules import SPOTS, EasyJackRules
from controller.games.interface import Bets, Game, GameEvent, Limits, RuleError, Session
from controller.games.parts.limits import limit_problems, spot_problems, wagered


class EasyJack(Game[EasyJackHand]):
    """The game bound to its rules and the table limits."""

    spots = SPOTS
    actions = ACTION_TABLE.names
    action_labels = tuple(ACTION_TABLE.labels.items())
    phases = PHASES
    flow = FLOW

    def __init__(self, rules: EasyJackRules, limits: Limits) -> None:
        """Bind ``rules`` and ``limits``; raises ValueError if ``rules.problems()`` finds any."""
        problems = rules.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.rules = rules
        self.limits = limits

    @property
    def decks(self) -> int:
        """The decks the shoe holds: 6 or 8."""
        return self.rules.decks

    def bet_problems(self, bets: Bets, session: Session | None = None) -> list[str]:
        """Why these wagers may not be dealt, one line per reason; empty means the hand may start.

        >>> game = EasyJack(EasyJackRules(), Limits(500, 50000))
        >>> for line in game.bet_problems({2: {"main": 300}, 4: {"side": 500}}): print(line)
        seat 2 main $3.00 is below the table minimum $5.00
        seat 4 has a Dealer Bust wager but no main wager
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
            found.extend(spot_problems(seat, spots, SPOTS))
            main, bust = spots.get("main", 0), spots.get("side", 0)
            if wagered(main):
                found.extend(limit_problems(f"seat {seat} main", main, table, ("table", "table")))
            if wagered(bust):
                if not wagered(main):
                    found.append(f"seat {seat} has a Dealer Bust wager but no main wager")
                found.extend(limit_problems(f"seat {seat} Dealer Bust", bust, side, side_words))
        if not any(wagered(spots.get("main", 0)) for spots in bets.values()):
            found.append("no seat has a main wager")
        return found

    def seats_in_play(self, bets: Bets, session: Session) -> tuple[int, ...]:
        """The seats with a main wager, in seat order."""
        return tuple(seat for seat in sorted(bets) if bets[seat].get("main", 0) > 0)

    def start(self, bets: Bets, session: Session) -> tuple[EasyJackHand, tuple[GameEvent, ...]]:
        """A new hand for these wagers, waiting for its first card; raises RuleError if ``bet_problems``."""
        problems = self.bet_problems(bets)
        if problems:
            raise RuleError("; ".join(problems))
        seats = tuple(
            SeatHand(seat, bets[seat]["main"], bets[seat].get("side", 0))
            for seat in self.seats_in_play(bets, session)
        )
        return EasyJackHand(rules=self.rules, seats=seats), ()
