"""The default driver: a board that speaks the link protocol (docs/protocol.md) on a serial port.

Every role the link protocol has messages for (its HELLO kinds: the shoe and the
RFID bet-spot reader) is played through one :class:`LinkDriver` on a
:class:`~firmware_bridge.link.host.HostLink`: the board comes online only if the
board on the port is the kind its role expects; STATUS and FAULT go to the
role as they are; each data message is told to the role in its own words
(SHOE_LOADED, CARD, CARD_UNREADABLE and CUT_CARD to :class:`~drivers.shoe.Shoe`,
INVENTORY to :class:`~drivers.rfid.SpotReader`); and the table's spot lights go
out as SPOT_LIGHTS. The reference firmware (``firmware_bridge/firmware``) speaks
this protocol, so it runs through this driver.

Configuration: ``[devices.<role>]`` ``port`` (required), ``driver = "link"`` or
left out.
"""

from __future__ import annotations

import asyncio
import logging

from drivers.board import BoardDriver, Role
from drivers.rfid import SpotReader
from drivers.shoe import Shoe
from firmware_bridge.kernel.repeat_log import RepeatLog
from firmware_bridge.link import messages
from firmware_bridge.link.host import HostLink

log = logging.getLogger(__name__)

NAME = "link"
"""The driver's name in ``[devices.<role>] driver``, and the one a section without ``driver`` takes."""


class LinkDriver(BoardDriver):
    """The board playing ``role`` on the serial port ``options.port``, over the link protocol."""

    roles = tuple(messages.DEVICE_KINDS.values())

    def __init__(self, options: BoardDriver.Options, role: Role, *, offline_after: float = 3.0,
                 reopen_interval: float = 1.0) -> None:
        super().__init__(options, role)
        self._accepted = False
        self._lights: int | None = None
        self._repeats = RepeatLog(log)
        self.link = HostLink(options.port, on_message=self._on_message, on_online=self._on_online,
                             on_offline=self._on_offline, offline_after=offline_after,
                             reopen_interval=reopen_interval)

    @property
    def is_online(self) -> bool:
        """Whether the right board is connected and in a link session."""
        return self._accepted and self.link.online

    @property
    def offline_after(self) -> float:
        """The link's silence before it calls the board offline."""
        return self.link.offline_after

    def counters(self) -> dict[str, int]:
        """The link's statistics (docs/link.md, Statistics)."""
        return self.link.stats.snapshot()

    async def start(self) -> None:
        """Open the port (or keep trying) and start the link."""
        await self.link.start()

    async def close(self) -> None:
        """Close the link and the port."""
        await self.link.close()

    def light_spots(self, antennas: set[int]) -> None:
        """On the spot reader: light the spots on these antennas (and only these), sent when the set
        changes (and again in each new link session); other boards have no spot lights."""
        if not isinstance(self.role, SpotReader):
            return
        mask = sum(1 << (antenna - 1) for antenna in antennas)
        if mask != self._lights:
            self._lights = mask
            self.link.send(messages.SpotLights(mask))

    def _on_online(self, hello: messages.Hello) -> None:
        kind = messages.DEVICE_KINDS.get(hello.kind, f"kind {hello.kind}")
        if kind != self.device:
            self._accepted = False
            log.error("%s port %s: a %s board answered", self.device, self.link.port, kind)
            self.role.wrong_board(kind)
            return
        self._accepted = True
        self.role.online(hello.firmware, hello.serial)
        if self._lights is not None and self.link.pending == 0:
            # A board that restarted has its lights dark, and the link resends only what the board
            # never acknowledged (the newest mask, if anything is pending): send the mask again.
            self.link.send(messages.SpotLights(self._lights))

    def _on_offline(self, reason: str) -> None:
        if self._accepted:
            self._accepted = False
            self.role.offline(reason)

    def _on_message(self, message: messages.Message) -> None:
        if not self._accepted:
            return
        role = self.role
        if isinstance(message, messages.Inventory) and isinstance(role, SpotReader):  # the most frequent
            # A full list with TOO_MANY_CHIPS raised: the reader saw more chips than it could list.
            full = len(message.chips) == messages.MAX_CHIPS
            complete = not (full and (role.status_flags or 0) & messages.TOO_MANY_CHIPS)
            role.inventory(message.antenna, [(chip.uid, chip.value) for chip in message.chips], complete)
        elif isinstance(message, messages.Status):
            role.status(message.flags, message.memory_errors)
        elif isinstance(message, messages.Fault):
            role.fault(message.code, message.text, asyncio.get_running_loop().time())
        elif isinstance(role, Shoe) and isinstance(message, messages.ShoeLoaded):
            role.loaded(message.shoe_id, message.decks)
        elif isinstance(role, Shoe) and isinstance(message, messages.Card):
            role.card(message.index, message.rank, message.suit)
        elif isinstance(role, Shoe) and isinstance(message, messages.CardUnreadable):
            role.unreadable(message.index)
        elif isinstance(role, Shoe) and isinstance(message, messages.CutCard):
            role.cut_card(message.index)
        else:
            self._repeats.note(("unexpected", message.NAME), logging.WARNING,
                               f"{self.device} board sent an unexpected {message.NAME}")
