"""``firmware-bridge simulate shoe|rfid``: a simulated board driven by commands on stdin.

The process starts a :class:`~firmware_bridge.simulator.board.SimulatedBoard`,
prints one JSON line ``{"pty": "<path to connect to>"}``, then reads commands
from stdin, one per line, and answers each with exactly one JSON line on
stdout: ``{"ok": true, ...}`` or ``{"ok": false, "error": "..."}``. A command
is a JSON object (``{"cmd": "draw", "count": 3}``) or plain words for humans
(``draw 3``). A JSON command's ``"id"``, if any, is echoed in its answer.
Commands run one after the other, in the order given; a bad command is
answered with ``ok: false`` and the simulator goes on. EOF on stdin, ``quit``,
SIGTERM or SIGINT end the process cleanly with exit status 0. Nothing else is
ever written to stdout; warnings go to stderr.

The commands (see docs/simulator.md):

=================================================  ===========================================
JSON                                               plain words
=================================================  ===========================================
``{"cmd": "load", "decks": 6}``                    ``load 6`` (``load``: the ``--decks``)
``{"cmd": "load", "cards": ["As", "Kd"], "cut_at": 1}``  ``load As Kd cut_at=1``
``{"cmd": "draw", "count": 1}``                    ``draw``, ``draw 3``
``{"cmd": "skip"}``                                ``skip``
``{"cmd": "unreadable"}``                          ``unreadable``
``{"cmd": "place", "antenna": 1, "chips": [["0123456789abcdef", 500]]}``  ``place 1 0123456789abcdef:500``
``{"cmd": "remove", "antenna": 1, "uids": ["0123456789abcdef"]}``  ``remove 1 0123456789abcdef``
``{"cmd": "clear", "antenna": 1}``                 ``clear 1``
``{"cmd": "fault", "code": 2, "text": "lid opened"}``  ``fault 2 lid opened``
``{"cmd": "noise", "bytes": 200}``                 ``noise 200``
``{"cmd": "send", "message": {"type": "CARD", "index": 9, "rank": 1, "suit": 0}}``  (JSON only)
``{"cmd": "drop", "rate": 0.2}``                   ``drop 0.2``
``{"cmd": "corrupt", "rate": 0.1}``                ``corrupt 0.1``
``{"cmd": "rx_drop", "rate": 0.1}``                ``rx_drop 0.1``
``{"cmd": "reboot"}``                              ``reboot``
``{"cmd": "unplug"}``                              ``unplug``
``{"cmd": "replug"}``                              ``replug``
``{"cmd": "status"}``                              ``status``
``{"cmd": "wait_idle", "timeout": 5}``             ``wait_idle``, ``wait_idle 5``
``{"cmd": "help"}``                                ``help``
``{"cmd": "quit"}``                                ``quit``
=================================================  ===========================================

>>> parse_command("draw 3")
{'cmd': 'draw', 'count': 3}
>>> parse_command("load As Kd Qh cut_at=2")
{'cmd': 'load', 'cut_at': 2, 'cards': ['As', 'Kd', 'Qh']}
>>> parse_command('{"cmd": "noise", "bytes": 20}')
{'cmd': 'noise', 'bytes': 20}
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from firmware_bridge.kernel.json import JsonObject, JsonValue
from firmware_bridge.link.messages import PayloadError, from_json
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card

__all__ = ["CommandError", "answer", "build_parser", "chips_field", "handle_command", "int_field", "main",
           "parse_command", "serve", "simulate_main", "stdin_reader", "strings_field"]

_LINE_LIMIT = 1 << 20

class CommandError(ValueError):
    """A command that cannot be carried out; its message is the answer's ``error``."""

def _word(value: str) -> JsonValue:
    """A plain-word argument: a JSON number, true/false/null if it reads as one, else the string."""
    try:
        word: JsonValue = json.loads(value)
    except ValueError:
        return value
    return word

_POSITIONAL: dict[str, tuple[str, ...]] = {
    "draw": ("count",),
    "clear": ("antenna",),
    "noise": ("bytes",),
    "drop": ("rate",),
    "corrupt": ("rate",),
    "rx_drop": ("rate",),
    "wait_idle": ("timeout",),
}

def parse_command(line: str) -> JsonObject:
    """One input line as a command dict with a ``"cmd"`` key; raises :class:`CommandError`.

    A line starting with ``{`` is a JSON object; anything else is plain
    words: the command, then its arguments by position, and ``key=value``
    words for any field by name.

    >>> parse_command("place 2 00000000000000aa:500 00000000000000bb:100")
    {'cmd': 'place', 'antenna': 2, 'chips': [['00000000000000aa', 500], ['00000000000000bb', 100]]}
    >>> parse_command("fault 2 lid opened during draw")
    {'cmd': 'fault', 'code': 2, 'text': 'lid opened during draw'}
    >>> parse_command("[1]")
    Traceback (most recent call last):
    ...
    firmware_bridge.simulator.cli.CommandError: a command is a JSON object or plain words
    """
    text = line.strip()
    if text.startswith("{"):
        try:
            command = json.loads(text)
        except ValueError as error:
            raise CommandError(f"bad JSON: {error}") from None
        if not isinstance(command, dict) or not isinstance(command.get("cmd"), str):
            raise CommandError('a JSON command is an object with a "cmd" string')
        return command
    if text.startswith(("[", '"')):
        raise CommandError("a command is a JSON object or plain words")
    words = text.split()
    if not words:
        raise CommandError("empty command")
    name = words[0].lower().replace("-", "_")
    command = {"cmd": name}
    args: list[str] = []
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if sep and key.isidentifier():
            command[key] = _word(value)
        else:
            args.append(word)
    if name == "load":
        if len(args) == 1 and args[0].isdigit():
            command["decks"] = int(args[0])
        elif args:
            command["cards"] = args
    elif name == "place" and args:
        command["antenna"] = _word(args[0])
        chips = []
        for chip in args[1:]:
            uid, sep, value = chip.partition(":")
            if not sep:
                raise CommandError(f"a chip is uid:value_cents, not {chip!r}")
            chips.append([uid, _word(value)])
        command["chips"] = chips
    elif name == "remove" and args:
        command["antenna"] = _word(args[0])
        command["uids"] = args[1:]
    elif name == "fault" and args:
        command["code"] = _word(args[0])
        command["text"] = " ".join(args[1:])
    else:
        names = _POSITIONAL.get(name, ())
        if len(args) > len(names):
            raise CommandError(f"too many arguments for {name}")
        for key, value in zip(names, args, strict=False):
            command[key] = _word(value)
    return command

def int_field(command: JsonObject, key: str, default: int | None = None) -> int:
    """The command's integer field ``key`` (``default`` if absent); raises :class:`CommandError`."""
    value = command.get(key, default)
    if value is None:
        raise CommandError(f"{command['cmd']} needs {key!r}")
    if isinstance(value, bool) or not isinstance(value, int):
        raise CommandError(f"{key} must be an integer, not {value!r}")
    return value

def strings_field(command: JsonObject, key: str, what: str) -> list[str] | None:
    """The command's list of strings ``key`` (None if absent); else :class:`CommandError` saying ``what``."""
    value = command.get(key)
    if value is None:
        return None
    if not isinstance(value, list):
        raise CommandError(what)
    strings = [item for item in value if isinstance(item, str)]
    if len(strings) != len(value):
        raise CommandError(what)
    return strings

def _rate(command: JsonObject) -> float:
    value = command.get("rate")
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise CommandError(f"rate must be a number from 0 to 1, not {value!r}")
    return float(value)

def chips_field(command: JsonObject) -> list[tuple[str, int]]:
    """The ``chips`` of a ``place`` command as ``(uid, value_cents)``; raises :class:`CommandError`."""
    chips = command.get("chips")
    if not isinstance(chips, list):
        raise CommandError('place needs "chips": [[uid, value_cents], ...]')
    out: list[tuple[str, int]] = []
    for chip in chips:
        if isinstance(chip, dict):
            uid, value = chip.get("uid"), chip.get("value")
        elif isinstance(chip, list) and len(chip) == 2:
            uid, value = chip
        else:
            raise CommandError(f"a chip is [uid, value_cents], not {chip!r}")
        if not isinstance(uid, str) or isinstance(value, bool) or not isinstance(value, int):
            raise CommandError(f"a chip is [uid string, value_cents integer], not {chip!r}")
        out.append((uid, value))
    return out

def board_status(board: SimulatedBoard) -> JsonObject:
    """The ``status`` answer: the link, the fault knobs and the model's state."""
    faults = board.faults
    out: JsonObject = {
        "kind": board.kind,
        "pty": board.path,
        "plugged": board.plugged,
        "in_session": board.in_session,
        "pending": board.pending,
        "stalled": board.stalled,
        "spot_lights": board.spot_lights,
        "uptime_ms": board.uptime_ms,
        "flags": board.status_flags,
        "faults": {
            "drop_rate": faults.drop_rate,
            "corrupt_rate": faults.corrupt_rate,
            "rx_drop_rate": faults.rx_drop_rate,
            "frames_dropped": board.frames_dropped,
            "frames_corrupted": board.frames_corrupted,
            "frames_dropped_rx": board.frames_dropped_rx,
            "noise_bytes": board.noise_sent,
        },
        "stats": dict(board.stats.snapshot()),
    }
    if board.shoe is not None:
        shoe = board.shoe
        out["shoe"] = {
            "shoe_id": shoe.shoe_id,
            "decks": shoe.decks,
            "position": shoe.position,
            "remaining": shoe.remaining,
            "cut_at": shoe.cut_at,
            "cut_card_out": shoe.cut_card_out,
        }
    if board.rfid is not None:
        rfid = board.rfid
        out["rfid"] = {
            "antennas": {
                str(antenna): [[chip.uid, chip.value] for chip in rfid.chips(antenna)]
                for antenna in rfid.antennas_in_use
            }
        }
    return out

_HELP = (
    "load [N | CARD... [cut_at=K]], draw [N], skip, unreadable, place ANT UID:CENTS..., "
    "remove ANT UID..., clear ANT, fault CODE TEXT, send (JSON only), noise N, drop RATE, corrupt RATE, "
    "rx_drop RATE, reboot, unplug, replug, status, wait_idle [SECONDS], help, quit"
)

async def handle_command(board: SimulatedBoard, command: JsonObject, *, decks: int = 6) -> JsonObject:
    """Carry out one parsed command on ``board``; returns the fields of the ``ok: true`` answer.

    Raises :class:`CommandError` (or ``ValueError``/``RuntimeError`` from the
    board) for a command that cannot be carried out. ``decks`` is the
    default of ``load``.
    """
    name = command["cmd"]
    shoe, rfid = board.shoe, board.rfid
    if name in ("load", "draw", "skip", "unreadable") and shoe is None:
        raise CommandError(f"{name}: this is not a shoe board")
    if name in ("place", "remove", "clear") and rfid is None:
        raise CommandError(f"{name}: this is not an RFID board")
    if name == "load":
        assert shoe is not None
        cut_at = None if command.get("cut_at") is None else int_field(command, "cut_at")
        cards = strings_field(command, "cards",
                              '"cards" is a list of cards in pit notation, like ["As", "Td"]')
        if cards is not None:
            board.load_shoe(int_field(command, "decks", decks), [parse_card(card) for card in cards], cut_at)
        else:
            board.load_shoe(int_field(command, "decks", decks), None, cut_at)
        return {"shoe_id": shoe.shoe_id, "cards": shoe.remaining, "cut_at": shoe.cut_at}
    if name == "draw":
        assert shoe is not None
        before = shoe.position
        board.draw(int_field(command, "count", 1))
        return {"drawn": shoe.position - before, "position": shoe.position, "remaining": shoe.remaining}
    if name == "skip":
        assert shoe is not None
        board.skip()
        return {"position": shoe.position, "remaining": shoe.remaining}
    if name == "unreadable":
        board.arm_unreadable()
        return {}
    if name == "place":
        assert rfid is not None
        antenna = int_field(command, "antenna")
        board.place(antenna, chips_field(command))
        return {"antenna": antenna, "count": len(rfid.chips(antenna))}
    if name == "remove":
        assert rfid is not None
        antenna = int_field(command, "antenna")
        uids = strings_field(command, "uids", 'remove needs "uids": a list of chip uids')
        if uids is None:
            raise CommandError('remove needs "uids": a list of chip uids')
        board.remove(antenna, uids)
        return {"antenna": antenna, "count": len(rfid.chips(antenna))}
    if name == "clear":
        antenna = int_field(command, "antenna")
        board.clear(antenna)
        return {"antenna": antenna, "count": 0}
    if name == "fault":
        text = command.get("text", "")
        if not isinstance(text, str):
            raise CommandError("fault text must be a string")
        board.fault(int_field(command, "code"), text)
        return {}
    if name == "send":
        message = command.get("message")
        if not isinstance(message, dict):
            raise CommandError('send needs "message": a data message as JSON, like {"type": "CARD", ...}')
        try:
            board.send(from_json(message))
        except PayloadError as error:
            raise CommandError(f"send: {error}") from None
        return {}
    if name == "noise":
        count = int_field(command, "bytes")
        if not 0 <= count <= 1 << 20:
            raise CommandError("noise is 0 to 1048576 bytes")
        board.noise(count)
        return {"bytes": count}
    if name == "drop":
        board.faults.drop_rate = _rate(command)
        return {"rate": board.faults.drop_rate}
    if name == "corrupt":
        board.faults.corrupt_rate = _rate(command)
        return {"rate": board.faults.corrupt_rate}
    if name == "rx_drop":
        board.faults.rx_drop_rate = _rate(command)
        return {"rate": board.faults.rx_drop_rate}
    if name == "reboot":
        board.reboot()
        return {}
    if name == "unplug":
        board.unplug()
        return {}
    if name == "replug":
        return {"pty": await board.replug()}
    if name == "status":
        return board_status(board)
    if name == "wait_idle":
        timeout = command.get("timeout")
        if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)):
            raise CommandError(f"timeout must be a number of seconds, not {timeout!r}")
        try:
            await asyncio.wait_for(board.wait_idle(), timeout)
        except TimeoutError:
            pending = board.pending
            raise CommandError(f"still {pending} data frames unacknowledged after {timeout} s") from None
        return {"pending": board.pending}
    if name == "help":
        return {"commands": _HELP}
    raise CommandError(f"unknown command {name!r} (try help)")

def answer(payload: JsonObject) -> None:
    sys.stdout.write(json.dumps(payload) + "\n")
    sys.stdout.flush()

async def stdin_reader() -> asyncio.StreamReader:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (ValueError, OSError):
        # A regular file (or /dev/null): not pollable, but reading it never blocks for long.
        reader.feed_data(sys.stdin.buffer.read())
        reader.feed_eof()
    return reader

async def serve(reader: asyncio.StreamReader,
                handle: Callable[[JsonObject], Awaitable[JsonObject]]) -> None:
    """Answer the command lines of ``reader`` with ``handle`` (one JSON line each) until EOF or ``quit``."""
    while True:
        try:
            raw = await reader.readline()
        except ValueError:
            answer({"ok": False, "error": f"line longer than {_LINE_LIMIT} bytes"})
            continue
        if not raw:
            return
        line = raw.decode("utf-8", errors="replace").strip()
        if not line or line.startswith("#"):
            continue
        ident: JsonValue = None
        try:
            command = parse_command(line)
            ident = command.get("id")
            if command["cmd"] in ("quit", "exit"):
                answer(_with_id({"ok": True}, ident))
                return
            result = await handle(command)
            answer(_with_id({"ok": True, **result}, ident))
        except BrokenPipeError:
            return  # nobody reads the answers any more
        except Exception as error:  # a bad command must never end the simulator
            try:
                answer(_with_id({"ok": False, "error": str(error) or type(error).__name__}, ident))
            except BrokenPipeError:
                return

def _with_id(answer: JsonObject, ident: JsonValue) -> JsonObject:
    if ident is not None:
        answer["id"] = ident
    return answer

async def _run(args: argparse.Namespace) -> int:
    import random

    loop = asyncio.get_running_loop()
    seed = getattr(args, "seed", None)
    link = getattr(args, "link", None)
    board = SimulatedBoard(
        args.kind,
        link=Path(link) if link else None,
        rng=random.Random(seed),
        firmware=getattr(args, "firmware", None),
        serial=getattr(args, "serial", None),
    )
    try:
        path = await board.start()
    except OSError as error:
        answer({"ok": False, "error": f"cannot start the board: {error}"})
        await board.close()
        return 1
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    try:
        answer({"pty": path})
        reader = await stdin_reader()
        decks = getattr(args, "decks", 6) or 6
        serving = asyncio.create_task(
            serve(reader, lambda command: handle_command(board, command, decks=decks)))
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
        await board.close()
        with contextlib.suppress(OSError, ValueError):
            os.set_blocking(sys.stdin.fileno(), True)  # the pipe transport made stdin non-blocking
    return 0

def simulate_main(args: argparse.Namespace) -> int:
    """Run the behavioural simulator for parsed ``args`` (``kind``, ``link``, ``decks``, ``seed``,
    ``firmware``, ``serial``) until EOF on stdin, ``quit`` or SIGTERM; returns the exit status (0, or 1
    when the pty or link cannot be made). The reference firmware as the board is ``firmware-bridge
    simulate --reference-firmware`` (:mod:`firmware_bridge.firmware_host.cli`, above this package)."""
    if args.kind not in ("shoe", "rfid"):
        raise SystemExit(f"unknown board kind {args.kind!r}")
    return asyncio.run(_run(args))

def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The ``simulate`` arguments, added to ``parser`` (a new parser if None)."""
    parser = parser or argparse.ArgumentParser(
        prog="firmware-bridge simulate", description="A simulated shoe or RFID board on a pty."
    )
    parser.add_argument("kind", choices=("shoe", "rfid"), help="the board to simulate")
    parser.add_argument("--link", metavar="PATH", help="a symlink to the pty, kept across unplug/replug")
    parser.add_argument("--decks", type=int, default=6, help="decks for a plain 'load' (default 6)")
    parser.add_argument("--seed", type=int, help="seed of all randomness (shuffles, faults)")
    parser.add_argument("--firmware", help="firmware version in HELLO")
    parser.add_argument("--serial", help="serial number in HELLO")
    return parser

def main(argv: list[str] | None = None) -> int:
    """``python -m firmware_bridge.simulator.cli shoe|rfid [...]``: ``firmware-bridge simulate``."""
    return simulate_main(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
