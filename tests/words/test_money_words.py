"""Money in words everywhere a person reads it (issue 33, Deliver 2): every message the games
and the table can produce is searched for a bare amount of cents (:mod:`tests.words.bare`).

What is searched:

- every game's reasons a deal is refused (``bet_problems``), for every spot below the minimum,
  above the maximum and on a seat with a stack too small;
- every game's refusals of an action (``verify``'s :class:`RuleError`), on random hands of all
  four games: at each decision, every action with an amount one cent below and above its range,
  and every action of the game the decision does not offer;
- the stack commands' refusals (a buy-in below the minimum, a stack above its ceiling);
- every registered alert's ``todo`` (:mod:`controller.events.alerts`), with every money field
  set in sample data;
- the supervisor's recall of events that carry money (pots, rake, stacks).

The dealer-mistake model (:mod:`tests.model`) checks the alerts and refusals of the hands it
deals, mistakes and all, by the same rule.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from controller.events import alerts as registry
from controller.games.interface import Game, RuleError, Session, StackChanged
from controller.history.recall import MONEY, _generic
from firmware_bridge.kernel.cards import Card
from tests.model.games import SETUPS
from tests.words.bare import bare_amounts

DECK = [Card.parse(rank + suit) for rank in "A23456789TJQK" for suit in "shdc"]


def _session(setup_stacks: bool, stacks: dict[int, int]) -> Session:
    session = Session()
    if setup_stacks:
        for seat, amount in stacks.items():
            session = session.apply(StackChanged(seat=seat, amount=amount, reason="buy_in"))
    return session


def _refusals(game: Game[Any], session: Session, bets: dict[int, dict[str, int]], rng: random.Random,
              found: list[str]) -> None:
    """Deal one hand of ``game`` at random, keeping every refusal of an action on the way."""
    if game.bet_problems(bets, session):
        return
    hand, _ = game.start(bets, session)
    deck = DECK * game.decks
    rng.shuffle(deck)
    for index in range(200):
        decision = hand.decision()
        if decision is None:
            return
        for action in game.actions:
            option = decision.actions.get(action)
            amounts = ((option.low - 1, (option.high or option.low) + 1) if option is not None
                       and option.low is not None else (None, 100_000))
            for amount in amounts:
                try:
                    hand.verify(action, amount)
                except RuleError as error:
                    found.append(str(error))
        if decision.card is not None:
            hand, _ = hand.deal(deck[index], index)
        else:
            choices = [(action, amount) for action, option in sorted(decision.actions.items())
                       for amount in ((None,) if option.low is None
                                      else (option.low, option.high or option.low))
                       if hand.can(action, amount)]
            if not choices:
                return
            hand, _ = hand.act(*rng.choice(choices))


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_a_games_refusals_name_money_in_dollars(name: str) -> None:
    setup = SETUPS[name]
    game = setup.make()
    found: list[str] = []
    spots = game.spots if hasattr(game, "spots") else ("main",)
    low, high = setup.limits
    stacks = {1: 100_000, 2: 100_000, 3: low - 1, 4: 100_000}
    session = _session(setup.stacks, stacks)
    for amount in (1, low - 1, high + 1, 10 * high):
        found += game.bet_problems({seat: {spot: amount for spot in spots} for seat in stacks}, session)
    for seed in range(30):
        rng = random.Random(seed)
        seated = setup.seats(rng)
        session = _session(setup.stacks, seated)
        placed = setup.bets(game, session, sorted(seated), rng)
        bets: dict[int, dict[str, int]] = {}
        for (seat, spot), amount in placed.items():
            bets.setdefault(seat, {})[spot] = amount
        _refusals(game, session, bets, rng, found)
    assert found, "no refusal was reached: the test would say nothing"
    assert [(text, bare_amounts(text)) for text in found if bare_amounts(text)] == []


@pytest.mark.parametrize("name", sorted(name for name, setup in SETUPS.items() if setup.stacks))
def test_the_stack_commands_refusals_name_money_in_dollars(name: str) -> None:
    game = SETUPS[name].make()
    session = _session(True, {2: 100_000})
    found = []
    for command, args in (("buy_in", {"seat": 1, "amount": 1}), ("top_up", {"seat": 2, "amount": 10**12}),
                          ("buy_in", {"seat": 1, "amount": 10**12}), ("top_up", {"seat": 2, "amount": 0})):
        try:
            game.command(command, args, session, False)
        except RuleError as error:
            found.append(str(error))
    assert len(found) == 4, found
    assert [(text, bare_amounts(text)) for text in found if bare_amounts(text)] == []


def test_every_alerts_todo_names_money_in_dollars() -> None:
    data: dict[str, Any] = {key: 123_456 for key in MONEY}
    data.update(seat=3, spot="main", device="rfid", uid="E0040150AB", index=7, hand=12, spots=[])
    told = []
    for code, kind in registry.registered().items():
        if kind.todo is not None:
            told.append(kind.todo({**data, "code": code, "severity": kind.severities[0],
                                   "message": "the alert's own words"}))
    assert told
    assert [(text, bare_amounts(text)) for text in told if bare_amounts(text)] == []


@pytest.mark.parametrize(("kind", "data", "words"), [
    ("pot", {"pots": [{"amount": 6000, "seats": [1, 2, 3]}], "rake": 300},
     "pot pots [amount $60.00 seats [1, 2, 3]] rake $3.00"),
    ("session.stacks", {"stacks": {"1": 5000, "2": 19_500}, "reason": "settled"},
     'session.stacks stacks 1 $50.00 2 $195.00 reason "settled"'),
])
def test_the_recall_writes_money_in_dollars(kind: str, data: dict[str, Any], words: str) -> None:
    line = _generic(kind, json.loads(json.dumps(data)))
    assert line == words and bare_amounts(line) == []
