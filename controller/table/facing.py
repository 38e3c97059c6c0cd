"""What a deciding function needs of the table: :class:`TableFacing`, the table as the handlers of its
inputs see it (:mod:`controller.table.cards`, :mod:`~controller.table.chips`,
:mod:`~controller.table.buttons`, :mod:`~controller.table.devices`, :mod:`~controller.table.commands`,
:mod:`~controller.table.gather`), and :class:`PhaseMoves`, the moves of its phase machine they make by
name.

:class:`controller.table.machine.Table` is the one table; it hands itself to the function that decides
each input, and this protocol names what that function may read (the journaled state, the settings,
what the table knows live) and the few live facts it sets (the notice, the last action taken, the
floor call, the rejected chips alerted, the spots to gather, whether the spot reader has read every
spot since it came back). The handlers import this, not the machine, which imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from controller.games.interface import Decision, Game, Hand
from controller.table.settings import FloorCall, TableSettings, TakenAction
from controller.table.state import TableState
from controller.table.writer import Clock
from drivers.inputs import SpotWager
from firmware_bridge.kernel.repeat_log import RepeatLog

DealProblemsKey = tuple[int, str | None, tuple[tuple[int, str], ...]]
"""What the deal problems depend on beside the state: its seq, the latched memory fault, the
spots holding more chips than the reader can count."""


class PhaseMoves(Protocol):
    """The table's phase machine (:class:`controller.table.machine.Phases`) as a deciding function moves it:
    each move by name, once its step is journaled, and whether a move may be made now."""

    def deal(self) -> bool:
        """``betting`` to ``in_hand``."""

    def settle(self) -> bool:
        """``in_hand`` to ``settled``, once the hand has its results."""

    def next(self) -> bool:
        """``settled`` to ``betting``."""

    def void(self) -> bool:
        """``in_hand`` back to ``betting``."""

    def allows(self, move: str) -> bool:
        """Whether ``move`` may be made now."""


class TableFacing(Protocol):
    """The table as a deciding function takes it (each member is :class:`~controller.table.machine.Table`'s
    of that name)."""

    @property
    def settings(self) -> TableSettings:
        """The table's configuration."""

    @property
    def state(self) -> TableState:
        """The journaled state now."""

    @property
    def phases(self) -> PhaseMoves:
        """The phase machine, moved by name once a step is journaled."""

    @property
    def phase(self) -> str:
        """The table's phase (``betting``, ``in_hand``, ``settled``)."""

    @property
    def game(self) -> Game[Hand]:
        """The game this table runs."""

    @property
    def clock(self) -> Clock:
        """The time now, as the events carry it."""

    @property
    def monotonic(self) -> Callable[[], float]:
        """Seconds, for how long a floor call stays open and a double press."""

    @property
    def live_spots(self) -> dict[tuple[int, str], SpotWager]:
        """Each spot's last reading (live)."""

    @property
    def device_status(self) -> dict[str, tuple[str, ...]]:
        """Each board's STATUS flags in words (live)."""

    @property
    def critical_fault(self) -> str | None:
        """The critical memory fault latched, if any: DEAL is refused while there is one."""

    @property
    def repeats(self) -> RepeatLog:
        """The log of inputs dropped without an event."""

    notice: str | None
    """The last refusal or problem to show the dealer."""

    taken: TakenAction | None
    """The last game action a press took, for the double press."""

    floor_call: FloorCall | None
    """The dealer's last floor call."""

    flagged_chips: set[tuple[int, str]]
    """``(antenna, uid)`` of each rejected chip alerted already (:mod:`controller.table.chip_checks`)."""

    ungathered: set[tuple[int, str]]
    """The spots whose chips the dealer pushes into the pot before the hand goes on."""

    spots_unread: bool
    """Whether the spot reader has not read every spot since it came back."""

    deal_problems_seen: tuple[TableState, DealProblemsKey, tuple[str, ...]] | None
    """The deal problems last worked out, with what they depend on."""

    def decision(self) -> Decision | None:
        """What the hand in play waits for (None between hands and once settled)."""

    def spots_due(self) -> dict[tuple[int, str], int]:
        """What each spot should hold now."""

    def limits(self) -> dict[str, int]:
        """The table's limits now, in cents."""
