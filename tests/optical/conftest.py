"""The optical shoe's tests: real deck designs (Debian's kdegames-card-data-kf5, unpacked by
tests/optical/decks.sh into .cache/decks) rendered by rsvg-convert; they skip, saying why, when either
cannot be had."""

from __future__ import annotations

import pytest

from drivers.optical.designs import CACHE, Design, design
from drivers.optical.frames import FrameMaker
from drivers.optical.render import RenderError, render_design

SMALL_SET = ("standard", "tigullio-international", "nicu-white")
"""The casino-style designs `make test` reads: three index styles (classic, thin serif, jumbo)."""


def deck_design(name: str) -> Design:
    """The design, rendered; a skip naming what is missing when the package or the renderer is."""
    try:
        found = design(name)
        render_design(found)
    except (LookupError, RenderError) as missing:
        pytest.skip(f"deck designs cannot be had: {missing} (run sh tests/optical/decks.sh)")
    return found


@pytest.fixture(scope="module")
def standard() -> FrameMaker:
    """Frames of the standard design."""
    return FrameMaker(deck_design("standard"), CACHE)
