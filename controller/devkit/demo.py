"""``make demo``: an Easy Jack table on simulated boards, dealt until Ctrl-C, with its screen and pit stream.

Everything is real but the boards: the daemon (the same :class:`Daemon` that
``table-controller run`` starts) talks to a simulated shoe and RFID reader over
ptys (with ``--reference-firmware``, to the reference firmware of both boards
run on the host, :mod:`controller.devkit.firmware_boards`), the buttons are
gpiozero mock pins, and the dealer and players of
:mod:`controller.devkit.demo_dealer` act on the boards and touch through the
control socket, paying what the screen asks.

It prints the dealer screen's address (``table-controller screen``, in its own
process) and the table's pit sockets on 127.0.0.1, so a browser and any
subscriber built from docs/pit-events.md can follow the table, then every pit
event as it comes. The first three hands tell a story (a Dealer Bust side bet,
a natural and a dealer bust in three cards, a counterfeit chip refused); then
hands go on with random players and a new shoe at each cut card, until Ctrl-C
(or SIGTERM), or ``--hands N``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import zmq.asyncio

from controller.config.loader import load_config
from controller.daemon.loop import Daemon
from controller.devkit.demo_dealer import COUNTERFEIT, DemoDealer, DemoError, Reader, Shoe, registry
from controller.devkit.firmware_boards import ReferenceReader, ReferenceShoe
from controller.devkit.simulated import antenna, write_config
from controller.follow.aio import Follower
from controller.follow.control import Control
from controller.follow.records import Records
from controller.follow.sources import TableSource
from drivers.display import LogRenderer
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card

TABLE = "DEMO"

SHOE = [
    "5h", "4c", "9d", "3s", "6d",          # hand 1: seats 1 and 3; the dealer's 9 stands
    "As", "7c", "2d", "4s", "9c",          # hand 2: a natural, and the dealer busts in 3 cards
    "Kc", "Ah",                            # hand 3: the dealer's hole card is a natural
]


def free_port(wanted: int = 0) -> int:
    """``wanted`` if it is free on 127.0.0.1 (any free port for 0, or if it is taken)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", wanted))
        except OSError:
            probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def pit_endpoints() -> tuple[str, str, str]:
    """Publish, sync (the publish port + 1, as docs/pit-events.md has it) and control on 127.0.0.1."""
    while True:
        port = free_port()
        if all(free_port(p) == p for p in (port + 1, port + 2)):
            return tuple(f"tcp://127.0.0.1:{p}" for p in (port, port + 1, port + 2))  # type: ignore[return-value]


def start_screen(config: Path) -> subprocess.Popen[bytes]:
    """``table-controller screen`` for the demo's table; prints the address it serves: port 8070
    where it is free, else any free port (also when 8070 was taken between the look and the bind)."""
    for port in (free_port(8070), 0):
        screen = subprocess.Popen([sys.executable, "-m", "controller.cli", "screen", "--config",
                                   str(config), "--port", str(port)], stdout=subprocess.PIPE)
        assert screen.stdout is not None
        line = screen.stdout.readline().decode().strip()
        if line:
            break
        status = screen.wait()
    else:
        raise DemoError(f"the dealer's screen did not start (status {status})")
    address = line.split("serving ", 1)[-1].split(" ", 1)[0]
    print(f"== The dealer's screen: open {address} in a browser ==", flush=True)
    return screen


async def story(dealer: DemoDealer) -> None:
    """The first three hands, scripted."""
    await dealer.new_shoe([parse_card(card) for card in SHOE], cut_at=len(SHOE) - 1)
    print("== Hand 1: two seats; seat 3 also bets Dealer Bust ==", flush=True)
    await dealer.press("deal", refused=True)              # no wagers yet
    await dealer.bet(1, "main", 1000)
    await dealer.bet(3, "main", 2500)
    await dealer.bet(3, "side", 500)
    await dealer.press("deal")
    await dealer.play_out()
    await dealer.pay()

    print("== Hand 2: a natural, and the dealer busts in three cards ==", flush=True)
    await dealer.bet(2, "main", 1000)
    await dealer.bet(2, "side", 1000)
    await dealer.bet(4, "main", 5000)
    await dealer.press("deal")
    await dealer.play_out()
    await dealer.pay()

    print("== Hand 3: a counterfeit chip is refused, then the dealer's natural ==", flush=True)
    dealer.rfid.place(antenna(5, "main"), [COUNTERFEIT])
    await dealer.expect("alert", code="counterfeit_chip")
    print("   (on purpose: the screen shows the counterfeit alert until the dealer touches Done)", flush=True)
    dealer.rfid.clear(antenna(5, "main"))
    await dealer.bet(5, "main", 10000)
    await dealer.press("deal")
    await dealer.play_out()
    await dealer.pay()
    print("== The cut card is out: the next hand starts a new shoe ==", flush=True)


async def deal(dealer: DemoDealer, hands: int, seed: int, boards: str) -> None:
    """The story, then random hands: ``hands`` in all (0: until cancelled); ``boards`` says which."""
    await dealer.until("both boards online", lambda state: all(
        name in state.devices and state.devices[name].online for name in ("shoe", "rfid")))
    print(f"== Table {TABLE} is open on {boards} ==", flush=True)
    await story(dealer)
    rng = random.Random(seed)
    played = 3
    while hands == 0 or played < hands:
        played += 1
        print(f"== Hand {played} ==", flush=True)
        await dealer.random_hand(rng)


async def run(folder: Path, hands: int, pause: float, seed: int, reference_firmware: bool = False) -> None:
    """Boards, daemon, screen and dealer up; the hands; everything closed, also on Ctrl-C."""
    shoe_board: ReferenceShoe | SimulatedBoard
    rfid_board: ReferenceReader | SimulatedBoard
    if reference_firmware:
        boards = "the reference firmware's boards"
        shoe_board = ReferenceShoe(folder, random.Random(seed))
        rfid_board = ReferenceReader(folder, random.Random(seed + 1))
    else:
        boards = "simulated boards"
        shoe_board = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(seed))
        rfid_board = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(seed + 1))
    shoe: Shoe = shoe_board
    rfid: Reader = rfid_board
    await shoe_board.start()
    await rfid_board.start()
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    endpoints = pit_endpoints()
    config = write_config(folder, table=TABLE, chips=registry(), game="side_max_bet = 2500",
                          endpoints=endpoints)
    daemon = Daemon(load_config(config))
    daemon.renderer = LogRenderer(sys.stdout)
    print(f"== Table {TABLE}'s pit sockets (docs/pit-events.md): publish {endpoints[0]}, "
          f"sync {endpoints[1]}, control {endpoints[2]} ==", flush=True)
    screen = start_screen(config)
    context = zmq.asyncio.Context()
    dealer = DemoDealer(shoe, rfid, Control(endpoints[2], context), pause=pause,
                        show=lambda line: print(line, flush=True))
    follower = Follower(TableSource(TABLE, endpoints[0], endpoints[1]), Records(dealer), context=context)
    table = asyncio.create_task(daemon.run())        # it stops on SIGINT (Ctrl-C) and SIGTERM
    following = asyncio.create_task(follower.run())
    dealing = asyncio.create_task(deal(dealer, hands, seed, boards))
    try:
        await asyncio.wait((table, dealing), return_when=asyncio.FIRST_COMPLETED)
        if dealing.done():
            dealing.result()
            print("== Demo complete ==", flush=True)
        else:
            print("== The table is closed ==", flush=True)
    finally:
        for task in (dealing, following):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        screen.terminate()
        screen.wait(10)
        daemon.stopping.set()
        await table
        context.destroy(linger=0)
        await shoe_board.close()
        await rfid_board.close()


def build_parser() -> argparse.ArgumentParser:
    """The demo's command line."""
    parser = argparse.ArgumentParser(
        prog="python -m controller.devkit.demo",
        description="An Easy Jack table on simulated boards, dealt by a scripted dealer who pays what the "
                    "screen asks, with the dealer's touch screen and the pit stream, until Ctrl-C.")
    parser.add_argument("--hands", type=int, default=0, metavar="N",
                        help="stop after N hands (default: deal until Ctrl-C; the first 3 are scripted)")
    parser.add_argument("--pause", type=float, default=float(os.environ.get("DEMO_PAUSE", "0.4")),
                        metavar="SECONDS", help="pause after each act, for a human eye (default 0.4, or "
                                                "DEMO_PAUSE)")
    parser.add_argument("--seed", type=int, default=7, help="seed of the shuffles and the players")
    parser.add_argument("--reference-firmware", action="store_true",
                        help="run the boards' reference firmware on this machine (the shoe, and the spot "
                             "reader of 32 antennas), instead of the simulated boards")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the demo in a fresh temporary folder; the exit status."""
    args = build_parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="table-demo-") as folder:
        try:
            asyncio.run(run(Path(folder), args.hands, args.pause, args.seed, args.reference_firmware))
        except DemoError as error:
            print(f"demo failed: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
