"""The table's own control commands (docs/control.md): the dealer's, the reads, and the pit's.

Every game's table answers these; a game's own commands are registered by the
game or the part that declares them (seat stacks: :mod:`controller.games.parts.stacks`).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from controller.commands.registry import (
    ANYONE,
    SUPERVISOR,
    Command,
    cents,
    command,
    count_field,
    name_field,
    seq_field,
    text_field,
)

CLEAR_REPLY_WITHIN = 600.0
"""Seconds the table may take to answer ``critical_memory_clear``: its whole check of the journal, a
year of segments read at a Raspberry Pi's pace (tens of seconds, docs/benchmarks.md), with room to
spare for a loaded machine."""

MAX_MESSAGE = 200
"""The most characters a message to the dealer may have (it must fit the dealer display)."""


def message_problem(words: object) -> str | None:
    """Why ``words`` cannot go to the dealer's display (not a string, empty, too long, a control
    character), or None.

    >>> message_problem("Fill on the way"), message_problem("two\\nlines")
    (None, 'text must hold no control characters (line breaks, tabs, escapes)')
    """
    if not isinstance(words, str) or not words.strip():
        return "text must be the message, in words"
    if len(words) > MAX_MESSAGE:
        return f"text may have at most {MAX_MESSAGE} characters, not {len(words)}"
    if any(unicodedata.category(char).startswith("C") for char in words):
        return "text must hold no control characters (line breaks, tabs, escapes)"
    return None


@command("press", who=ANYONE, label="Press a button")
@dataclass(frozen=True)
class Press(Command):
    """A dealer button pressed through the control socket (it must be one of ``[buttons]``)."""

    button: str = name_field("a button")
    amount: int | None = cents(optional=True)

    @property
    def subject(self) -> str:
        """A refusal names the button."""
        return self.button


@command("act", who=ANYONE, label="Take an action")
@dataclass(frozen=True)
class Act(Command):
    """One of the actions open now, by name, button or none (what a dealer screen sends)."""

    action: str = name_field("an action")
    amount: int | None = cents(optional=True)

    @property
    def subject(self) -> str:
        """A refusal names the action."""
        return self.action


@command("state", who=ANYONE, label="Read the table's state", books=False)
@dataclass(frozen=True)
class State(Command):
    """The table's state object as of its last event (answered by the pit server)."""


@command("links", who=ANYONE, label="Read the boards' links", books=False)
@dataclass(frozen=True)
class Links(Command):
    """Each board's link and its counters, and the pit sockets' sync requests."""


@command("floor_answered", who=ANYONE, label="Floor call answered", books=False)
@dataclass(frozen=True)
class FloorAnswered(Command):
    """The pit answered the dealer's floor call whose ``floor_called`` alert has this ``seq`` (the
    pit monitor sends it when the alert is acknowledged): the dealer's next call raises a new alert."""

    seq: int = seq_field()


@command("shoe_resync", who=SUPERVISOR, label="Resync the shoe")
@dataclass(frozen=True)
class ShoeResync(Command):
    """The loaded shoe's next card may come at any index ahead, once."""


RECALL_HANDS = 10
"""The most hands ``recall`` gives back (and how many unless asked for fewer)."""


@command("recall", who=SUPERVISOR, label="Recall the last hands", books=False)
@dataclass(frozen=True)
class Recall(Command):
    """The last hands step by step, as the pit saw them (a dispute settled at the table)."""

    hands: int = count_field(1, RECALL_HANDS, RECALL_HANDS)


@command("critical_memory_clear", who=SUPERVISOR, label="Clear the memory fault",
         reply_within=CLEAR_REPLY_WITHIN)
@dataclass(frozen=True)
class CriticalMemoryClear(Command):
    """Clear the critical memory fault, once the whole check passes again
    (:mod:`controller.journal.critical_memory`)."""


@command("close_table", who=SUPERVISOR, label="Close the table")
@dataclass(frozen=True)
class CloseTable(Command):
    """Close the table between hands (``deal`` is refused until ``open_table``)."""


@command("open_table", who=SUPERVISOR, label="Open the table")
@dataclass(frozen=True)
class OpenTable(Command):
    """Open a closed table between hands."""


@command("set_limits", who=SUPERVISOR, label="Set the limits")
@dataclass(frozen=True)
class SetLimits(Command):
    """The table's limits from the next hand, in cents."""

    min_bet: int = cents(low=1)
    max_bet: int = cents(low=1)


@command("dealer_message", who=SUPERVISOR, label="Message the dealer")
@dataclass(frozen=True)
class DealerMessage(Command):
    """Words shown to the dealer until acknowledged or replaced."""

    text: str = text_field(message_problem)


@command("tray_fill", who=SUPERVISOR, label="Fill the tray")
@dataclass(frozen=True)
class TrayFill(Command):
    """Chips brought to the tray, in cents."""

    amount: int = cents(low=1)


@command("tray_credit", who=SUPERVISOR, label="Credit from the tray")
@dataclass(frozen=True)
class TrayCredit(Command):
    """Chips taken from the tray to the cage, in cents."""

    amount: int = cents(low=1)


PIT_COMMANDS: tuple[type[Command], ...] = (CloseTable, OpenTable, SetLimits, DealerMessage,
                                           TrayFill, TrayCredit)
"""The pit's commands, each a supervisor's (docs/control.md, "The pit's commands")."""


TABLE_ACTIONS = {"deal": "Deal", "next": "Next", "void": "Void the hand",
                 "call_floor": "Call the floor", "acknowledge": "Acknowledge the message"}
"""The labels of the table's own actions, sent by ``act`` (or ``press``) like a game's."""
