"""Shared fixtures: ``rig``, a whole table (daemon, simulated boards, pit) not yet started."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.rigs.daemon_rig import TableRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        yield table
    finally:
        table.close()


@pytest.fixture
def unpaid(tmp_path: Path) -> Iterator[TableRig]:
    """A whole table whose NEXT does not check the spots' chips (``payout_check = false``): for
    tests that pay and collect nothing at settlement."""
    table = TableRig(tmp_path, payout_check=False)
    try:
        yield table
    finally:
        table.close()
