"""The bet-spot reader's role: each antenna's chips as wagers, checked against the chip registry.

Each antenna lies under one betting spot (``antennas`` maps antenna number to
``(seat, spot)``). A reading (:meth:`SpotReader.inventory`) is the complete set
of chips on an antenna; a :class:`~drivers.inputs.SpotWager` is handed on only
when a spot's chips (or the crosstalk on them) change, so a reader's periodic
repeats and resends are quiet. The role keeps what the reader read; the wagers
are kept once, by the table (``Table.live_spots``). Whatever protocol the
reader's driver speaks, it tells the role in these words.

Antennas under adjacent spots can read each other's chips (crosstalk), and a
chip can lie across two spots. A uid read by two antennas at once counts on
neither: each spot's wager rejects it as ``"crosstalk"``, naming the other
spots, until only one antenna reads it; then that spot's wager counts it again
(:func:`~drivers.chips.read_elsewhere`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping

from drivers.board import BoardSetup, Role
from drivers.chips import ChipRegistry, Elsewhere, read_elsewhere, uid_key
from drivers.inputs import DriverInput, SpotsRead
from firmware_bridge.kernel.repeat_log import RepeatLog
from firmware_bridge.link import messages

log = logging.getLogger(__name__)


class SpotReader(Role):
    """The bet-spot reader, with the table's spots over its ``antennas`` and the chip ``registry``."""

    device = "rfid"
    flag_names = messages.STATUS_FLAGS["rfid"]

    def __init__(self, on_input: Callable[[DriverInput], None], *,
                 antennas: Mapping[int, tuple[int, str]], registry: ChipRegistry) -> None:
        super().__init__(on_input)
        self.antennas = dict(antennas)
        self._registry = registry
        self._last: dict[int, tuple[tuple[tuple[str, int], ...], bool]] = {}
        """Each antenna's last reading: its chips and whether the list is complete."""
        self._shared: dict[int, Elsewhere] = {}
        """The crosstalk in those readings: each antenna's uids that other antennas read too.
        (The wagers themselves are kept by the table, which is handed each one that changes.)"""
        self._keys: dict[int, frozenset[str]] = {}
        """Each antenna's uids in its last reading, as :func:`~drivers.chips.uid_key` gives them."""
        self._readers: dict[str, set[int]] = {}
        """The antennas whose last reading has each uid (by its key): crosstalk where two or more do."""
        self._repeats = RepeatLog(log)
        self._unheard: set[int] | None = None
        """The antennas read before that are not read yet since the reader came online (None:
        every one was, and :class:`~drivers.inputs.SpotsRead` was handed on)."""

    @classmethod
    def from_setup(cls, setup: BoardSetup) -> SpotReader:
        """The reader, with the table's spots over its antennas and the chip registry."""
        return cls(setup.on_input, antennas=setup.antennas, registry=setup.registry)

    def online(self, firmware: str, serial: str) -> None:
        """The reader answered: online; once it has read again every antenna it read before (a
        reader sends the INVENTORY of every antenna in use when its session starts:
        docs/protocol.md), :class:`SpotsRead`. An antenna it never read holds no chips the table
        counts, and one that holds some now is read as a change."""
        super().online(firmware, serial)
        self._unheard = set(self._last)
        self._heard_all()

    def _heard_all(self) -> None:
        """:class:`SpotsRead`, once, when no antenna is left unread since the reader came online."""
        if self._unheard is not None and not self._unheard:
            self._unheard = None
            self._emit(SpotsRead(self.device))

    def inventory(self, antenna: int, chips: Iterable[tuple[str, int]], complete: bool = True) -> None:
        """Antenna ``antenna`` reads exactly these ``(uid, cents as the chip says)`` chips (a uid
        listed twice, a clone, is kept for the registry); ``complete`` is False when the reader says
        there were more than it could list. A wager is handed on when the spot's chips changed;
        :class:`SpotsRead` after it once every antenna was read since the reader came online."""
        self._read(antenna, chips, complete)
        if self._unheard is not None:
            self._unheard.discard(antenna)
            self._heard_all()

    def _read(self, antenna: int, chips: Iterable[tuple[str, int]], complete: bool) -> None:
        """One antenna's reading: its wager handed on when the spot's chips changed."""
        read = tuple(sorted(chips))
        spot = self.antennas.get(antenna)
        if spot is None:
            if read:
                self._repeats.note(("no spot", antenna), logging.WARNING,
                                   f"chips on antenna {antenna}, which is under no betting spot")
            return
        if self._last.get(antenna) == (read, complete):
            return
        self._last[antenna] = (read, complete)
        before = self._shared
        if self._shares(antenna, read) or before:
            uids = {number: [uid for uid, _ in chips] for number, (chips, _) in self._last.items()}
            shared = read_elsewhere(uids, self.antennas)
        else:
            shared = {}  # no uid was read twice and none of this reading's is: no crosstalk anywhere
        self._shared = shared
        # This antenna's wager first, then any other spot whose wager the crosstalk changed.
        others = sorted(a for a in set(shared) | set(before)
                        if a != antenna and shared.get(a) != before.get(a))
        for number in [antenna, *others]:
            chips_read, whole = self._last[number]
            seat, name = self.antennas[number]
            self._emit(self._registry.wager(seat, name, number, chips_read, whole, shared.get(number)))

    def _shares(self, antenna: int, read: tuple[tuple[str, int], ...]) -> bool:
        """Note ``antenna``'s uids now; whether one of them is read by another antenna too."""
        old, new = self._keys.get(antenna, frozenset()), frozenset(uid_key(uid) for uid, _ in read)
        self._keys[antenna] = new
        for key in old - new:
            readers = self._readers[key]
            readers.discard(antenna)
            if not readers:
                del self._readers[key]
        for key in new - old:
            self._readers.setdefault(key, set()).add(antenna)
        return any(len(self._readers[key]) > 1 for key in new)
