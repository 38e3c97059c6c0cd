"""The project's link test vectors agree byte for byte with the reference shared with the other teams.

The contract's vectors live in the project (``tests/data/test-vectors.json``), so
the suite needs nothing beside the repository. Where the shared reference is at
hand this checks that the copy has not drifted from it: ``$TABLE_SPEC_DIR/test-vectors.json``
when that variable is set (the file must then exist), else
``../shared/spec/test-vectors.json`` next to the repository. Without either the
test is skipped and says why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.link.test_vectors import VECTORS_FILE

REPOSITORY = Path(__file__).resolve().parents[2]


def reference_file() -> Path | None:
    """The shared reference to compare with, or None when there is none to be had."""
    spec_dir = os.environ.get("TABLE_SPEC_DIR")
    if spec_dir:
        return Path(spec_dir) / "test-vectors.json"
    beside = REPOSITORY.parent / "shared" / "spec" / "test-vectors.json"
    return beside if beside.is_file() else None


def test_project_vectors_match_the_shared_reference() -> None:
    reference = reference_file()
    if reference is None:
        pytest.skip(
            f"no shared reference to compare tests/data/test-vectors.json with: neither TABLE_SPEC_DIR "
            f"is set nor {REPOSITORY.parent / 'shared' / 'spec' / 'test-vectors.json'} exists"
        )
    assert reference.is_file(), f"TABLE_SPEC_DIR names {reference.parent}, which holds no test-vectors.json"
    ours, theirs = VECTORS_FILE.read_bytes(), reference.read_bytes()
    if ours != theirs:
        mine, shared = by_name(ours), by_name(theirs)
        differing = sorted(name for name in mine.keys() | shared.keys() if mine.get(name) != shared.get(name))
        pytest.fail(f"tests/data/test-vectors.json differs from {reference}; vectors that differ: "
                    f"{', '.join(differing) or 'none (only the bytes: layout, key order or crc_check)'}")


def by_name(raw: bytes) -> dict[str, object]:
    """Every vector of a vectors file by its name."""
    vectors = json.loads(raw)
    return {v["name"]: v for group in ("valid", "invalid") for v in vectors[group]}
