"""The four games as the dealer-mistake model deals them: each game's rules, buttons, who sits
down with how many chips, and what each player bets before the deal.

The bets are what the game takes (the tests that drive each game through the table core show
them: ``tests/games/*/test_table.py``): Easy Jack and Buster Blackjack X (the house banks) a main
wager and now and then a side one; Blackjack Extreme a blind from every seat but the
player-dealer's (a short dealer stack now and then, so that the short-stack payment walk comes
up); Hold'em Blackjack the ante and blinds its seating asks for.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.hand import forced_bets
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Game, Limits, Session, Stacks

Bets = dict[tuple[int, str], int]
"""What each spot should hold at the deal."""


@dataclass(frozen=True)
class Setup:
    """One game as the model deals it."""

    name: str
    """The game's name in the configuration (``easy-jack``, ...)."""
    make: Callable[[], Game[Any]]
    buttons: tuple[str, ...]
    stacks: bool
    """Whether the table keeps each player's money as a stack (bought in by command)."""
    seats: Callable[[random.Random], dict[int, int]]
    """Who sits down, with the chips each brings."""
    bets: Callable[[Game[Any], Session, list[int], random.Random], Bets]
    """What each player puts on the spots before the deal (given the seated players)."""
    limits: tuple[int, int] = (500, 50000)
    """The table minimum and maximum, in cents."""
    pot: bool = False
    """Whether a betting round's bets are gathered into a pot (Hold'em)."""
    least: int = 0
    """A game of stacks: a stack below this is topped up between hands (the player buys chips)."""
    refill: tuple[int, ...] = ()
    """What such a stack is topped up to, one of these at random."""


def _house_seats(rng: random.Random) -> dict[int, int]:
    return {seat: 100_000 for seat in sorted(rng.sample(range(1, 7), rng.randint(1, 4)))}


def _house_bets(side: str) -> Callable[[Game[Any], Session, list[int], random.Random], Bets]:
    def bets(game: Game[Any], session: Session, seats: list[int], rng: random.Random) -> Bets:
        del game, session
        placed: Bets = {}
        for seat in seats:
            placed[(seat, "main")] = rng.choice((500, 1000, 1500, 2500, 5000))
            if rng.random() < 0.3:
                placed[(seat, side)] = min(placed[(seat, "main")], rng.choice((500, 1000)))
        return placed
    return bets


def _extreme_seats(rng: random.Random) -> dict[int, int]:
    seats = sorted(rng.sample(range(1, 7), rng.randint(2, 4)))
    return {seat: rng.choice((2000, 3000, 50_000)) if index == 0 else 50_000
            for index, seat in enumerate(seats)}


def _extreme_bets(game: Game[Any], session: Session, seats: list[int], rng: random.Random) -> Bets:
    """Every seat the dealer must pay plays (the game says which), the others who may play now
    and then; each blind one the stack and the cap allow."""
    del seats
    assert isinstance(game, BlackjackExtreme)
    must = set(game.must_play(session))
    cap = game.cap(session)
    stacks = session[Stacks].stacks
    placed: Bets = {}
    positions = game.positions(session)
    first = rng.choice(positions) if positions else None
    for seat in positions:
        if seat in must or seat == first or rng.random() < 0.8:
            choices = [cents for cents in (500, 1000, 1500) if cents <= min(stacks[seat], cap)]
            placed[(seat, "main")] = rng.choice(choices)
    return placed


def _holdem_seats(rng: random.Random) -> dict[int, int]:
    seats = sorted(rng.sample(range(1, 7), rng.randint(2, 4)))
    return {seat: rng.choice((2000, 4000, 20_000)) for seat in seats}


def _holdem_bets(game: Game[Any], session: Session, seats: list[int], rng: random.Random) -> Bets:
    del seats, rng
    assert isinstance(game, HoldemBlackjack)
    place = game.seating(session)
    if place is None:
        return {}
    stacks = session[Stacks].stacks
    return {(seat, "bet"): ante + blind
            for seat, (ante, blind) in forced_bets(game.rules, place, stacks).items() if ante + blind}


SETUPS = {
    "easy-jack": Setup("easy-jack", lambda: EasyJack(EasyJackRules(), Limits(500, 50000)),
                       ("deal", "stand", "next", "void"), False, _house_seats, _house_bets("side")),
    "buster-blackjack-x": Setup(
        "buster-blackjack-x", lambda: BusterBlackjackX(BusterRules(banker="house"), Limits(500, 50000)),
        ("deal", "stand", "next", "void", "double", "split", "surrender", "insurance"), False,
        _house_seats, _house_bets("side")),
    "blackjack-extreme": Setup(
        "blackjack-extreme", lambda: BlackjackExtreme(BlackjackExtremeRules(), Limits(500, 50000)),
        ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void"), True,
        _extreme_seats, _extreme_bets, least=500, refill=(2000, 50_000)),
    "holdem-blackjack": Setup(
        "holdem-blackjack",
        lambda: HoldemBlackjack(HoldemBlackjackRules(rake_percent=10, rake_cap=500), Limits(100, 100_000)),
        ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void"), True,
        _holdem_seats, _holdem_bets, (100, 100_000), pot=True, least=1000, refill=(2000, 20_000)),
}
"""Each game the model deals, by name."""
