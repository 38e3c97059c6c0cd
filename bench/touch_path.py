"""How many of the project's files one touch on the dealer screen crosses in the daemon.

A touch of STAND reaches the daemon as the control socket's ``act`` command
(docs/control.md). This script runs the daemon in this process, on simulated
boards over real ptys, deals a hand of Easy Jack up to the player's decision,
and then traces one ``act stand`` from the decoded request to the published
step: every function of ``controller/``, ``drivers/`` and ``firmware_bridge/``
that runs on the way is recorded with ``sys.setprofile``, and the script prints
the files they are in, by package, with their count. Fewer files on this path
is a guard rail of the architecture (docs/benchmarks.md keeps the figures); it
is printed, not asserted, as every figure in ``bench/``.

    .venv/bin/python bench/touch_path.py [--list]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from controller.config.loader import load_config
from controller.daemon.loop import Daemon
from controller.devkit.simulated import write_config
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "firmware_bridge")
CARDS = "5h 9d 2c 4s 3d 2h 5c 9s 4d 3c 2d 5s 9h 4h 3s 2s 5d 9c"
"""The shoe's cards, dealt in this order: two hands and their dealer's cards, no card more often than
the decks hold (a seventh 5h of six decks would be an alert on the picture, and a file more on the path)."""


async def until(condition: Callable[[], bool]) -> None:
    """Wait (looking every 10 ms, ten seconds at most) until ``condition()`` holds."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


def tracer(files: Counter[str]) -> Callable[[FrameType, str, object], None]:
    """A ``sys.setprofile`` function counting each call into a file of this tree in ``files``."""
    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            name = frame.f_code.co_filename
            if name.startswith(str(ROOT)):
                files[str(Path(name).relative_to(ROOT))] += 1
    return profile


async def hand_to_stand(daemon: Daemon, shoe: SimulatedBoard) -> None:
    """Deal a hand (the bet already on seat 1) up to the player's decision."""
    await until(lambda: "deal" in daemon.table.live_buttons())
    dealt = await daemon.command({"cmd": "act", "action": "deal"})
    if not dealt.get("ok"):
        raise SystemExit(f"the deal was refused: {dealt}")
    shoe.draw(2)
    await until(lambda: "stand" in daemon.table.live_buttons())


async def traced_touches(folder: Path) -> tuple[Counter[str], Counter[str]]:
    """The project files one ``act stand`` runs code in, each with its count of calls: the first
    touch after start (when the codec first writes some records), and the same touch a hand later
    (what a dealer's touch crosses all shift)."""
    Device.pin_factory = MockFactory()                              # the buttons' pins
    config = write_config(folder, chips=[("00000000000001f4", 500, "active")])
    shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    daemon = Daemon(load_config(config))
    running = asyncio.create_task(daemon.run())
    first: Counter[str] = Counter()
    later: Counter[str] = Counter()
    try:
        await until(lambda: all(d.online for d in daemon.table.state.devices.values()))
        shoe.load_shoe(6, cards=[parse_card(c) for c in CARDS.split()], cut_at=0)
        for files in (first, later):
            rfid.place(1, [("00000000000001f4", 500)])
            await hand_to_stand(daemon, shoe)
            sys.setprofile(tracer(files))
            try:
                reply = await daemon.command({"cmd": "act", "action": "stand"})
            finally:
                sys.setprofile(None)
            if not reply.get("ok"):
                raise SystemExit(f"the touch was refused: {reply}")
            while "next" not in daemon.table.live_buttons():       # the dealer's hand, settled
                shoe.draw(1)
                await asyncio.sleep(0.05)
            rfid.clear(1)                                           # the losing bet collected
            await until(lambda: not any(w.amount for w in daemon.table.live_spots.values()))
            await daemon.command({"cmd": "press", "button": "next"})
        if daemon.table.state.alerts:
            raise SystemExit(f"the hands raised alerts: {daemon.table.state.alerts}")
    finally:
        daemon.stopping.set()
        await running
        await shoe.close()
        await rfid.close()
    return first, later


def report(title: str, files: Counter[str], names: bool) -> None:
    """Print the count of the shipped files in ``files``, by package (and each file when ``names``)."""
    shipped = {name: calls for name, calls in files.items() if name.startswith(PACKAGES)}
    by_package = Counter(name.split("/")[1] if name.startswith("controller/") else name.split("/")[0]
                         for name in shipped)
    print(f"{title} crosses {len(shipped)} files of the project")
    for package, count in sorted(by_package.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {package:<20} {count}")
    if names:
        for name, calls in sorted(shipped.items()):
            print(f"    {name} ({calls} calls)")


def main() -> None:
    """Print the count of files, by package, that one touch crosses (``--list``: and the files)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name every file crossed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first, later = asyncio.run(traced_touches(Path(folder)))
    report("the first touch (act stand) after start", first, args.list)
    report("the same touch a hand later", later, args.list)

if __name__ == "__main__":
    main()
