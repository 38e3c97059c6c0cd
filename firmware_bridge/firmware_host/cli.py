"""``firmware-bridge simulate shoe|rfid --reference-firmware``: the reference firmware as the board, on a pty.

The same stdin/stdout JSON command interface, options and answers as the
behavioural simulator (:mod:`firmware_bridge.simulator.cli`, docs/simulator.md);
the commands act on the physical world around the firmware
(:mod:`firmware_bridge.firmware_host.commands`). The board's flash is a
temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import sys
import tempfile
from pathlib import Path

from firmware_bridge.firmware_host.commands import handle_firmware_command
from firmware_bridge.firmware_host.flash import MAX_ANTENNAS, board_config
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.simulator.cli import answer, serve, stdin_reader

__all__ = ["run_reference"]


async def run_reference(args: argparse.Namespace) -> int:
    """Run the reference firmware as the ``args.kind`` board until EOF, ``quit`` or SIGTERM."""
    loop = asyncio.get_running_loop()
    decks = getattr(args, "decks", 6) or 6
    # A whole table's reader: every antenna of the 32-antenna wiring (6 seats x 5 spots fit).
    config = board_config(args.kind, args.serial or f"REF-{args.kind.upper()}-0001", decks,
                          list(range(1, MAX_ANTENNAS + 1)))
    with tempfile.TemporaryDirectory(prefix=f"ref-{args.kind}-flash-") as flash:
        link = Path(args.link) if args.link else None
        runner = FirmwareRunner(config, Path(flash), link=link, rng=random.Random(args.seed))
        if args.firmware:
            config["firmware"] = args.firmware
        try:
            path = await runner.start()
        except OSError as error:
            answer({"ok": False, "error": f"cannot start the board: {error}"})
            await runner.close()
            return 1
        stop = asyncio.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        try:
            answer({"pty": path})
            reader = await stdin_reader()
            serving = asyncio.create_task(
                serve(reader, lambda command: handle_firmware_command(runner, command, decks=decks)))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({serving, stopping}, return_when=asyncio.FIRST_COMPLETED)
            for task in (serving, stopping):
                task.cancel()
            for task in (serving, stopping):
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        finally:
            for signum in (signal.SIGTERM, signal.SIGINT):
                loop.remove_signal_handler(signum)
            await runner.close()
            with contextlib.suppress(OSError, ValueError):
                os.set_blocking(sys.stdin.fileno(), True)
    return 0
