"""What the end-to-end tests share: ``rig``, a started daemon on simulated boards with the default
configuration (Easy Jack), closed after the test. A test module needing another configuration
defines its own ``rig``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.rigs.daemon_rig import TableRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()
