"""End to end: what a hostile or clumsy pit client sends gets an answer, never a traceback or a full disk."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from controller.follow.blocking import PitError
from tests.rigs.daemon_rig import TableRig


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path)
    try:
        table.start()
        yield table
    finally:
        table.close()


def test_a_replay_from_past_any_integer_the_journal_can_hold_ends_at_the_last_seq(rig: TableRig) -> None:
    last = rig.pit.control({"cmd": "state"})["seq"]
    assert rig.pit.sync(b"replay", b"99999999999999999999") == [[b"end", str(last).encode()]]
    assert rig.pit.sync(b"replay", str(last + 1).encode()) == [[b"end", str(last).encode()]]
    assert "Traceback" not in rig.log_text()


def test_a_request_over_the_size_limit_gets_an_error_that_says_so(rig: TableRig) -> None:
    big = "x" * (2 << 20)                                     # 2 MiB: over the 64 KiB limit
    reply = rig.pit.control({"cmd": "press", "button": big}, timeout=5)
    assert reply["ok"] is False
    assert reply["error"].startswith("request of ") and "over the limit of 65536 bytes" in reply["error"]
    assert rig.pit.sync(b"replay", big.encode(), timeout=5) == [
        [b"error", f"request of {6 + len(big)} bytes is over the limit of 65536 bytes".encode()]]
    with pytest.raises(PitError):                             # over 8 MiB: cut by ZeroMQ, as documented
        rig.pit.control({"cmd": "state", "pad": "x" * (9 << 20)}, timeout=1)
    assert rig.pit.control({"cmd": "state"})["ok"] is True    # and the socket serves the next client
    assert rig.pit.control({"cmd": "press", "button": "x" * 60_000}) == {
        "ok": False, "error": "press needs a button name (1 to 32 characters)"}


def test_a_flood_of_refused_presses_and_malformed_requests_keeps_the_log_small(rig: TableRig) -> None:
    rig.pit.drain()
    before = rig.log.stat().st_size
    started = time.monotonic()
    context = rig.pit.context
    req = context.socket(zmq.REQ)
    req.connect(rig.endpoints[2])
    dealer = context.socket(zmq.DEALER)
    dealer.connect(rig.endpoints[1])
    try:
        for n in range(2000):                                 # a client pressing in a loop, all refused
            req.send_json({"cmd": "press", "button": ("deal", "next", "stand", "void")[n % 4]})
            assert req.recv_json()["ok"] is False
        for n in range(500):
            req.send(b"not json %d" % n)
            assert "not UTF-8 JSON" in req.recv_json()["error"]
            dealer.send_multipart([b"replay", b"-%d" % n])
            assert dealer.recv_multipart()[0] == b"error"
    finally:
        req.close(linger=0)
        dealer.close(linger=0)
    assert rig.kill(signal.SIGTERM) == 0                       # a clean stop writes the counts
    seconds = time.monotonic() - started
    flood = rig.log.read_bytes()[before:].decode()
    # The display's log writes a burst of 60 views, then one a second (drivers/display.py LogRenderer),
    # however fast the refusals come: not 2,000 blocks (2 MB), and as few on a slow machine as it allows.
    blocks = flood.count("\nT07 | easy-jack | ")
    assert blocks <= 60 + seconds + 2, (blocks, seconds)
    assert len(flood) < 1_000 * blocks + 20_000, flood[-3000:]
    assert flood.count("press refused: next: the hand is not settled yet") == 2   # once, then its count
    assert "press refused: next: the hand is not settled yet (499 more times in " in flood
    assert flood.count("pit control: malformed request: request is not UTF-8 JSON") == 2
    assert flood.count("pit sync: malformed request: from_seq is not a non-negative integer") == 2


def test_an_amount_below_0_or_above_the_ceiling_is_refused_by_the_daemon(rig: TableRig) -> None:
    """``press`` and ``act`` with ``"amount": -400`` (or 10^30) are refused, saying why (issue 18 items
    6 and 10); nothing is published."""
    last = rig.pit.control({"cmd": "state"})["seq"]
    for cmd, field in (("press", "button"), ("act", "action")):
        assert rig.pit.control({"cmd": cmd, field: "stand", "amount": -400}) == {
            "ok": False, "error": "stand: amount -400 is below 0 cents"}
        assert rig.pit.control({"cmd": cmd, field: "deal", "amount": 10**30}) == {
            "ok": False, "error": "deal: amount is above 1000000000 cents ($10,000,000.00), the most "
                                  "any amount may be"}
    assert rig.pit.control({"cmd": "state"})["seq"] == last
