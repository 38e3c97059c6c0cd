"""A non-blocking writer for one file descriptor on the asyncio loop, with a bounded backlog.

Both ends of a serial link write the same way: ``os.write`` on a non-blocking
fd, and what the line does not take at once waits in a backlog that a
``loop.add_writer`` callback drains, in order. What a full backlog or a failed
write means is the owner's decision, told through two callbacks: the host link
(:mod:`firmware_bridge.link.host`) fails the port, the simulated board's port
(:mod:`firmware_bridge.simulator.pty_port`) counts the bytes as lost and goes on.

>>> import asyncio, os
>>> async def demo() -> bytes:
...     read_end, write_end = os.pipe()
...     os.set_blocking(write_end, False)
...     writer = FdWriter(asyncio.get_running_loop(), write_end, limit=1024,
...                       on_overflow=print, on_error=print)
...     writer.write(b"hello ")
...     writer.write(b"world")
...     writer.write(bytes(2000))  # more than the limit: refused whole
...     writer.close()
...     os.close(write_end)
...     with os.fdopen(read_end, "rb") as pipe:
...         return pipe.read()
>>> asyncio.run(demo())
2000
b'hello world'
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

__all__ = ["FdWriter"]


class FdWriter:
    """Writes bytes to a non-blocking ``fd`` in order, keeping what the fd does not take yet.

    :param loop: the loop whose ``add_writer`` drains the backlog.
    :param fd: a non-blocking file descriptor; the caller owns it (:meth:`close` leaves it open).
    :param limit: the most bytes that may wait. A :meth:`write` that would
        make more wait is refused whole (nothing of it is written, so no frame
        is cut) and ``on_overflow`` is called with its size.
    :param on_overflow: called with the size of each refused write.
    :param on_error: called when a write fails with an ``OSError`` (other than
        "would block"), with the error and the number of bytes dropped with it:
        the whole backlog, which is then empty. It runs inside :meth:`write`
        or the loop's writer callback; an exception it raises propagates from
        there.

    Either callback may :meth:`close` the writer.
    """

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        fd: int,
        *,
        limit: int,
        on_overflow: Callable[[int], None],
        on_error: Callable[[OSError, int], None],
    ) -> None:
        if limit < 0:
            raise ValueError(f"backlog limit {limit} is negative")
        self.limit = limit
        """The most bytes that may wait for the fd."""
        self._loop = loop
        self._fd: int | None = fd
        self._on_overflow = on_overflow
        self._on_error = on_error
        self._backlog = bytearray()
        self._watching = False

    @property
    def pending(self) -> int:
        """Bytes waiting for the fd to take them."""
        return len(self._backlog)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._fd is None

    def write(self, data: bytes) -> None:
        """Write ``data`` after everything written before: now as far as the fd takes it, the rest later.

        Raises ``ValueError`` once the writer is closed.
        """
        if self._fd is None:
            raise ValueError("write to a closed FdWriter")
        if not data:
            return
        if len(self._backlog) + len(data) > self.limit:
            self._on_overflow(len(data))
            return
        self._backlog += data
        if not self._watching:
            self._drain()

    def close(self) -> int:
        """Stop writing: forget the backlog and stop watching the fd; returns the bytes dropped.

        The fd stays open. Calling it again returns 0.
        """
        dropped = len(self._backlog)
        self._backlog.clear()
        self._watch(False)
        self._fd = None
        return dropped

    def _drain(self) -> None:
        fd = self._fd
        while self._backlog and fd is not None:
            try:
                written = os.write(fd, self._backlog)
            except BlockingIOError:
                break
            except OSError as error:
                dropped = len(self._backlog)
                self._backlog.clear()
                self._watch(False)
                self._on_error(error, dropped)
                return
            del self._backlog[:written]
        self._watch(bool(self._backlog))

    def _watch(self, on: bool) -> None:
        if on == self._watching or self._fd is None:
            return
        if on:
            self._loop.add_writer(self._fd, self._drain)
        elif not self._loop.is_closed():
            self._loop.remove_writer(self._fd)
        self._watching = on
