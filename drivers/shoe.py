"""The card-reading shoe: SHOE_LOADED, CARD, CARD_UNREADABLE and CUT_CARD as plain inputs.

A card's identity is ``(shoe_id, index)``. The board announces ``shoe_id`` once
per load, so after a restart the driver is told the shoe the table already
knows (from its journal). Repeats after a link reset are passed on as they are:
the table drops a card it has already seen, by its identity.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from drivers.board import BoardDriver, BoardSetup
from drivers.inputs import CardDrawn, CardUnreadable, CutCard, DriverInput, ShoeLoaded
from drivers.repeat_log import RepeatLog
from firmware_bridge.cards import Card
from firmware_bridge.link import messages

log = logging.getLogger(__name__)


class ShoeDriver(BoardDriver):
    """The shoe on serial ``port``; ``shoe_id`` is the shoe loaded before a restart, if any."""

    device = "shoe"
    flag_names = messages.STATUS_FLAGS["shoe"]

    def __init__(self, port: str, *, on_input: Callable[[DriverInput], None],
                 shoe_id: int | None = None, offline_after: float = 3.0,
                 reopen_interval: float = 1.0, fault_window: float = 10.0) -> None:
        super().__init__(port, on_input=on_input, offline_after=offline_after,
                         reopen_interval=reopen_interval, fault_window=fault_window)
        self.shoe_id = shoe_id
        self._repeats = RepeatLog(log)

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> ShoeDriver:
        """The shoe, told the shoe the table had loaded before a restart."""
        return cls(setup.port, on_input=setup.on_input, shoe_id=setup.shoe_id)

    def on_data(self, message: messages.Message) -> None:
        """Turn one shoe message into an input."""
        if isinstance(message, messages.ShoeLoaded):
            self.shoe_id = message.shoe_id
            self._emit(ShoeLoaded(message.shoe_id, message.decks))
            return
        shoe = -1 if self.shoe_id is None else self.shoe_id
        if isinstance(message, messages.Card):
            try:
                card = Card(message.rank, message.suit)
            except ValueError:
                self._repeats.note(("bad card", message.rank, message.suit), logging.ERROR,
                                   f"shoe sent card {message.index} with rank {message.rank} suit "
                                   f"{message.suit}: passed on as unreadable")
                self._emit(CardUnreadable(shoe, message.index))
                return
            self._emit(CardDrawn(shoe, message.index, card))
        elif isinstance(message, messages.CardUnreadable):
            self._emit(CardUnreadable(shoe, message.index))
        elif isinstance(message, messages.CutCard):
            self._emit(CutCard(shoe, message.index))
        else:
            self._repeats.note(("unexpected", message.NAME), logging.WARNING,
                               f"shoe sent an unexpected {message.NAME}")
