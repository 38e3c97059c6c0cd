"""The games this controller can run, by the name used in the configuration's ``[table] game``.

Each entry declares a game as data: its rules type (the ``[game]`` options),
its spots and dealer buttons, how to bind it to the table limits, and what
``table-controller math`` reports for it. The table itself names no game.

>>> sorted(GAMES)
['blackjack-extreme', 'buster-blackjack-x', 'easy-jack', 'holdem-blackjack']
>>> GAMES["easy-jack"].spots
('main', 'side')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.math import bank_report
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.math import house_edges as buster_math
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.math import house_edge
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.math import house_take
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Game, Hand, Limits, Rules

MathReport = Mapping[str, Mapping[str, Any]]
"""What ``table-controller math`` prints: wager (or figure) name -> its figures, among them
``house_edge`` (a fraction) or ``value``, and ``method`` (how it was found)."""


@dataclass(frozen=True)
class GameSpec:
    """One game: its rules type, its bet spots, the dealer buttons it needs, how to make it.

    ``make`` and ``math`` take the game's own rules type (``rules_type``, parsed
    from ``[game]``), which only the game knows: that is the one place typed
    ``Any``. ``game_type`` is the game's class (its phases, actions and spots as data);
    ``make(rules, limits)`` returns the game bound to its rules and the table
    limits; ``math(rules)`` the figures ``table-controller math`` prints.
    """

    name: str
    game_type: type[Game[Hand]]
    rules_type: type[Rules]
    spots: tuple[str, ...]
    buttons_required: tuple[str, ...]
    buttons_optional: tuple[str, ...]
    make: Callable[[Any, Limits], Game[Hand]]
    math: Callable[[Any], MathReport]


GAMES: dict[str, GameSpec] = {
    "easy-jack": GameSpec(
        "easy-jack", EasyJack, EasyJackRules, EasyJack.spots, ("deal", "stand", "next"), ("void",),
        EasyJack, house_edge,
    ),
    "holdem-blackjack": GameSpec(
        "holdem-blackjack", HoldemBlackjack, HoldemBlackjackRules, HoldemBlackjack.spots,
        ("deal", "check", "call", "raise", "fold", "stand", "next"), ("bet", "void"),
        HoldemBlackjack, house_take,
    ),
    "blackjack-extreme": GameSpec(
        "blackjack-extreme", BlackjackExtreme, BlackjackExtremeRules, BlackjackExtreme.spots,
        ("deal", "check", "raise", "fold", "stand", "next"),
        ("hit", "split", "surrender", "play", "void"),
        BlackjackExtreme, bank_report,
    ),
    "buster-blackjack-x": GameSpec(
        "buster-blackjack-x", BusterBlackjackX, BusterRules, BusterBlackjackX.spots,
        ("deal", "stand", "next"), ("hit", "double", "split", "surrender", "insurance", "void"),
        BusterBlackjackX, buster_math,
    ),
}
"""Every implemented game by name."""
