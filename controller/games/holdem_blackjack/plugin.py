"""Hold'em Blackjack as a plug-in: the :class:`~controller.games.spec.GameSpec` that
``pyproject.toml`` names ``holdem-blackjack`` in the entry-point group ``table_controller.games``."""

from __future__ import annotations

from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.math import house_take
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.spec import GameSpec

GAME = GameSpec(
    HoldemBlackjack, HoldemBlackjackRules,
    ("deal", "check", "call", "raise", "fold", "stand", "next"), ("bet", "void"),
    HoldemBlackjack, house_take,
)
