"""The table's phases, declared as a table of moves and run by ``transitions``.

The machine only moves phases::

    betting --deal--> in_hand --settle--> settled --next--> betting
                         \\______ void ______/--> betting

No input travels through it: the deciding functions (:mod:`controller.table.decide`) journal a
step, then call the move it makes by name (``phases.deal()``). The move checks that the journaled
state agrees (:meth:`TableState.move`): the step already set the phase the machine moves to;
settling is the one move the machine makes itself, once the hand has its results. Inside
``in_hand`` the phases are the game's own (:attr:`Hand.phase`, declared in :attr:`Game.phases`).
"""

from __future__ import annotations

from collections.abc import Callable

from transitions import Machine

from controller.table.state import TableState

STATES = ["betting", "in_hand", "settled"]

TRANSITIONS: list[dict[str, str]] = [
    {"trigger": "deal", "source": "betting", "dest": "in_hand"},
    {"trigger": "settle", "source": "in_hand", "dest": "settled", "conditions": "has_results"},
    {"trigger": "next", "source": "settled", "dest": "betting"},
    {"trigger": "void", "source": "in_hand", "dest": "betting"},
]
"""The table's phases and the named moves between them."""

MOVES = {move["trigger"]: move for move in TRANSITIONS}
"""Each move's row of :data:`TRANSITIONS`, by name."""


class Phases:
    """The model ``transitions`` runs: the phase it moved to last (:attr:`phase`); every move is
    checked against the journaled state's (:attr:`TableState.phase`)."""

    # Triggers that ``transitions`` adds to the model (declared for type checkers only).
    deal: Callable[[], bool]
    settle: Callable[[], bool]
    next: Callable[[], bool]
    void: Callable[[], bool]

    def __init__(self, state: Callable[[], TableState]) -> None:
        """``state``: the table's state now (replaced when a checkpoint is read)."""
        self._state = state
        self._phase = state().phase
        self.machine = Machine(model=self, states=STATES, transitions=TRANSITIONS,
                               initial=self._phase, auto_transitions=False, queued=True,
                               model_attribute="phase")

    @property
    def phase(self) -> str:
        """The phase the machine moved to last."""
        return self._phase

    @phase.setter
    def phase(self, phase: str) -> None:
        """A move: the journaled state must hold ``phase`` already, but for settling, which sets it
        (:meth:`TableState.move` raises RuntimeError otherwise)."""
        self._state().move(phase)
        self._phase = phase

    def allows(self, move: str) -> bool:
        """Whether ``move`` may be made now, read from its row of :data:`TRANSITIONS` (its source
        is the phase, its condition holds): what ``transitions``' ``may_<move>`` answers, without
        building the machine's event list on every look (the picture asks for every button)."""
        row = MOVES[move]
        condition = row.get("conditions")
        return row["source"] == self._phase and (condition is None or bool(getattr(self, condition)()))

    def has_results(self) -> bool:
        """Condition of ``settle``: the hand in play has its results."""
        return self._state().results is not None

    def resume(self) -> None:
        """Take the journaled state's phase as it is (after a restart), and settle if it may."""
        self.machine.set_state(self._state().phase, model=self)
        if self.phase == "in_hand" and self.has_results():
            self.settle()
