"""``table-controller screen --config FILE``: serve the dealer's screen for the table of that file.

Runs until SIGTERM or SIGINT, on ``[screen] listen`` and ``port`` (127.0.0.1
and 8070 unless set; ``--port`` overrides the port, 0 takes any free one), and
prints the address it serves once it listens. It follows the table's pit stream with the
asyncio follower and sends the dealer's touches to the control socket; it is a
separate process, so its crash never touches the table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

import zmq.asyncio

from controller.config.loader import ConfigError
from controller.follow.aio import Follower
from controller.follow.control import Control
from controller.follow.records import Records
from controller.follow.sources import TablesError
from controller.screen.settings import ScreenSettings, load_settings
from controller.screen.table import ScreenTable

NEEDS_AIOHTTP = "needs aiohttp, which the screen extra brings: pip install 'table-controller[screen]'"

SILENCE = 4.0
"""Seconds without a message before the page says the table is not answering (a table sends a
heartbeat every 2 s when idle)."""


async def serve(settings: ScreenSettings, port: int) -> None:
    """Follow the table and serve its screen until cancelled."""
    from aiohttp import web

    from controller.screen.web import make_app
    from controller.web.guard import REQUEST_TIMEOUT

    context = zmq.asyncio.Context()
    table = ScreenTable(settings.source.name, settings.denominations)
    runner = web.AppRunner(make_app(table, Control(settings.control, context, settings.source.curve)),
                           keepalive_timeout=REQUEST_TIMEOUT)
    await runner.setup()
    follower = Follower(settings.source, Records(table), context=context, silence=SILENCE, history=50)
    try:
        site = web.TCPSite(runner, settings.listen, port)
        await site.start()
        host, bound = runner.addresses[0][:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"screen: serving http://{shown}:{bound}/ for table {settings.source.name}", flush=True)
        await follower.run()
    finally:
        await runner.cleanup()
        context.destroy(linger=0)


def main(args: argparse.Namespace) -> int:
    """Run the screen server for ``args.config``; the exit status."""
    try:
        import aiohttp  # noqa: F401
    except ModuleNotFoundError:
        print(f"screen: {NEEDS_AIOHTTP}", file=sys.stderr)
        return 2
    try:
        settings = load_settings(args.config, client_key=args.curve_client_key,
                                 server_key=args.curve_server_key)
    except ConfigError as error:
        for line in error.problems:
            print(f"config: {line}", file=sys.stderr)
        return 2
    except TablesError as error:
        print(f"screen: {error}", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, stream=sys.stderr,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)  # one line a touch is noise
    port = settings.port if args.port is None else args.port

    async def until_stopped() -> None:
        task = asyncio.create_task(serve(settings, port))
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, task.cancel)
        with contextlib.suppress(asyncio.CancelledError):
            await task

    try:
        asyncio.run(until_stopped())
    except OSError as error:
        print(f"screen: {error}", file=sys.stderr)
        return 1
    return 0
