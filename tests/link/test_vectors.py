"""The link test vectors (``tests/data/test-vectors.json``, docs/protocol.md section 6) through the codec,
the messages and a session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.link.frames import (
    Frame,
    FrameError,
    FrameReader,
    cobs_encode,
    crc16,
    decode_frame,
    encode_body,
    encode_frame,
)
from firmware_bridge.link.messages import Card, pack, unpack
from firmware_bridge.link.session import BoardSession, Delivered, HostSession
from firmware_bridge.link.stats import LinkStats

VECTORS_FILE = Path(__file__).resolve().parents[1] / "data" / "test-vectors.json"
"""The vectors of the link contract, kept with the project (docs/protocol.md, section 6)."""
VECTORS: dict[str, Any] = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
VALID: list[dict[str, Any]] = VECTORS["valid"]
INVALID: list[dict[str, Any]] = VECTORS["invalid"]


def frame_of(vector: dict[str, Any]) -> Frame:
    return Frame(vector["type"], vector["seq"], vector["ack"], bytes.fromhex(vector["payload"]))


def test_crc_check_value() -> None:
    check = VECTORS["crc_check"]
    assert crc16(check["data"].encode("ascii")) == int(check["crc16_ccitt_false"], 16) == 0x29B1


def test_every_vector_is_checked() -> None:
    assert len(VALID) >= 17 and len(INVALID) >= 5
    names = {"bad_crc", "bad_version", "too_short", "bad_cobs", "noise_then_frame"}
    assert {v["name"] for v in INVALID} >= names


@pytest.mark.parametrize("vector", VALID, ids=[v["name"] for v in VALID])
def test_valid_vector_both_ways(vector: dict[str, Any]) -> None:
    frame = frame_of(vector)
    body, wire = bytes.fromhex(vector["body"]), bytes.fromhex(vector["wire"])
    assert encode_body(frame) == body
    assert encode_frame(frame) == wire
    assert cobs_encode(body) + b"\x00" == wire
    assert decode_frame(wire[:-1]) == frame
    assert FrameReader().feed(wire) == [frame]
    message = unpack(frame.type, frame.payload)
    assert pack(message) == (frame.type, frame.payload)


def test_decoder_accepts_an_empty_trailing_block_at_the_254_byte_boundary() -> None:
    (vector,) = [v for v in VALID if v["name"] == "cobs_254_boundary"]
    wire = bytes.fromhex(vector["wire"])
    assert wire[0] == 0xFF and len(wire) == 256  # one full block, no empty block
    assert FrameReader().feed(wire[:-1] + b"\x01\x00") == [frame_of(vector)]


@pytest.mark.parametrize("vector", INVALID, ids=[v["name"] for v in INVALID])
def test_invalid_vector_is_dropped_as_a_framing_error(vector: dict[str, Any]) -> None:
    wire = bytes.fromhex(vector["wire"])
    items = FrameReader().feed(wire)
    assert isinstance(items[0], FrameError)
    if vector["name"] == "noise_then_frame":
        assert len(items) == 2 and isinstance(items[1], Frame)
        assert unpack(items[1].type, items[1].payload) == Card(index=7, rank=12, suit=2)
    else:
        assert len(items) == 1


@pytest.mark.parametrize("vector", INVALID, ids=[v["name"] for v in INVALID])
def test_session_counts_invalid_vectors_and_goes_on(vector: dict[str, Any]) -> None:
    stats = LinkStats()
    host = HostSession(stats=stats, nonce=lambda: 1, rto=0.28)
    host.start(0.0)
    host.take_output()
    assert host.receive(bytes.fromhex(vector["wire"]), 0.0) == []
    assert stats.framing_errors == 1
    assert stats.crc_errors == (1 if vector["name"] == "bad_crc" else 0)
    # a frame outside a session (the noise_then_frame CARD) is valid but ignored
    assert stats.frames_received + stats.ignored == (2 if vector["name"] == "noise_then_frame" else 0)


def test_noise_then_frame_delivers_the_card_in_a_session() -> None:
    host = HostSession(stats=LinkStats(), nonce=lambda: 1, rto=0.28)
    board = BoardSession(stats=LinkStats(), kind=1, firmware="fw", serial="SN", rto=0.28)
    host.start(0.0)
    board.receive(host.take_output(), 0.0)
    host.receive(board.take_output(), 0.0)
    for index in range(1, 6):  # seqs 0 to 4: the vector's CARD is seq 5
        board.send(Card(index=index, rank=1, suit=0), 0.0)
    assert len(host.receive(board.take_output(), 0.0)) == 5
    (vector,) = [v for v in INVALID if v["name"] == "noise_then_frame"]
    assert host.receive(bytes.fromhex(vector["wire"]), 0.1) == [Delivered(Card(index=7, rank=12, suit=2))]
    assert host.stats.framing_errors == 1
