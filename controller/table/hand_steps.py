"""The table's steps that call the game: a hand started, a card dealt, an action taken, the hand
ended or voided; and what DEAL and NEXT check: why a deal cannot start now, what each settled spot
should read once paid and collected.

Each step is a deciding function's last word (:mod:`controller.table.buttons`,
:mod:`controller.table.cards`): it yields the step, then calls the phase move it makes by name
(:class:`controller.table.machine.Phases`); a game call's step settles the hand once it has its results.
The checks are the two ends of a hand: DEAL is refused while :func:`deal_problems` names any, and
NEXT (:func:`end_hand`) raises ``payout_mismatch`` for each spot :func:`payout_checks` names that
does not read what it should; the picture publishes those spots too (``checks``).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from controller.events import alerts as alert_registry
from controller.events import table as events
from controller.events.hand import Alerted
from controller.events.registry import Event
from controller.games.interface import GameEvent, Hand, Stacks
from controller.table import tray
from controller.table.chips import sync_bets
from controller.table.writer import Step
from drivers.inputs import CardDrawn
from firmware_bridge.kernel.money import dollars

if TYPE_CHECKING:
    from controller.table.machine import Table

Steps = Generator[Step, None, None]
"""Steps yielded, nothing returned."""


def start_hand(table: Table) -> Steps:
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


def deal_card(table: Table, drawn: CardDrawn) -> Steps:
    """A card the hand takes: ``card.dealt`` to where the game says, and whatever it brings about."""
    hand = table.state.hand
    assert hand is not None
    result, caused = hand.deal(drawn.card, drawn.index)
    head, *rest = caused
    call: dict[str, str | int] = {"call": "deal", "card": str(drawn.card), "index": drawn.index}
    yield game_step(table, head, call, result, rest)
    settle(table)


def take_action(table: Table, hand: Hand, action: str, amount: int | None) -> Steps:
    """A game action ``hand`` allows (verified: the game takes it without verifying it again):
    ``player.action``, and whatever it brings about."""
    result, caused = hand.take(action, amount)
    head, *rest = caused
    call: dict[str, str | int] = {"call": "act", "action": action}
    if amount is not None:
        call["amount"] = amount
    yield game_step(table, head, call, result, rest)
    settle(table)


def end_hand(table: Table) -> Steps:
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


def void_hand(table: Table) -> Steps:
    """VOID: what the game shows of a misdeal, ``hand.voided``; nothing is settled; the table
    moves to ``betting``, and the spots read since are published."""
    hand = table.state.hand
    shown = hand.void() if hand is not None else ()
    yield Step([*shown, events.HandVoided("voided by the dealer")])
    table.phases.void()
    yield from sync_bets(table)


def game_step(table: Table, head: GameEvent, call: dict[str, str | int], result: Hand,
              caused: Sequence[GameEvent], *, before: Sequence[Event] = ()) -> Step:
    """A step caused by a game call: ``before``, ``head`` (carrying the call), then ``caused``."""
    return Step([*before, head, *caused], call=call, at=len(before), result=result)


def settle(table: Table) -> None:
    """The machine's own move: the hand in play is settled once it has its results."""
    if table.phase == "in_hand" and table.state.results is not None:
        table.phases.settle()


def deal_problems(table: Table) -> list[str]:
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


def payout_expected(table: Table) -> dict[tuple[int, str], int]:
    """What each settled spot should read once paid and collected: its wagers plus their
    payouts (0 for a lost wager), by (seat, spot). Seats whose money the table keeps as a
    stack (the game settles them in the stack, not in chips on the spot) are left out."""
    expected: dict[tuple[int, str], int] = {}
    stacks = table.state.session[Stacks].stacks
    for result in table.state.results or ():
        if result.seat not in stacks:
            key = (result.seat, result.spot)
            expected[key] = expected.get(key, 0) + result.wager + result.payout
    return expected


def payout_checks(table: Table) -> dict[tuple[int, str], int]:
    """The spots NEXT checks and what each should read then: :func:`payout_expected`, or none
    with ``payout_check`` off. The one rule: the picture publishes it (``checks``) and a screen
    draws a box to pay or collect for exactly these spots."""
    return payout_expected(table) if table.settings.payout_check else {}


def payout_mismatches(table: Table) -> list[Alerted]:
    """A ``payout_mismatch`` alert (warning) for each spot NEXT checks (:func:`payout_checks`)
    whose chips, as the RFID reader reads them now, are not what it should hold once paid and
    collected."""
    made: list[Alerted] = []
    for (seat, spot), expected in sorted(payout_checks(table).items()):
        live = table.live_spots.get((seat, spot))
        read = live.amount if live is not None else 0
        if read == expected:
            continue
        gap = (f"{dollars(expected - read)} short" if read < expected
               else f"{dollars(read - expected)} over")
        made.append(alert_registry.alert(
            "payout_mismatch",
            f"seat {seat} {spot} reads {dollars(read)} at NEXT, should read {dollars(expected)} "
            f"once paid and collected: {gap}", seat=seat, spot=spot, expected=expected, read=read))
    return made
