"""The one money format (firmware_bridge/kernel/money.py): cents as dollars, for every reader."""

from __future__ import annotations

import pytest

from firmware_bridge.kernel.money import dollars


@pytest.mark.parametrize(
    ("cents", "text"),
    [
        (0, "$0.00"),
        (5, "$0.05"),
        (500, "$5.00"),
        (150050, "$1,500.50"),
        (123456789, "$1,234,567.89"),
        (-500, "-$5.00"),
        (-150050, "-$1,500.50"),
    ],
)
def test_dollars(cents: int, text: str) -> None:
    assert dollars(cents) == text
