"""How the monitor's process uses Python's cyclic garbage collector, so that its page keeps pace.

A monitor following 2,000 tables decodes about 20,000 messages a second and
allocates a million small objects doing it. With CPython's default thresholds
(a young collection every 700 allocations) anything that lives a few
milliseconds, such as a table's picture waiting for its tile to be drawn,
reaches the oldest generation, and every few seconds a full collection walked
several hundred thousand objects: 0.3 - 0.6 s with the loop held, the page's
99th percentile above a second (docs/benchmarks.md, "Rated play on every
seat"). So:

* :data:`THRESHOLDS`: young collections every 50,000 allocations, the middle
  one every 20 of them (about a second at that rate): what lives less than that
  dies young, as almost everything the monitor makes per message does;
* :func:`freeze_when_settled`: what start-up made, which lives as long as the
  monitor, is put out of the collector's sight (``gc.freeze``) once every
  table has answered, so that a full collection walks only what came since;
  and the memory that start-up's burst left free (2,000 tables sending their
  last 400 events at once) is given back to the system (the C library's
  ``malloc_trim``, where it has one: glibc, as on Debian and Raspberry Pi OS).

Nothing here changes what is freed: the monitor's data holds no reference
cycles, and reference counting frees it either way.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging

from controller.podium.monitor.models.floor import Floor

log = logging.getLogger(__name__)

THRESHOLDS = (50_000, 20, 10)
"""``gc.set_threshold`` of the serving monitor."""

SETTLED = 60.0
"""Seconds after which start-up is over even if some table has not answered yet."""


def freeze_when_settled(floor: Floor) -> asyncio.TimerHandle:
    """Put what start-up made (the ratings and shift read back, the followers, each table's first
    snapshot) out of the collector's sight once every table has answered, or after
    :data:`SETTLED` seconds; the timer, to cancel at the end."""

    def freeze() -> None:
        timer.cancel()
        floor.on_heard = lambda: None
        gc.freeze()
        give_back()

    floor.on_heard = freeze
    timer = asyncio.get_running_loop().call_later(SETTLED, freeze)
    return timer


def give_back() -> bool:
    """Return the C library's free memory to the system (glibc's ``malloc_trim``); False where the
    C library has no such call."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        log.debug("no malloc_trim in this C library: the free memory stays with the process")
        return False
    trim(0)
    return True
