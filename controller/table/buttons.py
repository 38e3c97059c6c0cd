"""What the table decides about a dealer's button (or the same action sent by control command):
a table move (DEAL, NEXT, VOID), a game action, a floor call, or a refusal in words.

:func:`press` is the one deciding function; :func:`refusal` says why a button may not be pressed
now, asking the game (:meth:`Hand.verify`) once for a game action, and the same answer lights the
buttons (:func:`live_buttons`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from controller.events.floor import MessageAcknowledged
from controller.games.interface import Option, RuleError
from controller.table.hand_steps import deal_problems, end_hand, start_hand, take_action, void_hand
from controller.table.settings import FLOOR_ACTIONS, TABLE_BUTTONS, FloorCall, waiting_words
from controller.table.writer import Decided, Step, alert

if TYPE_CHECKING:
    from controller.table.machine import Table


def press(table: Table, button: str, amount: int | None, physical: bool) -> Decided:
    """A dealer button pressed (or the same action by control command, with an ``amount`` where
    it takes one that no spot holds). A ``physical`` button must be one the table has
    (``[buttons]``); an action sent by the control socket's ``act`` (a dealer screen) needs no
    button. The ``amount`` was bounded where the command was decoded (:mod:`controller.commands`)."""
    if physical and button in TABLE_BUTTONS and button not in table.settings.buttons:
        return f"there is no {button!r} button at this table"
    if button in FLOOR_ACTIONS:
        return (yield from floor_action(table, button))
    if is_game_action(table, button):
        taken = action_amount(table, button, amount)
        reason = action_refusal(table, button, taken)
        if reason is not None:
            return f"{button}: {reason}"
        hand = table.state.hand
        assert hand is not None
        table.notice = None
        yield from take_action(table, hand, button, taken)
        return None
    reason = table_refusal(table, button)
    if reason is not None:
        return f"{button}: {reason}"
    table.notice = None
    if button == "deal":
        yield from start_hand(table)
    elif button == "next":
        yield from end_hand(table)
    else:
        yield from void_hand(table)
    return None


def floor_action(table: Table, action: str) -> Decided:
    """The dealer calls the floor (any time), or acknowledges the pit's message. A call while
    the last one is open (:attr:`TableSettings.floor_call_window`) is counted on it, neither
    journaled nor raised again."""
    if action == "call_floor":
        now, call = table.monotonic(), table.floor_call
        if call is not None and now - call.at < table.settings.floor_call_window:
            call.calls += 1
            table.repeats.note(("floor call", call.seq), logging.INFO,
                               f"call_floor counted on the floor call of event {call.seq}")
            return None
        yield alert("floor_called", "the dealer calls the floor to the table")
        table.floor_call = FloorCall(table.state.seq, now)
        return None
    message = table.state.floor.message
    if message is None:
        return "acknowledge: there is no message from the pit to acknowledge"
    yield Step([MessageAcknowledged(message)])
    return None


def is_game_action(table: Table, name: str) -> bool:
    """Whether ``name`` is a game action now (``next`` is the table's once the hand is settled)."""
    if name == "next":
        decision = table.decision()
        return decision is not None and "next" in decision.actions
    return name not in TABLE_BUTTONS


def action_amount(table: Table, action: str, given: int | None) -> int | None:
    """The amount ``action`` takes: what its spot reads now, or what the command gave."""
    decision = table.decision()
    option = decision.actions.get(action) if decision is not None else None
    if option is None or option.low is None:
        return given
    if option.spot is not None and decision is not None and decision.seat is not None:
        wager = table.live_spots.get((decision.seat, option.spot))
        return wager.amount if wager is not None else 0
    return given


def action_refusal(table: Table, action: str, amount: int | None) -> str | None:
    """Why the game action ``action`` with ``amount`` is not allowed now (the game's words), or None."""
    if action not in table.game.actions and action != "next":
        return "this game does not use that button"
    hand = table.state.hand
    if table.phase != "in_hand" or hand is None:
        return "no hand is in play"
    waiting = hand_waits_for(table)
    if waiting:
        return waiting_words(waiting)
    try:
        hand.verify(action, amount)
    except RuleError as error:
        return str(error)
    return None


def table_refusal(table: Table, button: str) -> str | None:
    """Why the table's own ``button`` (DEAL, NEXT, VOID) is not allowed now, or None: the
    machine's answer (:meth:`Phases.allows`, from :data:`controller.table.machine.TRANSITIONS`)."""
    phases = table.phases
    if button == "deal":
        if not phases.allows("deal"):
            return "a hand is already in play"
        return "; ".join(deal_problems(table)) or None
    if button == "next":
        return None if phases.allows("next") else "the hand is not settled yet"
    if phases.allows("void"):
        return None
    if table.phase == "settled":
        return "the hand is settled: pay and collect, then press NEXT"
    return "no hand is in play"


def refusal(table: Table, button: str, amount: int | None = None) -> str | None:
    """Why pressing ``button`` is not allowed now, or None if it is."""
    if is_game_action(table, button):
        return action_refusal(table, button, action_amount(table, button, amount))
    return table_refusal(table, button)


def hand_waits_for(table: Table) -> list[str]:
    """The boards the hand in play waits for: each board the table runs that is offline while a
    hand is in play. No decision of the hand is taken without them (the cards come from the
    shoe, the amounts and the chips' checks from the reader), so the hand offers none."""
    if table.phase != "in_hand":
        return []
    devices = table.state.devices
    return [name for name in table.settings.boards if not devices[name].online]


def offered(table: Table) -> dict[str, Option]:
    """The game actions open now: the hand's decision's, none while the hand waits for a board."""
    decision = table.decision()
    if decision is None or hand_waits_for(table):
        return {}
    return dict(decision.actions)


def live_buttons(table: Table) -> tuple[str, ...]:
    """The configured buttons that may be pressed now (their lights are on): the table's
    buttons the machine allows, and the game actions the hand offers now."""
    open_now = set(offered(table))
    return tuple(button for button in table.settings.buttons
                 if button in open_now or (not is_game_action(table, button)
                                           and table_refusal(table, button) is None))
