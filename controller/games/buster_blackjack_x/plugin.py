"""Buster Blackjack X as a plug-in: the :class:`~controller.games.spec.GameSpec` that
``pyproject.toml`` names ``buster-blackjack-x`` in the entry-point group ``table_controller.games``."""

from __future__ import annotations

from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.math import house_edges
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.spec import GameSpec

GAME = GameSpec(
    BusterBlackjackX, BusterRules,
    ("deal", "stand", "next"), ("hit", "double", "split", "surrender", "insurance", "void"),
    BusterBlackjackX, house_edges,
)
