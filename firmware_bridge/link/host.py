"""The asyncio host side of one board's link: a serial port driving a :class:`HostSession`.

One :class:`HostLink` per board, all on the one asyncio loop. The port is
opened with pyserial, non-blocking; bytes are read from a ``loop.add_reader``
callback (one ``os.read`` of its fd, a failed read told in pyserial's words)
and written through a :class:`~firmware_bridge.link.writer.FdWriter`
(a backlog waits on ``loop.add_writer`` when the line is full; a write that
would leave more than :data:`MAX_BACKLOG` waiting, or one that fails, fails
the port). All timers are ``loop.call_at`` on the loop's monotonic clock,
which is also the ``now`` the session is driven with.

Link life (docs/protocol.md section 4):

* ``start()`` opens the port, or keeps trying every ``reopen_interval``
  seconds, and RESETs the link. The HELLO that starts a session makes the
  board online: ``on_online(hello)``.
* The board goes offline, ``on_offline(reason)`` once per outage, when nothing
  valid has arrived for ``offline_after`` seconds, when the port fails (a read
  or write raises, returns EOF, or the path vanishes), or when the session
  ends (the board restarted, or 10 retransmission rounds without progress).
  After silence or a port failure the port is closed and reopened every
  ``reopen_interval`` seconds; each reopen RESETs the link again.
* Delivered data messages go to ``on_message``; host messages given to
  :meth:`HostLink.send` are kept until the board acknowledges them and are sent
  again (renumbered) in each new session.

Garbage on the line is only counted (:attr:`HostLink.stats`, logged every
``stats_interval`` seconds). Callbacks run on the loop thread; an exception in
one is logged and does not disturb the link.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import secrets
from collections.abc import Callable, Sequence
from typing import TypeVar

import serial

from firmware_bridge.link.messages import Hello, Message
from firmware_bridge.link.session import Delivered, HostSession, SessionEnded, SessionStarted, default_rto
from firmware_bridge.link.stats import LinkStats
from firmware_bridge.link.writer import FdWriter

__all__ = ["HostLink", "random_nonce"]

logger = logging.getLogger(__name__)
_T = TypeVar("_T")

MAX_BACKLOG = 64 * 1024
"""Bytes waiting for the line beyond which the port counts as failed (nobody reads it)."""

_READ_SIZE = 65536

_NOT_YET = (errno.EAGAIN, errno.EALREADY, errno.EWOULDBLOCK, errno.EINPROGRESS, errno.EINTR)
"""Read errors that only mean nothing is there yet (pyserial's read ignores them too)."""


def random_nonce() -> int:
    """A random RESET nonce, 1 to 2**32-1."""
    return secrets.randbelow(0xFFFFFFFF) + 1


class HostLink:
    """The host end of one board's serial link.

    :param port: the serial device path (a stable symlink such as ``/dev/serial/by-id/...``).
    :param on_message: called with each data message the board delivers, in order.
    :param on_online: called with the HELLO that starts each session.
    :param on_offline: called with the reason, once per outage.
    :param baudrate: the port's baud rate; it also sets the retransmission timeout.
    :param reopen_interval: seconds between attempts to reopen a missing or failed port.
    :param offline_after: seconds without a valid frame after which an online board is offline.
    :param stats_interval: seconds between ``stats.summary()`` log lines (None: never).
    :param nonce: source of RESET nonces (default: :func:`random_nonce`).
    """

    def __init__(
        self,
        port: str,
        *,
        on_message: Callable[[Message], None],
        on_online: Callable[[Hello], None],
        on_offline: Callable[[str], None],
        baudrate: int = 115200,
        reopen_interval: float = 1.0,
        offline_after: float = 3.0,
        stats_interval: float | None = 60.0,
        nonce: Callable[[], int] | None = None,
    ) -> None:
        self.port = port
        """The serial device path."""
        self.stats = LinkStats()
        """The link's counters."""
        self.online = False
        """Whether a session with the board is up."""
        self.hello: Hello | None = None
        """The HELLO of the current (or last) session."""
        self.baudrate = baudrate
        self.reopen_interval = reopen_interval
        self.offline_after = offline_after
        self.stats_interval = stats_interval
        self._on_message = on_message
        self._on_online = on_online
        self._on_offline = on_offline
        self._session = HostSession(stats=self.stats, nonce=nonce or random_nonce, rto=default_rto(baudrate))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._serial: serial.Serial | None = None
        self._fd: int | None = None
        self._writer: FdWriter | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0
        self._reopen: asyncio.TimerHandle | None = None
        self._stats_timer: asyncio.TimerHandle | None = None
        self._path_check_at = 0.0
        self._running = False
        self._open_failure: str | None = None

    # --- public ----------------------------------------------------------------

    @property
    def pending(self) -> int:
        """Host data messages given to :meth:`send` that the board has not acknowledged yet."""
        return self._session.pending

    @property
    def is_open(self) -> bool:
        """Whether the port is open now."""
        return self._serial is not None

    async def start(self) -> None:
        """Open the port (or keep trying every ``reopen_interval``) and RESET the link; never raises."""
        if self._running:
            return
        self._loop = asyncio.get_running_loop()
        self._running = True
        if self.stats_interval is not None:
            self._stats_timer = self._loop.call_later(self.stats_interval, self._log_stats)
        self._open()

    async def close(self) -> None:
        """Stop: remove readers, cancel timers, close the port. Idempotent; no callback is called."""
        self._running = False
        for handle in (self._timer, self._reopen, self._stats_timer):
            if handle is not None:
                handle.cancel()
        self._timer = self._reopen = self._stats_timer = None
        self._close_port()
        self._session.stop("closed")
        self.online = False

    def send(self, message: Message) -> None:
        """Send a host data message (SPOT_LIGHTS): delivered once the link is up, again in a new session."""
        now = self._loop.time() if self._loop is not None else 0.0
        self._session.send(message, now)
        self._write_output()
        self._reschedule()

    # --- port ------------------------------------------------------------------

    def _open(self) -> None:
        self._reopen = None
        if not self._running or self._loop is None:
            return
        try:
            port = serial.Serial(self.port, self.baudrate, timeout=0, write_timeout=0, exclusive=True)
        except (serial.SerialException, OSError, ValueError) as error:
            if self._open_failure is None:
                logger.warning(
                    "%s: cannot open (%s); retrying every %g s", self.port, error, self.reopen_interval
                )
            else:
                logger.debug("%s: cannot open (%s)", self.port, error)
            self._open_failure = str(error)
            self._reopen = self._loop.call_later(self.reopen_interval, self._open)
            return
        self._open_failure = None
        fd = port.fileno()
        os.set_blocking(fd, False)
        self._serial, self._fd = port, fd
        self._writer = FdWriter(
            self._loop, fd, limit=MAX_BACKLOG, on_overflow=self._on_overflow, on_error=self._on_write_error
        )
        self._loop.add_reader(fd, self._on_readable)
        now = self._loop.time()
        self._path_check_at = now + self.reopen_interval
        logger.info("%s: opened, resetting the link", self.port)
        self._session.start(now)
        self._write_output()
        self._reschedule()

    def _close_port(self) -> None:
        port, fd, writer = self._serial, self._fd, self._writer
        self._serial = self._fd = self._writer = None
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if writer is not None:
            writer.close()
        if fd is not None and self._loop is not None:
            self._loop.remove_reader(fd)
        if port is not None:
            try:
                port.close()
            except (serial.SerialException, OSError) as error:
                logger.debug("%s: close failed: %s", self.port, error)

    def _fail(self, reason: str) -> None:
        """The port failed or the board fell silent: offline, close, and reopen later."""
        if self._serial is None:
            return
        logger.warning("%s: %s; reopening every %g s", self.port, reason, self.reopen_interval)
        self._close_port()
        self._session.stop(reason)
        self._went_offline(reason)
        if self._running and self._loop is not None and self._reopen is None:
            self._reopen = self._loop.call_later(self.reopen_interval, self._open)

    def _on_readable(self) -> None:
        port, fd = self._serial, self._fd
        if port is None or fd is None or self._loop is None:
            return
        # One non-blocking read of the fd: pyserial's read wraps the same os.read in a select() and a
        # timeout, and asks in_waiting first (a few microseconds of every reading, together).
        try:
            data = os.read(fd, _READ_SIZE)
        except OSError as error:
            if error.errno in _NOT_YET:
                return
            self._read_failed(port, error)
            return
        if not data:
            self._read_failed(port, None)
            return
        self._handle(self._session.receive(data, self._loop.time()))
        self._write_output()
        self._reschedule()

    def _read_failed(self, port: serial.Serial, error: OSError | None) -> None:
        """The port failed a read (``error``, or None: it read as ready and gave nothing): offline, in
        pyserial's words as before (``in_waiting``, which pyserial asked first, fails first on a port
        that is gone)."""
        try:
            _ = port.in_waiting
        except (serial.SerialException, OSError) as gone:
            self._fail(f"port failed: {gone}")
            return
        if error is not None:
            self._fail(f"port failed: read failed: {error}")
        else:
            self._fail("port failed: device reports readiness to read but returned no data"
                       " (device disconnected or multiple access on port?)")

    def _write_output(self) -> None:
        data = self._session.take_output()
        if data and self._writer is not None:
            self._writer.write(data)

    def _on_overflow(self, size: int) -> None:
        self._fail(f"more than {MAX_BACKLOG} bytes wait for the line")

    def _on_write_error(self, error: OSError, dropped: int) -> None:
        self._fail(f"write failed: {error}")

    # --- timers ------------------------------------------------------------------

    def _reschedule(self) -> None:
        """Arm the one timer for the earliest of: session deadline, silence limit, path check."""
        if self._serial is None or self._loop is None:
            return
        deadline = self._path_check_at
        session_deadline = self._session.next_deadline()
        if session_deadline is not None:
            deadline = min(deadline, session_deadline)
        last = self._session.last_received
        if self.online and last is not None:
            deadline = min(deadline, last + self.offline_after)
        if self._timer is not None:
            if self._timer_at <= deadline:
                return  # it fires early enough; it then computes the next deadline
            self._timer.cancel()
        self._timer_at = deadline
        self._timer = self._loop.call_at(deadline, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        if self._serial is None or self._loop is None:
            return
        # the loop may run a timer a hair early; never let that spin
        now = max(self._loop.time(), self._timer_at)
        if now >= self._path_check_at:
            self._path_check_at = now + self.reopen_interval
            if not os.path.exists(self.port):
                self._fail("the port vanished")
                return
        last = self._session.last_received
        if self.online and last is not None and now >= last + self.offline_after:
            self._fail(f"nothing valid received for {self.offline_after:g} s")
            return
        self._handle(self._session.poll(now))
        self._write_output()
        self._reschedule()

    def _log_stats(self) -> None:
        if self._loop is None or self.stats_interval is None:
            return
        logger.info("%s: %s", self.port, self.stats.summary())
        self._stats_timer = self._loop.call_later(self.stats_interval, self._log_stats)

    # --- events ------------------------------------------------------------------

    def _handle(self, events: Sequence[Delivered | SessionStarted | SessionEnded]) -> None:
        for event in events:
            if isinstance(event, Delivered):
                self._call(self._on_message, event.message)
            elif isinstance(event, SessionStarted):
                assert event.hello is not None
                self.online = True
                self.hello = event.hello
                logger.info("%s: online: %s", self.port, event.hello)
                self._call(self._on_online, event.hello)
            else:
                self._went_offline(event.reason)

    def _went_offline(self, reason: str) -> None:
        if not self.online:
            return
        self.online = False
        logger.warning("%s: offline: %s", self.port, reason)
        self._call(self._on_offline, reason)

    def _call(self, callback: Callable[[_T], None], argument: _T) -> None:
        try:
            callback(argument)
        except Exception:
            logger.exception("%s: callback %r failed", self.port, callback)
