"""What the daemon tells systemd: ready, a status line when it changes, watchdog pings, stopping.

One object for the daemon's three moments: :meth:`SystemdLink.ready` once the journal
is recovered and the pit sockets are bound (which also starts the watchdog pings on the
loop), :meth:`SystemdLink.status` after every input (sent only when the line changed),
and :meth:`SystemdLink.stopping` on a clean stop. Outside systemd all of it does nothing.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping

from controller.service.notify import Notifier
from controller.service.watchdog import Watchdog


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
