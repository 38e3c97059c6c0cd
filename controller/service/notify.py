"""The systemd notify protocol, spoken directly: one datagram to ``$NOTIFY_SOCKET`` per message.

Under ``Type=notify`` systemd gives the daemon the address of a datagram socket in
``NOTIFY_SOCKET``: a file system path, or an abstract socket written with a leading
``@``. A message is newline-separated ``NAME=value`` assignments, ``READY=1``,
``STATUS=<text>``, ``WATCHDOG=1``, ``STOPPING=1`` (sd_notify(3)). Outside systemd
(no ``NOTIFY_SOCKET``) every call does nothing, so the daemon runs the same from a
shell or a test.

A message that cannot be sent is logged and dropped, never raised: the daemon goes on
whatever happens to its supervisor. Sending never blocks the loop (``MSG_DONTWAIT``).

>>> Notifier.from_environment({}).send("READY=1")
False
>>> notify_address("@table/notify"), notify_address("/run/systemd/notify")
('\\x00table/notify', '/run/systemd/notify')
>>> notify_address("notify") is None
True
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Mapping

log = logging.getLogger(__name__)


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
