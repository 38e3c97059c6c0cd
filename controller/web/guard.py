"""What the web servers (the pit monitor's, the dealer screen's) take from whom: the names they answer
to, and their event streams.

* **Host and Origin.** A request is answered only when its ``Host`` names this
  server: the address it listens on, a loopback form (``localhost``,
  ``127.0.0.1``, ``[::1]``), the machine's host name, or a name given with
  ``--server-name``. So a web page whose own name an attacker points at
  127.0.0.1 (DNS rebinding) gets ``421 Misdirected Request``, never the floor
  or the table.
  A request that carries an ``Origin`` must come from a page of this same
  server (scheme, name and port), or it is refused ``403``: no other site's
  page can acknowledge an alert or act at the table.
* **Event streams.** At most :data:`STREAMS_PER_CLIENT` open streams per
  client address and :data:`STREAMS` in all; one more is refused ``503`` with
  ``Retry-After`` (:func:`controller.web.sse.stream_refusal`). Each stream holds
  one file descriptor; the caps keep the server well below its units'
  ``LimitNOFILE``, so a flood of streams never starves the other requests.
* **Slow requests.** A connection whose request head is not all in within
  :data:`REQUEST_TIMEOUT` seconds is closed (aiohttp's keep-alive timeout,
  which also ends idle connections), and a request body (the monitor's
  ``/api/ack``, the screen's ``/api/act``) gets as long, and at most :data:`MAX_BODY` bytes.
"""

from __future__ import annotations

import ipaddress
import socket
from collections import Counter
from collections.abc import Iterable
from urllib.parse import urlsplit

STREAMS_PER_CLIENT = 16
"""Event streams open at once from one client address (a pit boss's tabs: the floor and some tables)."""

STREAMS = 256
"""Event streams open at once in all."""

REQUEST_TIMEOUT = 15.0
"""Seconds a connection has to send a whole request (head, and body where there is one)."""

MAX_BODY = 16 * 1024
"""Largest request body taken, in bytes (an acknowledgement is a few dozen)."""

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def host_name(host: str) -> str:
    """The name in a ``Host`` header or an origin's netloc, less its port, lower case, IPv6 without
    brackets.

    >>> [host_name(h) for h in ("Floor.example:8080", "[::1]:8080", "127.0.0.1", "[::1]")]
    ['floor.example', '::1', '127.0.0.1', '::1']
    """
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def server_names(listen: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names a request's ``Host`` may carry for a server listening on ``listen``.

    >>> sorted(server_names("127.0.0.1", ["pit.example"]) - {socket.gethostname().lower()})
    ['127.0.0.1', '::1', 'localhost', 'pit.example']
    """
    names = {*LOOPBACK_NAMES, socket.gethostname().lower(), *(host_name(n) for n in extra)}
    try:
        if not ipaddress.ip_address(listen).is_unspecified:
            names.add(host_name(f"[{listen}]" if ":" in listen else listen))
    except ValueError:                                         # a name, not an address
        names.add(host_name(listen))
    return frozenset(names)


def misdirected(host: str | None, names: frozenset[str]) -> str | None:
    """Why a request with this ``Host`` is not for this server (None: it is).

    >>> names = server_names("127.0.0.1")
    >>> misdirected("127.0.0.1:8080", names) is None, misdirected("localhost", names) is None
    (True, True)
    >>> misdirected("attacker.example:8080", names)
    "this server does not answer to the name 'attacker.example'"
    """
    if not host:
        return "a request needs a Host header"
    name = host_name(host)
    if name in names:
        return None
    return f"this server does not answer to the name {name[:64]!r}"


def foreign_origin(origin: str | None, scheme: str, host: str | None) -> str | None:
    """Why a request's ``Origin`` is not a page of this server (None: it is, or there is none).

    >>> foreign_origin("http://127.0.0.1:8080", "http", "127.0.0.1:8080") is None
    True
    >>> foreign_origin("http://localhost:9000", "http", "127.0.0.1:8080")
    "requests from the page of 'http://localhost:9000' are not taken"
    """
    if origin is None:
        return None
    parts = urlsplit(origin)
    if (parts.scheme, parts.netloc.lower()) == (scheme, (host or "").lower()):
        return None
    return f"requests from the page of {origin[:80]!r} are not taken"


class Streams:
    """The event streams open now, by client address."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()

    def open(self, address: str) -> str | None:
        """Count a new stream from ``address``; why it may not open (None: it is counted)."""
        if self._open[address] >= STREAMS_PER_CLIENT:
            return f"too many event streams from this address (at most {STREAMS_PER_CLIENT})"
        if self._open.total() >= STREAMS:
            return f"too many event streams (at most {STREAMS})"
        self._open[address] += 1
        return None

    def close(self, address: str) -> None:
        """A stream from ``address`` ended."""
        self._open[address] -= 1
        if self._open[address] <= 0:
            del self._open[address]
