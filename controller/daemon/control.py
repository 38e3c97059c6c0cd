"""The daemon's answers to control commands (docs/control.md), which the control socket serves at once,
each in its task (:class:`ControlCommands`): the PIN gates, the request ids and the handlers, the
daemon's front door. ``critical_memory_clear`` is answered once its whole check is done
(:func:`controller.daemon.memory.clear`, off the loop: inputs go on meanwhile).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from controller.commands.books import BOOKS_COMMANDS, DEALER_PINNED
from controller.commands.books import DealerIn as BooksDealerIn
from controller.commands.registry import Command, Request, decode
from controller.commands.request_ids import Reply, RequestIds, mark
from controller.commands.table import (
    PIT_COMMANDS,
    Act,
    CriticalMemoryClear,
    FloorAnswered,
    Links,
    Press,
    Recall,
    ShoeResync,
    State,
)
from controller.config.loader import Config
from controller.daemon import memory
from controller.history.recall import recall_by_hand
from controller.journal.critical_memory import CriticalMemory
from controller.journal.log import Journal
from controller.pit.server import PitServer
from controller.security.supervisor_gate import SupervisorGate
from controller.security.supervisor_pins import verify_pin
from controller.table.machine import Table
from drivers.board import BoardDriver
from firmware_bridge.kernel.repeat_log import RepeatLog


class CommandParts(Protocol):
    """What of the daemon (:class:`controller.daemon.loop.Daemon`) the control commands use, read when
    a command comes (the daemon starts its boards and sockets after it made its commands)."""

    table: Table
    journal: Journal
    memory: CriticalMemory
    boards: list[BoardDriver]
    pit: PitServer | None
    repeats: RepeatLog

    def snapshot(self) -> dict[str, object]:
        """The sync socket's snapshot."""

    def press(self, button: str, amount: int | None = None, *, physical: bool = True) -> str | None:
        """A button pressed, or an action sent; a refusal or None."""

    def guarded(self, step: Callable[[], str | None], what: str, kind: str) -> str | None:
        """One step of the table, a failure logged and refused, never fatal."""

    def refresh(self) -> None:
        """The checkpoint, the picture, the display and the lights after a step."""


class ControlCommands:
    """The daemon's answers to control commands (docs/control.md), which the control socket serves at
    once, each in its task: the PIN gates, the request ids and the handlers. A request is decoded and
    checked once, by the command registry (:mod:`controller.commands`, the one place the commands are
    declared); here it is let through (a supervisor's or a dealer's PIN checked one at a time, the
    slow hash off the loop; a ``request_id`` carried out already answered as it was the first time,
    :mod:`controller.commands.request_ids`) and handed to its handler, which takes one step of the
    table through the daemon. It reads the daemon's parts when a command comes (the daemon starts
    its boards and sockets after it made its commands)."""

    def __init__(self, daemon: CommandParts, config: Config) -> None:
        self.daemon = daemon
        self.supervisors = SupervisorGate(config.supervisors)
        self.dealers = SupervisorGate(config.dealers, role="dealer")
        self.pin_checks = asyncio.Lock()
        """Held from a PIN's gate to its answer: the control socket serves requests at once, and the
        gates count wrong PINs only if they are checked one at a time."""
        self.requests = RequestIds()
        """The request ids of the commands carried out in the latest events (rebuilt at start)."""

    async def command(self, request: dict[str, object], client: str | None = None) -> Reply:
        """A control command (docs/control.md) from ``client`` (as far as the control socket can
        tell: :func:`controller.pit.server.control_client`), decoded and checked here, once
        (:func:`controller.commands.registry.decode`); one that carries ``supervisor`` is taken only
        with that supervisor's PIN, which goes no further than this check. A ``request_id`` carried
        out already is answered as it was the first time and not applied again
        (:mod:`controller.commands.request_ids`). ``critical_memory_clear`` is answered once its
        whole check is done (:func:`controller.daemon.memory.clear`, off the loop: inputs go on
        meanwhile)."""
        decoded = decode(request)
        if isinstance(decoded, str):
            return {"ok": False, "error": decoded}
        if decoded.supervisor is not None:
            refused = await self.authenticate(decoded, client)
            if refused is not None:
                return {"ok": False, "error": refused}
        order = decoded.command
        if isinstance(order, DEALER_PINNED):
            refused = await self.authenticate_dealer(order, client)
            if refused is not None:
                return {"ok": False, "error": refused}
        table = self.daemon.table
        handler = self.handlers.get(type(order))
        if handler is None:
            if order.name not in table.game.commands:
                return {"ok": False, "error": f"unknown command {order.name!r}"}
            handler = self.game_command
        if decoded.request_id is not None:
            repeat = self.requests.repeat(decoded)
            if repeat is not None:
                self.daemon.repeats.note(("repeat", order.name, str(repeat.get("ok"))), logging.INFO,
                                         f"{order.name}: request_id {decoded.request_id!r} was carried "
                                         f"out already: answered {repeat}, not taken again")
                return repeat
        if isinstance(order, CriticalMemoryClear):
            assert decoded.supervisor is not None
            refused = await memory.clear(self.daemon.memory, self.daemon.repeats,
                                                decoded.supervisor)     # the loop serves meanwhile
            if refused is not None:
                return self.answer(refused)
        if decoded.request_id is None:
            return handler(decoded)
        table.request_mark = mark(decoded)
        try:
            return handler(decoded)
        finally:
            table.request_mark = None
            if table.marked is not None:
                self.requests.note(*table.marked)
                table.marked = None

    @property
    def handlers(self) -> dict[type[Command], Callable[[Request], Reply]]:
        """The table's own commands by record (a game's own go to :meth:`game_command`)."""
        return {Press: self.press_command, Act: self.press_command, State: self.state_command,
                Links: self.links_command, ShoeResync: self.resync_command, Recall: self.recall_command,
                CriticalMemoryClear: self.clear_command, FloorAnswered: self.floor_answered_command,
                **dict.fromkeys(PIT_COMMANDS, self.pit_command),
                **dict.fromkeys(BOOKS_COMMANDS, self.books_command)}

    def press_command(self, request: Request) -> Reply:
        """``press`` (a button this table has) or ``act`` (any action open now)."""
        order = request.command
        assert isinstance(order, Press | Act)
        return self.answer(self.daemon.press(order.subject, order.amount,
                                             physical=isinstance(order, Press)))

    def state_command(self, request: Request) -> Reply:
        """``state`` (the pit server answers it before it gets here)."""
        return {"ok": True, **self.daemon.snapshot()}

    def links_command(self, request: Request) -> Reply:
        """Each board's link and counters, and the sync requests the pit sockets answered."""
        pit = self.daemon.pit
        return {"ok": True, "links": {
            driver.device: {"online": driver.is_online, **driver.counters()}
            for driver in self.daemon.boards
        }, "pit": dict(pit.served) if pit is not None else {}}

    def recall_command(self, request: Request) -> Reply:
        """A supervisor's ``recall``: the last hands step by step, from the records the journal holds
        (docs/control.md), as the pit saw them: a card face down reads so until it is revealed."""
        order = request.command
        assert isinstance(order, Recall)
        hands = recall_by_hand(self.daemon.journal.since(0), order.hands)
        return {"ok": True, "hands": [{"hand": hand, "lines": lines} for hand, lines in hands]}

    def pit_command(self, request: Request) -> Reply:
        """One of the pit's commands, a supervisor's (decoding made sure it names one)."""
        order, supervisor = request.command, request.supervisor
        assert supervisor is not None
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.pit_command(order, supervisor),
                                               f"running {order.name}", "command"))

    def books_command(self, request: Request) -> Reply:
        """A command of the table's books: the dealer's (its PIN checked already) or a supervisor's."""
        order, supervisor = request.command, request.supervisor
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.books_command(order, supervisor),
                                               f"running {order.name}", "command"))

    def floor_answered_command(self, request: Request) -> Reply:
        """``floor_answered``: the pit answered the dealer's floor call (its alert's ``seq``)."""
        order = request.command
        assert isinstance(order, FloorAnswered)
        reason = self.daemon.table.floor_answered(order.seq)
        self.daemon.refresh()
        return self.answer(reason)

    def resync_command(self, request: Request) -> Reply:
        """A supervisor's ``shoe_resync``."""
        assert request.supervisor is not None
        reason = self.daemon.table.resync_shoe(request.supervisor)
        self.daemon.refresh()
        return self.answer(reason)

    def clear_command(self, request: Request) -> Reply:
        """A supervisor's ``critical_memory_clear``, once its check passed and the fault went
        (:func:`controller.daemon.memory.clear`, awaited by :meth:`command` before this step, so that
        the request's mark is on this step's events alone): its ``critical_memory`` alert (info)."""
        supervisor = request.supervisor
        assert supervisor is not None
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.critical_memory(None, supervisor),
                                               "running critical_memory_clear", "command"))

    def game_command(self, request: Request) -> Reply:
        """A game's own command (after the daemon's own commands, which a game cannot hide)."""
        name, args = request.command.name, request.args()
        table = self.daemon.table
        return self.answer(self.daemon.guarded(lambda: table.command(name, args), f"running {name}",
                                               "command"))

    @staticmethod
    def answer(reason: str | None) -> Reply:
        """The control socket's reply to a step that was taken (None) or refused (the reason)."""
        return {"ok": True} if reason is None else {"ok": False, "error": reason}

    async def authenticate_dealer(self, order: Command, client: str | None) -> str | None:
        """Check the dealer's id and PIN (``dealer_pin``) against ``[dealers]``, as a supervisor's
        are checked: ``dealer_in`` names the dealer, the slips are signed by the dealer signed in.
        Returns None when the dealer is who they say."""
        dealer = order.dealer if isinstance(order, BooksDealerIn) else self.daemon.table.state.books.dealer
        if dealer is None:
            return f"{order.name}: no dealer is signed in: the dealer signs in first"
        pin = getattr(order, "dealer_pin", None)
        gate = self.dealers
        async with self.pin_checks:
            refused = gate.before(dealer, pin, time.monotonic(), client)
            if refused is None:
                assert isinstance(pin, str)
                matched = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: verify_pin(gate.stored(dealer), pin))
                refused = gate.after(dealer, matched, time.monotonic(), client)
        if refused is not None:
            sender = "" if client is None else f" from {client}"
            self.daemon.repeats.note(
                ("dealer refused", order.name, dealer[:32], refused.partition(":")[0]), logging.WARNING,
                f"dealer command {order.name!r} for {dealer[:32]!r}{sender} refused: {refused}")
        return refused

    async def authenticate(self, request: Request, client: str | None) -> str | None:
        """Check a supervisor's id and PIN (the slow hash runs off the loop); every refusal is
        logged with the id and the client, never the PIN. Returns None when the supervisor is who
        they say."""
        supervisor, pin = request.supervisor, request.pin
        async with self.pin_checks:                            # one at a time: see pin_checks
            refused = self.supervisors.before(supervisor, pin, time.monotonic(), client)
            if refused is None:
                assert isinstance(supervisor, str) and isinstance(pin, str)
                gate = self.supervisors
                matched = await asyncio.get_running_loop().run_in_executor(
                    None, lambda: verify_pin(gate.stored(supervisor), pin))
                refused = self.supervisors.after(supervisor, matched, time.monotonic(), client)
        if refused is not None:
            cmd, shown = request.command.name, str(supervisor)[:32]
            sender = "" if client is None else f" from {client}"
            kind = refused.partition(":")[0]                   # the reason, less its seconds
            self.daemon.repeats.note(("supervisor refused", cmd, shown, kind), logging.WARNING,
                                     f"supervisor command {cmd!r} for {shown!r}{sender} refused: {refused}")
        return refused
