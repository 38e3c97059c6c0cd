"""The money of a hand in the table's picture: what NEXT checks, what each stack gains, the jackpots.

Each is a record of :mod:`controller.events.picture`. One rule for every consumer
(docs/pit-events.md, "The table's picture"): the picture's ``checks`` are exactly the spots NEXT checks
(:meth:`~controller.table.machine.Table.payout_checks`, which raises
``payout_mismatch`` for each that reads wrong), each with what it should
read; a screen draws a box to pay or collect for those spots and no other. Where
money goes to a stack the table keeps instead, ``stack_changes`` says what NEXT
does to each stack (the game's own :meth:`Game.finish`, as NEXT will run it).
``moves`` are a pot game's chips to move, in order (:class:`HandView.moves`);
``committed`` what each spot should hold during a hand; ``jackpots`` the
progressive prizes waiting for a supervisor, and those of the settled hand
already confirmed. All are empty when there is nothing to say, so a picture
between hands carries almost nothing more.
"""

from __future__ import annotations

from controller.events.picture import Check, Jackpot, MovePicture, StackChange
from controller.games.interface import HandView, Progressive, StackChanged, Stacks
from controller.table.machine import Table

WAITING = "waiting"
"""The outcome of a wager whose prize waits for a supervisor (docs/pit-events.md, "Results")."""


def checks(table: Table) -> tuple[Check, ...]:
    """The spots NEXT checks and what each should read then (empty while NEXT checks none)."""
    return tuple(Check(seat, spot, expected)
                 for (seat, spot), expected in sorted(table.payout_checks().items()))


def moves(view: HandView | None) -> tuple[MovePicture, ...]:
    """The settled pot game's chips to move, in order (``view``: the settled hand's public view,
    None before it is settled)."""
    if view is None:
        return ()
    return tuple(MovePicture(m.kind, m.words, m.seat, m.amount, m.pot) for m in view.moves)


def stack_changes(table: Table) -> tuple[StackChange, ...]:
    """Once the hand is settled, each stack its result changes at NEXT: ``seat``, ``change``
    (cents, below 0 for a loss) and ``stack`` (after it), as the game's ``finish`` will publish
    them (``seat.stack``, reason ``result``); ``[]`` before, and in a game without stacks."""
    state = table.state
    if state.results is None or state.hand is None or not state.session[Stacks].stacks:
        return ()
    running = dict(state.session[Stacks].stacks)
    changes: dict[int, StackChange] = {}
    for event in table.game.finish(state.hand, state.session):
        if isinstance(event, StackChanged):
            before = running.get(event.seat, 0)
            if event.reason == "result" and event.amount != before:
                changes[event.seat] = StackChange(event.seat, event.amount - before, event.amount)
            running[event.seat] = event.amount
    return tuple(changes[seat] for seat in sorted(changes))


def committed(table: Table) -> dict[str, dict[str, int]]:
    """During a hand, what each spot the hand checks should hold now: seat (a string) -> spot ->
    cents; ``{}`` between hands and once settled."""
    hand = table.state.hand
    if hand is None or table.phase != "in_hand":
        return {}
    held: dict[str, dict[str, int]] = {}
    for (seat, spot), amount in sorted(hand.committed().items()):
        held.setdefault(str(seat), {})[spot] = amount
    return held


def jackpots(table: Table) -> tuple[Jackpot, ...]:
    """Every progressive prize waiting for a supervisor (``waiting`` true: ``seat``, ``prize``,
    ``amount``), then, for each seat of the settled hand whose prize waited and is no longer
    waiting, the confirmation (``waiting`` false: ``seat``, ``amount``, ``supervisor``): the
    seat's last confirmed hit (a deal is refused while any waits, so it is this hand's)."""
    state = table.state
    progressive = state.session[Progressive]
    found = [Jackpot(seat=hit.seat, prize=hit.prize, amount=hit.amount, waiting=True)
             for hit in progressive.unpaid]
    waiting = {hit.seat for hit in progressive.unpaid}
    won = sorted({r.seat for r in state.results or () if r.outcome == WAITING} - waiting)
    for seat in won:
        paid = next((hit for hit in reversed(progressive.hits) if hit.seat == seat), None)
        if paid is not None:
            found.append(Jackpot(seat=seat, amount=paid.amount, supervisor=paid.supervisor, waiting=False))
    return tuple(found)
