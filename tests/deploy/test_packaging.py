"""The project builds as a user's pip builds it, without a deprecation warning of its own metadata."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_builds_without_a_warning_on_the_project_metadata(tmp_path: Path) -> None:
    """``make demo`` printed setuptools' deprecation of ``project.license`` as a table three times
    (issue 18 item 17): the licence is an SPDX string."""
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "project.license" not in output and "DeprecationWarning" not in output, output[-3000:]
    assert list(tmp_path.glob("table_controller-*.whl"))
