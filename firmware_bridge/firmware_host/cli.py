"""``firmware-bridge simulate shoe --reference-firmware``: the reference firmware as the board, on a pty.

The same stdin/stdout JSON command interface as the behavioural simulator
(:mod:`firmware_bridge.simulator.cli`, docs/simulator.md), but the commands
act on the physical shoe around the firmware (:class:`~firmware_bridge.firmware_host.shoe_world.ShoeWorld`),
never on the firmware: ``load`` fills the shoe with marked cards and presses
LOAD, ``draw`` pushes cards past the scanner and through the beam,
``unreadable`` smudges the next card's code. Added fault commands:
``read_twice``, ``garbage [TEXT]``, ``peek`` (a card read, not drawn),
``stick`` / ``unstick`` (a card stuck in the beam), ``power_cycle``. ``reboot``
is a watchdog reset. Commands with no physical meaning for a real board (``skip``, ``send``,
``fault``, ``drop``, ``corrupt``, ``rx_drop``) answer an error saying so.
The RFID reader's firmware is not in this build: ``rfid`` exits with an error.
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
from typing import Any

from firmware_bridge.firmware_host.flash import board_config
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.simulator.board import noise_bytes
from firmware_bridge.simulator.cli import CommandError, answer, int_field, serve, stdin_reader

__all__ = ["handle_firmware_command", "run_reference", "runner_status"]

_NOT_PHYSICAL = {
    "skip": "a card leaving unseen by the beam is invisible to the firmware",
    "send": "the firmware decides what it sends",
    "fault": "the firmware reports its own faults (try stick, garbage)",
    "drop": "line faults are not modelled for the reference firmware",
    "corrupt": "line faults are not modelled for the reference firmware",
    "rx_drop": "line faults are not modelled for the reference firmware",
    "place": "this is not an RFID board",
    "remove": "this is not an RFID board",
    "clear": "this is not an RFID board",
}

_HELP = ("load [N | CARD... [cut_at=K]], draw [N], unreadable, read_twice, garbage [TEXT], peek, stick, "
         "unstick, noise N, reboot, power_cycle, unplug, replug, status, wait_idle [SECONDS], help, quit")


def runner_status(runner: FirmwareRunner) -> dict[str, Any]:
    """The ``status`` answer: the port, the firmware's link and shoe, and the physical shoe."""
    core = runner.core
    app = core.app
    link = core.link
    world = runner.world
    return {
        "kind": runner.kind, "reference_firmware": True, "pty": runner.port.path,
        "plugged": runner.port.plugged, "in_session": link.in_session, "pending": link.pending,
        "stalled": link.stalled, "uptime_ms": core.uptime_ms(runner.now_ms()), "flags": app.status_flags(),
        "boots": runner.boots,
        "shoe": {"shoe_id": app.shoe_id, "decks": app.shoe_decks, "index": app.index,
                 "position": world.drawn, "remaining": world.remaining, "cut_at": world.cut_at,
                 "stuck": world.stuck, "garbage_lines": app.garbage, "unused_reads": app.unused_reads},
        "stats": {"framing_errors": link.reader.errors, "unknown_frames": link.unknown,
                  "malformed_payloads": link.malformed, "out_of_order": link.out_of_order,
                  "retransmissions": link.retransmissions, "sessions": link.sessions,
                  "lost_events": core.lost, "bytes_discarded": runner.port.bytes_discarded},
    }


async def handle_firmware_command(runner: FirmwareRunner, command: dict[str, Any], *,
                                  decks: int) -> dict[str, Any]:
    """Carry out one parsed command on the physical shoe around ``runner``'s firmware."""
    name = command["cmd"]
    world = runner.world
    if name in _NOT_PHYSICAL:
        raise CommandError(f"{name}: not with --reference-firmware ({_NOT_PHYSICAL[name]})")
    if name == "load":
        asked = int_field(command, "decks", decks)
        if asked != runner.config["decks"]:
            raise CommandError(f"load: the board's config says {runner.config['decks']} decks, not {asked}")
        cards = command.get("cards")
        if cards is not None and (not isinstance(cards, list) or not all(isinstance(c, str) for c in cards)):
            raise CommandError('"cards" is a list of cards in pit notation, like ["As", "Td"]')
        cut_at = command.get("cut_at")
        timeline = world.load(asked, cards, None if cut_at is None else int_field(command, "cut_at"))
        await runner.play(timeline)
        return {"shoe_id": runner.core.app.shoe_id, "cards": world.remaining, "cut_at": world.cut_at}
    if name == "draw":
        count = int_field(command, "count", 1)
        if count < 0:
            raise CommandError(f"cannot draw {count} cards")
        before = world.drawn
        await runner.play(world.draw(count))
        return {"drawn": world.drawn - before, "position": world.drawn, "remaining": world.remaining}
    if name == "unreadable":
        world.smudge()
        return {}
    if name == "read_twice":
        world.read_twice()
        return {}
    if name == "garbage":
        text = command.get("text", "#?%GARBAGE")
        if not isinstance(text, str):
            raise CommandError("garbage text must be a string")
        await runner.play(world.scanner_line(text.encode()))
        return {}
    if name in ("peek", "stick", "unstick"):
        try:
            timeline = getattr(world, name)()
        except ValueError as error:
            raise CommandError(f"{name}: {error}") from None
        await runner.play(timeline)
        return {}
    if name == "noise":
        count = int_field(command, "bytes")
        if not 0 <= count <= 1 << 20:
            raise CommandError("noise is 0 to 1048576 bytes")
        runner.port.write(noise_bytes(count, runner.rng))
        return {"bytes": count}
    if name == "reboot":
        runner.reboot()
        return {}
    if name == "power_cycle":
        runner.power_cycle()
        return {}
    if name == "unplug":
        if not runner.port.plugged:
            raise CommandError("unplug: the board is already unplugged")
        runner.port.unplug()
        return {}
    if name == "replug":
        if runner.port.plugged:
            raise CommandError("replug: the board is plugged in")
        return {"pty": runner.port.plug()}
    if name == "status":
        return runner_status(runner)
    if name == "wait_idle":
        timeout = command.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)):
            raise CommandError(f"timeout must be a number of seconds, not {timeout!r}")
        try:
            await asyncio.wait_for(runner.wait_idle(), timeout)
        except TimeoutError:
            pending = runner.pending
            raise CommandError(f"still {pending} data frames unacknowledged after {timeout} s") from None
        return {"pending": runner.pending}
    if name == "help":
        return {"commands": _HELP}
    raise CommandError(f"unknown command {name!r} (try help)")


async def run_reference(args: argparse.Namespace) -> int:
    """Run the reference firmware as the ``args.kind`` board until EOF, ``quit`` or SIGTERM."""
    if args.kind != "shoe":
        answer({"ok": False, "error": "the RFID reader's reference firmware is not in this build yet: "
                "use the simulator (without --reference-firmware)"})
        return 1
    loop = asyncio.get_running_loop()
    decks = getattr(args, "decks", 6) or 6
    config = board_config("shoe", args.serial or "REF-SHOE-0001", decks)
    with tempfile.TemporaryDirectory(prefix="ref-shoe-flash-") as flash:
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
