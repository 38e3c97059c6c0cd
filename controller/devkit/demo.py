"""``make demo``: a table on simulated hardware, three scripted hands, the display and the pit stream.

Everything is real but the boards: the daemon (the same :class:`Daemon` that
``table-controller run`` starts) talks to a simulated shoe and RFID reader over
ptys, the buttons are gpiozero mock pins, a scripted dealer presses buttons
through the control socket, and a pit subscriber prints every event. Each step
waits for the event it causes; ``DEMO_PAUSE`` (seconds, default 0.4) paces the
steps for a human eye.

The dealer's screen (``table-controller screen``) runs beside it in its own
process, on port 8070 (any free port if that one is taken); its address is
printed first, to open in a browser and watch the hands. On a terminal the demo
then waits for Enter before it closes the table, so the screen can be tried.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

import zmq

from controller.config.loader import load_config
from controller.daemon import Daemon
from controller.devkit.simulated import antenna, ipc_endpoints, write_config
from controller.pit.follow.blocking import PitClient
from drivers.display import LogRenderer
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card

PAUSE = float(os.environ.get("DEMO_PAUSE", "0.4"))
CHIPS = {"5": 500, "25": 2500, "100": 10000}
COUNTERFEIT = ("feedfacecafebeef", 10000)

SHOE = [
    "5h", "4c", "9d", "3s", "6d",          # hand 1: seats 1 and 3; the dealer's 9 stands
    "As", "7c", "2d", "4s", "9c",          # hand 2: a natural, and the dealer busts in 3 cards
    "Kc", "Ah",                            # hand 3: the dealer's hole card is a natural
]


def chip(value: str, number: int) -> tuple[str, int]:
    """Registered chip ``number`` of a denomination."""
    return (f"{CHIPS[value]:08x}{number:08x}", CHIPS[value])


def screen_port(wanted: int = 8070) -> int:
    """``wanted`` if it is free on 127.0.0.1, else 0 (any free port)."""
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", wanted))
        except OSError:
            return 0
    return wanted


def start_screen(config: Path) -> subprocess.Popen[bytes]:
    """``table-controller screen`` for the demo's table; prints the address it serves."""
    screen = subprocess.Popen([sys.executable, "-m", "controller.cli", "screen", "--config", str(config),
                               "--port", str(screen_port())], stdout=subprocess.PIPE)
    assert screen.stdout is not None
    line = screen.stdout.readline().decode().strip()
    if not line:
        raise DemoError(f"the dealer's screen did not start (status {screen.wait()})")
    address = line.split("serving ", 1)[-1].split(" ", 1)[0]
    print(f"== The dealer's screen: open {address} in a browser ==", flush=True)
    return screen


class DemoError(RuntimeError):
    """The table did not answer as the script expects."""


class Demo:
    """The scripted dealer and the pit subscriber."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pit = PitClient("DEMO", *ipc_endpoints(folder), context=zmq.Context())
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(7))
        self.rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(8))

    def subscribe(self, loop: asyncio.AbstractEventLoop, stop: threading.Event) -> None:
        """The pit subscriber, on its own thread: print each event and hand it to the dealer script."""
        shown = 0
        while not stop.is_set():
            self.pit.poll(0.1)
            for event in self.pit.events[shown:]:
                data = json.dumps(event["data"], separators=(",", ":"))
                print(f"  pit> {event['seq']:>3} {event['type']:<16} hand={event['hand']} {data}",
                      flush=True)
                loop.call_soon_threadsafe(self.events.put_nowait, event)
            shown = len(self.pit.events)

    async def expect(self, kind: str, **data: Any) -> dict[str, Any]:
        """Wait for the next event of ``kind`` (with these data fields)."""
        while True:
            event = await asyncio.wait_for(self.events.get(), 15)
            if event["type"] == kind and all(event["data"].get(k) == v for k, v in data.items()):
                return event

    async def press(self, button: str, *, refused: bool = False) -> None:
        """Press a button through the control socket; stop the demo if the answer is not as scripted."""
        reply = await asyncio.to_thread(self.pit.press, button)
        print(f"dealer presses {button.upper()}: {reply}", flush=True)
        if reply["ok"] == refused:
            raise DemoError(f"{button} was {'taken' if reply['ok'] else 'refused'}: {reply}")
        await asyncio.sleep(PAUSE)

    async def bet(self, seat: int, spot: str, *chips: tuple[str, int]) -> None:
        """A player puts exactly these chips on a spot."""
        self.rfid.clear(antenna(seat, spot))
        self.rfid.place(antenna(seat, spot), chips)
        print(f"player at seat {seat} bets {spot}: {sum(v for _, v in chips) / 100:.2f}", flush=True)
        await self.expect("bet.placed", seat=seat, spot=spot)
        await asyncio.sleep(PAUSE)

    async def collect(self, *spots: tuple[int, str]) -> None:
        """The dealer clears these spots (collecting, or the player taking chips back)."""
        for seat, spot in spots:
            self.rfid.clear(antenna(seat, spot))
        await asyncio.sleep(PAUSE)

    async def draw(self, cards: int = 1) -> None:
        """The dealer draws cards from the shoe, one by one."""
        for _ in range(cards):
            self.shoe.draw()
            await self.expect("card.dealt")
            await asyncio.sleep(PAUSE)

    async def play(self) -> None:
        """The scripted hands."""
        print("== The table opens on simulated boards ==", flush=True)
        await self.expect("device.online", device="shoe")
        await self.expect("device.online", device="rfid")
        self.shoe.load_shoe(6, cards=[parse_card(card) for card in SHOE], cut_at=len(SHOE) - 1)
        await self.expect("shoe.loaded")

        print("== Hand 1: two seats; seat 3 also bets Dealer Bust ==", flush=True)
        await self.press("deal", refused=True)                # no wagers yet
        await self.bet(1, "main", chip("5", 1), chip("5", 2))
        await self.bet(3, "main", chip("25", 1))
        await self.bet(3, "side", chip("5", 3))
        await self.press("deal")
        await self.draw(3)
        await self.draw()                                     # seat 1 hits
        await self.press("stand")
        await self.draw()                                     # seat 3 hits
        await self.press("stand")
        await self.expect("hand.settled")
        await self.collect((1, "main"), (3, "side"))
        await self.press("next")

        print("== Hand 2: a natural, and the dealer busts in three cards ==", flush=True)
        await self.bet(2, "main", chip("5", 4), chip("5", 5))
        await self.bet(2, "side", chip("5", 6), chip("5", 7))
        await self.bet(4, "main", chip("25", 2), chip("25", 3))
        await self.collect((3, "main"))
        await self.press("deal")
        await self.draw(3)
        await self.press("stand")                             # seat 4 stands on 7
        await self.draw(2)                                    # the dealer draws for the side bet
        await self.expect("hand.settled")
        await self.press("next")

        print("== Hand 3: a counterfeit chip, then the dealer's natural ==", flush=True)
        await self.collect((2, "main"), (2, "side"), (4, "main"))
        self.rfid.place(antenna(5, "main"), [COUNTERFEIT])
        await self.expect("alert", code="counterfeit_chip")
        self.rfid.clear(antenna(5, "main"))
        await self.bet(5, "main", chip("100", 1))
        await self.press("deal")
        await self.draw(2)
        await self.press("stand")
        await self.expect("hand.settled")
        await self.press("next")
        await self.press("deal", refused=True)                # the cut card is out: a new shoe first
        print("== Demo complete ==", flush=True)

    async def run(self) -> None:
        """Boards, daemon and subscriber up; the hands; everything closed."""
        await self.shoe.start()
        await self.rfid.start()
        os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
        chips = [(*chip(value, n), "active") for value in CHIPS for n in range(1, 20)]
        config = write_config(self.folder, table="DEMO", chips=chips, game="side_max_bet = 2500")
        daemon = Daemon(load_config(config))
        daemon.renderer = LogRenderer(sys.stdout)
        screen = start_screen(config)
        stop = threading.Event()
        listener = threading.Thread(target=self.subscribe, args=(asyncio.get_running_loop(), stop))
        listener.start()
        table = asyncio.create_task(daemon.run())
        try:
            await self.play()
            if sys.stdin.isatty():
                await asyncio.to_thread(input, "Press Enter to close the table and its screen: ")
        finally:
            screen.terminate()
            screen.wait(10)
            daemon.stopping.set()
            await table
            stop.set()
            listener.join()
            self.pit.close()
            self.pit.context.destroy(linger=0)
            await self.shoe.close()
            await self.rfid.close()


def main() -> int:
    """Run the demo in a fresh temporary folder."""
    with tempfile.TemporaryDirectory(prefix="table-demo-") as folder:
        try:
            asyncio.run(Demo(Path(folder)).run())
        except (DemoError, TimeoutError) as error:
            print(f"demo failed: {error or 'no event in time'}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
