"""Easy Jack as a plug-in: the :class:`~controller.games.spec.GameSpec` that ``pyproject.toml``
names ``easy-jack`` in the entry-point group ``table_controller.games``."""

from __future__ import annotations

from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.math import house_edge
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.spec import GameSpec

GAME = GameSpec(EasyJack, EasyJackRules, ("deal", "stand", "next"), ("void",), EasyJack, house_edge)
