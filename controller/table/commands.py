"""What the table decides about orders: the pit's commands, a game's session commands, the
clock's (a tournament level), and what the daemon's own checks report (memory, software)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from controller.commands.registry import Command
from controller.events import table as events
from controller.events.floor import LimitsSet
from controller.games.interface import Limits, RuleError
from controller.table.books import books_events
from controller.table.facing import TableFacing
from controller.table.pit_actions import pit_events
from controller.table.writer import Decided, Step, alert


def opened(table: TableFacing, recovered: bool, journal_damage: str | None) -> Decided:
    """The table announced (``table.opened``), then the journal's damage, if any (``journal_corrupt``)."""
    settings = table.settings
    yield Step([events.TableOpened(settings.game_name, settings.seats, table.limits(), recovered,
                                   settings.rules)])
    if journal_damage is not None:
        yield alert("journal_corrupt", journal_damage)
    return None


def pit_command(table: TableFacing, order: Command, supervisor: str) -> Decided:
    """One of the pit's commands (:data:`controller.commands.table.PIT_COMMANDS`: close or open
    the table, set its limits, a message to the dealer, a tray fill or credit), already decoded,
    for ``supervisor``, already authenticated."""
    limits = table.settings.limits
    made = pit_events(order, supervisor, table.state, has_tray=table.settings.tray,
                      configured=Limits(limits["min_bet"], limits["max_bet"]))
    if isinstance(made, str):
        return f"{order.name}: {made}"
    for event in made:
        if isinstance(event, LimitsSet):
            problem = limits_problem(table, Limits(event.min_bet, event.max_bet))
            if problem is not None:
                return f"{order.name}: {problem}"
    yield Step(made)
    return None


def books_command(table: TableFacing, order: Command, supervisor: str | None) -> Decided:
    """A command of the table's books (:mod:`controller.table.books`), its PIN checked already (the
    dealer's, or ``supervisor``'s)."""
    state = table.state
    tray_now = (state.tray.amount, state.tray.expected) if table.settings.tray else None
    made = books_events(order, supervisor, state.books, tray=tray_now, in_hand=state.in_hand,
                        chips=state.tray.chips)
    if isinstance(made, str):
        return f"{order.name}: {made}"
    yield Step(made)
    return None


def limits_problem(table: TableFacing, limits: Limits) -> str | None:
    """Why the game cannot be bound to ``limits`` (no way to, or its rules refuse them)."""
    if table.state.remake is None:
        return "this table's limits cannot be changed"
    try:
        table.state.remake(limits)
    except ValueError as error:
        return str(error)
    return None


def game_command(table: TableFacing, name: str, args: Mapping[str, object]) -> Decided:
    """A game's control command that changes the session
    (:attr:`Game.commands <controller.games.interface.Game.commands>`), its ``args``
    decoded and checked as its registered record (:mod:`controller.commands`); its events are one step."""
    seat = args.get("seat")
    seats = table.settings.seats
    if isinstance(seat, int) and not 1 <= seat <= seats:
        return f"{name}: there is no seat {seat} at this table (seats 1 to {seats})"
    try:
        changes = table.game.command(name, args, table.state.session, table.phase != "betting")
    except RuleError as error:
        return f"{name}: {error}"
    table.notice = None
    if changes:
        yield Step(changes)
    return None


def tick(table: TableFacing) -> Decided:
    """Between hands, what the time brings (a tournament level starting), as one step."""
    if table.phase == "betting":
        due = table.game.due(table.state.session, table.clock())
        if due:
            yield Step(due)
    return None


def critical_memory(fault: str | None, supervisor: str | None) -> Decided:
    """A critical memory fault latched (``fault``: the ``critical_memory`` alert, critical; DEAL
    stops), or cleared by ``supervisor`` (``fault`` None: the same alert, info)."""
    if fault is not None:
        yield alert("critical_memory",
                    f"critical memory: {fault}; DEAL is stopped until a supervisor clears it")
    else:
        yield alert("critical_memory",
                    f"critical memory fault cleared by supervisor {supervisor}: the check passes",
                    severity="info")
    return None


def integrity_alerts(problems: Iterable[str]) -> Decided:
    """One ``software_integrity`` alert per installed file that does not match its manifest."""
    for problem in problems:
        yield alert("software_integrity", f"installed software: {problem}")
    return None
