"""Tests for the kernel's repeat-counting log: a flood of one or of many messages writes a bounded log."""

from __future__ import annotations

import asyncio
import logging

import pytest

from firmware_bridge.kernel.repeat_log import RepeatLog


@pytest.fixture
def logger(caplog: pytest.LogCaptureFixture) -> logging.Logger:
    caplog.set_level(logging.INFO, logger="test-repeat-log")
    return logging.getLogger("test-repeat-log")


def test_a_flood_of_many_kinds_writes_at_most_two_lines_a_kind_and_one_for_the_rest(
        logger: logging.Logger, caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    repeats = RepeatLog(logger, max_keys=4, clock=lambda: now[0])
    for n in range(100_000):
        repeats.note(n % 50, logging.WARNING, f"kind {n % 50}: " + "x" * 1000)
    assert len(caplog.records) == 4                          # the first 4 kinds, once each
    assert all(len(r.getMessage()) <= 240 for r in caplog.records)
    repeats.flush()
    counts = [r.getMessage() for r in caplog.records[4:]]
    assert len(counts) == 5
    assert counts[-1] == "other messages, not logged one by one (92000 more times in 0 s)"
    assert counts[0].endswith("... (1999 more times in 0 s)")
    now[0] = 100.0
    repeats.note(7, logging.WARNING, "kind 7 again")          # a new interval: logged again
    assert caplog.records[-1].getMessage() == "kind 7 again"


def test_the_traceback_is_written_with_the_first_line_only(logger: logging.Logger,
                                                           caplog: pytest.LogCaptureFixture) -> None:
    repeats = RepeatLog(logger)
    for _ in range(3):
        try:
            raise ValueError("boom")
        except ValueError:
            repeats.note("boom", logging.ERROR, "input failed", exc_info=True)
    repeats.flush()
    assert [r.exc_info is not None for r in caplog.records] == [True, False]
    assert caplog.records[1].getMessage() == "input failed (2 more times in 0 s)"


async def test_on_a_loop_the_count_is_written_when_the_interval_ends(
        logger: logging.Logger, caplog: pytest.LogCaptureFixture) -> None:
    repeats = RepeatLog(logger, interval=0.05)
    for _ in range(10):
        repeats.note("k", logging.INFO, "pressed")
    await asyncio.sleep(0.3)                                  # the interval's timer is due after 0.05 s
    assert [r.getMessage() for r in caplog.records][-1].startswith("pressed (9 more times in ")
