"""Each game that keeps seat stacks refuses a buy-in or top-up of 0 or fewer cents by its own rule
(:func:`controller.games.parts.stacks.stack_command`), not only through the table's check of every
amount, which lets 0 through and refuses only amounts below 0 (issue 26 item 11)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from controller.games.interface import Game, RuleError, Session, StackChanged
from controller.games.parts.stacks import StackRules, stack_command
from tests.games.blackjack_extreme.script import make_game
from tests.games.buster_blackjack_x.helpers import game as buster
from tests.games.holdem_blackjack.test_game import game as holdem

GAMES: dict[str, Callable[[], Game[Any]]] = {
    "holdem-blackjack": holdem,
    "blackjack-extreme": make_game,
    "buster-blackjack-x (a player banks)": lambda: buster(banker="rotate"),
}


@pytest.mark.parametrize("amount", [0, -1, -20_000])
def test_the_stack_rule_refuses_a_buy_in_or_top_up_of_0_or_fewer_cents(amount: int) -> None:
    rules = StackRules(min_buy_in=0)                          # no minimum to hide behind
    with pytest.raises(RuleError, match=r"seat 3: buy_in must be more than 0 cents$"):
        stack_command("buy_in", {"seat": 3, "amount": amount}, Session(), False, rules)
    session = Session().apply(StackChanged(3, 20_000, "buy_in"))
    with pytest.raises(RuleError, match=r"seat 3: top_up must be more than 0 cents$"):
        stack_command("top_up", {"seat": 3, "amount": amount}, session, False, rules)
    assert stack_command("top_up", {"seat": 3, "amount": 1}, session, False, rules) == (
        StackChanged(3, 20_001, "rebuy"),)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("amount", [0, -500])
def test_every_game_with_stacks_refuses_a_top_up_of_0_or_fewer_cents(name: str, amount: int) -> None:
    game = GAMES[name]()
    (bought,) = game.command("buy_in", {"seat": 3, "amount": 20_000}, Session(), False)
    session = Session().apply(bought)
    with pytest.raises(RuleError, match=r"seat 3: top_up must be more than 0 cents$"):
        game.command("top_up", {"seat": 3, "amount": amount}, session, False)
    assert game.command("top_up", {"seat": 3, "amount": 500}, session, False) == (
        StackChanged(3, 20_500, "rebuy"),)
