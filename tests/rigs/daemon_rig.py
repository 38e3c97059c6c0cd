"""A whole table for end-to-end tests: the daemon and two simulated boards as real processes.

The daemon runs as ``table-controller run`` in a subprocess, with gpiozero's
mock pins (``GPIOZERO_PIN_FACTORY=mock``). Each board is a ``firmware-bridge
simulate`` subprocess on a real pty behind a symlink, driven through its stdin
commands. The test talks to the daemon only as the pit does: a SUB socket on
the publish endpoint, a DEALER on the sync socket and a REQ on the control
socket, all real ZeroMQ on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import random
import selectors
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import zmq

from controller.devkit.simulated import antenna, write_config
from controller.follow.blocking import PitClient, PitError

TIMEOUT = 10.0
"""Seconds a test waits for anything before it fails with what it saw."""

CHIP_VALUES = {"a": 500, "b": 2500, "c": 10000}
"""Registry chips: uid ``<letter>0000000000000NN`` is worth this many cents."""


def chip(kind: str, number: int) -> list[Any]:
    """A registered chip as the simulator's ``place`` command takes it."""
    return [f"{kind}{number:015x}", CHIP_VALUES[kind]]


def free_ports(count: int) -> list[int]:
    """``count`` different free ports below the kernel's ephemeral range (where the outgoing
    connections of a browser or another test would take a port just freed), held open while they
    are picked so that none is given twice."""
    sockets: list[socket.socket] = []
    try:
        while len(sockets) < count:
            s = socket.socket()
            try:
                s.bind(("127.0.0.1", random.randrange(20000, 32000)))
            except OSError:
                s.close()
                continue
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


class LineProcess:
    """A subprocess spoken to in JSON lines on stdin/stdout, with timeouts."""

    def __init__(self, args: list[str], *, stderr: Any = None, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=stderr, env=env)
        assert self.proc.stdout is not None
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._out, selectors.EVENT_READ)

    def read_line(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not self._selector.select(left):
                raise AssertionError(f"no answer from {self.proc.args!r} in {timeout} s")
            chunk = os.read(self._out, 65536)
            if not chunk:
                raise AssertionError(f"{self.proc.args!r} ended (status {self.proc.poll()})")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        result: dict[str, Any] = json.loads(line)
        return result

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._selector.close()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()


class Board(LineProcess):
    """A ``firmware-bridge simulate`` process (with ``--reference-firmware``: the board's own firmware)."""

    def __init__(self, kind: str, link: Path, seed: int = 1, *, reference_firmware: bool = False,
                 command: list[str] | None = None) -> None:
        """``command``, when given, runs another board that takes the same commands (its
        arguments, to which ``--link`` and the path are added)."""
        super().__init__([*command, "--link", str(link)] if command is not None else
                         [sys.executable, "-m", "firmware_bridge.cli", "simulate", kind,
                          "--link", str(link), "--seed", str(seed)]
                         + (["--reference-firmware"] if reference_firmware else []))
        self.path = self.read_line()["pty"]

    def cmd(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send one command; return its answer (which must be ok)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"cmd": cmd, **fields}).encode() + b"\n")
        self.proc.stdin.flush()
        answer = self.read_line()
        assert answer.get("ok"), answer
        return answer


class TableRig:
    """The daemon, its config, two boards and a pit, in ``folder``."""

    def __init__(self, folder: Path, *, game: str = "", table: str = "T07",
                 curve: tuple[Path, Path] | None = None,
                 client_keys: tuple[bytes, bytes, bytes] | None = None,
                 reference_firmware: tuple[str, ...] = (), rfid_board: list[str] | None = None,
                 **config: Any) -> None:
        """``config`` goes on to :func:`write_config` (another game's name, spots, buttons, the
        boards' drivers); ``reference_firmware`` names the boards (``"shoe"``) run by the reference
        firmware (``firmware-bridge simulate --reference-firmware``) instead of the simulator;
        ``rfid_board`` is the command of another spot reader's test board (:class:`Board`)."""
        self.folder = folder
        self.table = table
        publish, sync, control = (f"tcp://127.0.0.1:{port}" for port in free_ports(3))
        self.endpoints = (publish, sync, control)
        self.shoe = Board("shoe", folder / "shoe", seed=7, reference_firmware="shoe" in reference_firmware)
        self.rfid = Board("rfid", folder / "rfid", seed=8, reference_firmware="rfid" in reference_firmware,
                          command=rfid_board)
        chips = [(f"{kind}{n:015x}", value, "active") for kind, value in CHIP_VALUES.items()
                 for n in range(1, 40)]
        chips.append((f"d{1:015x}", 10000, "void"))
        self.config = write_config(folder, table=table, chips=chips, endpoints=self.endpoints,
                                   display="log", game=game, curve=curve, **config)
        self.pit = PitClient(table, *self.endpoints, context=zmq.Context(), curve=client_keys,
                             link_margin=TIMEOUT)
        self.daemon: subprocess.Popen[bytes] | None = None
        self.log = folder / "daemon.log"

    def start(self, *, wait_online: bool = True, env: dict[str, str] | None = None) -> dict[str, Any]:
        """Start the daemon; return its ``table.opened`` event (after both boards are online).

        ``env`` is added to the daemon's environment; a ``NOTIFY_SOCKET`` or watchdog this
        process may have from systemd is never passed on, only one given here.
        """
        env = {name: value for name, value in os.environ.items()
               if name not in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID")} | (env or {})
        env.update(GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
        with open(self.log, "ab") as log:
            self.daemon = subprocess.Popen(
                [sys.executable, "-m", "controller.cli", "run", "--config", str(self.config)],
                stdout=log, stderr=log, env=env)
        opened = self.next("table.opened", timeout=20)
        if wait_online:
            online = {self.next("device.online")["data"]["device"] for _ in range(2)}
            assert online == {"shoe", "rfid"}, online
        return opened

    def next(self, kind: str | None = None, timeout: float = TIMEOUT, **data: Any) -> dict[str, Any]:
        try:
            return self.pit.next(kind, timeout, **data)
        except PitError as error:
            raise AssertionError(f"{error}\n--- daemon log ---\n{self.log_text()[-4000:]}") from None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def kill(self, sig: int = signal.SIGKILL) -> int:
        assert self.daemon is not None
        self.daemon.send_signal(sig)
        code = self.daemon.wait(15)
        self.daemon = None
        return code

    def close(self) -> None:
        if self.daemon is not None:
            self.kill(signal.SIGTERM)
        self.pit.close()
        self.pit.context.destroy(linger=0)
        self.shoe.stop()
        self.rfid.stop()

    # -- the table's physical side ------------------------------------------------

    def bet(self, seat: int, spot: str, *chips: list[Any]) -> None:
        """Put exactly these chips on a spot (none: an empty spot)."""
        self.rfid.cmd("clear", antenna=antenna(seat, spot))
        if chips:
            self.rfid.cmd("place", antenna=antenna(seat, spot), chips=list(chips))

    def add(self, seat: int, spot: str, *chips: list[Any]) -> None:
        """Put these chips on a spot on top of what it holds (a double, a split, insurance), and
        return once the daemon has the new reading (the board's frames are acknowledged). With no
        chips, a sync: the board has then also read what the daemon sent it before (spot lights)."""
        self.rfid.cmd("place", antenna=antenna(seat, spot), chips=list(chips))
        self.rfid.cmd("wait_idle", timeout=TIMEOUT)

    def load(self, cards: list[str], cut_at: int | None = None, decks: int | None = None) -> dict[str, Any]:
        """Load a scripted shoe (that says it holds ``decks`` decks, the board's default if None);
        return its ``shoe.loaded`` event."""
        fields: dict[str, Any] = {"cards": cards}
        if cut_at is not None:
            fields["cut_at"] = cut_at
        if decks is not None:
            fields["decks"] = decks
        self.shoe.cmd("load", **fields)
        return self.next("shoe.loaded")

    def draw(self) -> dict[str, Any]:
        """Draw the next card; return the event it caused (``card.dealt`` or a card alert)."""
        self.shoe.cmd("draw")
        while True:
            event = self.next()
            if "index" in event["data"] and event["type"] in ("card.dealt", "alert"):
                return event
