"""Blackjack Extreme's options (the ``[game]`` section) and the seed's blind levels.

Every option has the seed's rule as its default; ``docs/games/blackjack-extreme.md``
explains each one.

>>> BlackjackExtremeRules().problems()
[]
>>> BlackjackExtremeRules(decks=6, format="sit-and-go", levels={1: 2000, 3: 6000}).problems()
['game.decks: must be 1 or 2, not 6', "game.format: must be 'ring' or 'tournament', not 'sit-and-go'", \
'game.levels: no minimum for level 2']
"""

from __future__ import annotations

from dataclasses import dataclass, field

SEED_LEVELS = (2000, 4000, 6000, 8000, 10000, 15000, 20000, 25000, 30000, 40000, 50000, 100000,
               250000, 500000)
"""The seed's suggested levels: each level's minimum blind, in cents, one seed chip being $1."""

FORMATS = ("ring", "tournament")


def _seed_levels() -> dict[int, int]:
    return {level: minimum for level, minimum in enumerate(SEED_LEVELS, start=1)}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class BlackjackExtremeRules:
    """The options of a Blackjack Extreme table; amounts in cents.

    ``decks``: 1 or 2. ``blind_cap``: a blind may be at most this many times
    the minimum (0: only the table maximum caps it). ``heads_up_draw``: with one
    player left against the dealer, the dealer may draw to a losing hard 17 to 20.
    ``format``: ``"ring"`` or ``"tournament"``. Ring games: ``min_buy_in`` (None:
    the table minimum bet) and ``max_buy_in`` (None: no maximum) bound a stack
    bought or topped up. Tournaments: ``starting_stack`` for every player,
    ``levels`` (level -> minimum blind), ``level_minutes`` per level, and
    ``rebuy_levels``: a player who runs out during the first that many levels
    may re-buy a starting stack (0: freeze-out).
    """

    decks: int = 2
    blind_cap: int = 3
    heads_up_draw: bool = True
    format: str = "ring"
    min_buy_in: int | None = None
    max_buy_in: int | None = None
    starting_stack: int = 200_000
    level_minutes: int = 20
    levels: dict[int, int] = field(default_factory=_seed_levels)
    rebuy_levels: int = 0

    @property
    def tournament(self) -> bool:
        """Whether this is a tournament table (else a ring game)."""
        return self.format == "tournament"

    def problems(self) -> list[str]:
        """Every wrong value, one line each: ``game.<key>: <what is wrong>``; empty when all is well."""
        found: list[str] = []
        if not _is_int(self.decks) or self.decks not in (1, 2):
            found.append(f"game.decks: must be 1 or 2, not {self.decks!r}")
        if not _is_int(self.blind_cap) or self.blind_cap < 0:
            found.append(f"game.blind_cap: must be a whole number, 0 or more, not {self.blind_cap!r}")
        if not isinstance(self.heads_up_draw, bool):
            found.append(f"game.heads_up_draw: must be true or false, not {self.heads_up_draw!r}")
        if self.format not in FORMATS:
            found.append(f"game.format: must be 'ring' or 'tournament', not {self.format!r}")
        for key in ("min_buy_in", "max_buy_in"):
            value = getattr(self, key)
            if value is not None and (not _is_int(value) or value <= 0):
                found.append(f"game.{key}: must be a positive number of cents, not {value!r}")
        low, high = self.min_buy_in, self.max_buy_in
        if _is_int(low) and _is_int(high) and low is not None and high is not None and low > high:
            found.append(f"game.min_buy_in: {low} is above game.max_buy_in {high}")
        for key in ("starting_stack", "level_minutes"):
            value = getattr(self, key)
            if not _is_int(value) or value <= 0:
                found.append(f"game.{key}: must be a positive whole number, not {value!r}")
        if not _is_int(self.rebuy_levels) or self.rebuy_levels < 0:
            found.append(f"game.rebuy_levels: must be a whole number, 0 or more, not {self.rebuy_levels!r}")
        found.extend(self._level_problems())
        return found

    def _level_problems(self) -> list[str]:
        levels = self.levels
        if not isinstance(levels, dict) or not levels:
            return ["game.levels: must be a table of level -> minimum blind in cents"]
        found = [f"game.levels: level {level!r} must be a whole number from 1"
                 for level in levels if not _is_int(level) or level < 1]
        found += [f"game.levels: the minimum of level {level} must be a positive number of cents"
                  for level, minimum in levels.items() if not _is_int(minimum) or minimum <= 0]
        if found:
            return found
        return [f"game.levels: no minimum for level {level}"
                for level in range(1, max(levels)) if level not in levels]

    def level_minimums(self) -> tuple[int, ...]:
        """The minimum blind of each level, level 1 first.

        >>> BlackjackExtremeRules().level_minimums()[:3]
        (2000, 4000, 6000)
        """
        return tuple(self.levels[level] for level in range(1, max(self.levels) + 1))
