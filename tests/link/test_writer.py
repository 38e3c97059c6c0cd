"""FdWriter on real pipes and ptys: fill the fd until it blocks, drain the backlog in order, overflow, errors.

The far end is read from the same loop with ``add_reader``; the tests wait on
what arrives there (with a timeout), never sleep.
"""

from __future__ import annotations

import asyncio
import errno
import os
import tty
from collections.abc import AsyncIterator, Callable

import pytest

from firmware_bridge.link.writer import FdWriter

TIMEOUT = 5.0
CHUNK = 1000
MOST_CHUNKS = 20_000
"""Give up filling an fd after this many chunks (20 MB): it should block long before."""


class Line:
    """A writer's fd and the other end of it (both non-blocking), read into ``received`` on demand."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd = write_fd
        self.read_fd = read_fd
        self.open = {write_fd, read_fd}
        for fd in self.open:
            os.set_blocking(fd, False)
        self.received = bytearray()
        self.overflows: list[int] = []
        self.errors: list[tuple[OSError, int]] = []
        self.error_seen = asyncio.Event()
        self.loop = asyncio.get_running_loop()

    def close(self, fd: int) -> None:
        os.close(fd)
        self.open.discard(fd)

    def _error(self, error: OSError, dropped: int) -> None:
        self.errors.append((error, dropped))
        self.error_seen.set()

    def writer(self, limit: int, **callbacks: Callable[..., None]) -> FdWriter:
        return FdWriter(
            self.loop,
            self.write_fd,
            limit=limit,
            on_overflow=callbacks.get("on_overflow", self.overflows.append),
            on_error=callbacks.get("on_error", self._error),
        )

    async def read_until(self, size: int) -> None:
        """Read the far end until ``size`` bytes came in all (and no more are waiting at that moment)."""
        done = self.loop.create_future()

        def readable() -> None:
            try:
                self.received += os.read(self.read_fd, 65536)
            except BlockingIOError:
                return
            if len(self.received) >= size and not done.done():
                done.set_result(None)

        self.loop.add_reader(self.read_fd, readable)
        try:
            async with asyncio.timeout(TIMEOUT):
                await done
        finally:
            self.loop.remove_reader(self.read_fd)


def pipe() -> tuple[int, int]:
    read_fd, write_fd = os.pipe()
    return write_fd, read_fd


def pty() -> tuple[int, int]:
    """A pty: the writer on the master (as the simulated board), read on the raw slave (as the host)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave


@pytest.fixture(params=[pipe, pty], ids=["pipe", "pty"])
async def line(request: pytest.FixtureRequest) -> AsyncIterator[Line]:
    line = Line(*request.param())
    yield line
    for fd in line.open:
        os.close(fd)


def numbered(n: int) -> bytes:
    """Chunk ``n``: CHUNK bytes that say which chunk they are."""
    return f"{n:08d}".encode().ljust(CHUNK, b".")


def fill(writer: FdWriter) -> int:
    """Write numbered chunks until the fd blocks and some wait; returns how many were written."""
    for n in range(MOST_CHUNKS):
        writer.write(numbered(n))
        if writer.pending:
            return n + 1
    raise AssertionError(f"the fd took {MOST_CHUNKS * CHUNK} bytes without blocking")


async def test_the_backlog_drains_in_order_once_the_far_end_reads(line: Line) -> None:
    writer = line.writer(limit=1 << 20)
    chunks = fill(writer)
    assert 0 < writer.pending <= CHUNK
    # more while blocked: all of it waits behind what is already waiting
    for n in range(chunks, chunks + 50):
        writer.write(numbered(n))
    assert writer.pending > 50 * CHUNK
    await line.read_until((chunks + 50) * CHUNK)
    assert bytes(line.received) == b"".join(numbered(n) for n in range(chunks + 50))
    assert writer.pending == 0
    assert not line.loop.remove_writer(line.write_fd)  # it stopped watching the fd once drained
    assert line.overflows == [] and line.errors == []
    writer.write(b"after")  # the fd takes it at once again
    assert writer.pending == 0
    await line.read_until((chunks + 50) * CHUNK + 5)
    assert line.received.endswith(b"after")


async def test_a_write_beyond_the_limit_is_refused_whole_and_the_rest_goes_on(line: Line) -> None:
    writer = line.writer(limit=3 * CHUNK)
    chunks = fill(writer)
    waiting = writer.pending
    writer.write(numbered(chunks))  # fits within the limit with what waits
    writer.write(b"X" * (3 * CHUNK))  # would not: refused, nothing of it written
    assert line.overflows == [3 * CHUNK]
    assert writer.pending == waiting + CHUNK
    await line.read_until((chunks + 1) * CHUNK)
    assert bytes(line.received) == b"".join(numbered(n) for n in range(chunks + 1))
    assert writer.pending == 0
    writer.write(b"Y" * (3 * CHUNK))  # with nothing waiting, the limit holds it
    assert line.overflows == [3 * CHUNK]
    await line.read_until((chunks + 4) * CHUNK)
    assert line.received.endswith(b"Y" * (3 * CHUNK)) and b"X" not in line.received
    assert line.errors == []


async def test_the_owner_may_close_the_writer_from_its_overflow_callback(line: Line) -> None:
    writer: FdWriter

    def fail(size: int) -> None:
        line.overflows.append(size)
        assert writer.close() > 0

    writer = line.writer(limit=2 * CHUNK, on_overflow=fail)
    fill(writer)
    writer.write(bytes(2 * CHUNK))
    assert line.overflows == [2 * CHUNK]
    assert writer.closed and writer.pending == 0
    assert not line.loop.remove_writer(line.write_fd)
    with pytest.raises(ValueError, match="closed"):
        writer.write(b"more")


async def test_a_write_error_from_the_loop_drops_the_backlog_and_tells_the_owner() -> None:
    line = Line(*pipe())
    try:
        writer = line.writer(limit=1 << 20)
        fill(writer)
        writer.write(bytes(5 * CHUNK))
        waiting = writer.pending
        line.close(line.read_fd)  # nobody will ever read: the loop's writer callback meets EPIPE
        async with asyncio.timeout(TIMEOUT):
            await line.error_seen.wait()
        [(error, dropped)] = line.errors
        assert isinstance(error, BrokenPipeError) and dropped == waiting
        assert writer.pending == 0 and not writer.closed
        assert not line.loop.remove_writer(line.write_fd)
        writer.write(b"again")  # the owner chose to go on: the next write fails the same way
        assert [dropped for _, dropped in line.errors] == [waiting, 5]
        assert writer.pending == 0
    finally:
        for fd in line.open:
            os.close(fd)


async def test_a_write_to_a_closed_fd_fails_at_once(line: Line) -> None:
    writer = line.writer(limit=1 << 20)
    line.close(line.write_fd)
    writer.write(b"lost")
    assert [(e.errno, dropped) for e, dropped in line.errors] == [(errno.EBADF, 4)]
    assert writer.pending == 0


async def test_an_exception_in_on_error_propagates_from_write(line: Line) -> None:

    def refuse(error: OSError, dropped: int) -> None:
        raise error

    writer = line.writer(limit=1 << 20, on_error=refuse)
    line.close(line.write_fd)
    with pytest.raises(OSError) as raised:
        writer.write(b"lost")
    assert raised.value.errno == errno.EBADF
    assert writer.pending == 0


async def test_close_forgets_the_backlog_stops_watching_and_leaves_the_fd_open(line: Line) -> None:
    writer = line.writer(limit=1 << 20)
    chunks = fill(writer)
    writer.write(bytes(3 * CHUNK))
    waiting = writer.pending
    assert writer.close() == waiting
    assert writer.close() == 0
    assert not line.loop.remove_writer(line.write_fd)
    sent = (chunks + 3) * CHUNK - waiting
    await line.read_until(sent)
    assert len(line.received) == sent
    assert bytes(line.received) == (b"".join(numbered(n) for n in range(chunks)) + bytes(3 * CHUNK))[:sent]
    os.write(line.write_fd, b"still open")
    await line.read_until(sent + 10)
    assert line.received.endswith(b"still open")


def test_a_negative_limit_is_refused() -> None:
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(ValueError, match="negative"):
            FdWriter(loop, 1, limit=-1, on_overflow=print, on_error=print)
    finally:
        loop.close()
