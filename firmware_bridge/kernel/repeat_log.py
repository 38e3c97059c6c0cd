"""Log lines that cannot flood the SD card: each distinct message once, then how often it repeated.

A stuck button, a faulty board or a hostile pit client can repeat the same
mistake thousands of times a second. :class:`RepeatLog` writes the first
occurrence of each *key* (what kind of thing happened, not its exact text) at
once and only counts the repeats that follow; at the end of each ``interval``
(60 s) it writes one line per key that repeated, with the count, and forgets
them all, so a problem that goes on is logged again once per interval. At most
``max_keys`` keys are kept in one interval; more distinct keys are counted
together in one line. A message is cut to :data:`MAX_CHARS` characters. So one
interval writes at most ``2 * max_keys + 1`` lines of bounded length, whatever
comes in.

The end of an interval is noticed at the next :meth:`RepeatLog.note` and, when
an asyncio loop is running, by a timer on it, so the last count is not kept
back; :meth:`RepeatLog.flush` writes it at once (at a stop).

>>> import io, logging
>>> stream = io.StringIO()
>>> logger = logging.getLogger("repeat-log-example")
>>> logger.addHandler(logging.StreamHandler(stream)); logger.propagate = False
>>> now = [0.0]
>>> repeats = RepeatLog(logger, clock=lambda: now[0])
>>> for _ in range(1000):
...     repeats.note("press", logging.WARNING, "press deal refused: the shoe is not loaded")
>>> repeats.note("json", logging.WARNING, "pit control: request is not JSON")
>>> now[0] = 61.0
>>> repeats.note("press", logging.WARNING, "press deal refused: the shoe is not loaded")
>>> print(stream.getvalue(), end="")
press deal refused: the shoe is not loaded
pit control: request is not JSON
press deal refused: the shoe is not loaded (999 more times in 61 s)
press deal refused: the shoe is not loaded
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

__all__ = ["MAX_CHARS", "RepeatLog", "shorten"]

MAX_CHARS = 240
"""The longest message written (longer ones are cut, ending in ``...``)."""

OTHERS = object()
"""The key under which messages beyond ``max_keys`` are counted."""


def shorten(text: str, limit: int = MAX_CHARS) -> str:
    """``text`` cut to ``limit`` characters.

    >>> shorten("x" * 10, 6)
    'xxx...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass
class _Seen:
    level: int
    message: str
    repeats: int = 0


class RepeatLog:
    """Logs to ``logger`` each distinct key once per ``interval`` seconds, with a count of its repeats."""

    def __init__(self, logger: logging.Logger, *, interval: float = 60.0, max_keys: int = 32,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._logger = logger
        self._interval = interval
        self._max_keys = max_keys
        self._clock = clock
        self._seen: dict[Hashable, _Seen] = {}
        self._since: float | None = None
        self._timer: asyncio.TimerHandle | None = None

    def note(self, key: Hashable, level: int, message: str, *, exc_info: bool = False) -> None:
        """Log ``message`` at ``level`` if ``key`` was not noted in this interval, else count it.

        ``exc_info`` adds the exception being handled (its traceback) to the first line only.
        """
        now = self._clock()
        if self._since is not None and now - self._since >= self._interval:
            self.flush()
        if self._since is None:
            self._since = now
            self._arm()
        seen = self._seen.get(key)
        if seen is None and len(self._seen) >= self._max_keys:
            key, seen = OTHERS, self._seen.get(OTHERS)
            if seen is None:
                self._seen[OTHERS] = _Seen(logging.WARNING, "other messages, not logged one by one", 1)
                return
        if seen is not None:
            seen.repeats += 1
            return
        text = shorten(message)
        self._seen[key] = _Seen(level, text)
        self._logger.log(level, "%s", text, exc_info=exc_info)

    def flush(self) -> None:
        """Write the count of every message that repeated since it was logged, and forget them all."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        elapsed = 0.0 if self._since is None else self._clock() - self._since
        for seen in self._seen.values():
            if seen.repeats:
                self._logger.log(seen.level, "%s (%d more times in %.0f s)", seen.message, seen.repeats,
                                 elapsed)
        self._seen.clear()
        self._since = None

    def _arm(self) -> None:
        """Flush at the end of the interval, on the running loop if there is one."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._timer = loop.call_later(self._interval, self.flush)
