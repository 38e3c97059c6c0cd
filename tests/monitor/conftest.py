"""The real servers and programs the monitor tests need: PostgreSQL, headless Chromium, ``pit-monitor``.

PostgreSQL is Debian's server, started by the tests in a temporary folder on a
free port (``controller/devkit/postgres.py``). Chromium is Debian's, driven through
chromedriver. ``make test`` installs both when they are missing and it can;
otherwise the tests that need them skip and say why.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.postgres import PostgresUnavailable, postgres_server
from controller.follow.sources import TableSource
from tests.rigs.browser import headless_chromium
from tests.rigs.served import Served


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A ``postgresql://`` URL of a fresh PostgreSQL server, stopped after the session."""
    try:
        with postgres_server() as url:
            yield url
    except PostgresUnavailable as why:
        pytest.skip(f"no PostgreSQL server for this test: {why}")


@pytest.fixture
def pg_url(postgres: str) -> Iterator[str]:
    """The server's URL with no ``events``, ``ratings``, ``edges`` or kept table."""
    import psycopg

    with psycopg.connect(postgres, autocommit=True) as db:
        db.execute("DROP TABLE IF EXISTS events, ratings, edges, kept_books, kept_events")
    yield postgres


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium (one per test module, with a fresh profile)."""
    with headless_chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


class Monitor(Served):
    """``pit-monitor serve|record ...`` as a subprocess; ``url`` once a ``serve`` is listening."""

    what = "pit-monitor"

    def __init__(self, command: str, sources: list[TableSource], *options: str, log: Path) -> None:
        tables = [f"--table={s.name}={s.publish},{s.sync}" for s in sources]
        super().__init__([sys.executable, "-m", "controller.podium.monitor.cli", command, *tables, *options],
                         log, cwd=log.parent)
        self.url = self.served_url if command == "serve" else ""

    def kill(self) -> None:
        """SIGKILL, as a crash."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def sources_of(*rigs: Any) -> list[TableSource]:
    """The tables of these daemon rigs, as the monitor takes them."""
    return [TableSource(rig.table, rig.endpoints[0], rig.endpoints[1]) for rig in rigs]
