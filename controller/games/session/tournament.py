"""A tournament's clock and standings: the level and its blinds, the places, the winner.

The clock itself (:class:`~controller.games.parts.tournament.Schedule`) answers
with :class:`LevelStarted` events; the standings change by
:class:`PlayerEliminated` and :class:`TournamentEnded`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Self

from controller.events.registry import Event, event
from controller.games.session.part import SessionPart, session_part


@event("tournament.level")
@dataclass(frozen=True)
class LevelStarted(Event):
    """Tournament ``level`` starts with these ``blinds`` (cents) until ``ends_at`` (``tournament.level``)."""

    level: int
    blinds: tuple[int, ...]
    ends_at: str


@event("player.eliminated")
@dataclass(frozen=True)
class PlayerEliminated(Event):
    """A tournament player reached zero and finished in ``place`` (``player.eliminated``)."""

    seat: int
    place: int


@event("tournament.ended")
@dataclass(frozen=True)
class TournamentEnded(Event):
    """One player is left: ``seat`` wins the table (``tournament.ended``)."""

    seat: int


@session_part("tournament")
@dataclass(frozen=True)
class Tournament(SessionPart):
    """The ``level`` (0: no tournament under way) with its ``blinds`` until ``ends_at``; the seats
    eliminated and their ``places``; the ``winner``."""

    events = (LevelStarted, PlayerEliminated, TournamentEnded)

    level: int = 0
    blinds: tuple[int, ...] = ()
    ends_at: str | None = None
    places: Mapping[int, int] = field(default_factory=dict)
    winner: int | None = None

    def apply(self, event: Event) -> Self:
        """The tournament after a level starts, a player is out, or the winner is known."""
        if isinstance(event, LevelStarted):
            return replace(self, level=event.level, blinds=event.blinds, ends_at=event.ends_at)
        if isinstance(event, PlayerEliminated):
            return replace(self, places={**self.places, event.seat: event.place})
        assert isinstance(event, TournamentEnded)
        return replace(self, winner=event.seat)
