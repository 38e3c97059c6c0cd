"""The daemon started and stopped as systemd does it, timed: ``table-controller run`` on two simulated boards.

A datagram socket stands where systemd's would be (``NOTIFY_SOCKET``, with a watchdog of
``WATCHDOG_USEC``); the boards are ``firmware-bridge simulate shoe|rfid`` on ptys, the
buttons gpiozero's mock pins. The run must say ``READY=1``, then a status line with both
boards online, ping the watchdog, and on SIGTERM say ``STOPPING=1`` and exit with status 0,
as ``systemctl start`` and ``systemctl stop`` expect of ``Type=notify``. Prints the figures as
JSON (seconds from the start of the process); any step that does not happen in time fails
with status 1 and says which. The arm64 check (``bench/arm64_check.sh``) runs it with the
installed program's own command:

    .venv/bin/python bench/service_bench.py
    /opt/table-controller/venv/bin/python bench/service_bench.py --command /usr/local/bin/table-controller
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller.devkit.simulated import write_config


class Failed(Exception):
    """A step of the start or the stop did not happen in time."""


class Systemd:
    """The notify socket; every message the daemon sends, with the time it came."""

    def __init__(self, path: Path, started: float) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.started = started
        self.seen: list[tuple[float, str]] = []

    def until(self, wanted: str, timeout: float, daemon: subprocess.Popen[bytes]) -> float:
        """Seconds from the start to the first message with a line that ends in ``wanted``; Failed
        after ``timeout`` seconds without one, or once ``daemon`` has exited without sending it."""
        deadline = time.monotonic() + timeout
        for at, message in self.seen:
            if holds(message, wanted):
                return at
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or (daemon.poll() is not None and not select.select([self.sock], [], [], 0)[0]):
                why = (f"within {timeout:g} s" if left <= 0
                       else f"before it exited (status {daemon.returncode})")
                raise Failed(f"no {wanted!r} from the daemon {why}; it said: "
                             f"{[message for _, message in self.seen][-5:]}")
            if not select.select([self.sock], [], [], min(left, 0.5))[0]:
                continue
            message = self.sock.recv(4096).decode()
            at = time.monotonic() - self.started
            self.seen.append((at, message))
            if holds(message, wanted):
                return at


def holds(message: str, wanted: str) -> bool:
    """Whether a notify message has a line that ends in ``wanted``.

    >>> holds("READY=1\\nSTATUS=SIM betting, next hand 1; boards online: rfid, shoe", "online: rfid, shoe")
    True
    >>> holds("WATCHDOG=1", "READY=1"), holds("STATUS=SIM ...; boards online: rfid; offline: shoe", "rfid")
    (False, False)
    """
    return any(line.endswith(wanted) for line in message.splitlines())


def board(kind: str, folder: Path) -> subprocess.Popen[str]:
    """``firmware-bridge simulate KIND`` on a pty behind ``folder/KIND``, once it is up."""
    process = subprocess.Popen([sys.executable, "-m", "firmware_bridge.cli", "simulate", kind, "--link",
                                str(folder / kind), "--seed", "1"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    if "pty" not in process.stdout.readline():
        raise Failed(f"the simulated {kind} did not start (status {process.wait()})")
    return process


def start_and_stop(command: list[str], folder: Path, timeout: float) -> dict[str, object]:
    """One start and one clean stop of the daemon; the figures."""
    boards = [board("shoe", folder), board("rfid", folder)]
    config = write_config(folder, table="SVC")
    started = time.monotonic()
    systemd = Systemd(folder / "notify", started)
    env = {**os.environ, "NOTIFY_SOCKET": str(folder / "notify"), "WATCHDOG_USEC": "2000000",
           "GPIOZERO_PIN_FACTORY": "mock"}
    log = folder / "daemon.log"
    with log.open("w") as output:
        daemon = subprocess.Popen([*command, "run", "--config", str(config)], env=env,
                                  stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT)
    try:
        ready = systemd.until("READY=1", timeout, daemon)
        online = systemd.until("; boards online: rfid, shoe", timeout, daemon)
        watchdog = systemd.until("WATCHDOG=1", timeout, daemon)
        stop_sent = time.monotonic() - started
        daemon.send_signal(signal.SIGTERM)
        stopping = systemd.until("STOPPING=1", timeout, daemon)
        try:
            status = daemon.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Failed(f"the daemon did not exit within {timeout:g} s of SIGTERM") from None
        exited = time.monotonic() - started
        if status != 0:
            raise Failed(f"the daemon exited with status {status} after SIGTERM")
        return {"ready_s": round(ready, 3), "boards_online_s": round(online, 3),
                "first_watchdog_s": round(watchdog, 3),
                "stopping_after_sigterm_s": round(stopping - stop_sent, 3),
                "exited_after_sigterm_s": round(exited - stop_sent, 3), "exit_status": status,
                "messages": len(systemd.seen)}
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        systemd.sock.close()
        for process in boards:
            assert process.stdin is not None
            process.stdin.close()                        # EOF: the simulator ends cleanly
            process.wait(timeout)


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, start and stop the daemon once, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--command", nargs="+", default=[sys.executable, "-m", "controller.cli"],
                        metavar="WORD", help="the table-controller command (default: this Python's)")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                        help="longest wait for each step (default 60)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="service-bench-") as name:
        try:
            figures = start_and_stop(args.command, Path(name), args.timeout)
        except Failed as failure:
            log = Path(name) / "daemon.log"
            said = log.read_text()[-3000:] if log.exists() else ""
            print(f"service_bench: {failure}\n{said}", file=sys.stderr)
            return 1
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
