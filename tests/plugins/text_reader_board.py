"""The test board of the text reader (:mod:`tests.plugins.text_reader`): a tiny script on a pty.

``python -m tests.plugins.text_reader_board --link PATH`` opens a pty behind the symlink ``PATH``,
prints ``{"pty": PATH}`` and then answers JSON commands on stdin, one a line, as
``firmware-bridge simulate rfid`` does: ``place`` (``antenna``, ``chips``: ``[uid, cents]``
pairs added to the antenna), ``clear`` (``antenna``), ``wait_idle`` (until the host has said
``OK`` to every SPOT line, at most ``timeout`` seconds) and ``lights`` (the last ``LIGHTS``
mask, once it is ``want`` if that is given, or after ``timeout`` seconds). It says HELLO at start
and when asked, ALIVE every half second, and a SPOT line whenever an antenna's chips change.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import selectors
import sys
import time
import tty
from pathlib import Path
from typing import Any

ALIVE_EVERY = 0.5


class TextBoard:
    """The board's state and its end of the pty."""

    def __init__(self, link: Path) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.slave = slave  # kept open so the pty lives while no host has it open
        os.set_blocking(self.master, False)
        link.unlink(missing_ok=True)
        link.symlink_to(os.ttyname(slave))
        self.chips: dict[int, list[tuple[str, int]]] = {}
        self.unacked = 0
        self.lights = 0
        self.buffer = b""

    def send(self, line: str) -> None:
        with contextlib.suppress(BlockingIOError):  # nobody reads: lost, as on a wire with no host
            os.write(self.master, line.encode() + b"\n")

    def spot(self, antenna: int) -> None:
        chips = " ".join(f"{uid}={cents}" for uid, cents in self.chips.get(antenna, []))
        self.unacked += 1
        self.send(f"SPOT {antenna} {chips}".rstrip())

    def from_host(self) -> None:
        try:
            self.buffer += os.read(self.master, 4096)
        except (BlockingIOError, OSError):
            return
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            words = line.decode().split()
            if words == ["HELLO?"]:
                self.send("HELLO text-1.0 TXT0001")
            elif words == ["OK"]:
                self.unacked = max(0, self.unacked - 1)
            elif len(words) == 2 and words[0] == "LIGHTS":
                self.lights = int(words[1])

    def command(self, order: dict[str, Any], wait: Any) -> dict[str, Any]:
        cmd = order.get("cmd")
        if cmd == "place":
            antenna = int(order["antenna"])
            self.chips.setdefault(antenna, []).extend((uid, int(cents)) for uid, cents in order["chips"])
            self.spot(antenna)
        elif cmd == "clear":
            self.chips.pop(int(order["antenna"]), None)
            self.spot(int(order["antenna"]))
        elif cmd == "wait_idle":
            if not wait(lambda: self.unacked == 0, float(order.get("timeout", 10))):
                return {"ok": False, "error": f"{self.unacked} lines not acknowledged"}
        elif cmd == "lights":
            if "want" in order:
                wait(lambda: self.lights == order["want"], float(order.get("timeout", 10)))
            return {"ok": True, "mask": self.lights}
        else:
            return {"ok": False, "error": f"unknown command {cmd!r}"}
        return {"ok": True}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--link", type=Path, required=True)
    board = TextBoard(parser.parse_args().link)
    selector = selectors.DefaultSelector()
    selector.register(board.master, selectors.EVENT_READ, "host")
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "stdin")
    next_alive = 0.0

    def step(timeout: float) -> bool:
        """Serve the host (and the heartbeat) for up to ``timeout`` s; False when stdin closed."""
        nonlocal next_alive
        now = time.monotonic()
        if now >= next_alive:
            board.send("ALIVE")
            next_alive = now + ALIVE_EVERY
        for key, _ in selector.select(min(timeout, max(0.0, next_alive - now))):
            if key.data == "host":
                board.from_host()
        return True

    def wait(done: Any, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            step(0.05)
        return bool(done())

    board.send("HELLO text-1.0 TXT0001")
    print(json.dumps({"pty": str(parser.parse_args().link)}), flush=True)
    stdin = os.fdopen(sys.stdin.fileno(), "rb", buffering=0)
    pending = b""
    while True:
        events = selector.select(max(0.0, next_alive - time.monotonic()))
        for key, _ in events:
            if key.data == "host":
                board.from_host()
            else:
                chunk = stdin.read(65536)
                if not chunk:
                    return
                pending += chunk
                *lines, pending = pending.split(b"\n")
                for line in lines:
                    print(json.dumps(board.command(json.loads(line), wait)), flush=True)
        step(0.0)


if __name__ == "__main__":
    main()
