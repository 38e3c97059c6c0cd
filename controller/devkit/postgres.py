"""A throwaway PostgreSQL server for the monitor's tests and benchmarks: Debian's, in a temporary folder.

``initdb`` and ``pg_ctl`` into a fresh folder, listening on 127.0.0.1 at a
free port, trust authentication, stopped and removed on exit. The server
refuses to run as root, so as root it runs as the ``postgres`` user (Debian's
package creates it) or else ``nobody``, through ``runuser``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL server can be started here; the message says why."""


def binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl`` (None: not installed)."""
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    installed = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(installed[-1]).parent if installed else None


def _server_user() -> str | None:
    """The user the server runs as when we are root (None: as ourselves)."""
    if os.geteuid() != 0:
        return None
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            return user
    raise PostgresUnavailable("running as root, and there is no postgres or nobody user to run it as")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def postgres_server(*settings: str) -> Iterator[str]:
    """A running server's ``postgresql://`` URL; ``settings`` are extra ``name=value`` server settings."""
    bin_dir = binaries()
    if bin_dir is None:
        raise PostgresUnavailable("the PostgreSQL server is not installed (initdb, pg_ctl): "
                                  "apt-get install postgresql (make test does it when root)")
    user = _server_user()
    prefix = ["runuser", "-u", user, "--"] if user else []
    folder = Path(tempfile.mkdtemp(prefix="pit-pg-"))
    try:
        os.chmod(folder, 0o755)
        if user:
            entry = pwd.getpwnam(user)
            os.chown(folder, entry.pw_uid, entry.pw_gid)
        data, log = folder / "data", folder / "server.log"
        init = subprocess.run([*prefix, str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres",
                               "--auth=trust", "-E", "UTF8", "--no-sync"], capture_output=True, text=True)
        if init.returncode != 0:
            raise PostgresUnavailable(f"initdb failed: {init.stderr.strip()[-300:]}")
        port = _free_port()
        options = " ".join([f"-p {port}", f"-k {folder}", "-c listen_addresses=127.0.0.1",
                            *(f"-c {s}" for s in settings)])
        start = subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options,
                                "-l", str(log), "-w", "-t", "30", "start"], capture_output=True, text=True)
        if start.returncode != 0:
            told = log.read_text(errors="replace")[-300:] if log.exists() else ""
            raise PostgresUnavailable(f"the server did not start: {start.stderr.strip()[-300:]} {told}")
        try:
            yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
        finally:
            subprocess.run([*prefix, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                           capture_output=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
