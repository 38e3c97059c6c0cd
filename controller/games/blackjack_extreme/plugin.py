"""Blackjack Extreme as a plug-in: the :class:`~controller.games.spec.GameSpec` that
``pyproject.toml`` names ``blackjack-extreme`` in the entry-point group ``table_controller.games``."""

from __future__ import annotations

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.math import bank_report
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.spec import GameSpec

GAME = GameSpec(
    BlackjackExtreme, BlackjackExtremeRules,
    ("deal", "check", "raise", "fold", "stand", "next"), ("hit", "split", "surrender", "play", "void"),
    BlackjackExtreme, bank_report,
)
