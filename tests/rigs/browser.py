"""Headless Chromium for the page tests, or a skip that says why it cannot be had here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.browser import chromium, missing


@contextmanager
def headless_chromium(profile: Path, **size: int) -> Iterator[Any]:
    """Chromium with a fresh ``profile`` (``width``/``height`` if given), quit afterwards; the test
    is skipped, saying why, where Chromium is missing or will not start."""
    why = missing()
    if why is not None:
        pytest.skip(f"no headless Chromium: {why}")
    try:
        driver = chromium(profile, **size)
    except Exception as exc:  # selenium's own errors: the browser would not start here
        pytest.skip(f"headless Chromium did not start: {str(exc).splitlines()[0]}")
    try:
        yield driver
    finally:
        driver.quit()
