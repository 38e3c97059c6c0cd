"""The sans-IO link protocol: HostSession and BoardSession back to back in memory with a fake clock.

Every test drives both ends with wire bytes only, as a real line would, and
asserts on delivered messages, frames on the wire and counters.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from hypothesis import event, given, settings
from hypothesis import strategies as st

from firmware_bridge.link.frames import Frame, FrameError, FrameReader, encode_frame
from firmware_bridge.link.messages import Ack, Card, Hello, Message, Reset, SpotLights, pack
from firmware_bridge.link.session import (
    MAX_ROUNDS,
    RESET_INTERVAL,
    WINDOW,
    BoardSession,
    Delivered,
    HostSession,
    SessionEnded,
    SessionStarted,
    default_rto,
)
from firmware_bridge.link.stats import LinkStats

RTO = default_rto(115200)
SILENCE = 3.0


def frames(wire: bytes) -> list[Frame]:
    """The valid frames in some wire bytes (the outputs under test never hold invalid ones)."""
    out = FrameReader().feed(wire)
    assert not any(isinstance(item, FrameError) for item in out)
    return [item for item in out if isinstance(item, Frame)]


def hello_wire(nonce: int, kind: int = 1) -> bytes:
    return encode_frame(Frame(Hello.TYPE, 0, 255, pack(Hello(nonce, kind, 1, "fw", "SN"))[1]))


def card(index: int) -> Card:
    return Card(index=index, rank=(index % 13) + 1, suit=index % 4)


class Pair:
    """A host and a board wired back to back, with a clock the test advances."""

    def __init__(self) -> None:
        self.now = 0.0
        self.nonces = itertools.count(1)
        self.host_stats = LinkStats()
        self.board_stats = LinkStats()
        self.host = HostSession(stats=self.host_stats, nonce=lambda: next(self.nonces), rto=RTO)
        self.board = self.new_board()
        self.at_host: list[Delivered | SessionStarted | SessionEnded] = []
        self.at_board: list[Delivered | SessionStarted] = []

    def new_board(self) -> BoardSession:
        return BoardSession(stats=self.board_stats, kind=1, firmware="fw-1", serial="SN-1", rto=RTO)

    def to_board(self, data: bytes | None = None) -> list[Delivered | SessionStarted]:
        events = self.board.receive(self.host.take_output() if data is None else data, self.now)
        self.at_board += events
        return events

    def to_host(self, data: bytes | None = None) -> list[Delivered | SessionStarted | SessionEnded]:
        events = self.host.receive(self.board.take_output() if data is None else data, self.now)
        self.at_host += events
        return events

    def pump(self) -> None:
        for _ in range(100):
            host_out, board_out = self.host.take_output(), self.board.take_output()
            if not host_out and not board_out:
                return
            self.to_board(host_out)
            self.to_host(board_out)
        raise AssertionError("the link never went quiet")

    def advance(self, seconds: float) -> list[SessionEnded]:
        self.now += seconds
        self.board.poll(self.now)
        return self.host.poll(self.now)

    def connect(self) -> None:
        self.board.boot(self.now)
        self.host.start(self.now)
        self.pump()
        assert self.host.in_session and self.board.in_session

    def host_got(self) -> list[Message]:
        return [e.message for e in self.at_host if isinstance(e, Delivered)]

    def board_got(self) -> list[Message]:
        return [e.message for e in self.at_board if isinstance(e, Delivered)]


# --- session start ----------------------------------------------------------


def test_session_starts_with_the_hello_echoing_the_last_reset() -> None:
    pair = Pair()
    pair.board.boot(0.0)
    boot = frames(pair.board.take_output())
    assert [(f.type, pack(Hello(0, 1, 1, "fw-1", "SN-1"))[1] == f.payload) for f in boot] == [(2, True)]
    pair.host.start(0.0)
    reset = pair.host.take_output()
    assert [f.type for f in frames(reset)] == [Reset.TYPE]
    pair.to_board(reset)
    pair.pump()
    assert pair.host.in_session and pair.board.in_session
    started = [e for e in pair.at_host if isinstance(e, SessionStarted)]
    assert len(started) == 1 and started[0].hello is not None
    assert (started[0].hello.kind, started[0].hello.firmware, started[0].hello.serial) == (1, "fw-1", "SN-1")
    assert started[0].hello.nonce == pair.host.nonce
    assert pair.host.hello == started[0].hello
    assert pair.host_stats.sessions == 1
    assert pair.host.next_deadline() is None  # no RESET repeat once in session


def test_reset_repeats_every_250_ms_with_a_new_nonce_until_answered() -> None:
    pair = Pair()
    pair.host.start(0.0)
    nonces = []
    for _ in range(4):
        (reset,) = frames(pair.host.take_output())
        assert reset.type == Reset.TYPE
        nonces.append(int.from_bytes(reset.payload, "little"))
        deadline = pair.host.next_deadline()
        assert deadline == pair.now + RESET_INTERVAL
        pair.now = deadline - 0.001
        assert pair.host.poll(pair.now) == [] and pair.host.take_output() == b""
        pair.now = deadline
        pair.host.poll(pair.now)
    assert nonces == [1, 2, 3, 4]
    assert pair.host_stats.resets == 5


def test_board_sends_no_data_before_it_answered_a_reset() -> None:
    pair = Pair()
    pair.board.boot(0.0)
    pair.board.send(card(1), 0.0)
    assert [f.type for f in frames(pair.board.take_output())] == [Hello.TYPE]
    assert pair.board.pending == 1
    assert pair.board.next_deadline() is None
    pair.host.start(0.0)
    pair.pump()
    assert pair.host_got() == [card(1)]


def test_stale_hellos_and_frames_before_the_session_are_ignored() -> None:
    pair = Pair()
    pair.host.start(0.0)  # nonce 1
    pair.advance(RESET_INTERVAL)  # nonce 2
    pair.host.take_output()
    assert pair.to_host(hello_wire(1)) == []
    assert not pair.host.in_session
    data = encode_frame(Frame(Card.TYPE, 0, 255, pack(card(1))[1]))
    assert pair.to_host(data) == []
    assert pair.host.take_output() == b""  # not even acknowledged
    assert pair.host_stats.ignored == 2
    events = pair.to_host(hello_wire(2))
    assert [type(e) for e in events] == [SessionStarted] and pair.host.in_session
    assert pair.host_stats.ignored == 2


def test_frames_to_a_board_outside_a_session_are_ignored() -> None:
    pair = Pair()
    pair.board.boot(0.0)
    pair.board.take_output()
    spot = encode_frame(Frame(SpotLights.TYPE, 0, 255, pack(SpotLights(1))[1]))
    assert pair.to_board(spot) == []
    assert pair.board.take_output() == b""
    assert pair.board_stats.ignored == 1


def test_unasked_hello_ends_the_session_and_resets_at_once() -> None:
    pair = Pair()
    pair.connect()
    pair.board = pair.new_board()  # the board reboots
    pair.board.boot(pair.now)
    events = pair.to_host()
    assert events == [SessionEnded("board restarted")]
    assert not pair.host.in_session
    reset = pair.host.take_output()
    assert [f.type for f in frames(reset)] == [Reset.TYPE]
    pair.to_board(reset)
    pair.pump()
    assert pair.host.in_session and pair.host_stats.sessions == 2


def test_boot_hello_while_waiting_sends_a_new_reset_at_once() -> None:
    pair = Pair()
    pair.host.start(0.0)
    pair.host.take_output()  # the first RESET is lost
    pair.board.boot(0.0)
    assert pair.to_host() == []
    (reset,) = frames(pair.host.take_output())
    assert reset.type == Reset.TYPE and reset.payload == (2).to_bytes(4, "little")


def test_a_board_restart_right_after_data_loses_no_card() -> None:
    """The host reads data and the boot HELLO in one go: its RESET must not be followed by an ACK of the
    old session, which the board would apply to the frames it renumbered from 0 on that RESET."""
    pair = Pair()
    pair.connect()
    for i in range(1, 4):
        pair.board.send(card(i), pair.now)
    pair.pump()  # cards 1 to 3 delivered and acknowledged (board seqs 0 to 2)
    for i in range(4, 9):
        pair.board.send(card(i), pair.now)  # seqs 3 to 7
    sent = frames(pair.board.take_output())
    pair.board.boot(pair.now)  # a watchdog reset; the outbox (cards 4 to 8) is kept
    events = pair.to_host(b"".join(encode_frame(f) for f in sent[:2]) + pair.board.take_output())
    assert events == [Delivered(card(4)), Delivered(card(5)), SessionEnded("board restarted")]
    for frame in frames(pair.host.take_output()):  # the board reads the host's frames one at a time
        pair.to_board(encode_frame(frame))
        # the board answers the RESET with HELLO and cards 4 to 8 as seqs 0 to 4; only the HELLO survives
        answer = frames(pair.board.take_output())
        pair.to_host(b"".join(encode_frame(f) for f in answer if f.type == Hello.TYPE))
    pair.pump()
    for _ in range(3):
        pair.advance(RTO)
        pair.pump()
    assert pair.host.in_session and pair.board.pending == 0
    assert sorted({m.index for m in pair.host_got() if isinstance(m, Card)}) == list(range(1, 9))


def test_no_frame_of_the_old_session_follows_the_reset() -> None:
    pair = Pair()
    pair.connect()
    pair.board.send(card(1), pair.now)
    pair.board.boot(pair.now)
    assert pair.to_host() == [Delivered(card(1)), SessionEnded("board restarted")]
    assert [f.type for f in frames(pair.host.take_output())] == [Reset.TYPE]


def test_any_hello_in_a_session_restarts_it_even_one_echoing_an_older_nonce() -> None:
    """Spec 4: "any HELLO while a session is up" ends it; the board that sent it has renumbered its
    frames from 0, so going on in the old sequence spaces would skip and lose its cards."""
    pair = Pair()
    pair.connect()  # RESETs 1 and 2 were sent; 2 started the session
    for i in range(1, 4):
        pair.board.send(card(i), pair.now)
    pair.pump()  # cards 1 to 3 delivered and acknowledged
    for i in range(4, 9):
        pair.board.send(card(i), pair.now)
    pair.board.take_output()  # cards 4 to 8 lost on the line
    stale_reset = encode_frame(Frame(Reset.TYPE, 0, 255, pack(Reset(1))[1]))
    pair.to_board(stale_reset)  # RESET 1 reaches the board late
    events = pair.to_host()  # HELLO 1, then cards 4 to 8 renumbered from 0
    assert events[:1] == [SessionEnded("board restarted")]
    pair.pump()
    for _ in range(3):
        pair.advance(RTO)
        pair.pump()
    assert pair.host.in_session and pair.board.pending == 0
    assert [m.index for m in pair.host_got() if isinstance(m, Card)] == list(range(1, 9))


def test_any_hello_echoing_the_current_nonce_in_a_session_restarts_it() -> None:
    pair = Pair()
    pair.connect()
    events = pair.to_host(hello_wire(pair.host.nonce))
    assert events == [SessionEnded("board restarted")]


# --- delivery ----------------------------------------------------------------


def test_messages_arrive_in_order_exactly_once_both_ways() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 41):
        pair.board.send(card(i), pair.now)
        if i % 10 == 0:
            pair.host.send(SpotLights(mask=i), pair.now)
        pair.pump()
    assert pair.host_got() == [card(i) for i in range(1, 41)]
    assert pair.board_got() == [SpotLights(mask=i) for i in (10, 20, 30, 40)]
    assert pair.board.pending == 0 and pair.host.pending == 0
    assert pair.host_stats.retransmissions == pair.board_stats.retransmissions == 0


def test_sequence_numbers_wrap_at_256() -> None:
    pair = Pair()
    pair.connect()
    seqs = []
    for i in range(1, 301):
        pair.board.send(card(i), pair.now)
        out = pair.board.take_output()
        seqs += [f.seq for f in frames(out)]
        pair.to_host(out)
        pair.pump()
    assert seqs == [i % 256 for i in range(300)]
    assert pair.host_got() == [card(i) for i in range(1, 301)]


def test_window_of_8() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 21):
        pair.board.send(card(i), pair.now)
    sent = frames(pair.board.take_output())
    assert [f.seq for f in sent] == list(range(WINDOW))
    assert pair.board.pending == 20
    assert pair.board.take_output() == b""
    # the host gets three of them; its ACK 2 opens the board's window by three frames
    pair.to_host(b"".join(encode_frame(f) for f in sent[:3]))
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 2)]
    pair.to_board(encode_frame(Frame(Ack.TYPE, 0, 2)))
    more = frames(pair.board.take_output())
    assert [f.seq for f in more] == [8, 9, 10]
    assert pair.board.pending == 17
    pair.to_host(b"".join(encode_frame(f) for f in sent[3:] + more))
    pair.pump()
    assert pair.host_got() == [card(i) for i in range(1, 21)]
    assert pair.board.pending == 0 and pair.board_stats.retransmissions == 0


def test_receiver_acknowledges_each_delivery_with_an_ack_frame() -> None:
    pair = Pair()
    pair.connect()
    pair.board.send(card(1), pair.now)
    assert pair.to_host() == [Delivered(card(1))]
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 0)]


def test_ack_is_piggybacked_on_a_data_frame() -> None:
    pair = Pair()
    pair.connect()
    for i in range(WINDOW + 1):
        pair.host.send(SpotLights(mask=i), pair.now)
    assert [f.seq for f in frames(pair.host.take_output())] == list(range(WINDOW))
    # the board's CARD carries ack 0, which frees one slot of the host's window:
    # the host's next SPOT_LIGHTS carries the ack of the CARD, and no ACK frame is sent
    card_frame = encode_frame(Frame(Card.TYPE, 0, 0, pack(card(1))[1]))
    assert pair.to_host(card_frame) == [Delivered(card(1))]
    assert frames(pair.host.take_output()) == [Frame(SpotLights.TYPE, WINDOW, 0, pack(SpotLights(WINDOW))[1])]


def test_ack_naming_no_outstanding_frame_acknowledges_nothing() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 4):
        pair.board.send(card(i), pair.now)
    pair.board.take_output()
    for ack in (255, 3, 200):
        pair.to_board(encode_frame(Frame(Ack.TYPE, 0, ack)))
        assert pair.board.pending == 3
    pair.to_board(encode_frame(Frame(Ack.TYPE, 0, 1)))
    assert pair.board.pending == 1
    # the ack field of RESET and HELLO is never read: a HELLO with ack 2 is ignored by the board
    pair.to_board(encode_frame(Frame(Hello.TYPE, 0, 2, pack(Hello(0, 1, 1, "x", "y"))[1])))
    assert pair.board.pending == 1


def test_duplicates_and_gaps_are_answered_with_the_last_delivered_seq() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 5):
        pair.board.send(card(i), pair.now)
    wire = [encode_frame(f) for f in frames(pair.board.take_output())]
    # seq 0 is lost: seq 1 is a gap, answered with ACK 255 (nothing delivered yet)
    assert pair.to_host(wire[1]) == []
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 255)]
    assert pair.to_host(wire[0]) == [Delivered(card(1))]
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 0)]
    # a duplicate of seq 0 is not delivered again, and answered with ACK 0
    assert pair.to_host(wire[0]) == []
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 0)]
    assert pair.host_stats.out_of_order == 2
    assert pair.to_host(wire[1] + wire[2] + wire[3]) == [Delivered(card(i)) for i in (2, 3, 4)]
    assert frames(pair.host.take_output()) == [Frame(Ack.TYPE, 0, 3)]


def test_go_back_n_resends_all_unacknowledged_frames_after_the_rto() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 4):
        pair.board.send(card(i), pair.now)
    first = frames(pair.board.take_output())
    pair.to_host(encode_frame(first[1]) + encode_frame(first[2]))  # seq 0 lost
    pair.to_board()  # ACK 255: acknowledges nothing
    assert pair.board.next_deadline() == RTO + pair.now
    pair.advance(RTO - 0.001)
    assert pair.board.take_output() == b""
    pair.advance(0.001)
    again = frames(pair.board.take_output())
    assert [f.seq for f in again] == [0, 1, 2] and [f.payload for f in again] == [f.payload for f in first]
    assert pair.board_stats.retransmissions == 3
    pair.to_host(b"".join(encode_frame(f) for f in again))
    pair.pump()
    assert pair.host_got() == [card(1), card(2), card(3)]
    assert pair.board.pending == 0 and pair.board.next_deadline() is None


def test_unknown_type_and_malformed_payload_are_acknowledged_counted_and_skipped() -> None:
    pair = Pair()
    pair.connect()
    pair.board.send_raw(0x77, b"from a newer firmware", pair.now)
    pair.board.send_raw(Card.TYPE, b"\x01", pair.now)
    pair.board.send(card(1), pair.now)
    pair.pump()
    assert pair.host_got() == [card(1)]
    assert pair.host_stats.unknown_frames == 1 and pair.host_stats.malformed_payloads == 1
    assert pair.board.pending == 0
    assert pair.board_stats.retransmissions == 0


def test_garbage_on_the_line_is_counted_and_the_link_goes_on() -> None:
    pair = Pair()
    pair.connect()
    pair.board.send(card(1), pair.now)
    crc_broken = bytearray(encode_frame(Frame(Card.TYPE, 1, 255, pack(card(9))[1])))
    crc_broken[-2] ^= 0x01
    pair.to_host(b"\xff\xee\x12\x00" + bytes(crc_broken) + pair.board.take_output())
    assert pair.host_got() == [card(1)]
    assert pair.host_stats.framing_errors == 2 and pair.host_stats.crc_errors == 1


# --- new sessions -------------------------------------------------------------


def test_new_session_renumbers_unacknowledged_frames_on_both_sides() -> None:
    pair = Pair()
    pair.connect()
    for i in range(1, 11):
        pair.board.send(card(i), pair.now)
    for i in range(1, 4):
        pair.host.send(SpotLights(mask=i), pair.now)
    board_out = frames(pair.board.take_output())
    pair.to_host(encode_frame(board_out[0]) + encode_frame(board_out[1]))  # cards 1 and 2 arrive
    pair.to_board(b"")  # but the host's frames (ACK 1 included) are lost
    pair.host.take_output()
    pair.host.start(pair.now)  # e.g. after the 3 s silence rule
    pair.to_board()
    board_out = frames(pair.board.take_output())
    assert [f.type for f in board_out[:1]] == [Hello.TYPE]
    assert [(f.seq, f.payload) for f in board_out[1:]] == [
        (seq, pack(card(i))[1]) for seq, i in enumerate(range(1, 9))
    ]
    pair.to_host(b"".join(encode_frame(f) for f in board_out))
    host_out = frames(pair.host.take_output())
    spots = [f for f in host_out if f.type == SpotLights.TYPE]
    assert [(f.seq, f.payload) for f in spots] == [(i - 1, pack(SpotLights(i))[1]) for i in (1, 2, 3)]
    pair.to_board(b"".join(encode_frame(f) for f in host_out))
    pair.pump()
    # cards 1 and 2 come again (the spec lets the host see them twice across sessions), in order
    assert pair.host_got() == [card(1), card(2)] + [card(i) for i in range(1, 11)]
    assert pair.board_got() == [SpotLights(mask=i) for i in (1, 2, 3)]
    assert pair.board.pending == 0 and pair.host.pending == 0


def test_host_link_down_after_10_rounds_without_progress() -> None:
    pair = Pair()
    pair.connect()
    pair.host.send(SpotLights(mask=5), pair.now)
    pair.host.take_output()  # lost
    for _ in range(MAX_ROUNDS):
        deadline = pair.host.next_deadline()
        assert deadline == pair.now + RTO
        assert pair.advance(deadline - pair.now) == []
        assert [(f.type, f.seq) for f in frames(pair.host.take_output())] == [(SpotLights.TYPE, 0)]  # lost
    assert pair.host_stats.retransmissions == MAX_ROUNDS
    deadline = pair.host.next_deadline()
    assert deadline is not None
    ended = pair.advance(deadline - pair.now)
    assert ended == [SessionEnded(f"no acknowledgement after {MAX_ROUNDS} retransmissions")]
    assert not pair.host.in_session
    assert [f.type for f in frames(pair.host.take_output())] == [Reset.TYPE]
    assert pair.host.pending == 1
    pair.board.take_output()
    pair.advance(RESET_INTERVAL)  # the next RESET gets through
    pair.pump()
    assert pair.board_got() == [SpotLights(mask=5)]


def test_board_stops_after_10_rounds_and_keeps_its_frames_until_a_reset() -> None:
    pair = Pair()
    pair.connect()
    pair.board.send(card(1), pair.now)
    pair.board.send(card(2), pair.now)
    for _ in range(MAX_ROUNDS + 1):
        pair.board.take_output()  # lost
        deadline = pair.board.next_deadline()
        assert deadline is not None
        pair.advance(deadline - pair.now)
    assert pair.board.stalled and pair.board.next_deadline() is None
    assert pair.board_stats.retransmissions == 2 * MAX_ROUNDS
    pair.board.send(card(3), pair.now)
    pair.advance(10.0)
    assert pair.board.take_output() == b""
    assert pair.board.pending == 3
    pair.host.start(pair.now)
    pair.pump()
    assert not pair.board.stalled
    assert pair.host_got() == [card(1), card(2), card(3)]


# --- properties -----------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=30),
    noise=st.lists(st.binary(max_size=40), max_size=30),
    ends_with_zero=st.booleans(),
    splits=st.lists(st.integers(min_value=1, max_value=64), min_size=1, max_size=20),
    data=st.data(),
)
def test_receiver_delivers_only_sent_frames_in_order_once(
    count: int, noise: list[bytes], ends_with_zero: bool, splits: list[int], data: st.DataObject
) -> None:
    pair = Pair()
    pair.connect()
    sent = [card(i) for i in range(1, count + 1)]
    chunks = [encode_frame(Frame(Card.TYPE, seq, 255, pack(m)[1])) for seq, m in enumerate(sent)]
    # repeat some frames (duplicates) and put the noise anywhere between frames
    for _ in range(data.draw(st.integers(min_value=0, max_value=5))):
        chunks.insert(data.draw(st.integers(0, len(chunks))), chunks[data.draw(st.integers(0, count - 1))])
    for blob in noise:
        chunks.insert(data.draw(st.integers(0, len(chunks))), blob + (b"\x00" if ends_with_zero else b""))
    stream = b"".join(chunks)
    at = 0
    for size in itertools.cycle(splits):
        if at >= len(stream):
            break
        pair.to_host(stream[at : at + size])
        at += size
    got = pair.host_got()
    assert got == sent[: len(got)]  # only frames that were sent, in order, each once
    if ends_with_zero or not any(noise):
        # noise that ends at a delimiter costs no frame, and duplicates are not delivered again
        assert got == sent


LATENCY = 0.002
Action = tuple[str, int, int]
ACTIONS = st.tuples(
    st.sampled_from(["pass", "drop", "corrupt", "duplicate", "truncate"]),
    st.integers(min_value=0, max_value=2000),
    st.integers(min_value=1, max_value=255),
)


class LossyChannel:
    """Until time ``until``, applies the chosen actions in turn (cycling) to the frames it carries."""

    def __init__(self, actions: list[Action], until: float) -> None:
        self.actions = actions
        self.until = until
        self.turn = 0

    def carry(self, wire: bytes, now: float) -> bytes:
        out = bytearray()
        for part in wire.split(b"\x00")[:-1]:
            frame = part + b"\x00"
            kind, at, value = ("pass", 0, 0)
            if self.actions and not self.behaving(now):
                kind, at, value = self.actions[self.turn % len(self.actions)]
                self.turn += 1
            if kind == "drop":
                continue
            if kind == "corrupt":
                broken = bytearray(frame)
                broken[at % len(broken)] ^= value
                frame = bytes(broken)
            elif kind == "duplicate":
                frame += frame
            elif kind == "truncate":
                frame = frame[: at % len(frame)]
            out += frame
        return bytes(out)

    def behaving(self, now: float) -> bool:
        return now >= self.until


def check_deliveries(deliveries: list[tuple[int, int]], total: int) -> None:
    """``deliveries`` are (receiver session, message id) in delivery order, ids 1..total.

    Within a session every id comes once, in order, without gaps; a new session
    may start again at an earlier id (renumbered frames the peer had not had
    acknowledged), never after a gap; in the end every id arrived.
    """
    highest = 0
    previous: tuple[int, int] | None = None
    for session, ident in deliveries:
        if previous is not None and previous[0] == session:
            assert ident == previous[1] + 1, deliveries
        assert ident <= highest + 1, deliveries
        highest = max(highest, ident)
        previous = (session, ident)
    assert highest == total, deliveries


@settings(max_examples=300, deadline=None)
@given(
    actions=st.lists(ACTIONS, max_size=60),
    until=st.floats(min_value=0.0, max_value=10.0),
    cards=st.integers(min_value=1, max_value=40),
    spots=st.integers(min_value=0, max_value=12),
    send_times=st.lists(st.floats(min_value=0.0, max_value=5.0), min_size=1, max_size=10),
)
def test_lossy_channel_still_delivers_everything_in_order(
    actions: list[Action], until: float, cards: int, spots: int, send_times: list[float]
) -> None:
    to_board, to_host = LossyChannel(actions[::2], until), LossyChannel(actions[1::2], until)
    pair = Pair()
    plan: list[tuple[float, Callable[[], None]]] = []

    def board_sends(i: int) -> Callable[[], None]:
        return lambda: pair.board.send(card(i), pair.now)

    def host_sends(i: int) -> Callable[[], None]:
        return lambda: pair.host.send(SpotLights(i), pair.now)

    times = sorted(send_times)  # each side sends its messages in order, spread over these times
    plan += [(times[i * len(times) // (cards + 1)], board_sends(i)) for i in range(1, cards + 1)]
    plan += [(times[i * len(times) // (spots + 1)], host_sends(i)) for i in range(1, spots + 1)]
    plan.sort(key=lambda item: item[0])
    at_host: list[tuple[int, int]] = []
    at_board: list[tuple[int, int]] = []

    def exchange() -> None:
        for _ in range(10_000):
            host_out, board_out = pair.host.take_output(), pair.board.take_output()
            if not host_out and not board_out:
                return
            pair.now += LATENCY  # so a storm the channel makes (duplicating every frame) ends with it
            for got in pair.board.receive(to_board.carry(host_out, pair.now), pair.now):
                if isinstance(got, Delivered):
                    assert isinstance(got.message, SpotLights)
                    at_board.append((pair.board_stats.sessions, got.message.mask))
            for e in pair.host.receive(to_host.carry(board_out, pair.now), pair.now):
                if isinstance(e, Delivered):
                    assert isinstance(e.message, Card)
                    at_host.append((pair.host_stats.sessions, e.message.index))
        raise AssertionError("no quiet moment")  # pragma: no cover

    pair.board.boot(0.0)
    pair.host.start(0.0)
    for _ in range(100_000):
        exchange()
        done = (
            not plan and to_board.behaving(pair.now) and pair.host.in_session
            and pair.board.pending == 0 and pair.host.pending == 0
        )
        if done:
            break
        candidates = [d for d in (pair.host.next_deadline(), pair.board.next_deadline()) if d is not None]
        if not to_board.behaving(pair.now):
            candidates.append(until)
        if plan:
            candidates.append(plan[0][0])
        if pair.host.in_session and pair.host.last_received is not None:
            candidates.append(pair.host.last_received + SILENCE)  # HostLink's offline rule
        pair.now = max(pair.now, min(candidates))
        while plan and plan[0][0] <= pair.now:
            plan.pop(0)[1]()
        silent_since = pair.host.last_received
        if pair.host.in_session and silent_since is not None and pair.now >= silent_since + SILENCE:
            pair.host.start(pair.now)
        pair.host.poll(pair.now)
        pair.board.poll(pair.now)
    else:
        raise AssertionError("the link never settled")
    event(f"host sessions: {min(pair.host_stats.sessions, 3)}+")
    event(f"retransmissions: {bool(pair.host_stats.retransmissions + pair.board_stats.retransmissions)}")
    event(f"board stalled: {pair.board.stalled or pair.board_stats.retransmissions >= 20}")
    event(f"framing errors: {bool(pair.host_stats.framing_errors + pair.board_stats.framing_errors)}")
    check_deliveries(at_host, cards)
    if spots:
        check_deliveries(at_board, spots)
    else:
        assert at_board == []
