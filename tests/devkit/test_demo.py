"""``make demo`` as a person runs it: the table and its screen up until Ctrl-C (or ``--hands``), a scripted
dealer who pays what the screen asks (so no payout mismatch), a new shoe at the cut card, and pit sockets
on 127.0.0.1 that a subscriber can attach to."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
import zmq

DEMO = [sys.executable, "-m", "controller.devkit.demo"]


def lines_until(demo: subprocess.Popen[str], marker: str) -> Iterator[str]:
    """The demo's output lines up to the first that holds ``marker`` (which is yielded last)."""
    assert demo.stdout is not None
    for line in demo.stdout:
        yield line
        if marker in line:
            return
    raise AssertionError(f"the demo ended before {marker!r} (status {demo.wait()})")


def test_help_helps_and_starts_nothing() -> None:
    shown = subprocess.run([*DEMO, "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0
    assert "--hands N" in shown.stdout and "Ctrl-C" in shown.stdout
    assert "pit sockets" not in shown.stdout and shown.stderr == ""


def test_the_demo_pays_what_the_screen_asks_changes_shoe_and_ends_after_its_hands() -> None:
    demo = subprocess.Popen([*DEMO, "--hands", "5", "--pause", "0"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    context = zmq.Context()
    sub = context.socket(zmq.SUB)
    try:
        head = list(lines_until(demo, "pit sockets"))
        found = re.search(r"publish (tcp://127\.0\.0\.1:\d+), sync (tcp://127\.0\.0\.1:\d+), "
                          r"control (tcp://127\.0\.0\.1:\d+)", head[-1])
        assert found, head[-1]
        sub.setsockopt(zmq.SUBSCRIBE, b"")
        sub.connect(found[1])                                 # what a reader of pit-events.md does
        assert sub.poll(30_000), "nothing published on the printed endpoint"
        topic = sub.recv_multipart()[0]
        assert topic.startswith(b"DEMO")
        assert demo.stdout is not None
        rest = demo.stdout.read()
        assert demo.wait(timeout=240) == 0, rest[-3000:]
    finally:
        sub.close(linger=0)
        context.term()
        if demo.poll() is None:
            demo.kill()
    events = [line.split() for line in rest.splitlines() if line.startswith("  pit> ")]
    kinds = [fields[2] for fields in events if len(fields) > 2]
    assert kinds.count("hand.ended") == 5
    assert kinds.count("shoe.loaded") == 2                   # the scripted shoe, then one at its cut card
    alerts = [json.loads(line[line.index("{"):]) for line in rest.splitlines()
              if line.startswith("  pit> ") and " alert " in line]
    assert [a["code"] for a in alerts] == ["counterfeit_chip"]    # shown on purpose, and said so
    assert "on purpose" in rest
    assert "dealer pays seat 2 main $15.00: $25.00 on the spot (natural)" in rest
    assert "== Demo complete ==" in rest


def test_ctrl_c_closes_the_table_and_its_screen() -> None:
    demo = subprocess.Popen([*DEMO, "--pause", "0"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        head = list(lines_until(demo, "== Hand 2"))
        screen = next(line for line in head if "dealer's screen: open" in line)
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/", screen)[1])  # type: ignore[index]
        demo.send_signal(signal.SIGINT)
        assert demo.wait(timeout=60) == 0
    finally:
        if demo.poll() is None:
            demo.kill()
    with socket.socket() as probe, pytest.raises(ConnectionRefusedError):
        probe.connect(("127.0.0.1", port))                   # the screen went with the table


def test_the_demo_on_the_reference_firmware_plays_its_hands_with_no_payout_mismatch() -> None:
    # Both boards are the reference firmware: cards pushed through the shoe's scanner and beam, chips'
    # tags in the PN5180 model's fields under all 6 seats (the reader of 32 antennas).
    done = subprocess.run([*DEMO, "--hands", "4", "--pause", "0", "--reference-firmware"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
    out = done.stdout
    assert "== Table DEMO is open on the reference firmware's boards ==" in out
    kinds = [fields[2] for fields in (line.split() for line in out.splitlines() if line.startswith("  pit> "))
             if len(fields) > 2]
    assert kinds.count("hand.ended") == 4 and kinds.count("shoe.loaded") == 2
    alerts = [json.loads(line[line.index("{"):]) for line in out.splitlines()
              if line.startswith("  pit> ") and " alert " in line]
    assert [a["code"] for a in alerts] == ["counterfeit_chip"]     # no payout_mismatch, no device fault
    assert "dealer pays seat 2 main $15.00: $25.00 on the spot (natural)" in out
    assert "== Demo complete ==" in out
