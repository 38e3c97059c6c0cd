"""``firmware-bridge flash shoe|rfid``: copy the reference firmware and the board's config to a Pico.

The Pico must already run MicroPython, with its REPL free (a new board, or
one started in service mode: docs/boards.md). The files go to the root of its
filesystem with one ``mpremote`` command (``mpremote connect PORT fs cp FILE
:FILE + ... + reset``): the firmware modules the board kind needs and its
``board.json`` (kind, serial number, pins, decks or antennas). The shoe id counter
(``shoe_ids.txt``) on the board is never touched, so a reflashed shoe goes on
numbering its loads. ``--dry-run`` prints the commands instead of running them.

>>> [path.name for path in firmware_files("shoe")]
['board.py', 'cardcode.py', 'flashstore.py', 'link.py', 'main.py', 'shoe.py']
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TextIO

from firmware_bridge.firmware import FOLDER
from firmware_bridge.kernel.json import JsonObject

COMMON = ("board.py", "link.py", "main.py")
BY_KIND = {"shoe": ("cardcode.py", "flashstore.py", "shoe.py"),
           "rfid": ("chiptable.py", "iso15693.py", "pn5180.py", "spot_reader.py")}
SHOE_PINS = {"scanner_tx": 0, "scanner_rx": 1, "beam": 15, "load": 14}
"""The shoe's pins in docs/boards.md's wiring (GPIO numbers)."""
RFID_PINS = {"sck": 18, "mosi": 19, "miso": 16, "nss": 17, "busy": 20, "rst": 21, "select": [10, 11, 12, 13],
             "lights": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 14, 15, 22, 26, 27, 28]}
"""The RFID reader's pins in docs/boards.md's wiring: SPI0 and the PN5180, the multiplexer, the lights."""
RFID_PINS_32 = {"sck": 18, "mosi": 19, "miso": 16, "nss": 17, "busy": 20, "rst": 21,
                "select": [10, 11, 12, 13, 14],
                "light_chain": {"data": 0, "clock": 1, "latch": 2, "count": 32}}
"""The 32-antenna reader's pins (docs/boards.md, "32 antennas"): a fifth select pin choosing one of two
multiplexers, the lights on a chain of four shift registers."""
MAX_ANTENNAS = 32


def firmware_files(kind: str | None = None) -> list[Path]:
    """The firmware files of a board ``kind`` (None: every firmware file there is), sorted by name."""
    if kind is None:
        return sorted(path for path in FOLDER.glob("*.py") if path.name != "__init__.py")
    names = COMMON + BY_KIND[kind]
    return sorted(FOLDER / name for name in names if (FOLDER / name).is_file())


def board_config(kind: str, serial: str, decks: int = 6, antennas: list[int] | None = None) -> JsonObject:
    """A board's ``board.json`` (docs/boards.md): a shoe's ``decks``, an RFID reader's ``antennas``
    (default all 16), on the 16-antenna wiring unless an antenna is above 16 (then the 32-antenna one)."""
    if kind == "shoe":
        return {"kind": "shoe", "serial": serial, "decks": decks, "scanner_uart": 0, "scanner_baud": 9600,
                "beam_blocked_level": 0, "pins": dict(SHOE_PINS)}
    antennas = antennas or list(range(1, 17))
    pins = RFID_PINS_32 if max(antennas) > 16 else RFID_PINS
    return {"kind": kind, "serial": serial, "antennas": antennas, "spi": 0,
            "spi_baud": 7000000, "pins": json.loads(json.dumps(pins))}


def flash_command(kind: str, port: str, config: Path) -> list[str]:
    """The one mpremote command (one connection, its steps chained with ``+``) that copies ``kind``'s
    firmware and ``config`` (as board.json), then resets the board."""
    command = ["mpremote", "connect", port]
    for path, name in [*((path, path.name) for path in firmware_files(kind)), (config, "board.json")]:
        command += ["fs", "cp", str(path), f":{name}", "+"]
    return [*command, "reset"]


def build_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The ``flash`` arguments, added to ``parser``."""
    parser.add_argument("kind", choices=("shoe", "rfid"), help="the board")
    parser.add_argument("--port", default="auto", help="the Pico's serial device (default: mpremote's auto)")
    parser.add_argument("--serial", required=True, metavar="SN", help="the board's serial number (HELLO)")
    parser.add_argument("--decks", type=int, default=6, help="decks a shoe reports when loaded (default 6)")
    parser.add_argument("--antennas", type=int, nargs="+", metavar="N",
                        help="the antennas an RFID reader has wired, 1 to 32 (default 1 to 16; one above "
                             "16 is the 32-antenna wiring)")
    parser.add_argument("--dry-run", action="store_true", help="print the commands, run nothing")
    return parser


def flash_main(args: argparse.Namespace, out: TextIO) -> int:
    """Copy the firmware (or print how, with ``--dry-run``); returns the exit status."""
    if not 1 <= args.decks <= 35 or not args.serial or len(args.serial.encode()) > 255:
        out.write("--decks is 1 to 35 and --serial 1 to 255 bytes\n")
        return 2
    if args.antennas and not all(1 <= n <= MAX_ANTENNAS for n in args.antennas):
        out.write(f"--antennas are 1 to {MAX_ANTENNAS}\n")
        return 2
    with tempfile.TemporaryDirectory(prefix="board-config-") as folder:
        config = Path(folder) / "board.json"
        settings = board_config(args.kind, args.serial, args.decks, args.antennas)
        config.write_text(json.dumps(settings, indent=1) + "\n")
        command = flash_command(args.kind, args.port, config)
        if args.dry_run:
            out.write(config.read_text())
            out.write(" ".join(command) + "\n")
            return 0
        mpremote = shutil.which("mpremote") or str(Path(sys.executable).with_name("mpremote"))
        done = subprocess.run([mpremote, *command[1:]], check=False)
        if done.returncode:
            out.write(f"mpremote failed ({done.returncode}); is the board's REPL free (docs/boards.md)?\n")
        return done.returncode
