"""What the daemon tells systemd: ready, a status line when it changes, watchdog pings, stopping.

One object for the daemon's three moments: :meth:`SystemdLink.ready` once the journal
is recovered and the pit sockets are bound (which also starts the watchdog pings on the
loop), :meth:`SystemdLink.status` after every input (sent only when the line changed,
the table's :func:`table_status`), and :meth:`SystemdLink.stopping` on a clean stop.
Below it, the two things it speaks through:

- the notify protocol, spoken directly (:class:`Notifier`): under ``Type=notify`` systemd
  gives the daemon the address of a datagram socket in ``NOTIFY_SOCKET``, a file system
  path or an abstract socket written with a leading ``@``. A message is newline-separated
  ``NAME=value`` assignments, ``READY=1``, ``STATUS=<text>``, ``WATCHDOG=1``,
  ``STOPPING=1`` (sd_notify(3)), one datagram each. A message that cannot be sent is
  logged and dropped, never raised: the daemon goes on whatever happens to its
  supervisor. Sending never blocks the loop (``MSG_DONTWAIT``).
- the watchdog (:class:`Watchdog`): ``WatchdogSec=`` in the unit reaches the daemon as
  ``WATCHDOG_USEC`` (and ``WATCHDOG_PID``, the process it is meant for). The pings come
  from a loop timer (``loop.call_later``) at half that interval, so they go out only while
  the loop is really turning: a callback that blocks or deadlocks the loop stops them, and
  systemd kills and restarts the daemon when the interval passes without one. Started only
  once the daemon is ready: systemd arms the watchdog from ``READY=1`` on.

Outside systemd (no ``NOTIFY_SOCKET``) all of it does nothing, so the daemon runs the same
from a shell or a test.

>>> Notifier.from_environment({}).send("READY=1")
False
>>> notify_address("@table/notify"), notify_address("/run/systemd/notify")
('\\x00table/notify', '/run/systemd/notify')
>>> notify_address("notify") is None
True
>>> Watchdog.from_environment(Notifier(None), {"WATCHDOG_USEC": "20000000"}).interval
10.0
>>> Watchdog.from_environment(Notifier(None), {}).interval is None
True
>>> ping_interval({"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"}, pid=2) is None
True
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Mapping

from controller.table.machine import Table

log = logging.getLogger("controller.service")
"""Its lines keep the name they had when this was controller/service.py."""


def notify_address(value: str) -> str | None:
    """The socket address of a ``NOTIFY_SOCKET`` value: ``@name`` is the abstract socket
    ``\\0name``, an absolute path is itself; anything else is not usable (None)."""
    if value.startswith("@") and len(value) > 1:
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None


def one_line(text: str) -> str:
    """``text`` fit for one ``STATUS=`` assignment (a newline would end it).

    >>> one_line("betting\\nhand 3")
    'betting hand 3'
    """
    return " ".join(text.splitlines())


class Notifier:
    """Sends notify messages to ``address`` (from :func:`notify_address`), or nothing if None."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self._socket: socket.socket | None = None
        self._failing = False

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Notifier:
        """The notifier systemd asked for in ``NOTIFY_SOCKET``; a silent one without it."""
        value = environ.get("NOTIFY_SOCKET", "")
        address = notify_address(value) if value else None
        if value and address is None:
            log.warning("NOTIFY_SOCKET=%r is not a socket path or @abstract name: not notifying", value)
        return cls(address)

    @property
    def enabled(self) -> bool:
        """Whether messages go anywhere."""
        return self.address is not None

    def send(self, *assignments: str) -> bool:
        """Send ``NAME=value`` assignments as one message; True if it was sent."""
        if self.address is None:
            return False
        if self._socket is None:
            self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        try:
            self._socket.sendto("\n".join(assignments).encode(), socket.MSG_DONTWAIT, self.address)
        except OSError as error:
            if not self._failing:  # once per run of failures, not once per ping
                log.warning("systemd notify socket: %s; message dropped", error)
            self._failing = True
            return False
        self._failing = False
        return True

    def ready(self, status: str) -> bool:
        """Start-up is complete (``READY=1``), with the first status line."""
        return self.send("READY=1", f"STATUS={one_line(status)}")

    def status(self, status: str) -> bool:
        """A new status line for ``systemctl status``."""
        return self.send(f"STATUS={one_line(status)}")

    def watchdog(self) -> bool:
        """The loop is alive (``WATCHDOG=1``)."""
        return self.send("WATCHDOG=1")

    def stopping(self, status: str) -> bool:
        """A clean stop has begun (``STOPPING=1``)."""
        return self.send("STOPPING=1", f"STATUS={one_line(status)}")

    def close(self) -> None:
        """Close the socket (a later message opens it again)."""
        if self._socket is not None:
            self._socket.close()
            self._socket = None


def ping_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """Seconds between pings asked for by ``WATCHDOG_USEC`` (half of it), or None when there is
    no watchdog for process ``pid``; a value that is not a positive integer is ignored."""
    usec = environ.get("WATCHDOG_USEC", "")
    owner = environ.get("WATCHDOG_PID", "")
    if not usec:
        return None
    if owner and owner != str(pid):
        return None
    if not usec.isdigit() or int(usec) == 0:
        log.warning("WATCHDOG_USEC=%r is not a positive number of microseconds: no watchdog pings", usec)
        return None
    return int(usec) / 2_000_000


class Watchdog:
    """Pings through ``notifier`` every ``interval`` seconds while the loop turns (None: never)."""

    def __init__(self, notifier: Notifier, interval: float | None) -> None:
        self.notifier = notifier
        self.interval = interval
        self._timer: asyncio.TimerHandle | None = None

    @classmethod
    def from_environment(cls, notifier: Notifier, environ: Mapping[str, str] = os.environ) -> Watchdog:
        """The watchdog systemd set up for this process, if any."""
        return cls(notifier, ping_interval(environ, os.getpid()))

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Ping now, then every interval from a timer on ``loop``."""
        if self.interval is None or not self.notifier.enabled:
            return
        log.info("systemd watchdog: a ping every %.1f s", self.interval)
        self._ping(loop)

    def _ping(self, loop: asyncio.AbstractEventLoop) -> None:
        self.notifier.watchdog()
        assert self.interval is not None
        self._timer = loop.call_later(self.interval, self._ping, loop)

    def stop(self) -> None:
        """No more pings."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def table_status(table: Table) -> str:
    """The status line of a table for ``systemctl status``: its phase (the game's own while a
    hand is in play), the hand, the boards.

    >>> from types import SimpleNamespace as NS
    >>> devices = {"shoe": NS(online=True), "rfid": NS(online=False)}
    >>> table = NS(settings=NS(table_id="T07"), phase="in_hand", hand=NS(phase="players"),
    ...            state=NS(in_hand=True, hand_no=42, devices=devices))
    >>> table_status(table)
    'T07 players, hand 42; boards online: shoe; offline: rfid'
    >>> table.phase, table.hand, table.state.in_hand = "betting", None, False
    >>> table_status(table)
    'T07 betting, next hand 43; boards online: shoe; offline: rfid'
    """
    state = table.state
    phase = table.hand.phase if table.phase == "in_hand" and table.hand is not None else table.phase
    hand = f"hand {state.hand_no}" if state.in_hand else f"next hand {state.hand_no + 1}"
    online = [name for name, device in sorted(state.devices.items()) if device.online]
    offline = [name for name, device in sorted(state.devices.items()) if not device.online]
    boards = f"boards online: {', '.join(online) or 'none'}"
    if offline:
        boards += f"; offline: {', '.join(offline)}"
    return f"{table.settings.table_id} {phase}, {hand}; {boards}"


class SystemdLink:
    """The daemon's side of ``Type=notify`` and ``WatchdogSec=``."""

    def __init__(self, environ: Mapping[str, str] = os.environ) -> None:
        self.notifier = Notifier.from_environment(environ)
        self.watchdog = Watchdog.from_environment(self.notifier, environ)
        self._status: str | None = None

    def ready(self, loop: asyncio.AbstractEventLoop, status: str) -> None:
        """``READY=1`` with the first status line; the watchdog pings start."""
        self._status = status
        self.notifier.ready(status)
        self.watchdog.start(loop)

    def status(self, status: str) -> None:
        """A status line, sent only if it differs from the last one."""
        if status != self._status:
            self._status = status
            self.notifier.status(status)

    def stopping(self, status: str) -> None:
        """``STOPPING=1``: no more pings, the socket closed."""
        self.watchdog.stop()
        self.notifier.stopping(status)
        self.notifier.close()
