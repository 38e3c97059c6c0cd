"""What the dealer's buttons decide (and the same actions sent by control command), and the
hand's steps they take: a table move (DEAL, NEXT, VOID), a game action, a floor call, or a refusal
in words.

:func:`press` is the one deciding function for a button: it takes the table and the press and
yields the step or returns the refusal, as :mod:`controller.table.cards` does for a card and
:mod:`controller.table.chips` for the chips. :func:`refusal` says why a button may not be pressed
now, asking the game (:meth:`Hand.verify`) once for a game action, and the same answer lights the
buttons (:func:`live_buttons`).

The steps (:func:`start_hand`, :func:`take_action`, :func:`end_hand`, :func:`void_hand`) are a
press's last word: each yields its step, then calls the phase move it makes by name
(:class:`controller.table.machine.Phases`); a game call's step (:func:`game_step`, also a dealt
card's) settles the hand once it has its results (:func:`settle`). DEAL and NEXT check the two ends
of a hand: DEAL is refused while :func:`deal_problems` names any, and NEXT raises
``payout_mismatch`` for each spot :func:`payout_checks` names that does not read what it should;
the picture publishes those spots too (``checks``).
"""

from __future__ import annotations

import logging
from collections.abc import Generator, Sequence
from dataclasses import replace

from controller.events import alerts as alert_registry
from controller.events import table as events
from controller.events.floor import MessageAcknowledged
from controller.events.hand import Alerted
from controller.events.registry import Event
from controller.games.interface import GameEvent, Hand, Option, RuleError
from controller.table import devices, gather, tray
from controller.table.chips import sync_bets
from controller.table.facing import TableFacing
from controller.table.ledger import Off, settled_spots, unexplained
from controller.table.settings import FLOOR_ACTIONS, TABLE_BUTTONS, FloorCall, TakenAction, waiting_words
from controller.table.writer import Decided, Step, alert
from firmware_bridge.kernel.money import dollars


def press(table: TableFacing, button: str, amount: int | None, physical: bool) -> Decided:
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
        reason = action_refusal(table, button, taken) or repeat_refusal(table, button)
        if reason is not None:
            return f"{button}: {reason}"
        hand = table.state.hand
        assert hand is not None
        table.notice = None
        if button == "next":
            yield from mispay_alerts(table)
        decision = table.decision()
        table.taken = TakenAction(button, decision.seat if decision is not None else None, table.monotonic())
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


def floor_action(table: TableFacing, action: str) -> Decided:
    """The dealer calls the floor (any time), or acknowledges the pit's message. A call while
    the last one is open
    (:attr:`TableSettings.floor_call_window <controller.table.settings.TableSettings.floor_call_window>`)
    is counted on it, neither journaled nor raised again."""
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


def is_game_action(table: TableFacing, name: str) -> bool:
    """Whether ``name`` is a game action now (``next`` is the table's once the hand is settled)."""
    if name == "next":
        decision = table.decision()
        return decision is not None and "next" in decision.actions
    return name not in TABLE_BUTTONS


def action_amount(table: TableFacing, action: str, given: int | None) -> int | None:
    """The amount ``action`` takes: what its spot reads now, or what the command gave."""
    decision = table.decision()
    option = decision.actions.get(action) if decision is not None else None
    if option is None or option.low is None:
        return given
    if option.spot is not None and decision is not None and decision.seat is not None:
        wager = table.live_spots.get((decision.seat, option.spot))
        return wager.amount if wager is not None else 0
    return given


def action_refusal(table: TableFacing, action: str, amount: int | None) -> str | None:
    """Why the game action ``action`` with ``amount`` is not allowed now (the game's words), or None."""
    if action not in table.game.actions and action != "next":
        return "this game does not use that button"
    hand = table.state.hand
    if table.phase != "in_hand" or hand is None:
        return "no hand is in play"
    waiting = wait_words(table)
    if waiting:
        return waiting
    try:
        hand.verify(action, amount)
    except RuleError as error:
        return str(error)
    if action == "next" and table.settings.mispay == "hold":
        off = walk_mispaid(table)
        if off:
            return "; ".join(map(off_words, off))
    return None


def walk_mispaid(table: TableFacing) -> list[Off]:
    """A payment walk (a game's own NEXT, one payment line at a time): each spot of the ledger
    (:meth:`Hand.committed`: the line on the display paid) that the reader reads short or over.
    Empty with ``payout_check`` off."""
    if table.state.hand is None or not table.settings.payout_check:
        return []
    return unexplained(table.spots_due(), table.live_spots)


def mispay_alerts(table: TableFacing) -> Steps:
    """With ``[table] mispay = "alert"``, a payment walk's NEXT taken while spots read wrong: a
    ``mispay`` alert for each, recorded before the walk moves on (with ``"hold"`` it was refused)."""
    for off in walk_mispaid(table):
        yield Step([alert_registry.alert(
            "mispay", f"{off_words(off)}; the payment walk went on ([table] mispay)",
            seat=off.seat, spot=off.spot, expected=off.due, read=off.read)])


def off_words(off: Off) -> str:
    """A spot paid wrong in a dealer's words.

    >>> off_words(Off(3, "main", 6500, 7000))
    'seat 3 main reads $65.00, should hold $70.00: pay $5.00 more'
    >>> off_words(Off(3, "main", 7500, 7000))
    'seat 3 main reads $75.00, should hold $70.00: take back $5.00'
    """
    head = f"seat {off.seat} {off.spot} reads {dollars(off.read)}, should hold {dollars(off.due)}"
    if off.difference < 0:
        return f"{head}: pay {dollars(-off.difference)} more"
    return f"{head}: take back {dollars(off.difference)}"


def repeat_refusal(table: TableFacing, action: str) -> str | None:
    """Why ``action``, pressed again so soon after the same action was taken by another seat, is
    refused once as a double press (a dealer's finger, or a touch screen's double tap, would
    otherwise take it for the seat now in turn); None when it is taken. Within
    :attr:`TableSettings.repeat_window <controller.table.settings.TableSettings.repeat_window>` of
    the last game action taken, of the same name, while
    another seat is in turn; the press after the refusal is taken."""
    last, window = table.taken, table.settings.repeat_window
    decision = table.decision()
    if last is None or last.repeated or window <= 0 or last.action != action or decision is None \
            or decision.seat == last.seat:
        return None
    if table.monotonic() - last.at >= window:
        return None
    table.taken = replace(last, repeated=True)
    whose = "the dealer" if decision.seat is None else f"seat {decision.seat}"
    was = "the dealer's" if last.seat is None else f"seat {last.seat}'s"
    return (f"pressed again just after {was} {action}: {whose} is in turn now; "
            f"press {action} again to take it for {whose}")


def table_refusal(table: TableFacing, button: str) -> str | None:
    """Why the table's own ``button`` (DEAL, NEXT, VOID) is not allowed now, or None: the
    machine's answer (:meth:`Phases.allows <controller.table.machine.Phases.allows>`, from
    :data:`controller.table.machine.TRANSITIONS`)."""
    phases = table.phases
    if button == "deal":
        if not phases.allows("deal"):
            return "a hand is already in play"
        return "; ".join(deal_problems(table)) or None
    if button == "next":
        return wait_words(table) if phases.allows("next") else "the hand is not settled yet"
    if phases.allows("void"):
        return None
    if table.phase == "settled":
        return "the hand is settled: pay and collect, then press NEXT"
    return "no hand is in play"


def refusal(table: TableFacing, button: str, amount: int | None = None) -> str | None:
    """Why pressing ``button`` is not allowed now, or None if it is."""
    if is_game_action(table, button):
        return action_refusal(table, button, action_amount(table, button, amount))
    return table_refusal(table, button)


def hand_waits_for(table: TableFacing) -> list[str]:
    """The boards the hand in play waits for: each board the table runs that is offline while a
    hand is in play. No decision of the hand is taken without them (the cards come from the
    shoe, the amounts and the chips' checks from the reader), so the hand offers none."""
    if table.phase != "in_hand":
        return []
    devices = table.state.devices
    return [name for name in table.settings.boards if not devices[name].online]


def wait_words(table: TableFacing) -> str | None:
    """Why the hand waits now, in a dealer's words, or None. In play: while a board is offline
    (:func:`hand_waits_for`), while a finished round's bets lie on the spots
    (:mod:`controller.table.gather`), or while the spot reader, back after a gap, has not read every spot
    again (its readings the table holds may be stale: :mod:`controller.table.devices`). Settled,
    with spots NEXT checks (:func:`payout_checks`) or a last round's bets to gather: NEXT waits for
    the same, so it never checks a reading older than the chips' last move and raises no alert
    from one.

    The reader back and every spot read, nothing waits; nor does a settled hand whose spots
    NEXT does not check."""
    offline = hand_waits_for(table)
    if offline:
        return waiting_words(offline)
    reader = devices.SPOT_READER
    read = reader in table.settings.boards
    if read and table.phase == "settled" and (payout_checks(table) or gather.to_gather(table)):
        if not table.state.devices[reader].online:
            return (f"the {reader} is offline: pay and collect as shown; NEXT checks the spots once "
                    "it is back")
        if table.spots_unread:
            return f"the {reader} is reading every spot again: NEXT checks them once it has"
    gathering = gather.gather_words(table)
    if gathering:
        return f"{gathering[0].lower()}{gathering[1:]} first"
    if not read:
        return None
    if table.phase == "in_hand" and table.spots_unread:
        return f"the {reader} is reading every spot again: the hand waits until it has"
    return None


def offered(table: TableFacing) -> dict[str, Option]:
    """The game actions open now: the hand's decision's, none while the hand waits
    (:func:`wait_words`)."""
    decision = table.decision()
    if decision is None or wait_words(table):
        return {}
    return dict(decision.actions)


def live_buttons(table: TableFacing) -> tuple[str, ...]:
    """The configured buttons that may be pressed now (their lights are on): the table's
    buttons the machine allows, and the game actions the hand offers now."""
    open_now = set(offered(table))
    return tuple(button for button in table.settings.buttons
                 if button in open_now or (not is_game_action(table, button)
                                           and table_refusal(table, button) is None))


Steps = Generator[Step, None, None]
"""Steps yielded, nothing returned."""


def start_hand(table: TableFacing) -> Steps:
    """DEAL: ``hand.started`` and ``bets.closed`` with the next hand number, and whatever the
    game's start brings (blinds posted, ...), as one step; the table moves to ``in_hand``."""
    state, game = table.state, table.game
    layout = state.layout()
    started, caused = game.start(layout, state.session)
    bets = tuple(events.Wager(seat, spot, amount) for (seat, spot), amount in sorted(state.bets.items()))
    opened = events.HandStarted(game.seats_in_play(layout, state.session), game.dealer_seat(state.session))
    verdict = tray.fill_verdict(state.tray)
    checked = [verdict] if verdict is not None else []
    yield game_step(table, events.BetsClosed(bets), {"call": "start"}, started, caused,
                    before=[*checked, opened])
    table.phases.deal()
    settle(table)


def take_action(table: TableFacing, hand: Hand, action: str, amount: int | None) -> Steps:
    """A game action ``hand`` allows (verified: the game takes it without verifying it again):
    ``player.action``, and whatever it brings about."""
    result, caused = hand.take(action, amount)
    head, *rest = caused
    call: dict[str, str | int] = {"call": "act", "action": action}
    if amount is not None:
        call["amount"] = amount
    yield game_step(table, head, call, result, rest)
    settle(table)


def end_hand(table: TableFacing) -> Steps:
    """NEXT: a ``payout_mismatch`` for each spot not paid or collected right, what the hand
    changes in the session, ``hand.ended``; the table moves to ``betting``, and the spots read
    since are published."""
    hand = table.state.hand
    assert hand is not None
    counted = table.state.tray
    off = tray.variance(counted.at_start, counted.amount, hand.house_result())
    yield Step([*payout_mismatches(table), *([off] if off is not None else []),
                *table.game.finish(hand, table.state.session), events.HandEnded(table.state.hand_no)])
    table.phases.next()
    yield from sync_bets(table)


def void_hand(table: TableFacing) -> Steps:
    """VOID: what the game shows of a misdeal, ``hand.voided``; nothing is settled; the table
    moves to ``betting``, and the spots read since are published."""
    hand = table.state.hand
    shown = hand.void() if hand is not None else ()
    yield Step([*shown, events.HandVoided("voided by the dealer")])
    table.phases.void()
    yield from sync_bets(table)


def game_step(table: TableFacing, head: GameEvent, call: dict[str, str | int], result: Hand,
              caused: Sequence[GameEvent], *, before: Sequence[Event] = ()) -> Step:
    """A step caused by a game call: ``before``, ``head`` (carrying the call), then ``caused``."""
    return Step([*before, head, *caused], call=call, at=len(before), result=result)


def settle(table: TableFacing) -> None:
    """The machine's own move: the hand in play is settled once it has its results."""
    if table.phase == "in_hand" and table.state.results is not None:
        table.phases.settle()


def deal_problems(table: TableFacing) -> list[str]:
    """Why a deal cannot start now (empty when it can). Drawn from the journaled state, the
    latched memory fault and which spots hold more chips than the reader can count, so it is
    worked out again only when one of them changed (the picture asks for it several times)."""
    state = table.state
    incomplete = tuple(sorted(key for key, wager in table.live_spots.items() if not wager.complete))
    key = (state.seq, table.critical_fault, incomplete)
    seen = table.deal_problems_seen
    if seen is not None and seen[0] is state and seen[1] == key:
        return list(seen[2])
    problems: list[str] = []
    if table.critical_fault is not None:
        problems.append(f"critical memory fault ({table.critical_fault}): a supervisor clears it "
                        "once it is repaired")
    if state.floor.closed:
        problems.append("the table is closed by the pit")
    for name in table.settings.boards:
        if not state.devices[name].online:
            problems.append(f"the {name} is offline")
    shoe = state.shoe
    if shoe.shoe_id is None:
        problems.append("the shoe is not loaded")
    elif shoe.cut_card_out:
        problems.append("the cut card is out: load a new shoe")
    elif shoe.decks != table.game.decks:
        problems.append(f"the shoe holds {shoe.decks} decks, the game is set for {table.game.decks}")
    problems.extend(table.game.bet_problems(state.layout(), state.session))
    for seat, spot in incomplete:
        problems.append(f"seat {seat} {spot} holds more chips than the reader can count: "
                        "colour up to larger chips")
    table.deal_problems_seen = (state, key, tuple(problems))
    return problems


def payout_checks(table: TableFacing) -> dict[tuple[int, str], int]:
    """The spots NEXT checks and what each should read then: the settled hand's ledger
    (:func:`controller.table.ledger.settled_spots`), or none with ``payout_check`` off. The one
    rule: the picture publishes it (``checks``) and a screen draws a box to pay or collect for
    exactly these spots."""
    return settled_spots(table.state) if table.settings.payout_check else {}


def payout_mismatches(table: TableFacing) -> list[Alerted]:
    """A ``payout_mismatch`` alert (warning) for each spot NEXT checks (:func:`payout_checks`)
    whose chips, as the RFID reader reads them now, are not what the settled hand's ledger says it
    should hold once paid and collected."""
    made: list[Alerted] = []
    for off in unexplained(payout_checks(table), table.live_spots):
        gap = (f"{dollars(-off.difference)} short" if off.difference < 0
               else f"{dollars(off.difference)} over")
        made.append(alert_registry.alert(
            "payout_mismatch",
            f"seat {off.seat} {off.spot} reads {dollars(off.read)} at NEXT, should read {dollars(off.due)} "
            f"once paid and collected: {gap}", seat=off.seat, spot=off.spot, expected=off.due,
            read=off.read))
    return made
