"""A server the tests run as a subprocess: it prints one line once it is up (``serving URL ...``).

The dealer screen (``table-controller screen``) and the pit monitor (``pit-monitor serve|record``)
both start this way; their stderr goes to a log file the tests quote when something fails.
"""

from __future__ import annotations

import selectors
import subprocess
from pathlib import Path

STARTUP = 20.0
"""Seconds a server has to print its first line."""


class Served:
    """``args`` as a subprocess, once it printed its first line (:attr:`first_line`)."""

    what = "the server"

    def __init__(self, args: list[str], log: Path, cwd: Path | None = None) -> None:
        self.log = log
        with open(log, "ab") as err:
            self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=err, cwd=cwd)
        assert self.proc.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            if not selector.select(STARTUP):
                raise AssertionError(f"{self.what} printed nothing; log:\n{self.log_text()}")
        line = self.proc.stdout.readline().decode()
        if not line:
            raise AssertionError(f"{self.what} ended ({self.proc.wait()}); log:\n{self.log_text()}")
        self.first_line = line
        """What the server printed first (where it serves, ...)."""

    @property
    def served_url(self) -> str:
        """The address in a first line ``serving URL ...``."""
        return self.first_line.split("serving ", 1)[1].split(" ", 1)[0]

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def stop(self) -> int:
        """SIGTERM and wait (SIGKILL after 15 s); the exit status."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        assert self.proc.stdout is not None
        self.proc.stdout.close()
        return self.proc.returncode
