"""The monitor builds the games' strategies on a thread: None until built, then the same one each time."""

from __future__ import annotations

import time

from controller.games.catalog import rules_json
from controller.games.easy_jack.rules import EasyJackRules
from controller.podium.monitor.apart.strategies import StrategiesApart
from controller.podium.protection.strategies import Situation
from controller.podium.ratings.hands import canonical_rules


def test_a_strategy_is_built_apart_and_given_once_ready() -> None:
    apart = StrategiesApart()
    rules = rules_json(EasyJackRules(decks=8))
    key = canonical_rules(rules)
    try:
        first = apart("easy-jack", rules, key)
        deadline = time.monotonic() + 60
        built = first
        while built is None and time.monotonic() < deadline:
            time.sleep(0.05)
            built = apart("easy-jack", rules, key)
        assert first is None and built is not None
        assert built.advice(Situation((6,), None, False, False, 1)) == "hit"
        assert built.advice(Situation((4, 2), None, False, False, 1)) == "stand"
        assert apart("easy-jack", rules, key) is built
        assert apart("holdem-blackjack", {}, "{}") is None and apart(None, None, "") is None
    finally:
        apart.let_go()
