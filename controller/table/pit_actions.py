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

:func:`pit_events` is pure: the command's record (:mod:`controller.commands.table`,
decoded and checked where it entered) and the table's state in, the events (or
the refusal's words) out.
"""

from __future__ import annotations

from collections.abc import Callable

from controller.commands.registry import Command
from controller.commands.table import (
    CloseTable,
    DealerMessage,
    OpenTable,
    SetLimits,
    TrayCredit,
    TrayFill,
)
from controller.events import floor
from controller.events.registry import Event
from controller.games.interface import Limits
from controller.table import tray
from controller.table.state import TableState
from firmware_bridge.kernel.money import dollars

BETWEEN_HANDS = (CloseTable, OpenTable, SetLimits, TrayFill, TrayCredit)

Made = list[Event] | str


def pit_events(order: Command, supervisor: str, state: TableState, *, has_tray: bool,
               configured: Limits) -> Made:
    """The events the pit's command ``order`` (already decoded: its fields are checked) makes for
    the authenticated ``supervisor``, or why it is refused. ``has_tray``: whether a tray antenna is
    configured; ``configured``: the limits of the configuration."""
    if isinstance(order, BETWEEN_HANDS) and state.in_hand:
        return "only between hands: finish the hand (NEXT) or void it first"
    handler = _HANDLERS.get(type(order))
    if handler is None:
        return f"unknown command {order.name!r}"
    return handler(order, supervisor, state, has_tray, configured)


def _close(order: Command, supervisor: str, state: TableState, has_tray: bool, now: Limits) -> Made:
    if state.floor.closed:
        return "the table is closed already"
    verdict = tray.fill_verdict(state.tray)
    return [*([verdict] if verdict is not None else []), floor.TableClosed(supervisor)]


def _open(order: Command, supervisor: str, state: TableState, has_tray: bool, now: Limits) -> Made:
    if not state.floor.closed:
        return "the table is open already"
    return [floor.TableReopened(supervisor)]


def _limits(order: Command, supervisor: str, state: TableState, has_tray: bool,
            configured: Limits) -> Made:
    assert isinstance(order, SetLimits)
    low, high = order.min_bet, order.max_bet
    now = state.floor.limits or configured
    if low > high:
        return f"min_bet {dollars(low)} is above max_bet {dollars(high)}"
    if (low, high) == (now.min_bet, now.max_bet):
        return f"the limits are {dollars(low)} to {dollars(high)} already"
    return [floor.LimitsSet(low, high, supervisor)]


def _message(order: Command, supervisor: str, state: TableState, has_tray: bool, now: Limits) -> Made:
    assert isinstance(order, DealerMessage)
    if order.text.strip() == state.floor.message:
        return "that message is shown to the dealer already"
    return [floor.DealerMessage(order.text.strip(), supervisor)]


def _transfer(order: Command, supervisor: str, state: TableState, has_tray: bool, now: Limits) -> Made:
    assert isinstance(order, TrayFill | TrayCredit)
    if not has_tray:
        return 'this table has no tray: configure its antenna as "tray" in [antennas]'
    made = tray.transfer("fill" if isinstance(order, TrayFill) else "credit", order.amount,
                         supervisor, state.tray)
    return made if isinstance(made, str) else [made]


_HANDLERS: dict[type[Command], Callable[[Command, str, TableState, bool, Limits], Made]] = {
    CloseTable: _close, OpenTable: _open, SetLimits: _limits, DealerMessage: _message,
    TrayFill: _transfer, TrayCredit: _transfer,
}
"""Each pit command's rule, by its record."""
