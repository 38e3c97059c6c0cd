"""The commands of ``firmware-bridge simulate shoe|rfid --reference-firmware``: the physical world.

The same commands as the behavioural simulator (:mod:`firmware_bridge.simulator.cli`,
docs/simulator.md), acting on the physical side of the board around the
reference firmware, never on the firmware. The shoe
(:class:`~firmware_bridge.firmware_host.shoe_world.ShoeWorld`): ``load`` fills
the shoe with marked cards and presses LOAD, ``draw`` pushes cards past the
scanner and through the beam, ``unreadable`` smudges the next card's code;
added faults: ``read_twice``, ``garbage [TEXT]``, ``peek`` (a card read, not
drawn), ``stick`` / ``unstick`` (a card stuck in the beam). The RFID reader
(:class:`~firmware_bridge.firmware_host.rfid_world.RfidWorld`): ``place``,
``remove``, ``clear`` put tags into or out of an antenna's field and answer
once the reader has reported the spot as it now is. Either: ``reboot`` is a
watchdog reset, ``power_cycle`` a power cut. Commands with no physical meaning
for a real board (``skip``, ``send``, ``fault``, ``drop``, ``corrupt``,
``rx_drop``) answer an error saying so.
"""

from __future__ import annotations

import asyncio

from firmware_bridge.firmware_host.rfid_world import RfidWorld
from firmware_bridge.firmware_host.runner import FirmwareRunner
from firmware_bridge.firmware_host.shoe_world import ShoeWorld
from firmware_bridge.kernel.json import JsonObject
from firmware_bridge.simulator.cli import CommandError, chips_field, int_field, strings_field
from firmware_bridge.simulator.faults import noise_bytes

__all__ = ["handle_firmware_command", "runner_status"]

_NOT_PHYSICAL = {
    "skip": "a card leaving unseen by the beam is invisible to the firmware",
    "send": "the firmware decides what it sends",
    "fault": "the firmware reports its own faults (try stick, garbage)",
    "drop": "line faults are not modelled for the reference firmware",
    "corrupt": "line faults are not modelled for the reference firmware",
    "rx_drop": "line faults are not modelled for the reference firmware",
}
_SHOE = ("load", "draw", "unreadable", "read_twice", "garbage", "peek", "stick", "unstick")
_RFID = ("place", "remove", "clear")

_HELP = ("shoe: load [N | CARD... [cut_at=K]], draw [N], unreadable, read_twice, garbage [TEXT], peek, "
         "stick, unstick; rfid: place ANT UID:CENTS..., remove ANT UID..., clear ANT; both: noise N, reboot, "
         "power_cycle, unplug, replug, status, wait_idle [SECONDS], help, quit")


def runner_status(runner: FirmwareRunner) -> JsonObject:
    """The ``status`` answer: the port, the firmware's link, and the shoe or the spots."""
    core = runner.core
    app = core.app
    link = core.link
    out: JsonObject = {
        "kind": runner.kind, "reference_firmware": True, "pty": runner.port.path,
        "plugged": runner.port.plugged, "in_session": link.in_session, "pending": link.pending,
        "stalled": link.stalled, "uptime_ms": core.uptime_ms(runner.now_ms()), "flags": app.status_flags(),
        "boots": runner.boots,
        "stats": {"framing_errors": link.reader.errors, "unknown_frames": link.unknown,
                  "malformed_payloads": link.malformed, "out_of_order": link.out_of_order,
                  "retransmissions": link.retransmissions, "sessions": link.sessions,
                  "lost_events": core.lost, "bytes_discarded": runner.port.bytes_discarded},
    }
    if runner.shoe is not None:
        world = runner.shoe
        out["shoe"] = {"shoe_id": app.shoe_id, "decks": app.shoe_decks, "index": app.index,
                       "position": world.drawn, "remaining": world.remaining, "cut_at": world.cut_at,
                       "stuck": world.stuck, "garbage_lines": app.garbage, "unused_reads": app.unused_reads}
    if runner.rfid is not None:
        rfid = runner.rfid
        out["spot_lights"] = rfid.spot_lights()
        out["rfid"] = {"antennas": {str(antenna): [[uid, value] for uid, value in chips.items()]
                                    for antenna, chips in sorted(rfid.chips.items())}}
    return out


async def handle_firmware_command(runner: FirmwareRunner, command: JsonObject, *,
                                  decks: int) -> JsonObject:
    """Carry out one parsed command on the physical world around ``runner``'s firmware."""
    name = command["cmd"]
    if name in _NOT_PHYSICAL:
        raise CommandError(f"{name}: not with --reference-firmware ({_NOT_PHYSICAL[name]})")
    if name in _SHOE:
        if runner.shoe is None:
            raise CommandError(f"{name}: this is not a shoe board")
        return await _shoe_command(runner, runner.shoe, command, decks)
    if name in _RFID:
        if runner.rfid is None:
            raise CommandError(f"{name}: this is not an RFID board")
        return await _rfid_command(runner, runner.rfid, command)
    return await _board_command(runner, command)


async def _rfid_command(runner: FirmwareRunner, rfid: RfidWorld, command: JsonObject) -> JsonObject:
    """place, remove, clear: tags into or out of an antenna's field; answered once the reader reports it."""
    name = command["cmd"]
    antenna = int_field(command, "antenna")
    try:
        if name == "place":
            rfid.place(antenna, chips_field(command))
        elif name == "remove":
            uids = strings_field(command, "uids", 'remove needs "uids": a list of chip uids')
            if uids is None:
                raise CommandError('remove needs "uids": a list of chip uids')
            rfid.remove(antenna, uids)
        else:
            rfid.clear(antenna)
    except ValueError as error:
        raise CommandError(f"{name}: {error}") from None
    await runner.settle_spot(antenna)
    return {"antenna": antenna, "count": len(rfid.chips[antenna])}


async def _shoe_command(runner: FirmwareRunner, world: ShoeWorld, command: JsonObject,
                        decks: int) -> JsonObject:
    """The shoe's commands: what a dealer (or a fault) does to the physical shoe."""
    name = command["cmd"]
    if name == "load":
        asked = int_field(command, "decks", decks)
        if asked != runner.config["decks"]:
            raise CommandError(f"load: the board's config says {runner.config['decks']} decks, not {asked}")
        cards = strings_field(command, "cards",
                              '"cards" is a list of cards in pit notation, like ["As", "Td"]')
        cut_at = command.get("cut_at")
        timeline = world.load(asked, cards, None if cut_at is None else int_field(command, "cut_at"))
        await runner.play(timeline)
        return {"shoe_id": runner.core.app.shoe_id, "cards": world.remaining, "cut_at": world.cut_at}
    if name == "draw":
        count = int_field(command, "count", 1)
        if count < 0:
            raise CommandError(f"cannot draw {count} cards")
        before = world.drawn
        try:
            timeline = world.draw(count)
        except ValueError as error:
            raise CommandError(f"draw: {error}") from None
        await runner.play(timeline)
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
    raise CommandError(f"unknown command {name!r} (try help)")


async def _board_command(runner: FirmwareRunner, command: JsonObject) -> JsonObject:
    """The commands of either board: the port, power, status."""
    name = command["cmd"]
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


