"""The card-reading shoe's role: a shoe loaded, a card drawn, unreadable or the cut card, as plain inputs.

A card's identity is ``(shoe_id, index)``. The board announces ``shoe_id`` once
per load, so after a restart the role is told the shoe the table already knows
(from its journal). Repeats after a link reset are passed on as they are: the
table drops a card it has already seen, by its identity. Whatever protocol the
shoe's driver speaks, it tells the role in these words.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from drivers.board import BoardSetup, Role
from drivers.inputs import CardDrawn, CardUnreadable, CutCard, DriverInput, ShoeLoaded
from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.repeat_log import RepeatLog
from firmware_bridge.link import messages

log = logging.getLogger(__name__)


class Shoe(Role):
    """The shoe; ``shoe_id`` is the shoe loaded before a restart, if any."""

    device = "shoe"
    flag_names = messages.STATUS_FLAGS["shoe"]

    def __init__(self, on_input: Callable[[DriverInput], None], *, shoe_id: int | None = None,
                 fault_window: float = 10.0) -> None:
        super().__init__(on_input, fault_window=fault_window)
        self.shoe_id = shoe_id
        self._repeats = RepeatLog(log)

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> Shoe:
        """The shoe, told the shoe the table had loaded before a restart."""
        return cls(setup.on_input, shoe_id=setup.shoe_id)

    @property
    def _shoe(self) -> int:
        return -1 if self.shoe_id is None else self.shoe_id

    def loaded(self, shoe_id: int, decks: int) -> None:
        """A shoe of ``decks`` decks was loaded: its cards are ``(shoe_id, index)`` from now on."""
        self.shoe_id = shoe_id
        self._emit(ShoeLoaded(shoe_id, decks))

    def card(self, index: int, rank: int, suit: int) -> None:
        """Card ``index`` was drawn and read as ``rank`` and ``suit`` (the protocol's numbers, as in
        :class:`~firmware_bridge.kernel.cards.Card`); one that is no card is passed on as unreadable."""
        try:
            card = Card(rank, suit)
        except ValueError:
            self._repeats.note(("bad card", rank, suit), logging.ERROR,
                               f"shoe sent card {index} with rank {rank} suit {suit}: passed on as "
                               "unreadable")
            self._emit(CardUnreadable(self._shoe, index))
            return
        self._emit(CardDrawn(self._shoe, index, card))

    def unreadable(self, index: int) -> None:
        """Card ``index`` was drawn but could not be read."""
        self._emit(CardUnreadable(self._shoe, index))

    def cut_card(self, index: int) -> None:
        """The cut card came out at position ``index``."""
        self._emit(CutCard(self._shoe, index))
