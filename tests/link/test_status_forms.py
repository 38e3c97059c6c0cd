"""STATUS in its two forms (docs/protocol.md, STATUS): the 6 bytes every board sends, and the 8 of a board
that ran out of memory, whose ``memory_errors`` a host decodes, dumps to JSON and takes back."""

from __future__ import annotations

import pytest

from firmware_bridge.link.messages import PayloadError, Status, from_json, pack, to_json, unpack


def test_a_status_without_memory_errors_is_the_6_bytes_of_before() -> None:
    assert pack(Status(1234, 5)) == (0x10, bytes.fromhex("d20400000500"))
    assert unpack(0x10, bytes.fromhex("d20400000500")) == Status(1234, 5, 0)
    assert to_json(Status(1234, 5)) == {"type": "STATUS", "uptime_ms": 1234, "flags": 5}
    assert from_json({"type": "STATUS", "uptime_ms": 1234, "flags": 5}) == Status(1234, 5)


def test_memory_errors_take_two_more_bytes_and_come_back() -> None:
    kind, payload = pack(Status(1234, 5, memory_errors=3))
    assert (kind, payload) == (0x10, bytes.fromhex("d204000005000300"))
    assert unpack(kind, payload) == Status(1234, 5, 3)
    dumped = to_json(Status(1234, 5, 3))
    assert dumped == {"type": "STATUS", "uptime_ms": 1234, "flags": 5, "memory_errors": 3}
    assert from_json(dumped) == Status(1234, 5, 3)


@pytest.mark.parametrize("size", [5, 7, 9])
def test_a_status_of_another_length_does_not_fit(size: int) -> None:
    with pytest.raises(PayloadError):
        unpack(0x10, bytes(size))
