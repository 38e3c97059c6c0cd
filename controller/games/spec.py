"""What a game package declares to the table controller: its :class:`GameSpec`.

A game is a plug-in: its package holds one ``GameSpec`` and its distribution names
it in the entry-point group ``table_controller.games`` (the config's
``[table] game``), as the four games of this package do in ``pyproject.toml``;
:mod:`controller.games.catalog` finds it by that name.

>>> from controller.games.catalog import find_game
>>> from controller.games.easy_jack.rules import EasyJackRules
>>> from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
>>> from controller.games.interface import Limits
>>> find_game("easy-jack").make(EasyJackRules(), Limits(500, 50_000)).spots
('main', 'side')
>>> find_game("easy-jack").make(HoldemBlackjackRules(), Limits(500, 50_000))
Traceback (most recent call last):
TypeError: EasyJack takes EasyJackRules rules, not HoldemBlackjackRules
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypedDict, TypeVar

from controller.games.interface import Game, Hand, Limits, Rules


class Figure(TypedDict, total=False):
    """One wager's (or figure's) entry in a :data:`MathReport`: ``house_edge`` (a fraction of
    the wager) or ``value`` (a number, such as cents, or words), and ``method``, how it was
    found; a simulated edge adds its 95% ``interval`` and the ``rounds`` (or ``hands``, with
    the ``players``) played; an exact one may name its ``decks``, a rake its ``cents``. Every
    game's figure holds its ``method``; no key is required, so that a reader may take an empty
    figure as the default of one left out (``report.get("bank_fee", {})``)."""

    method: str
    house_edge: float
    value: float | str
    interval: list[float]
    rounds: int
    hands: int
    players: int
    decks: int
    cents: int


MathReport = Mapping[str, Figure]
"""What ``table-controller math`` prints: wager (or figure) name -> its :class:`Figure`."""

R = TypeVar("R", bound=Rules)


@dataclass(frozen=True, init=False)
class GameSpec:
    """One game: its class, its rules type, the dealer buttons it needs, how to make it.

    ``game_type`` is the game's class, which declares as data its spots, actions,
    phases and commands; ``rules_type`` is its ``[game]`` options (a frozen
    dataclass with ``problems()``). ``make(rules, limits)`` returns the game bound to
    its rules and the table limits; ``math(rules)`` the figures ``table-controller
    math`` prints. A game declares them for its own rules type; the spec takes any
    :class:`~controller.games.interface.Rules` and raises TypeError for rules of
    another type than ``rules_type``.
    """

    game_type: type[Game[Hand]]
    rules_type: type[Rules]
    buttons_required: tuple[str, ...]
    buttons_optional: tuple[str, ...]
    make: Callable[[Rules, Limits], Game[Hand]]
    math: Callable[[Rules], MathReport]

    def __init__(
        self,
        game_type: type[Game[Hand]],
        rules_type: type[R],
        buttons_required: tuple[str, ...],
        buttons_optional: tuple[str, ...],
        make: Callable[[R, Limits], Game[Hand]],
        math: Callable[[R], MathReport],
    ) -> None:
        """The spec of ``game_type``, whose ``make`` and ``math`` take its ``rules_type``."""

        def checked(rules: Rules) -> R:
            if not isinstance(rules, rules_type):
                raise TypeError(f"{game_type.__name__} takes {rules_type.__name__} rules, "
                                f"not {type(rules).__name__}")
            return rules

        def made(rules: Rules, limits: Limits) -> Game[Hand]:
            return make(checked(rules), limits)

        def figures(rules: Rules) -> MathReport:
            return math(checked(rules))

        fields: dict[str, object] = {
            "game_type": game_type, "rules_type": rules_type, "buttons_required": buttons_required,
            "buttons_optional": buttons_optional, "make": made, "math": figures,
        }
        for name, value in fields.items():
            object.__setattr__(self, name, value)
