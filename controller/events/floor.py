"""The events of the pit's actions on a table: closing and opening it, its limits, a message to
the dealer.

Each comes from a supervisor's control command (:mod:`controller.table.pit_actions`) and names the
supervisor; the dealer's acknowledgement of a message is the dealer's action ``acknowledge``.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.events.registry import Event, event


@event("table.closed")
@dataclass(frozen=True)
class TableClosed(Event):
    """The pit closed the table (between hands): no hand is dealt until it opens again. Every
    player rating open at the table ends here."""

    supervisor: str


@event("table.reopened")
@dataclass(frozen=True)
class TableReopened(Event):
    """The pit opened the table again after a ``table.closed``: hands may be dealt."""

    supervisor: str


@event("table.limits")
@dataclass(frozen=True)
class LimitsSet(Event):
    """The pit set the table's limits, in cents, both inclusive: they bind from the next hand."""

    min_bet: int
    max_bet: int
    supervisor: str


@event("dealer.message")
@dataclass(frozen=True)
class DealerMessage(Event):
    """The pit's message to the dealer, shown until the dealer acknowledges it or another replaces it."""

    text: str
    supervisor: str


@event("dealer.acknowledged")
@dataclass(frozen=True)
class MessageAcknowledged(Event):
    """The dealer acknowledged the pit's message ``text`` (the action ``acknowledge``)."""

    text: str
