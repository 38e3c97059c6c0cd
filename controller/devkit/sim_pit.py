"""The simulated floor's pit side: tables that take the pit's commands, shifts, rated players.

For ``controller/devkit/floor_sim.py``. A :class:`PitTable` is a simulated
table (:class:`~controller.devkit.pit_table.EnvelopeTable`) that also carries
out the pit's commands (docs/control.md, "The pit's commands") as a real table
words them: supervisor :data:`SUPERVISOR` with PIN :data:`SUPERVISOR_PIN`,
closing, opening and limits between hands only, a message to the dealer at any
time; each one published as its event (``table.closed``, ``table.reopened``,
``table.limits``, ``dealer.message``). While it is closed no hand is dealt.

:func:`rated_floor` gives the monitor its ratings and shift figures in a
store (the recorder's database, as ``pit-monitor serve --db``): the edges of
the simulated games, and a few players (``P-1001``, ...) rated at some seats
from the start of one of the hands the floor plays before it is shown. The
shifts (:func:`sim_shifts`) start every 8 hours, the current one an hour or
two before now, so the hands played before the floor is shown are in it.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import zmq.asyncio

from controller.commands.registry import Command, decode
from controller.commands.table import CloseTable, DealerMessage, OpenTable, SetLimits
from controller.devkit.pit_table import EnvelopeTable
from controller.devkit.sim_state import SimulatedState
from controller.pit.server import CurveKeys
from controller.podium.monitor.models.rated import NO_PIT, Rated
from controller.podium.monitor.stores.events import Store
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.figures import edges_of
from controller.podium.ratings.shift import Shifts
from firmware_bridge.kernel.json import JsonValue
from firmware_bridge.kernel.money import dollars

SUPERVISOR, SUPERVISOR_PIN = "S101", "1234"
"""The one supervisor of the simulated floor, and the PIN the tables take from him."""

PIT_USER, PIT_PASSWORD = "anna", "floor-sim"
"""The pit boss the monitor knows when the simulated floor asks for a sign-in, and her password."""

PIT_COMMANDS = (CloseTable, OpenTable, SetLimits, DealerMessage)
"""The pit's commands a simulated table carries out (the monitor's: docs/control.md)."""

BANKED_EDGES_NOTE = "a player-dealer banks every hand of the simulated banked game"

BANKED_RULES: dict[str, JsonValue] = {}
"""The rules a player-banked simulated table publishes: it has no options."""


def banked_edges(game: str) -> Edges:
    """The edges of the simulated player-banked game: its one spot, ``main``, banked by the
    player-dealer in every hand, so the house has no edge on any wager (theo $0.00)."""
    return Edges(game, BANKED_RULES, {}, frozenset({"main"}), False)


class PitTable(EnvelopeTable):
    """A simulated table that carries out the pit's commands, as :data:`SUPERVISOR`."""

    def __init__(self, table_id: str, *, game: str = "easy-jack", seats: int = 6,
                 epoch: str | int | None = None, heartbeat: float = 2.0, curve: CurveKeys | None = None,
                 context: zmq.asyncio.Context | None = None, host: str = "127.0.0.1",
                 game_view: Callable[[SimulatedState], None] | None = None) -> None:
        """The table as :class:`EnvelopeTable` makes it, open."""
        super().__init__(table_id, game=game, seats=seats, epoch=epoch, heartbeat=heartbeat, curve=curve,
                         context=context, host=host, game_view=game_view)
        self.closed = False
        self.limits: dict[str, int] | None = None
        self.open_again = asyncio.Event()
        """Set while the table is open: the dealing waits on it."""
        self.open_again.set()

    @property
    def control_endpoint(self) -> str:
        return self.server.endpoints["control"]

    async def _command(self, request: dict[str, object], client: str | None) -> dict[str, object]:
        if request.get("cmd") not in {cls.name for cls in PIT_COMMANDS}:
            return await super()._command(request, client)
        decoded = decode(request)               # the real table's decoding, and its words
        if isinstance(decoded, str):
            return {"ok": False, "error": decoded}
        if decoded.supervisor != SUPERVISOR or decoded.pin != SUPERVISOR_PIN:
            return {"ok": False, "error": "wrong supervisor id or PIN"}
        order = decoded.command
        refusal = self._refusal(order)
        if refusal:
            return {"ok": False, "error": f"{order.name}: {refusal}"}
        if isinstance(order, CloseTable):
            self.closed = True
            self.open_again.clear()
            self.emit("table.closed", None, {"supervisor": SUPERVISOR})
        elif isinstance(order, OpenTable):
            self.closed = False
            self.open_again.set()
            self.emit("table.reopened", None, {"supervisor": SUPERVISOR})
        elif isinstance(order, SetLimits):
            self.limits = {"min_bet": order.min_bet, "max_bet": order.max_bet}
            self.emit("table.limits", None, {**self.limits, "supervisor": SUPERVISOR})
        elif isinstance(order, DealerMessage):
            self.emit("dealer.message", self.hand, {"text": order.text, "supervisor": SUPERVISOR})
        return {"ok": True}

    def _refusal(self, order: Command) -> str:
        """Why the table will not do it now, in the real table's words ('' if it will)."""
        if isinstance(order, DealerMessage):
            return ""
        if self.hand is not None:
            return "only between hands: finish the hand (NEXT) or void it first"
        if isinstance(order, CloseTable) and self.closed:
            return "the table is closed already"
        if isinstance(order, OpenTable) and not self.closed:
            return "the table is open already"
        if isinstance(order, SetLimits) and order.min_bet > order.max_bet:
            return f"min_bet {dollars(order.min_bet)} is above max_bet {dollars(order.max_bet)}"
        return ""


def sim_shifts(now: datetime.datetime) -> Shifts:
    """Shifts every 8 hours (UTC), the current one begun an hour or two before ``now``.

    >>> sim_shifts(datetime.datetime(2026, 11, 21, 14, 37, tzinfo=datetime.UTC)).starts
    (datetime.time(4, 0), datetime.time(12, 0), datetime.time(20, 0))
    """
    first = (now - datetime.timedelta(hours=2)).hour
    return Shifts(tuple(sorted(datetime.time((first + 8 * n) % 24) for n in range(3))))


@dataclass(frozen=True)
class Seated:
    """A player rated at a simulated table: the table's index, the seat, the hand from which."""

    table: int
    seat: int
    from_hand: int

    @property
    def player(self) -> str:
        return f"P-{1001 + RATED.index(self)}"


RATED = (Seated(0, 2, 1), Seated(0, 5, 6), Seated(1, 3, 2), Seated(2, 4, 4), Seated(3, 1, 1),
         Seated(4, 6, 3), Seated(5, 1, 1), Seated(6, 3, 8))
"""Who is rated where on the simulated floor (P-1001 at T01 seat 2 from its first hand, ...)."""


def regulars(table: int) -> frozenset[int]:
    """The seats of a table where a rated player sits, who bets every hand (unless dealing)."""
    return frozenset(s.seat for s in RATED if s.table == table)


async def rated_floor(store: Store, games: Mapping[str, str], pits: Mapping[str, str], shifts: Shifts,
                      openings: Mapping[str, Sequence[tuple[int, str, str]]],
                      house: tuple[str, Mapping[str, JsonValue]], banked_game: str) -> Rated:
    """The monitor's ratings and shift figures over ``store`` for the tables of ``games`` (name ->
    game): the edges of the simulated games cached there (``house``: the house-banked game and its
    rules, its edges from its own math; ``banked_game``: :func:`banked_edges`), each table's
    ``openings`` (``(seat, player, opened at)``) stored as the pit boss :data:`PIT_USER` opened them,
    then all read back as ``pit-monitor serve --db`` does at start."""
    house_game, house_rules = house
    found = await asyncio.to_thread(store.edges, house_game, house_rules)
    if found is None:
        found = await asyncio.to_thread(edges_of, house_game, dict(house_rules))
        await asyncio.to_thread(store.put_edges, found)
    banked = banked_edges(banked_game)
    await asyncio.to_thread(store.put_edges, banked)
    edges = {house_game: found, banked_game: banked}
    for table, ratings in openings.items():
        for seat, player, at in ratings:
            await asyncio.to_thread(store.open_rating, player, table, seat, at, PIT_USER,
                                    edges.get(games[table]))
    rated = Rated(store, list(games), shifts, {t: pits.get(t, NO_PIT) for t in games})
    await rated.load()
    return rated
