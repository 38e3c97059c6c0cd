"""``firmware-bridge``: decode wire captures, watch a live board, or simulate one.

* ``firmware-bridge decode HEX [HEX...]``: each argument is a wire capture in
  hex (one or more frames, each ending in 00). Prints one JSON object per frame,
  in order: ``{"type": NAME, "seq": n, "ack": n, ...payload fields}`` for a
  valid frame (a CARD also has ``"card"``: the card in pit notation, ``"Qh"``),
  ``{"error": "<why>"}`` for one that is dropped, whose payload
  does not fit its type or whose type is unknown. An argument that is not hex
  is said on stderr. Exit status 0 when every frame decoded, 1 when one did
  not, 2 when an argument was not hex.
* ``firmware-bridge connect PORT``: opens the link exactly as the controller
  does (:class:`~firmware_bridge.link.host.HostLink`) and prints one JSON line per
  delivered data message and per link change until SIGINT or SIGTERM.
* ``firmware-bridge simulate shoe|rfid``: a simulated board on a pty
  (:mod:`firmware_bridge.simulator.cli`); with ``--reference-firmware``, the
  reference board firmware itself (:mod:`firmware_bridge.firmware_host.cli`).
* ``firmware-bridge codes --decks N [--csv]``: the code sheet for marking a
  house's cards for the reference shoe (:mod:`firmware_bridge.codes`).
* ``firmware-bridge flash shoe|rfid --serial SN [--port P] [--dry-run]``: copy
  the reference firmware to a Pico (:mod:`firmware_bridge.firmware_host.flash`).

>>> decode_capture("0201010404f0b200")
[{'type': 'ACK', 'seq': 0, 'ack': 4}]
>>> decode_capture("07017701ff2d8200 08012101ff0149de00 0201")  # doctest: +NORMALIZE_WHITESPACE
[{'error': 'unknown frame type 0x77'}, {'error': 'CARD payload is 1 bytes, expected 6'},
 {'error': 'capture ends without a 00 delimiter'}]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import signal
import sys
from collections.abc import Sequence
from typing import TextIO

from firmware_bridge.kernel.cards import Card
from firmware_bridge.kernel.json import JsonObject
from firmware_bridge.link.frames import Frame, FrameError, FrameReader
from firmware_bridge.link.messages import DEVICE_KINDS, Hello, Message, PayloadError, to_json, unpack
from firmware_bridge.link.messages import Card as CardMessage
from firmware_bridge.version import version_line

__all__ = ["build_parser", "decode_capture", "decode_frame_json", "main"]


def decode_frame_json(frame: Frame) -> JsonObject:
    """A valid frame as JSON: its message's fields after type, seq and ack, or an error."""
    try:
        message = unpack(frame.type, frame.payload)
    except KeyError:
        return {"error": f"unknown frame type 0x{frame.type:02x}"}
    except PayloadError as error:
        return {"error": str(error)}
    fields = to_json(message)
    if isinstance(message, CardMessage):
        fields["card"] = _card_words(message)
    return {"type": fields.pop("type"), "seq": frame.seq, "ack": frame.ack, **fields}


def _card_words(message: CardMessage) -> str:
    """A CARD's card in pit notation (``Qh``), or why its numbers name no card."""
    try:
        return str(Card(message.rank, message.suit))
    except ValueError as error:
        return str(error)


def decode_capture(text: str) -> list[JsonObject]:
    """Decode one hex wire capture (whitespace allowed) into one JSON object per frame."""
    try:
        wire = bytes.fromhex(text)
    except ValueError as error:
        return [{"error": f"not hex: {error}"}]
    out: list[JsonObject] = []
    for item in FrameReader().feed(wire):
        if isinstance(item, FrameError):
            out.append({"error": str(item)})
        else:
            out.append(decode_frame_json(item))
    if wire and not wire.endswith(b"\x00"):
        out.append({"error": "capture ends without a 00 delimiter"})
    return out


def _print_json(obj: JsonObject, out: TextIO) -> None:
    out.write(json.dumps(obj) + "\n")
    out.flush()


def _decode_main(captures: Sequence[str], out: TextIO, err: TextIO) -> int:
    """Each capture's frames decoded on ``out``, an ``{"error"}`` line for each that does not decode;
    an argument that is not hex said on ``err``. Status 2 if an argument was not hex, else 1 if a
    frame did not decode, else 0."""
    status = 0
    for number, text in enumerate(captures, 1):
        try:
            bytes.fromhex(text)
        except ValueError as error:
            err.write(f"firmware-bridge: decode: argument {number} is not hex: {error}\n")
            status = 2
            continue
        for obj in decode_capture(text):
            _print_json(obj, out)
            if "error" in obj:
                status = max(status, 1)
    return status


async def _connect(port: str, baudrate: int, out: TextIO) -> int:
    from firmware_bridge.link.host import HostLink  # pyserial only where a port is used

    def on_message(message: Message) -> None:
        _print_json(to_json(message), out)

    def on_online(hello: Hello) -> None:
        kind: str | int = DEVICE_KINDS.get(hello.kind, hello.kind)
        _print_json({"link": "online", "kind": kind, "firmware": hello.firmware, "serial": hello.serial}, out)

    def on_offline(reason: str) -> None:
        _print_json({"link": "offline", "reason": reason}, out)

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    link = HostLink(
        port, on_message=on_message, on_online=on_online, on_offline=on_offline, baudrate=baudrate
    )
    try:
        await link.start()
        await stop.wait()
    finally:
        await link.close()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The ``firmware-bridge`` argument parser with its subcommands."""
    parser = argparse.ArgumentParser(prog="firmware-bridge", description="Table I/O link tools.")
    parser.add_argument("--version", action="version", version=version_line("firmware-bridge"))
    commands = parser.add_subparsers(dest="command", required=True)

    decode = commands.add_parser("decode", help="decode wire captures given in hex")
    decode.add_argument("captures", nargs="+", metavar="HEX", help="wire bytes in hex, frames ending in 00")

    connect = commands.add_parser("connect", help="watch a board through the host link")
    connect.add_argument("port", metavar="PORT", help="the board's serial device")
    connect.add_argument("--baud", type=int, default=115200, help="baud rate (default 115200)")

    simulate = commands.add_parser("simulate", help="a simulated board on a pty")
    simulate.add_argument("kind", choices=("shoe", "rfid"), help="the board to simulate")
    simulate.add_argument("--link", metavar="PATH", help="a symlink to the pty, kept across unplug/replug")
    simulate.add_argument("--decks", type=int, default=6, metavar="N", help="decks in a shoe (default 6)")
    simulate.add_argument("--seed", type=int, metavar="N", help="seed of all randomness")
    simulate.add_argument("--firmware", metavar="STR", help="firmware version in HELLO")
    simulate.add_argument("--serial", metavar="STR", help="serial number in HELLO")
    simulate.add_argument("--reference-firmware", action="store_true",
                          help="run the reference board firmware (firmware_bridge/firmware) as the board")

    codes = commands.add_parser("codes", help="the code sheet for marking cards for the reference shoe")
    codes.add_argument("--decks", type=int, default=6, metavar="N", help="decks to mark (default 6)")
    codes.add_argument("--csv", action="store_true", help="CSV instead of text")

    flash = commands.add_parser("flash", help="copy the reference firmware to a Pico with mpremote")
    importlib.import_module("firmware_bridge.firmware_host.flash").build_parser(flash)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run ``firmware-bridge`` with ``argv`` (default: the command line); returns the exit status.
    ``out`` and ``err``: where output and errors go (default stdout and stderr)."""
    args = build_parser().parse_args(argv)
    stream = out if out is not None else sys.stdout
    if args.command == "decode":
        return _decode_main(args.captures, stream, err if err is not None else sys.stderr)
    if args.command == "connect":
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
        with contextlib.suppress(KeyboardInterrupt):
            return asyncio.run(_connect(args.port, args.baud, stream))
        return 0
    if args.command == "codes":
        from firmware_bridge.codes import write_sheet

        try:
            write_sheet(args.decks, stream, as_csv=args.csv)
        except ValueError as error:
            sys.stderr.write(f"firmware-bridge codes: {error}\n")
            return 2
        return 0
    if args.command == "flash":
        return int(importlib.import_module("firmware_bridge.firmware_host.flash").flash_main(args, stream))
    if args.reference_firmware:
        firmware_host_cli = importlib.import_module("firmware_bridge.firmware_host.cli")
        return int(asyncio.run(firmware_host_cli.run_reference(args)))
    simulator_cli = importlib.import_module("firmware_bridge.simulator.cli")
    return int(simulator_cli.simulate_main(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
