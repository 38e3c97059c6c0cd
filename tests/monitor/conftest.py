"""The real servers and programs the monitor tests need: PostgreSQL, headless Chromium, ``pit-monitor``.

PostgreSQL is Debian's server, started by the test in a temporary folder on a
free port (as the ``postgres`` user, or ``nobody``, when the tests run as
root: the server refuses to run as root). Chromium is Debian's, driven through
chromedriver. ``make test`` installs both when they are missing and it can;
otherwise the tests that need them skip and say why.
"""

from __future__ import annotations

import glob
import os
import pwd
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.browser import chromium, missing
from controller.pit.monitor.tables import TableSource
from tests.rigs.daemon_rig import free_port

ROOT = Path(__file__).resolve().parents[2]


def _postgres_binaries() -> Path | None:
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).resolve().parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


def _as_server_user() -> tuple[list[str], str | None]:
    """The command prefix that runs the server as a non-root user, and that user (None: as we are)."""
    if os.geteuid() != 0:
        return [], None
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"], user
    pytest.skip("running as root and there is no postgres or nobody user to run PostgreSQL as")


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A ``postgresql://`` URL of a fresh PostgreSQL server, stopped after the session."""
    binaries = _postgres_binaries()
    if binaries is None:
        pytest.skip("PostgreSQL server not installed (initdb, pg_ctl): apt-get install postgresql "
                    "(make test does it when root)")
    prefix, user = _as_server_user()
    folder = Path(tempfile.mkdtemp(prefix="pit-pg-"))
    os.chmod(folder, 0o755)
    data = folder / "data"
    data.mkdir()
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(data, entry.pw_uid, entry.pw_gid)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = free_port()
    init = subprocess.run([*prefix, str(binaries / "initdb"), "-D", str(data), "-U", "postgres",
                           "--auth=trust", "-E", "UTF8", "--no-sync"], capture_output=True, text=True)
    if init.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"initdb failed, no PostgreSQL for this test: {init.stderr.strip()[-300:]}")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    start = subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                            "-l", str(folder / "server.log"), "-w", "-t", "30", "start"],
                           capture_output=True, text=True)
    if start.returncode != 0:
        log = (folder / "server.log").read_text(errors="replace") if (folder / "server.log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        pytest.skip(f"PostgreSQL did not start: {start.stderr.strip()[-300:]} {log[-300:]}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def pg_url(postgres: str) -> Iterator[str]:
    """The server's URL with an empty ``events`` table."""
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS events")
    yield postgres


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium (one per test module, with a fresh profile)."""
    why = missing()
    if why is not None:
        pytest.skip(f"no headless Chromium: {why}")
    try:
        driver = chromium(tmp_path_factory.mktemp("chromium-profile"))
    except Exception as exc:  # selenium's own errors: the browser would not start here
        pytest.skip(f"headless Chromium did not start: {str(exc).splitlines()[0]}")
    try:
        yield driver
    finally:
        driver.quit()


class Monitor:
    """``pit-monitor serve|record ...`` as a subprocess; ``url`` once a ``serve`` is listening."""

    def __init__(self, command: str, sources: list[TableSource], *options: str, log: Path) -> None:
        tables = [f"--table={s.name}={s.publish},{s.sync}" for s in sources]
        self.log = log
        with open(log, "ab") as err:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "controller.pit.monitor.cli", command, *tables, *options],
                stdout=subprocess.PIPE, stderr=err, cwd=log.parent)
        assert self.proc.stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            if not selector.select(20):
                raise AssertionError(f"pit-monitor printed nothing; log:\n{self.log_text()}")
        line = self.proc.stdout.readline().decode()
        if not line:
            raise AssertionError(f"pit-monitor ended ({self.proc.wait()}); log:\n{self.log_text()}")
        self.url = line.split("serving ", 1)[1].split(" ", 1)[0] if command == "serve" else ""

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]

    def kill(self) -> None:
        """SIGKILL, as a crash."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> int:
        """SIGTERM and wait; the exit status."""
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


def sources_of(*rigs: Any) -> list[TableSource]:
    """The tables of these daemon rigs, as the monitor takes them."""
    return [TableSource(rig.table, rig.endpoints[0], rig.endpoints[1]) for rig in rigs]
