"""The reference firmware's link (firmware_bridge/firmware/link.py) under CPython: every agreed test vector
byte for byte, agreement with the host's COBS and CRC, and its session against the host's own HostSession
(sans-IO, wire bytes only, a fake clock)."""

from __future__ import annotations

import itertools
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.firmware import link
from firmware_bridge.link.frames import Frame as HostFrame
from firmware_bridge.link.frames import FrameReader, cobs_encode, crc16, encode_frame
from firmware_bridge.link.messages import Card, Hello
from firmware_bridge.link.session import Delivered, HostSession, SessionStarted
from firmware_bridge.link.stats import LinkStats

VECTORS = json.loads((Path(__file__).parents[1] / "data" / "test-vectors.json").read_text())
CARD = 0x21


@pytest.mark.parametrize("vector", VECTORS["valid"], ids=lambda v: v["name"])
def test_every_valid_vector_encodes_and_decodes_byte_for_byte(vector: dict[str, Any]) -> None:
    payload = bytes.fromhex(vector["payload"])
    wire = link.encode_frame(vector["type"], vector["seq"], vector["ack"], payload)
    assert wire.hex() == vector["wire"]
    assert link.cobs_decode(wire[:-1]).hex() == vector["body"]
    assert link.FrameReader().feed(bytes.fromhex(vector["wire"])) == [
        (vector["type"], vector["seq"], vector["ack"], payload)]


@pytest.mark.parametrize("vector", VECTORS["invalid"], ids=lambda v: v["name"])
def test_every_invalid_vector_is_dropped_and_a_good_frame_after_noise_kept(vector: dict[str, Any]) -> None:
    reader = link.FrameReader()
    frames = reader.feed(bytes.fromhex(vector["wire"]))
    if vector["name"] == "noise_then_frame":
        assert frames == [(CARD, 5, 255, bytes.fromhex("070000000c02"))] and reader.errors == 1
    else:
        assert frames == [] and reader.errors == 1


def test_the_crc_check_value() -> None:
    check = VECTORS["crc_check"]
    assert link.crc16(check["data"].encode()) == int(check["crc16_ccitt_false"], 16) == 0x29B1


@given(st.binary(max_size=1100))
def test_cobs_and_crc_agree_with_the_host(data: bytes) -> None:
    assert link.cobs_decode(cobs_encode(data)) == data
    assert link.crc16(data) == crc16(data)


@given(st.binary(max_size=1024), st.integers(0, 255), st.integers(0, 255))
def test_a_frame_encoded_in_place_is_the_hosts_byte_for_byte(payload: bytes, seq: int, ack: int) -> None:
    # Encoded straight into the output buffer (no body built first): COBS blocks of 254 bytes, zeros
    # anywhere, the CRC's own bytes zero or not.
    assert link.encode_frame(CARD, seq, ack, payload) == encode_frame(HostFrame(CARD, seq, ack, payload))
    assert len(link.encode_frame(CARD, seq, ack, payload)) <= link.encoded_size(len(payload))


@given(st.binary(max_size=40))
def test_garbage_never_decodes_differently_from_the_host(data: bytes) -> None:
    host = [item for item in FrameReader().feed(data + b"\x00") if isinstance(item, HostFrame)]
    assert link.FrameReader().feed(data + b"\x00") == [(f.type, f.seq, f.ack, f.payload) for f in host]


class Wire:
    """The firmware's Link and a HostSession back to back; ``now`` in seconds, the board's clock in ms."""

    def __init__(self) -> None:
        nonces = itertools.count(0x1000)
        self.host = HostSession(stats=LinkStats(), nonce=lambda: next(nonces), rto=0.28)
        self.board = link.Link(1, "ref-shoe-1.0.0", "SH-1", rto_ms=100)
        self.clock_ms = 0
        self.to_board: list[tuple[int, bytes]] = []

    @property
    def now(self) -> float:
        return self.clock_ms / 1000

    def ms(self) -> int:
        return self.clock_ms

    def exchange(self, *, board_lost: bool = False) -> list[Any]:
        """Board -> host (unless lost), then host -> board; the host's events."""
        out = self.board.take_output()
        events = [] if board_lost else self.host.receive(out, self.now)
        self.to_board += self.board.receive(self.host.take_output(), self.ms())
        return events


def test_boot_hello_then_a_session_started_by_the_host() -> None:
    wire = Wire()
    wire.board.boot()
    hello = FrameReader().feed(wire.board.take_output())
    assert hello == [HostFrame(0x02, 0, 255, struct.pack("<IBB", 0, 1, 1) + b"\x0eref-shoe-1.0.0\x04SH-1")]
    wire.host.start(0.0)
    events = wire.exchange()
    events += wire.exchange()
    started = [e for e in events if isinstance(e, SessionStarted)]
    assert started and started[0].hello == Hello(wire.host.nonce, 1, 1, "ref-shoe-1.0.0", "SH-1")
    assert wire.board.in_session and wire.to_board[-1][0] == link.RESET


def start(wire: Wire) -> list[Any]:
    """Start a session; the messages delivered to the host meanwhile."""
    wire.host.start(wire.now)
    events: list[Any] = []
    for _ in range(3):
        events += wire.exchange()
    assert wire.board.in_session and wire.host.in_session
    return [e.message for e in events if isinstance(e, Delivered)]


def test_cards_are_delivered_in_order_with_a_window_of_eight_and_acknowledged() -> None:
    wire = Wire()
    start(wire)
    for index in range(1, 21):
        wire.board.send(CARD, struct.pack("<IBB", index, 1, 0), wire.ms())
    assert wire.board.pending == 20
    delivered: list[Any] = []
    for _ in range(10):
        delivered += [e.message for e in wire.exchange() if isinstance(e, Delivered)]
    assert delivered == [Card(index, 1, 0) for index in range(1, 21)] and wire.board.pending == 0


def test_a_lost_frame_is_sent_again_after_the_rto_and_the_board_stalls_after_ten_rounds() -> None:
    wire = Wire()
    start(wire)
    wire.board.send(CARD, struct.pack("<IBB", 1, 12, 2), wire.ms())
    wire.exchange(board_lost=True)
    assert wire.board.next_deadline() == wire.ms() + 100
    wire.clock_ms += 100
    wire.board.poll(wire.ms())
    assert [e.message for e in wire.exchange() if isinstance(e, Delivered)] == [Card(1, 12, 2)]
    assert wire.board.retransmissions == 1 and wire.board.pending == 0
    wire.board.send(CARD, struct.pack("<IBB", 2, 12, 2), wire.ms())
    for _ in range(11):
        wire.board.take_output()
        wire.clock_ms += 100
        wire.board.poll(wire.ms())
    assert wire.board.stalled and wire.board.next_deadline() is None
    wire.board.take_output()
    wire.clock_ms += 100
    wire.board.poll(wire.ms())
    assert wire.board.take_output() == b""
    assert start(wire) == [Card(2, 12, 2)]                 # a new session: card 2 renumbered from 0
    assert not wire.board.stalled and wire.board.pending == 0


def test_unknown_and_malformed_host_frames_are_acknowledged_counted_and_not_delivered() -> None:
    wire = Wire()
    start(wire)
    wire.to_board.clear()
    frames = [HostFrame(0x77, 0, 255, b"new"), HostFrame(0x50, 1, 255, b"\x01"),
              HostFrame(0x50, 2, 255, struct.pack("<I", 5)), HostFrame(0x50, 2, 255, struct.pack("<I", 9))]
    wire.to_board += wire.board.receive(b"".join(encode_frame(f) for f in frames), wire.ms())
    assert wire.to_board == [(0x50, struct.pack("<I", 5))]
    assert (wire.board.unknown, wire.board.malformed, wire.board.out_of_order) == (1, 1, 1)
    acks = FrameReader().feed(wire.board.take_output())
    assert acks and all(isinstance(a, HostFrame) and a.type == 0 for a in acks) and acks[-1].ack == 2


def test_a_full_queue_refuses_more() -> None:
    board = link.Link(1, "fw", "sn")
    board.boot()
    sent = [board.send(CARD, b"x" * 6, 0) for _ in range(link.MAX_QUEUE + 1)]
    assert sent == [True] * link.MAX_QUEUE + [False]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.booleans(), max_size=300), st.integers(min_value=1, max_value=30))
def test_every_card_arrives_in_order_over_a_line_that_loses_frames(losses: list[bool], count: int) -> None:
    """Frames lost both ways (as ``losses`` says, then none): the host gets cards 1..count, in order;
    a card may come again only after a new session (the protocol's harmless repeat), never one skipped."""
    wire = Wire()
    lost = iter(losses)
    wire.board.boot()
    wire.host.start(wire.now)
    for index in range(1, count + 1):
        wire.board.send(CARD, struct.pack("<IBB", index, 1, 0), wire.ms())
    got: list[int] = []
    for _ in range(2000):
        wire.clock_ms += 20
        wire.board.poll(wire.ms())
        wire.host.poll(wire.now)
        out = wire.board.take_output()
        if not next(lost, False):
            events = wire.host.receive(out, wire.now)
            got += [e.message.index for e in events if isinstance(e, Delivered)]
        back = wire.host.take_output()
        if not next(lost, False):
            wire.board.receive(back, wire.ms())
        if wire.board.pending == 0 and got and max(got) == count:
            break
    assert wire.board.pending == 0
    assert list(dict.fromkeys(got)) == list(range(1, count + 1))
    assert all(later <= max(got[:at]) + 1 for at, later in enumerate(got) if at)
