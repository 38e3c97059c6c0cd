"""The systemd watchdog: ``WATCHDOG=1`` pings sent from a timer on the daemon's own asyncio loop.

``WatchdogSec=`` in the unit reaches the daemon as ``WATCHDOG_USEC`` (and
``WATCHDOG_PID``, the process it is meant for). The pings come from a loop timer
(``loop.call_later``) at half that interval, so they go out only while the loop is
really turning: a callback that blocks or deadlocks the loop stops them, and systemd
kills and restarts the daemon when the interval passes without one. Started only
once the daemon is ready: systemd arms the watchdog from ``READY=1`` on.

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
from collections.abc import Mapping

from controller.service.notify import Notifier

log = logging.getLogger(__name__)


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
