"""The RFID bet-spot reader: INVENTORY snapshots as wagers, checked against the chip registry.

Each antenna lies under one betting spot (``antennas`` maps antenna number to
``(seat, spot)``). An INVENTORY is the complete set of chips on an antenna; a
:class:`~drivers.inputs.SpotWager` is handed on only when a spot's chips (or
the crosstalk on them) change, so the reader's periodic repeats and resends
after a link reset are quiet. The driver keeps what the reader read; the wagers
are kept once, by the table (``Table.live_spots``).

Antennas under adjacent spots can read each other's chips (crosstalk), and a
chip can lie across two spots. A uid read by two antennas at once counts on
neither: each spot's wager rejects it as ``"crosstalk"``, naming the other
spots, until only one antenna reads it; then that spot's wager counts it again
(:func:`~drivers.chips.read_elsewhere`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

from drivers.board import BoardDriver, BoardSetup
from drivers.chips import ChipRegistry, Elsewhere, read_elsewhere
from drivers.inputs import DriverInput
from drivers.repeat_log import RepeatLog
from firmware_bridge.link import messages

log = logging.getLogger(__name__)


class RfidDriver(BoardDriver):
    """The RFID reader on serial ``port``."""

    device = "rfid"
    flag_names = messages.STATUS_FLAGS["rfid"]

    def __init__(self, port: str, *, on_input: Callable[[DriverInput], None],
                 antennas: Mapping[int, tuple[int, str]], registry: ChipRegistry,
                 offline_after: float = 3.0, reopen_interval: float = 1.0) -> None:
        super().__init__(port, on_input=on_input, offline_after=offline_after,
                         reopen_interval=reopen_interval)
        self._antennas = dict(antennas)
        self._registry = registry
        self._last: dict[int, tuple[tuple[tuple[str, int], ...], bool]] = {}
        """Each antenna's last INVENTORY: its chips and whether the list is complete."""
        self._shared: dict[int, Elsewhere] = {}
        """The crosstalk in those inventories: each antenna's uids that other antennas read too.
        (The wagers themselves are kept by the table, which is handed each one that changes.)"""
        self._lights: int | None = None
        self._repeats = RepeatLog(log)

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> RfidDriver:
        """The reader, with the table's spots over its antennas and the chip registry."""
        return cls(setup.port, on_input=setup.on_input, antennas=setup.antennas, registry=setup.registry)

    def on_data(self, message: messages.Message) -> None:
        """Turn one INVENTORY into a wager when the spot's chips changed."""
        if not isinstance(message, messages.Inventory):
            self._repeats.note(("unexpected", message.NAME), logging.WARNING,
                               f"RFID reader sent an unexpected {message.NAME}")
            return
        spot = self._antennas.get(message.antenna)
        if spot is None:
            if message.chips:
                self._repeats.note(("no spot", message.antenna), logging.WARNING,
                                   f"chips on antenna {message.antenna}, which is under no betting spot")
            return
        # Every chip listed, in a fixed order: a uid listed twice (a clone) is kept for the registry.
        chips = tuple(sorted((chip.uid, chip.value) for chip in message.chips))
        flags = self.status_flags or 0
        complete = not (len(message.chips) == messages.MAX_CHIPS and flags & messages.TOO_MANY_CHIPS)
        if self._last.get(message.antenna) == (chips, complete):
            return
        self._last[message.antenna] = (chips, complete)
        uids = {antenna: [uid for uid, _ in read] for antenna, (read, _) in self._last.items()}
        shared, before = read_elsewhere(uids, self._antennas), self._shared
        self._shared = shared
        # This antenna's wager first, then any other spot whose wager the crosstalk changed.
        others = sorted(a for a in set(shared) | set(before)
                        if a != message.antenna and shared.get(a) != before.get(a))
        for antenna in [message.antenna, *others]:
            read, whole = self._last[antenna]
            seat, name = self._antennas[antenna]
            self._emit(self._registry.wager(seat, name, antenna, read, whole, shared.get(antenna)))

    def _on_online(self, hello: messages.Hello) -> None:
        super()._on_online(hello)
        if self._accepted and self._lights is not None and self.link.pending == 0:
            # A board that restarted has its lights dark, and the link resends only what the board
            # never acknowledged (the newest mask, if anything is pending): send the mask again.
            self.link.send(messages.SpotLights(self._lights))

    def light_spots(self, antennas: set[int]) -> None:
        """Light the spots on these antennas (and only these), sent when the set changes (and again in
        each new link session)."""
        mask = sum(1 << (antenna - 1) for antenna in antennas)
        if mask != self._lights:
            self._lights = mask
            self.link.send(messages.SpotLights(mask))
