"""A simulated shoe or RFID board on the master end of a pseudo-terminal, with fault injection.

:class:`SimulatedBoard` is the board's firmware as the host sees it: it speaks
the link protocol (docs/protocol.md) through :class:`~firmware_bridge.link.session.BoardSession`
on the master side of a pty, and the host opens the slave side like any serial
port (optionally through a stable symlink such as ``/tmp/shoe0``). Its
physical side is a :class:`~firmware_bridge.simulator.models.ShoeModel` or
:class:`~firmware_bridge.simulator.models.RfidModel`.

Everything runs on the caller's asyncio loop: the pty is a
:class:`~firmware_bridge.simulator.pty_port.PtyPort` (the master fd read with
``loop.add_reader``, written through an ``add_writer`` backlog of up to
:data:`MAX_BACKLOG` bytes; what does not fit, or meets a closed line, is
counted in ``bytes_discarded``), and all timers (retransmission, STATUS,
INVENTORY) are ``loop.call_at`` handles.
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

Fault injection (:class:`FaultPlan`) works on whole frames as the board
writes them: a dropped frame never reaches the line, a corrupted one has one
bit flipped so that its CRC fails. :meth:`~SimulatedBoard.noise` writes a
burst of random bytes between frames, :meth:`~SimulatedBoard.inject` given
bytes (a crafted broken frame). :meth:`~SimulatedBoard.hang` stops the
firmware (it neither reads, writes nor keeps time) until
:meth:`~SimulatedBoard.resume` or :meth:`~SimulatedBoard.reboot`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Literal

from firmware_bridge.link.frames import CobsError, FrameError, cobs_decode, cobs_encode, decode_frame
from firmware_bridge.link.messages import (
    KIND_RFID,
    KIND_SHOE,
    Chip,
    Fault,
    Message,
    PayloadError,
    SpotLights,
    Status,
    is_data,
    unpack,
)
from firmware_bridge.link.session import WINDOW, BoardSession, Delivered, SessionStarted
from firmware_bridge.link.stats import LinkStats
from firmware_bridge.simulator.models import RfidModel, ShoeModel
from firmware_bridge.simulator.pty_port import MAX_BACKLOG, PtyPort

__all__ = [
    "MAX_BACKLOG",
    "FaultPlan",
    "SimulatedBoard",
    "corrupt_frame",
    "noise_bytes",
    "split_frames",
]

logger = logging.getLogger(__name__)


class FaultPlan:
    """The fault injection knobs of a :class:`SimulatedBoard`, all off by default; change them at any time.

    :param drop_rate: the chance (0 to 1) that a frame the board writes is lost.
    :param corrupt_rate: the chance (0 to 1) that a frame the board writes
        arrives with one bit flipped, so that the host's CRC check fails.
    :param rx_drop_rate: the chance (0 to 1) that a frame from the host is
        lost before the board's firmware sees it (the host -> board direction).

    The rates apply to every frame, control frames (HELLO, ACK) included, and
    are drawn from the board's ``random.Random``. A frame is first tested for
    a drop, then for corruption.

    >>> plan = FaultPlan(drop_rate=0.2)
    >>> plan.corrupt_rate = 0.1
    >>> plan
    FaultPlan(drop_rate=0.2, corrupt_rate=0.1, rx_drop_rate=0.0)
    >>> plan.drop_rate = 1.5
    Traceback (most recent call last):
    ...
    ValueError: drop_rate 1.5 is not between 0 and 1
    """

    __slots__ = ("_corrupt_rate", "_drop_rate", "_rx_drop_rate")

    def __init__(self, drop_rate: float = 0.0, corrupt_rate: float = 0.0, rx_drop_rate: float = 0.0) -> None:
        self.drop_rate = drop_rate
        self.corrupt_rate = corrupt_rate
        self.rx_drop_rate = rx_drop_rate

    @staticmethod
    def _check(name: str, value: float) -> float:
        if not (isinstance(value, int | float) and 0.0 <= value <= 1.0):
            raise ValueError(f"{name} {value!r} is not between 0 and 1")
        return float(value)

    @property
    def drop_rate(self) -> float:
        """The chance that an outgoing (board -> host) frame is lost."""
        return self._drop_rate

    @drop_rate.setter
    def drop_rate(self, value: float) -> None:
        self._drop_rate = self._check("drop_rate", value)

    @property
    def corrupt_rate(self) -> float:
        """The chance that an outgoing frame fails the host's CRC check."""
        return self._corrupt_rate

    @corrupt_rate.setter
    def corrupt_rate(self, value: float) -> None:
        self._corrupt_rate = self._check("corrupt_rate", value)

    @property
    def rx_drop_rate(self) -> float:
        """The chance that an incoming (host -> board) frame is lost."""
        return self._rx_drop_rate

    @rx_drop_rate.setter
    def rx_drop_rate(self, value: float) -> None:
        self._rx_drop_rate = self._check("rx_drop_rate", value)

    def clear(self) -> None:
        """Turn every fault off."""
        self.drop_rate = self.corrupt_rate = self.rx_drop_rate = 0.0

    def __repr__(self) -> str:
        return (
            f"FaultPlan(drop_rate={self.drop_rate}, corrupt_rate={self.corrupt_rate},"
            f" rx_drop_rate={self.rx_drop_rate})"
        )


def split_frames(data: bytes) -> list[bytes]:
    """Split wire bytes into frames, each ending with its zero delimiter (a trailing partial one last).

    >>> split_frames(b"\\x01\\x02\\x00\\x03\\x00\\x04")
    [b'\\x01\\x02\\x00', b'\\x03\\x00', b'\\x04']
    >>> split_frames(b"")
    []
    """
    parts = data.split(b"\x00")
    frames = [part + b"\x00" for part in parts[:-1]]
    if parts[-1]:
        frames.append(parts[-1])
    return frames


def corrupt_frame(wire: bytes, rng: random.Random) -> bytes:
    """``wire`` (one frame ending in 0x00) with one bit of its body flipped, so that its CRC fails.

    The result is still a well-formed COBS frame of the same body length, so
    the receiver counts a CRC error (a single-bit error never passes
    CRC-16). Bytes that are not a COBS frame get one bit flipped in place,
    never to zero.

    >>> from firmware_bridge.link.frames import Frame, FrameReader, encode_frame
    >>> card = encode_frame(Frame(0x21, 5, 255, bytes.fromhex("070000000c02")))
    >>> bad = corrupt_frame(card, random.Random(1))
    >>> FrameReader().feed(bad)
    [FrameError('CRC mismatch')]
    """
    encoded = wire[:-1] if wire.endswith(b"\x00") else wire
    if not encoded:
        return wire
    try:
        body = bytearray(cobs_decode(encoded))
    except CobsError:
        body = bytearray()
    if body:
        body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
        return cobs_encode(bytes(body)) + wire[len(encoded) :]
    raw = bytearray(encoded)
    at = rng.randrange(len(raw))
    bits = [1 << n for n in range(8) if raw[at] ^ (1 << n)]
    raw[at] ^= rng.choice(bits)
    return bytes(raw) + wire[len(encoded) :]


def noise_bytes(count: int, rng: random.Random) -> bytes:
    """``count`` random bytes of line noise, never all zeros (zeros alone would only be idle fill).

    >>> noise = noise_bytes(50, random.Random(3))
    >>> len(noise), any(noise)
    (50, True)
    """
    if count < 0:
        raise ValueError(f"noise of {count} bytes")
    data = bytearray(rng.randbytes(count))
    if count and not any(data):
        data[rng.randrange(count)] = rng.randrange(1, 256)
    return bytes(data)


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
        self.faults = FaultPlan()
        """Fault injection knobs; all off at first."""
        self.shoe: ShoeModel | None = None
        """The physical shoe (a shoe board), else None."""
        self.rfid: RfidModel | None = None
        """The chips on the antennas (an RFID board), else None."""
        if kind == "shoe":
            self.shoe = ShoeModel(first_shoe_id=self.rng.randrange(1, 1 << 31))
        else:
            self.rfid = RfidModel()
        self.spot_lights = 0
        """The SPOT_LIGHTS mask last received from the host (bit n-1: spot n lit); 0 after a reboot."""
        self.status_interval = status_interval
        self.inventory_interval = inventory_interval
        self.on_message = on_message
        self.on_session = on_session
        self.sent_log: list[tuple[float, Message]] = []
        """``(loop time first written, message)`` for every data message, in order.

        The time is when the board first wrote the message's frame (even if a
        fault dropped it on the line, or the port was unplugged), not when it
        was queued. First writes are told from retransmissions by comparing
        with the oldest message not yet written, so two equal messages in a
        row (two identical INVENTORY snapshots) may be timed by the first
        one's retransmission; CARD messages are all different. Kept for the
        board's life.
        """
        self.noise_sent = 0
        """Bytes of line noise written by :meth:`noise` and :meth:`inject`."""
        self.frames_dropped = 0
        """Outgoing frames lost by fault injection (``faults.drop_rate``)."""
        self.frames_corrupted = 0
        """Outgoing frames corrupted by fault injection (``faults.corrupt_rate``)."""
        self.frames_dropped_rx = 0
        """Incoming frames lost by fault injection (``faults.rx_drop_rate``)."""
        self._session = BoardSession(
            stats=self.stats,
            kind=KIND_SHOE if kind == "shoe" else KIND_RFID,
            firmware=firmware if firmware is not None else "sim-1.0.0",
            serial=serial if serial is not None else f"SIM-{kind.upper()}-0001",
            rto=rto,
        )
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port: PtyPort | None = None
        self._rx_partial = bytearray()
        self._unwritten: deque[Message] = deque()
        self._boot_time = 0.0
        self._deadline: asyncio.TimerHandle | None = None
        self._status_timer: asyncio.TimerHandle | None = None
        self._inventory_timer: asyncio.TimerHandle | None = None
        self._idle_waiters: list[asyncio.Future[None]] = []
        self._started = False
        self._closed = False
        self._hung = False

    # --- the port ------------------------------------------------------------

    async def start(self) -> str:
        """Power the board on: open the pty, make the link, send the boot HELLO.

        Returns the path the host should open: :attr:`link` if given, else the
        pty slave's path.
        """
        if self._started:
            raise RuntimeError("the board was already started")
        self._started = True
        self._loop = asyncio.get_running_loop()
        self._port = PtyPort(self._loop, self.link, self._on_readable)
        path = self._plug()
        self._boot()
        return path

    async def close(self) -> None:
        """Power off: stop the timers, close the pty, remove the link.

        Waiters of :meth:`wait_idle` are cancelled. Calling it again does nothing.
        """
        if self._closed:
            return
        self._closed = True
        for handle in (self._deadline, self._status_timer, self._inventory_timer):
            if handle is not None:
                handle.cancel()
        self._deadline = self._status_timer = self._inventory_timer = None
        self._unplug()
        for waiter in self._idle_waiters:
            waiter.cancel()
        self._idle_waiters.clear()

    @property
    def path(self) -> str | None:
        """The path to connect to (the link, or the slave path); None while unplugged or closed."""
        return self._port.path if self._port is not None else None

    @property
    def slave_path(self) -> str | None:
        """The current pty slave's own path (``/dev/pts/N``); None while unplugged."""
        return self._port.slave_path if self._port is not None else None

    @property
    def plugged(self) -> bool:
        """Whether the port exists (between :meth:`unplug` and :meth:`replug` it does not)."""
        return self._port is not None and self._port.plugged

    @property
    def bytes_discarded(self) -> int:
        """Output written while unplugged, or beyond :data:`MAX_BACKLOG`, that went nowhere."""
        return self._port.bytes_discarded if self._port is not None else 0

    def unplug(self) -> None:
        """The port vanishes, as when the USB cable is pulled from a board with its own power.

        The pty is closed (the host's reads fail) and the link removed. The
        firmware keeps running and keeps everything: its session, the
        outbox, the shoe and the chips; what it writes meanwhile is lost.
        """
        self._require_running()
        if not self.plugged:
            raise RuntimeError("the board is already unplugged")
        self._unplug()

    async def replug(self) -> str:
        """The port comes back: a new pty behind the same link; returns the path to connect to.

        The board was powered through the unplug, so this is not a reboot: it
        sends no HELLO and keeps its session state. The host, which saw the
        port fail, opens the port again and RESETs; the board answers as
        always and sends every unacknowledged frame again, renumbered.
        """
        self._require_running()
        if self.plugged:
            raise RuntimeError("the board is plugged in")
        return self._plug()

    def _require_running(self) -> None:
        if not self._started or self._closed:
            raise RuntimeError("the board is not running (start() it first)")

    def _plug(self) -> str:
        assert self._port is not None
        path = self._port.plug(reading=not self._hung)
        self._rx_partial.clear()
        return path

    def _unplug(self) -> None:
        if self._port is not None:
            self._port.unplug()
        self._rx_partial.clear()

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            raise RuntimeError("the board is not running (start() it first)")
        return self._loop

    def _now(self) -> float:
        return self._running_loop().time()

    # --- firmware ------------------------------------------------------------

    @property
    def in_session(self) -> bool:
        """Whether the board has answered a RESET since it last booted (data may flow)."""
        return self._session.in_session

    @property
    def pending(self) -> int:
        """Data messages not yet acknowledged by the host (on the line or queued)."""
        return self._session.pending

    @property
    def stalled(self) -> bool:
        """Whether the board gave up retransmitting (10 rounds without progress) until the next RESET."""
        return self._session.stalled

    @property
    def uptime_ms(self) -> int:
        """Milliseconds since the board last booted (what STATUS reports)."""
        return int((self._now() - self._boot_time) * 1000) & 0xFFFFFFFF

    @property
    def status_flags(self) -> int:
        """The STATUS flags of the board's model."""
        if self.shoe is not None:
            return self.shoe.status_flags
        assert self.rfid is not None
        return self.rfid.status_flags

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
        self._require_running()
        if self._hung:
            self._hung = False
            self._listen()
        self._boot()

    @property
    def hung(self) -> bool:
        """Whether the firmware is stuck (between :meth:`hang` and :meth:`resume` or :meth:`reboot`)."""
        return self._hung

    def hang(self) -> None:
        """The firmware gets stuck, as before its watchdog fires: the board falls silent.

        It stops reading the line (the host's bytes wait in the pty), writing
        to it, and keeping time: no STATUS, INVENTORY or retransmission goes
        out. What it is given meanwhile (``draw``, ``place`` ...) waits in
        its outbox; output already handed to the line (the write backlog)
        still drains. :meth:`resume` lets it go on where it stopped;
        :meth:`reboot` (the watchdog firing) starts it afresh.
        """
        self._require_running()
        if self._hung:
            raise RuntimeError("the board is already hung")
        self._hung = True
        for handle in (self._deadline, self._status_timer, self._inventory_timer):
            if handle is not None:
                handle.cancel()
        self._deadline = self._status_timer = self._inventory_timer = None
        assert self._port is not None
        self._port.pause_reading()

    def resume(self) -> None:
        """The stuck firmware goes on: it reads what the host sent meanwhile and writes what waited.

        The STATUS and INVENTORY periods start again from now; overdue
        retransmissions go out at once.
        """
        self._require_running()
        if not self._hung:
            raise RuntimeError("the board is not hung")
        self._hung = False
        self._listen()
        now = self._now()
        self._pump(now)
        self._restart_status_timer(now, send_now=False)
        self._restart_inventory_timer(now, send_now=False)

    def _listen(self) -> None:
        assert self._port is not None
        self._port.resume_reading()

    def _boot(self) -> None:
        now = self._now()
        self._boot_time = now
        self.spot_lights = 0
        self._session.boot(now)
        self._pump(now)
        self._restart_status_timer(now, send_now=False)
        self._restart_inventory_timer(now, send_now=False)

    def load_shoe(
        self, decks: int, cards: Sequence[tuple[int, int]] | None = None, cut_at: int | None = None
    ) -> None:
        """Load a new shoe and send SHOE_LOADED (see :meth:`ShoeModel.load`).

        Without ``cards``, ``decks`` full decks are shuffled with the board's rng.
        """
        shoe = self._require_shoe()
        self._send([shoe.load(decks, rng=self.rng, cards=cards, cut_at=cut_at)])

    def draw(self, count: int = 1) -> None:
        """The dealer draws ``count`` cards: CARD (or CARD_UNREADABLE) each, and CUT_CARD when it comes.

        Drawing from an empty shoe sends nothing.
        """
        if count < 0:
            raise ValueError(f"cannot draw {count} cards")
        shoe = self._require_shoe()
        messages: list[Message] = []
        for _ in range(min(count, shoe.remaining)):
            messages += shoe.draw()
        self._send(messages)

    def skip(self) -> None:
        """A card leaves the shoe unseen: the index advances and no CARD is sent (a gap for the host)."""
        self._send(self._require_shoe().skip())

    def arm_unreadable(self) -> None:
        """Make the next card drawn unreadable (CARD_UNREADABLE instead of CARD)."""
        self._require_shoe().arm_unreadable()

    def place(self, antenna: int, chips: Iterable[Chip | tuple[str, int]]) -> None:
        """Put chips (``Chip`` or ``(uid, value_cents)``) on ``antenna`` and send its INVENTORY."""
        self._send([self._require_rfid().place(antenna, chips)])

    def remove(self, antenna: int, uids: Iterable[str]) -> None:
        """Take the chips with these uids off ``antenna`` and send its INVENTORY."""
        self._send([self._require_rfid().remove(antenna, uids)])

    def clear(self, antenna: int) -> None:
        """Take every chip off ``antenna`` and send its (empty) INVENTORY."""
        self._send([self._require_rfid().clear(antenna)])

    def fault(self, code: int, text: str) -> None:
        """Send a FAULT (1 sensor, 2 lid opened during a draw, 3 antenna, 4 overflow, 5 watchdog)."""
        if not 0 <= code <= 0xFFFF:
            raise ValueError(f"fault code {code} is not 0 to 65535")
        if len(text.encode("utf-8")) > 255:
            raise ValueError("fault text is longer than 255 bytes")
        self._send([Fault(code, text)])

    def send(self, message: Message) -> None:
        """Send any data ``message`` as it is, past the shoe and RFID models (fault injection: a board
        that reports what no real shoe or reader would)."""
        self._require_running()
        self._send([message])

    def noise(self, count: int) -> None:
        """Write a burst of ``count`` random bytes (never all zeros) to the line, between two frames."""
        self._require_running()
        self.inject(noise_bytes(count, self.rng))

    def inject(self, data: bytes) -> None:
        """Write ``data`` to the line as it is, between two frames: crafted noise, such as a broken frame.

        Line noise, not firmware output: it is written even while the board is hung.
        """
        self._require_running()
        self.noise_sent += len(data)
        self._write(data)

    async def wait_idle(self) -> None:
        """Return once no data message is waiting for the host's acknowledgement.

        Resolved from the acknowledgement path (no polling); returns at once
        if nothing is pending. Cancelled by :meth:`close`.
        """
        self._require_running()
        if self._session.pending == 0:
            return
        waiter = self._running_loop().create_future()
        self._idle_waiters.append(waiter)
        await waiter

    def _require_shoe(self) -> ShoeModel:
        self._require_running()
        if self.shoe is None:
            raise RuntimeError("this is not a shoe board")
        return self.shoe

    def _require_rfid(self) -> RfidModel:
        self._require_running()
        if self.rfid is None:
            raise RuntimeError("this is not an RFID board")
        return self.rfid

    def _send(self, messages: Iterable[Message]) -> None:
        now = self._now()
        for message in messages:
            self._unwritten.append(message)
            self._session.send(message, now)
        self._pump(now)

    # --- the engine ----------------------------------------------------------

    def _pump(self, now: float) -> None:
        """Write what the session produced, rearm its timer, wake idle waiters (nothing while hung)."""
        if self._hung:
            return
        out = self._session.take_output()
        if out:
            self._transmit(out, now)
        self._rearm(now)
        if self._idle_waiters and self._session.pending == 0:
            for waiter in self._idle_waiters:
                if not waiter.done():
                    waiter.set_result(None)
            self._idle_waiters.clear()

    def _rearm(self, now: float) -> None:
        deadline = self._session.next_deadline()
        if self._deadline is not None:
            if deadline is not None and self._deadline.when() == deadline:
                return
            self._deadline.cancel()
            self._deadline = None
        if deadline is not None and not self._closed:
            self._deadline = self._running_loop().call_at(deadline, self._on_deadline)

    def _on_deadline(self) -> None:
        self._deadline = None
        now = self._now()
        self._session.poll(now)
        self._pump(now)

    def _transmit(self, out: bytes, now: float) -> None:
        faults = self.faults
        wire = bytearray()
        for frame in split_frames(out):
            if self._unwritten:
                self._log_first_write(frame, now)
            if faults.drop_rate and self.rng.random() < faults.drop_rate:
                self.frames_dropped += 1
                continue
            if faults.corrupt_rate and self.rng.random() < faults.corrupt_rate:
                self.frames_corrupted += 1
                frame = corrupt_frame(frame, self.rng)
            wire += frame
        if wire:
            self._write(bytes(wire))

    def _log_first_write(self, wire: bytes, now: float) -> None:
        try:
            frame = decode_frame(wire[:-1])
            if not is_data(frame.type):
                return
            message = unpack(frame.type, frame.payload)
        except (FrameError, PayloadError, KeyError):
            return
        # A message's first write comes in queue order; anything else is a retransmission.
        if message == self._unwritten[0]:
            self._unwritten.popleft()
            self.sent_log.append((now, message))

    def _write(self, data: bytes) -> None:
        assert self._port is not None
        self._port.write(data)

    def _on_readable(self) -> None:
        data = self._port.read() if self._port is not None else None
        if not data:
            return
        if self.faults.rx_drop_rate:
            data = self._drop_incoming(data)
            if not data:
                return
        now = self._now()
        for event in self._session.receive(data, now):
            if isinstance(event, Delivered):
                self._on_host_message(event.message)
            elif isinstance(event, SessionStarted):
                self._on_session_started(now)
        self._pump(now)

    def _drop_incoming(self, data: bytes) -> bytes:
        self._rx_partial += data
        end = self._rx_partial.rfind(0)
        if end < 0:
            return b""
        complete = bytes(self._rx_partial[: end + 1])
        del self._rx_partial[: end + 1]
        kept = bytearray()
        for frame in split_frames(complete):
            if self.rng.random() < self.faults.rx_drop_rate:
                self.frames_dropped_rx += 1
            else:
                kept += frame
        return bytes(kept)

    def _on_host_message(self, message: Message) -> None:
        if isinstance(message, SpotLights):
            self.spot_lights = message.mask
        if self.on_message is not None:
            self._call(self.on_message, message)

    def _on_session_started(self, now: float) -> None:
        self._restart_status_timer(now, send_now=True)
        self._restart_inventory_timer(now, send_now=True)
        if self.on_session is not None:
            self._call(self.on_session)

    def _call(self, callback: Callable[..., None], *args: Message) -> None:
        # A failing callback must not cut the read short: the rest of the frames it brought and the
        # ACK already owed to the host would be lost with it.
        try:
            callback(*args)
        except Exception:
            logger.exception("board callback %r failed", callback)

    # --- heartbeat and snapshots ---------------------------------------------

    def _restart_status_timer(self, now: float, *, send_now: bool) -> None:
        if self._status_timer is not None:
            self._status_timer.cancel()
        if send_now:
            self._send_status(now)
        self._status_timer = self._running_loop().call_at(now + self.status_interval, self._on_status_timer)

    def _on_status_timer(self) -> None:
        now = self._now()
        if self._session.pending < WINDOW:
            self._send_status(now)
            self._pump(now)
        self._status_timer = self._running_loop().call_at(now + self.status_interval, self._on_status_timer)

    def _send_status(self, now: float) -> None:
        if self._session.in_session:
            status = Status(uptime_ms=self.uptime_ms, flags=self.status_flags)
            self._unwritten.append(status)
            self._session.send(status, now)

    def _restart_inventory_timer(self, now: float, *, send_now: bool) -> None:
        if self.rfid is None:
            return
        if self._inventory_timer is not None:
            self._inventory_timer.cancel()
        if send_now:
            self._send_inventories(now)
        self._inventory_timer = self._running_loop().call_at(
            now + self.inventory_interval, self._on_inventory_timer
        )

    def _on_inventory_timer(self) -> None:
        now = self._now()
        if self._session.pending < WINDOW:
            self._send_inventories(now)
            self._pump(now)
        self._inventory_timer = self._running_loop().call_at(
            now + self.inventory_interval, self._on_inventory_timer
        )

    def _send_inventories(self, now: float) -> None:
        if self.rfid is None or not self._session.in_session:
            return
        for antenna in self.rfid.antennas_in_use:
            inventory = self.rfid.inventory(antenna)
            self._unwritten.append(inventory)
            self._session.send(inventory, now)
