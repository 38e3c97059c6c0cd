"""The simulated board's end of the link: its pty port, its session, and the engine between them.

:class:`LinkEnd` owns what the board puts on and takes off the line. It opens
the :class:`~firmware_bridge.simulator.pty_port.PtyPort` (plug and unplug),
feeds what the host wrote (through
:class:`~firmware_bridge.simulator.faults.LineFaults`) to the
:class:`~firmware_bridge.link.session.BoardSession` and hands the session's
events to the board, and pumps the session's output to the line: frame by
frame through the fault plan, with the retransmission deadline as a
``loop.call_at`` handle. It keeps the first-write log (``sent_log``) and
wakes the waiters of :meth:`LinkEnd.wait_idle`. While the firmware is hung
(:meth:`LinkEnd.freeze`) it neither reads nor writes.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path

from firmware_bridge.link.frames import FrameError, decode_frame
from firmware_bridge.link.messages import Message, PayloadError, is_data, unpack
from firmware_bridge.link.session import BoardSession, Delivered, SessionStarted
from firmware_bridge.simulator.faults import LineFaults, split_frames
from firmware_bridge.simulator.pty_port import PtyPort

__all__ = ["LinkEnd"]


class LinkEnd:
    """One board's end of the link, run on the caller's asyncio loop from :meth:`open` to :meth:`close`.

    :param session: the board's protocol state.
    :param faults: what the fault plan does to the line's bytes.
    :param on_message: called with each data message delivered from the host.
    :param on_session: called with the time each time a session starts (a RESET answered).
    """

    def __init__(
        self,
        session: BoardSession,
        faults: LineFaults,
        *,
        on_message: Callable[[Message], None],
        on_session: Callable[[float], None],
    ) -> None:
        self.session = session
        """The board's side of the protocol."""
        self.faults = faults
        """The fault plan at work on the line."""
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
        self.hung = False
        """Whether the firmware is stuck: nothing is read, written or retransmitted."""
        self._on_message = on_message
        self._on_session = on_session
        self._loop: asyncio.AbstractEventLoop | None = None
        self._port: PtyPort | None = None
        self._unwritten: deque[Message] = deque()
        self._deadline: asyncio.TimerHandle | None = None
        self._idle_waiters: list[asyncio.Future[None]] = []
        self._started = False
        self._closed = False

    # --- life and the port ---------------------------------------------------

    def open(self, loop: asyncio.AbstractEventLoop, link: Path | None) -> str:
        """Start on ``loop``: make the pty (behind the symlink ``link``); returns the path to connect to."""
        if self._started:
            raise RuntimeError("the board was already started")
        self._started = True
        self._loop = loop
        self._port = PtyPort(loop, link, self._on_readable)
        return self._plug()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def close(self) -> None:
        """Stop for good: cancel the deadline, remove the port, cancel the idle waiters."""
        self._closed = True
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._unplug()
        for waiter in self._idle_waiters:
            waiter.cancel()
        self._idle_waiters.clear()

    def require_running(self) -> None:
        """Raise ``RuntimeError`` unless between :meth:`open` and :meth:`close`."""
        if not self._started or self._closed:
            raise RuntimeError("the board is not running (start() it first)")

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
        """Output written while unplugged, or beyond ``MAX_BACKLOG``, that went nowhere."""
        return self._port.bytes_discarded if self._port is not None else 0

    def unplug(self) -> None:
        """The port vanishes, as when the USB cable is pulled from a board with its own power.

        The pty is closed (the host's reads fail) and the link removed. The
        firmware keeps running and keeps everything: its session, the
        outbox, the shoe and the chips; what it writes meanwhile is lost.
        """
        self.require_running()
        if not self.plugged:
            raise RuntimeError("the board is already unplugged")
        self._unplug()

    def replug(self) -> str:
        """The port comes back: a new pty behind the same link; returns the path to connect to.

        The board was powered through the unplug, so this is not a reboot: it
        sends no HELLO and keeps its session state. The host, which saw the
        port fail, opens the port again and RESETs; the board answers as
        always and sends every unacknowledged frame again, renumbered.
        """
        self.require_running()
        if self.plugged:
            raise RuntimeError("the board is plugged in")
        return self._plug()

    def _plug(self) -> str:
        assert self._port is not None
        path = self._port.plug(reading=not self.hung)
        self.faults.forget_partial()
        return path

    def _unplug(self) -> None:
        if self._port is not None:
            self._port.unplug()
        self.faults.forget_partial()

    def now(self) -> float:
        """The loop's time."""
        return self.loop.time()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop the board runs on; ``RuntimeError`` before :meth:`open`."""
        if self._loop is None:
            raise RuntimeError("the board is not running (start() it first)")
        return self._loop

    # --- hanging -------------------------------------------------------------

    def freeze(self) -> None:
        """The firmware stops: no reading, no writing, no retransmission deadline."""
        self.hung = True
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        assert self._port is not None
        self._port.pause_reading()

    def thaw(self) -> None:
        """The firmware goes on reading (the caller pumps)."""
        self.hung = False
        assert self._port is not None
        self._port.resume_reading()

    # --- out -----------------------------------------------------------------

    def send(self, messages: Iterable[Message]) -> None:
        """Queue data ``messages`` in the session and pump."""
        now = self.now()
        for message in messages:
            self.queue(message, now)
        self.pump(now)

    def queue(self, message: Message, now: float) -> None:
        """Queue a data ``message`` in the session (the caller pumps)."""
        self._unwritten.append(message)
        self.session.send(message, now)

    def pump(self, now: float) -> None:
        """Write what the session produced, rearm its timer, wake idle waiters (nothing while hung)."""
        if self.hung:
            return
        out = self.session.take_output()
        if out:
            self._transmit(out, now)
        self._rearm(now)
        if self._idle_waiters and self.session.pending == 0:
            for waiter in self._idle_waiters:
                if not waiter.done():
                    waiter.set_result(None)
            self._idle_waiters.clear()

    def write(self, data: bytes) -> None:
        """Write ``data`` to the line as it is (also while hung)."""
        assert self._port is not None
        self._port.write(data)

    async def wait_idle(self) -> None:
        """Return once no data message is waiting for the host's acknowledgement.

        Resolved from the acknowledgement path (no polling); returns at once
        if nothing is pending. Cancelled by :meth:`close`.
        """
        self.require_running()
        if self.session.pending == 0:
            return
        waiter = self.loop.create_future()
        self._idle_waiters.append(waiter)
        await waiter

    def _rearm(self, now: float) -> None:
        deadline = self.session.next_deadline()
        if self._deadline is not None:
            if deadline is not None and self._deadline.when() == deadline:
                return
            self._deadline.cancel()
            self._deadline = None
        if deadline is not None and not self._closed:
            self._deadline = self.loop.call_at(deadline, self._on_deadline)

    def _on_deadline(self) -> None:
        self._deadline = None
        now = self.now()
        self.session.poll(now)
        self.pump(now)

    def _transmit(self, out: bytes, now: float) -> None:
        wire = bytearray()
        for frame in split_frames(out):
            if self._unwritten:
                self._log_first_write(frame, now)
            wire += self.faults.outgoing(frame)
        if wire:
            self.write(bytes(wire))

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

    # --- in ------------------------------------------------------------------

    def _on_readable(self) -> None:
        data = self._port.read() if self._port is not None else None
        if not data:
            return
        data = self.faults.incoming(data)
        if not data:
            return
        now = self.now()
        for event in self.session.receive(data, now):
            if isinstance(event, Delivered):
                self._on_message(event.message)
            elif isinstance(event, SessionStarted):
                self._on_session(now)
        self.pump(now)
