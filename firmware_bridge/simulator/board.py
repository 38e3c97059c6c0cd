"""A simulated shoe or RFID board on the master end of a pseudo-terminal, with fault injection.

:class:`SimulatedBoard` is the board's firmware as the host sees it: it speaks
the link protocol (docs/protocol.md) through :class:`~firmware_bridge.link.session.BoardSession`
on the master side of a pty, and the host opens the slave side like any serial
port (optionally through a stable symlink such as ``/tmp/shoe0``). Its
physical side is a :class:`~firmware_bridge.simulator.models.ShoeModel` or
:class:`~firmware_bridge.simulator.models.RfidModel`.

It is the facade of three parts, each in its own module:

* :class:`~firmware_bridge.simulator.link_end.LinkEnd`: the pty port (plug,
  unplug, reading), the session, and the engine that pumps the session's
  output to the line with the retransmission deadline, and keeps ``sent_log``;
* :class:`~firmware_bridge.simulator.faults.LineFaults`: what the
  :class:`~firmware_bridge.simulator.faults.FaultPlan` does to the bytes
  going out and coming in, and line noise;
* :class:`~firmware_bridge.simulator.behaviour.BoardBehaviour`: boot, the
  STATUS and INVENTORY timers, the spot lights, and the shoe's and reader's
  actions.

Everything runs on the caller's asyncio loop: the pty is a
:class:`~firmware_bridge.simulator.pty_port.PtyPort` (the master fd read with
``loop.add_reader``, written through an ``add_writer`` backlog of up to
:data:`~firmware_bridge.simulator.pty_port.MAX_BACKLOG` bytes; what does not
fit, or meets a closed line, is counted in ``bytes_discarded``), and all
timers (retransmission, STATUS, INVENTORY) are ``loop.call_at`` handles.
There are no threads and no sleeps. All randomness (shuffles, fault
injection, noise, the first shoe id) comes from the one ``random.Random``
given to the board, so a seeded run is repeatable.

What the simulated firmware does:

* On :meth:`~SimulatedBoard.start` (power on) and :meth:`~SimulatedBoard.reboot`
  it sends HELLO with nonce 0, unasked, and no data until it has answered a RESET.
* It answers every RESET with HELLO and starts a session; data frames not
  yet acknowledged are renumbered from 0 and sent again.
* In a session it sends STATUS every ``status_interval`` seconds and at once
  when the session starts; an RFID board sends the INVENTORY of every antenna
  in use when the session starts, after every change, and every
  ``inventory_interval`` seconds. The periodic STATUS and INVENTORY are skipped
  while a full window (8 frames) is already waiting for acknowledgement: the
  data flowing is then the heartbeat, and snapshots do not pile up in the
  outbox while the host is away.
* It obeys SPOT_LIGHTS by keeping the mask (:attr:`~SimulatedBoard.spot_lights`).

Fault injection (:class:`~firmware_bridge.simulator.faults.FaultPlan`) works
on whole frames as the board writes them: a dropped frame never reaches the
line, a corrupted one has one bit flipped so that its CRC fails.
:meth:`~SimulatedBoard.noise` writes a burst of random bytes between frames,
:meth:`~SimulatedBoard.inject` given bytes (a crafted broken frame).
:meth:`~SimulatedBoard.hang` stops the firmware (it neither reads, writes
nor keeps time) until :meth:`~SimulatedBoard.resume` or :meth:`~SimulatedBoard.reboot`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Literal

from firmware_bridge.link.messages import KIND_RFID, KIND_SHOE, Chip, Message
from firmware_bridge.link.session import BoardSession
from firmware_bridge.link.stats import LinkStats
from firmware_bridge.simulator.behaviour import BoardBehaviour
from firmware_bridge.simulator.faults import FaultPlan, LineFaults
from firmware_bridge.simulator.link_end import LinkEnd
from firmware_bridge.simulator.models import RfidModel, ShoeModel

__all__ = ["SimulatedBoard"]

logger = logging.getLogger(__name__)


class SimulatedBoard:
    """A card shoe or RFID reader board behind a pty, speaking the link protocol.

    :param kind: ``"shoe"`` or ``"rfid"``.
    :param link: a symlink to create (atomically replaced if it exists) to
        the pty slave, so that the host has a stable path across
        :meth:`unplug` and :meth:`replug`. ``None``: connect to the slave path.
    :param rng: the only source of randomness (shuffles, shoe ids, faults,
        noise). Default: a new unseeded ``random.Random``.
    :param firmware: the firmware version in HELLO (default ``sim-1.0.0``).
    :param serial: the serial number in HELLO (default ``SIM-SHOE-0001`` or
        ``SIM-RFID-0001``).
    :param rto: the retransmission timeout in seconds.
    :param status_interval: seconds between STATUS frames in a session.
    :param inventory_interval: seconds between the periodic INVENTORY frames
        of each antenna in use (RFID).
    :param on_message: called with each data message delivered from the host
        (SPOT_LIGHTS), after the board has acted on it.
    :param on_session: called each time a session starts (a RESET answered).
        An exception in either callback is logged; the board goes on.

    Nothing happens before :meth:`start`; :meth:`close` stops everything.
    The methods that act (``draw``, ``place``, ``fault`` ...) may be called at
    any time, also outside a session: their messages wait in the outbox.
    """

    def __init__(
        self,
        kind: Literal["shoe", "rfid"],
        *,
        link: Path | None = None,
        rng: random.Random | None = None,
        firmware: str | None = None,
        serial: str | None = None,
        rto: float = 0.28,
        status_interval: float = 1.0,
        inventory_interval: float = 2.0,
        on_message: Callable[[Message], None] | None = None,
        on_session: Callable[[], None] | None = None,
    ) -> None:
        if kind not in ("shoe", "rfid"):
            raise ValueError(f"board kind {kind!r} is not 'shoe' or 'rfid'")
        if status_interval <= 0 or inventory_interval <= 0:
            raise ValueError("status_interval and inventory_interval must be positive")
        self.kind: Literal["shoe", "rfid"] = kind
        """``"shoe"`` or ``"rfid"``."""
        self.link = link
        """The symlink the board keeps pointing at its pty slave (None: none)."""
        self.rng = rng if rng is not None else random.Random()
        """The board's only source of randomness."""
        self.stats = LinkStats()
        """The board side's link counters."""
        self.on_message = on_message
        self.on_session = on_session
        self._faults = LineFaults(self.rng)
        session = BoardSession(
            stats=self.stats,
            kind=KIND_SHOE if kind == "shoe" else KIND_RFID,
            firmware=firmware if firmware is not None else "sim-1.0.0",
            serial=serial if serial is not None else f"SIM-{kind.upper()}-0001",
            rto=rto,
        )
        self._end = LinkEnd(session, self._faults, on_message=self._on_host_message,
                            on_session=self._on_session_started)
        self._app = BoardBehaviour(kind, self._end, self.rng, status_interval=status_interval,
                                   inventory_interval=inventory_interval)

    # --- the parts' state ----------------------------------------------------

    @property
    def faults(self) -> FaultPlan:
        """Fault injection knobs; all off at first."""
        return self._faults.plan

    @property
    def shoe(self) -> ShoeModel | None:
        """The physical shoe (a shoe board), else None."""
        return self._app.shoe

    @property
    def rfid(self) -> RfidModel | None:
        """The chips on the antennas (an RFID board), else None."""
        return self._app.rfid

    @property
    def spot_lights(self) -> int:
        """The SPOT_LIGHTS mask last received from the host (bit n-1: spot n lit); 0 after a reboot."""
        return self._app.spot_lights

    @property
    def status_interval(self) -> float:
        """Seconds between STATUS frames in a session."""
        return self._app.status_interval

    @property
    def inventory_interval(self) -> float:
        """Seconds between the periodic INVENTORY frames of each antenna in use (RFID)."""
        return self._app.inventory_interval

    @property
    def sent_log(self) -> list[tuple[float, Message]]:
        """``(loop time first written, message)`` of every data message (:attr:`LinkEnd.sent_log`)."""
        return self._end.sent_log

    @property
    def noise_sent(self) -> int:
        """Bytes of line noise written by :meth:`noise` and :meth:`inject`."""
        return self._faults.noise_sent

    @property
    def frames_dropped(self) -> int:
        """Outgoing frames lost by fault injection (``faults.drop_rate``)."""
        return self._faults.frames_dropped

    @property
    def frames_corrupted(self) -> int:
        """Outgoing frames corrupted by fault injection (``faults.corrupt_rate``)."""
        return self._faults.frames_corrupted

    @property
    def frames_dropped_rx(self) -> int:
        """Incoming frames lost by fault injection (``faults.rx_drop_rate``)."""
        return self._faults.frames_dropped_rx

    # --- the port ------------------------------------------------------------

    async def start(self) -> str:
        """Power the board on: open the pty, make the link, send the boot HELLO.

        Returns the path the host should open: :attr:`link` if given, else the
        pty slave's path.
        """
        path = self._end.open(asyncio.get_running_loop(), self.link)
        self._app.boot()
        return path

    async def close(self) -> None:
        """Power off: stop the timers, close the pty, remove the link.

        Waiters of :meth:`wait_idle` are cancelled. Calling it again does nothing.
        """
        if self._end.closed:
            return
        self._app.stop_timers()
        self._end.close()

    @property
    def path(self) -> str | None:
        """The path to connect to (the link, or the slave path); None while unplugged or closed."""
        return self._end.path

    @property
    def slave_path(self) -> str | None:
        """The current pty slave's own path (``/dev/pts/N``); None while unplugged."""
        return self._end.slave_path

    @property
    def plugged(self) -> bool:
        """Whether the port exists (between :meth:`unplug` and :meth:`replug` it does not)."""
        return self._end.plugged

    @property
    def bytes_discarded(self) -> int:
        """Output written while unplugged, or beyond ``MAX_BACKLOG``, that went nowhere."""
        return self._end.bytes_discarded

    def unplug(self) -> None:
        """The port vanishes (the USB cable pulled); the firmware runs on (:meth:`LinkEnd.unplug`)."""
        self._end.unplug()

    async def replug(self) -> str:
        """The port comes back behind the same link, no reboot; returns the path (:meth:`LinkEnd.replug`)."""
        return self._end.replug()

    # --- firmware ------------------------------------------------------------

    @property
    def in_session(self) -> bool:
        """Whether the board has answered a RESET since it last booted (data may flow)."""
        return self._end.session.in_session

    @property
    def pending(self) -> int:
        """Data messages not yet acknowledged by the host (on the line or queued)."""
        return self._end.session.pending

    @property
    def stalled(self) -> bool:
        """Whether the board gave up retransmitting (10 rounds without progress) until the next RESET."""
        return self._end.session.stalled

    @property
    def uptime_ms(self) -> int:
        """Milliseconds since the board last booted (what STATUS reports)."""
        return self._app.uptime_ms

    @property
    def status_flags(self) -> int:
        """The STATUS flags of the board's model."""
        return self._app.status_flags

    def reboot(self) -> None:
        """The firmware restarts (a watchdog reset), keeping its outbox (:meth:`BoardBehaviour.reboot`)."""
        self._app.reboot()

    @property
    def hung(self) -> bool:
        """Whether the firmware is stuck (between :meth:`hang` and :meth:`resume` or :meth:`reboot`)."""
        return self._end.hung

    def hang(self) -> None:
        """The firmware gets stuck: silent until it resumes or reboots (:meth:`BoardBehaviour.hang`)."""
        self._app.hang()

    def resume(self) -> None:
        """The stuck firmware goes on where it stopped (:meth:`BoardBehaviour.resume`)."""
        self._app.resume()

    def load_shoe(
        self, decks: int, cards: Sequence[tuple[int, int]] | None = None, cut_at: int | None = None
    ) -> None:
        """Load a new shoe and send SHOE_LOADED (see :meth:`ShoeModel.load`).

        Without ``cards``, ``decks`` full decks are shuffled with the board's rng.
        """
        self._app.load_shoe(decks, cards, cut_at)

    def draw(self, count: int = 1) -> None:
        """The dealer draws ``count`` cards: CARD (or CARD_UNREADABLE) each, and CUT_CARD when it comes.

        Drawing from an empty shoe sends nothing.
        """
        self._app.draw(count)

    def skip(self) -> None:
        """A card leaves the shoe unseen: the index advances and no CARD is sent (a gap for the host)."""
        self._app.skip()

    def arm_unreadable(self) -> None:
        """Make the next card drawn unreadable (CARD_UNREADABLE instead of CARD)."""
        self._app.arm_unreadable()

    def place(self, antenna: int, chips: Iterable[Chip | tuple[str, int]]) -> None:
        """Put chips (``Chip`` or ``(uid, value_cents)``) on ``antenna`` and send its INVENTORY."""
        self._app.place(antenna, chips)

    def remove(self, antenna: int, uids: Iterable[str]) -> None:
        """Take the chips with these uids off ``antenna`` and send its INVENTORY."""
        self._app.remove(antenna, uids)

    def clear(self, antenna: int) -> None:
        """Take every chip off ``antenna`` and send its (empty) INVENTORY."""
        self._app.clear(antenna)

    def fault(self, code: int, text: str) -> None:
        """Send a FAULT (1 sensor, 2 lid opened during a draw, 3 antenna, 4 overflow, 5 watchdog)."""
        self._app.fault(code, text)

    def send(self, message: Message) -> None:
        """Send any data ``message`` as it is, past the shoe and RFID models (fault injection: a board
        that reports what no real shoe or reader would)."""
        self._end.require_running()
        self._end.send([message])

    def noise(self, count: int) -> None:
        """Write a burst of ``count`` random bytes (never all zeros) to the line, between two frames."""
        self._end.require_running()
        self._end.write(self._faults.noise(count))

    def inject(self, data: bytes) -> None:
        """Write ``data`` as it is between two frames (crafted noise: a broken frame), even while hung."""
        self._end.require_running()
        self._end.write(self._faults.inject(data))

    async def wait_idle(self) -> None:
        """Return once no data message waits for the host's acknowledgement (:meth:`LinkEnd.wait_idle`)."""
        await self._end.wait_idle()

    # --- what the host sends -------------------------------------------------

    def _on_host_message(self, message: Message) -> None:
        self._app.obey(message)
        if self.on_message is not None:
            self._call(self.on_message, message)

    def _on_session_started(self, now: float) -> None:
        self._app.restart_timers(now, send_now=True)
        if self.on_session is not None:
            self._call(self.on_session)

    def _call(self, callback: Callable[..., None], *args: Message) -> None:
        # A failing callback must not cut the read short: the rest of the frames it brought and the
        # ACK already owed to the host would be lost with it.
        try:
            callback(*args)
        except Exception:
            logger.exception("board callback %r failed", callback)
