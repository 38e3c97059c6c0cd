"""The monitor's collector policy (:mod:`controller.podium.monitor.collector`): the memory a burst left
free is given back to the system, in a process of its own (a real C library, real pages)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    from controller.podium.monitor.collector import give_back

    def rss() -> float:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * 4096 / 2**20

    burst = [bytes(1000) + str(n).encode() for n in range(200_000)]     # 200 MB, as 2,000 tables' history
    kept = burst[::50]                                                   # a few stay: the heap is holed
    del burst
    before = rss()
    print(give_back(), round(before), round(rss()))
""")


def test_the_memory_a_burst_left_free_is_given_back() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60,
                          check=True)
    trimmed, before, after = done.stdout.split()
    if trimmed != "True":
        pytest.skip("this C library has no malloc_trim: nothing to give back")
    assert int(before) - int(after) > 100, (before, after)      # most of the 200 MB freed goes back
