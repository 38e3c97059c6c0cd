"""The USB serial port of a board run on the host: the master end of a pty, behind an optional symlink.

:class:`PtyPort` is the port of both boards run on the host: the simulated
firmware (:class:`~firmware_bridge.simulator.board.SimulatedBoard`) and the
reference firmware's board core (:class:`~firmware_bridge.firmware_host.runner.FirmwareRunner`).
``read`` never blocks; ``write`` goes through an :class:`~firmware_bridge.link.writer.FdWriter`
backlog of up to :data:`MAX_BACKLOG` bytes on the loop (what does not fit, or
meets a closed line, is counted in ``bytes_discarded``). The host opens the
slave end like any serial port. :meth:`PtyPort.unplug` makes the port vanish
(the pty closed, the symlink removed: the host's reads fail) and
:meth:`PtyPort.plug` brings a new one back behind the same symlink; meanwhile
reads find nothing and writes are lost. :meth:`PtyPort.pause_reading` stops
watching the line (a hung firmware: the host's bytes wait in the pty) until
:meth:`PtyPort.resume_reading`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_bridge.link.writer import FdWriter

MAX_BACKLOG = 4 * 1024 * 1024
"""Bytes the port buffers for a reader that does not read; output beyond it is discarded."""

_READ_SIZE = 65536


class PtyPort:
    """A pty's master end as the board's port; ``on_readable`` is called when the host wrote."""

    def __init__(self, loop: asyncio.AbstractEventLoop, link: Path | None,
                 on_readable: Callable[[], None]) -> None:
        self.loop = loop
        self.link = link
        """The symlink kept pointing at the pty slave (None: none)."""
        self.on_readable = on_readable
        self.bytes_discarded = 0
        """Output written while unplugged, or beyond the backlog, that went nowhere."""
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path: str | None = None
        self._writer: FdWriter | None = None
        self._reading = False

    @property
    def plugged(self) -> bool:
        """Whether the port exists."""
        return self._master is not None

    @property
    def path(self) -> str | None:
        """What the host opens: the symlink, or the slave's path; None while unplugged."""
        if self._slave_path is None:
            return None
        return str(self.link) if self.link is not None else self._slave_path

    @property
    def slave_path(self) -> str | None:
        """The pty slave's own path (``/dev/pts/N``); None while unplugged."""
        return self._slave_path

    def plug(self, *, reading: bool = True) -> str:
        """Open a new pty (and point the symlink at it); returns the path to connect to.

        ``reading=False``: the line is not watched until :meth:`resume_reading`.
        """
        master, slave = os.openpty()
        try:
            tty.setraw(slave)
            os.set_blocking(master, False)
            slave_path = os.ttyname(slave)
            if self.link is not None:
                tmp = self.link.with_name(f".{self.link.name}.{os.getpid()}.tmp")
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
                tmp.symlink_to(slave_path)
                os.replace(tmp, self.link)
        except BaseException:
            os.close(master)
            os.close(slave)
            raise
        self._master, self._slave, self._slave_path = master, slave, slave_path
        self._writer = FdWriter(self.loop, master, limit=MAX_BACKLOG, on_overflow=self._discard,
                                on_error=self._on_write_error)
        if reading:
            self.resume_reading()
        return slave_path if self.link is None else str(self.link)

    def unplug(self) -> None:
        """Close the pty and remove the symlink (if still ours: another board may have taken the name)."""
        if self._writer is not None:
            self._discard(self._writer.close())
            self._writer = None
        if self._master is not None:
            self.pause_reading()
            os.close(self._master)
            self._master = None
        if self._slave is not None:
            os.close(self._slave)
            self._slave = None
        if self.link is not None and self._slave_path is not None:
            with contextlib.suppress(OSError):
                if os.readlink(self.link) == self._slave_path:
                    self.link.unlink()
        self._slave_path = None

    def pause_reading(self) -> None:
        """Stop watching the line: what the host writes waits in the pty."""
        if self._reading and self._master is not None and not self.loop.is_closed():
            self.loop.remove_reader(self._master)
        self._reading = False

    def resume_reading(self) -> None:
        """Watch the line again (what the host wrote meanwhile is then read); nothing while unplugged."""
        if not self._reading and self._master is not None:
            self.loop.add_reader(self._master, self.on_readable)
            self._reading = True

    def read(self) -> bytes | None:
        """What the host has written, or None (nothing, or unplugged); never blocks."""
        if self._master is None:
            return None
        try:
            return os.read(self._master, _READ_SIZE)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as error:
            if error.errno != errno.EIO:
                raise
            return None  # no slave open: cannot happen while the port holds its own slave fd

    def write(self, data: bytes) -> None:
        """Send bytes to the host (lost while unplugged)."""
        if self._writer is None:
            self._discard(len(data))
        else:
            self._writer.write(data)

    def _discard(self, size: int) -> None:
        self.bytes_discarded += size

    def _on_write_error(self, error: OSError, dropped: int) -> None:
        # EIO/EBADF: the line is gone; the output is lost like output written while unplugged.
        # Anything else is a fault of the host itself and is raised.
        self._discard(dropped)
        if error.errno not in (errno.EIO, errno.EBADF):
            raise error
