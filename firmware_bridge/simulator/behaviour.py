"""What a simulated board does of its own: boot, heartbeat and snapshots, and its shoe's or reader's actions.

:class:`BoardBehaviour` is the firmware's application above the link: it
boots (the boot HELLO, the uptime from 0, the spot lights dark), reboots,
hangs and resumes (:meth:`BoardBehaviour.hang`), sends
STATUS every ``status_interval`` seconds and, on an RFID board, the
INVENTORY of every antenna in use every ``inventory_interval`` seconds
(both at once when a session starts; the periodic ones skipped while a full
window waits for acknowledgement), keeps the SPOT_LIGHTS mask, and turns the
dealer's and players' actions on the physical
:class:`~firmware_bridge.simulator.models.ShoeModel` or
:class:`~firmware_bridge.simulator.models.RfidModel` into data messages for
the :class:`~firmware_bridge.simulator.link_end.LinkEnd`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterable, Sequence
from typing import Literal

from firmware_bridge.link.messages import Chip, Fault, Message, SpotLights, Status
from firmware_bridge.link.session import WINDOW
from firmware_bridge.simulator.link_end import LinkEnd
from firmware_bridge.simulator.models import RfidModel, ShoeModel

__all__ = ["BoardBehaviour"]


class BoardBehaviour:
    """The application of one simulated board, sending through ``link``.

    ``SimulatedBoard`` documents the actions. A shoe board's model draws its
    first shoe id from ``rng`` when made.
    """

    def __init__(
        self,
        kind: Literal["shoe", "rfid"],
        link: LinkEnd,
        rng: random.Random,
        *,
        status_interval: float,
        inventory_interval: float,
    ) -> None:
        self.rng = rng
        """The board's only source of randomness (shuffles)."""
        self.shoe: ShoeModel | None = None
        """The physical shoe (a shoe board), else None."""
        self.rfid: RfidModel | None = None
        """The chips on the antennas (an RFID board), else None."""
        if kind == "shoe":
            self.shoe = ShoeModel(first_shoe_id=rng.randrange(1, 1 << 31))
        else:
            self.rfid = RfidModel()
        self.spot_lights = 0
        """The SPOT_LIGHTS mask last received from the host; 0 after a boot."""
        self.status_interval = status_interval
        self.inventory_interval = inventory_interval
        self._link = link
        self._boot_time = 0.0
        self._status_timer: asyncio.TimerHandle | None = None
        self._inventory_timer: asyncio.TimerHandle | None = None

    @property
    def uptime_ms(self) -> int:
        """Milliseconds since the last boot (what STATUS reports)."""
        return int((self._link.now() - self._boot_time) * 1000) & 0xFFFFFFFF

    @property
    def status_flags(self) -> int:
        """The STATUS flags of the board's model."""
        if self.shoe is not None:
            return self.shoe.status_flags
        assert self.rfid is not None
        return self.rfid.status_flags

    # --- life ----------------------------------------------------------------

    def boot(self) -> None:
        """Power on: the boot HELLO, uptime from 0, lights dark, the periods from now."""
        link = self._link
        now = link.now()
        self._boot_time = now
        self.spot_lights = 0
        link.session.boot(now)
        link.pump(now)
        self.restart_timers(now, send_now=False)

    def reboot(self) -> None:
        """The firmware restarts (a watchdog reset): new session state and the boot HELLO with nonce 0.

        The simulated firmware keeps its outbox in retained RAM across the
        reset: data frames not yet acknowledged, and those queued, are sent
        (renumbered) once the host has RESET the link. The shoe's cards and
        the chips on the antennas are physical and stay. The uptime starts
        again from 0 and the spot lights go dark until the host sends
        SPOT_LIGHTS again. No FAULT is sent; send ``fault(5, ...)`` to model
        a firmware that reports its watchdog resets.
        """
        self._link.require_running()
        if self._link.hung:
            self._link.thaw()
        self.boot()

    def hang(self) -> None:
        """The firmware gets stuck, as before its watchdog fires: the board falls silent.

        It stops reading the line (the host's bytes wait in the pty), writing
        to it, and keeping time: no STATUS, INVENTORY or retransmission goes
        out. What it is given meanwhile (``draw``, ``place`` ...) waits in
        its outbox; output already handed to the line (the write backlog)
        still drains. :meth:`resume` lets it go on where it stopped;
        :meth:`reboot` (the watchdog firing) starts it afresh.
        """
        self._link.require_running()
        if self._link.hung:
            raise RuntimeError("the board is already hung")
        self.stop_timers()
        self._link.freeze()

    def resume(self) -> None:
        """The stuck firmware goes on: it reads what the host sent meanwhile and writes what waited.

        The STATUS and INVENTORY periods start again from now; overdue
        retransmissions go out at once.
        """
        self._link.require_running()
        if not self._link.hung:
            raise RuntimeError("the board is not hung")
        self._link.thaw()
        now = self._link.now()
        self._link.pump(now)
        self.restart_timers(now, send_now=False)

    def restart_timers(self, now: float, *, send_now: bool) -> None:
        """Start the STATUS and INVENTORY periods from ``now``, sending both first if ``send_now``."""
        self._restart_status_timer(now, send_now=send_now)
        self._restart_inventory_timer(now, send_now=send_now)

    def stop_timers(self) -> None:
        """Stop the STATUS and INVENTORY periods (a hang, or power off)."""
        for handle in (self._status_timer, self._inventory_timer):
            if handle is not None:
                handle.cancel()
        self._status_timer = self._inventory_timer = None

    def obey(self, message: Message) -> None:
        """Act on a data message from the host (SPOT_LIGHTS: keep the mask)."""
        if isinstance(message, SpotLights):
            self.spot_lights = message.mask

    # --- the shoe and the reader ---------------------------------------------

    def load_shoe(
        self, decks: int, cards: Sequence[tuple[int, int]] | None = None, cut_at: int | None = None
    ) -> None:
        """Load a new shoe (shuffled with ``rng`` without ``cards``) and send SHOE_LOADED."""
        shoe = self._require_shoe()
        self._link.send([shoe.load(decks, rng=self.rng, cards=cards, cut_at=cut_at)])

    def draw(self, count: int) -> None:
        """Draw ``count`` cards (no more than remain) and send what each brings."""
        if count < 0:
            raise ValueError(f"cannot draw {count} cards")
        shoe = self._require_shoe()
        messages: list[Message] = []
        for _ in range(min(count, shoe.remaining)):
            messages += shoe.draw()
        self._link.send(messages)

    def skip(self) -> None:
        """A card leaves the shoe unseen."""
        self._link.send(self._require_shoe().skip())

    def arm_unreadable(self) -> None:
        """Make the next card drawn unreadable."""
        self._require_shoe().arm_unreadable()

    def place(self, antenna: int, chips: Iterable[Chip | tuple[str, int]]) -> None:
        """Put chips on ``antenna`` and send its INVENTORY."""
        self._link.send([self._require_rfid().place(antenna, chips)])

    def remove(self, antenna: int, uids: Iterable[str]) -> None:
        """Take chips off ``antenna`` and send its INVENTORY."""
        self._link.send([self._require_rfid().remove(antenna, uids)])

    def clear(self, antenna: int) -> None:
        """Take every chip off ``antenna`` and send its INVENTORY."""
        self._link.send([self._require_rfid().clear(antenna)])

    def fault(self, code: int, text: str) -> None:
        """Check and send a FAULT."""
        if not 0 <= code <= 0xFFFF:
            raise ValueError(f"fault code {code} is not 0 to 65535")
        if len(text.encode("utf-8")) > 255:
            raise ValueError("fault text is longer than 255 bytes")
        self._link.send([Fault(code, text)])

    def _require_shoe(self) -> ShoeModel:
        self._link.require_running()
        if self.shoe is None:
            raise RuntimeError("this is not a shoe board")
        return self.shoe

    def _require_rfid(self) -> RfidModel:
        self._link.require_running()
        if self.rfid is None:
            raise RuntimeError("this is not an RFID board")
        return self.rfid

    # --- heartbeat and snapshots ---------------------------------------------

    def _restart_status_timer(self, now: float, *, send_now: bool) -> None:
        if self._status_timer is not None:
            self._status_timer.cancel()
        if send_now:
            self._send_status(now)
        self._status_timer = self._link.loop.call_at(now + self.status_interval, self._on_status_timer)

    def _on_status_timer(self) -> None:
        now = self._link.now()
        if self._link.session.pending < WINDOW:
            self._send_status(now)
            self._link.pump(now)
        self._status_timer = self._link.loop.call_at(now + self.status_interval, self._on_status_timer)

    def _send_status(self, now: float) -> None:
        if self._link.session.in_session:
            self._link.queue(Status(uptime_ms=self.uptime_ms, flags=self.status_flags), now)

    def _restart_inventory_timer(self, now: float, *, send_now: bool) -> None:
        if self.rfid is None:
            return
        if self._inventory_timer is not None:
            self._inventory_timer.cancel()
        if send_now:
            self._send_inventories(now)
        self._inventory_timer = self._link.loop.call_at(
            now + self.inventory_interval, self._on_inventory_timer
        )

    def _on_inventory_timer(self) -> None:
        now = self._link.now()
        if self._link.session.pending < WINDOW:
            self._send_inventories(now)
            self._link.pump(now)
        self._inventory_timer = self._link.loop.call_at(
            now + self.inventory_interval, self._on_inventory_timer
        )

    def _send_inventories(self, now: float) -> None:
        if self.rfid is None or not self._link.session.in_session:
            return
        for antenna in self.rfid.antennas_in_use:
            self._link.queue(self.rfid.inventory(antenna), now)
