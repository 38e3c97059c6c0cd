"""The pit's commands carried out by the table: what each one records, or why it is refused.

Every one is a supervisor's (the daemon checks the id and PIN first:
:mod:`controller.security.supervisor_gate`) and is recorded as an event naming
the supervisor:

- ``close_table`` / ``open_table``: ``table.closed`` / ``table.reopened``,
  between hands only; a closed table refuses ``deal``;
- ``set_limits`` {``min_bet``, ``max_bet``}: ``table.limits``, between hands
  only; the game is bound to them from the next hand (:class:`TableState`
  rebuilds it when it applies the event, so a restart keeps them);
- ``dealer_message`` {``text``}: ``dealer.message``, shown to the dealer until
  acknowledged (the action ``acknowledge``) or replaced; the text shown already
  is refused (a repeat records nothing);
- ``tray_fill`` / ``tray_credit`` {``amount``}: ``tray.fill`` / ``tray.credit``
  (:mod:`controller.table.tray`), between hands only, since the tray's change
  over a hand is checked against the hand's result.

:func:`pit_events` is pure: the command and the table's state in, the events
(or the refusal's words) out.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Any

from controller.events import floor
from controller.events.registry import Event
from controller.games.interface import Limits
from controller.games.parts.money import MAX_AMOUNT, dollars
from controller.table import tray
from controller.table.state import TableState

PIT_COMMANDS = ("close_table", "open_table", "set_limits", "dealer_message", "tray_fill", "tray_credit")
"""The pit's commands, each a supervisor's (docs/control.md, "The pit's commands")."""

MAX_MESSAGE = 200
"""The most characters a message to the dealer may have (it must fit the dealer display)."""

BETWEEN_HANDS = frozenset({"close_table", "open_table", "set_limits", "tray_fill", "tray_credit"})


def pit_events(name: str, args: Mapping[str, Any], state: TableState, *, has_tray: bool,
               configured: Limits) -> list[Event] | str:
    """The events the pit's command ``name`` makes (``args`` carries the authenticated
    ``supervisor``), or why it is refused. ``has_tray``: whether a tray antenna is configured;
    ``configured``: the limits of the configuration."""
    supervisor = args.get("supervisor")
    if not isinstance(supervisor, str):
        return "a supervisor's command: it needs the supervisor's id and PIN"
    if name in BETWEEN_HANDS and state.in_hand:
        return "only between hands: finish the hand (NEXT) or void it first"
    if name == "close_table":
        if state.floor.closed:
            return "the table is closed already"
        verdict = tray.fill_verdict(state.tray)
        return [*([verdict] if verdict is not None else []), floor.TableClosed(supervisor)]
    if name == "open_table":
        if not state.floor.closed:
            return "the table is open already"
        return [floor.TableReopened(supervisor)]
    if name == "set_limits":
        return _limits(args, supervisor, state.floor.limits or configured)
    if name == "dealer_message":
        text = args.get("text")
        problem = message_problem(text)
        if problem is not None:
            return problem
        assert isinstance(text, str)
        if text.strip() == state.floor.message:
            return "that message is shown to the dealer already"
        return [floor.DealerMessage(text.strip(), supervisor)]
    if name in ("tray_fill", "tray_credit"):
        if not has_tray:
            return 'this table has no tray: configure its antenna as "tray" in [antennas]'
        made = tray.transfer(name.removeprefix("tray_"), args.get("amount"), supervisor, state.tray)
        return made if isinstance(made, str) else [made]
    return f"unknown command {name!r}"


def _limits(args: Mapping[str, Any], supervisor: str, now: Limits) -> list[Event] | str:
    low, high = args.get("min_bet"), args.get("max_bet")
    for key, value in (("min_bet", low), ("max_bet", high)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_AMOUNT:
            return f"{key} must be a whole number of cents from 1 to {MAX_AMOUNT}"
    assert isinstance(low, int) and isinstance(high, int)
    if low > high:
        return f"min_bet {dollars(low)} is above max_bet {dollars(high)}"
    if (low, high) == (now.min_bet, now.max_bet):
        return f"the limits are {dollars(low)} to {dollars(high)} already"
    return [floor.LimitsSet(low, high, supervisor)]


def message_problem(text: object) -> str | None:
    """Why ``text`` cannot go to the dealer's display (not a string, empty, too long, a control
    character), or None.

    >>> message_problem("Fill on the way"), message_problem("two\\nlines")
    (None, 'text must hold no control characters (line breaks, tabs, escapes)')
    """
    if not isinstance(text, str) or not text.strip():
        return "text must be the message, in words"
    if len(text) > MAX_MESSAGE:
        return f"text may have at most {MAX_MESSAGE} characters, not {len(text)}"
    if any(unicodedata.category(char).startswith("C") for char in text):
        return "text must hold no control characters (line breaks, tabs, escapes)"
    return None
