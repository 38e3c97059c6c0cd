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
from controller.daemon import Daemon
from controller.devkit.simulated import write_config
from firmware_bridge.simulator.board import SimulatedBoard
from firmware_bridge.simulator.models import parse_card

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("controller", "drivers", "firmware_bridge")


async def until(condition: Callable[[], bool]) -> None:
    """Wait (looking every 10 ms, ten seconds at most) until ``condition()`` holds."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


async def traced_touch(folder: Path) -> Counter[str]:
    """The project files one ``act stand`` runs code in, each with its count of calls."""
    Device.pin_factory = MockFactory()                              # the buttons' pins
    config = write_config(folder, chips=[("00000000000001f4", 500, "active")])
    shoe = SimulatedBoard("shoe", link=folder / "shoe", rng=random.Random(1))
    rfid = SimulatedBoard("rfid", link=folder / "rfid", rng=random.Random(2))
    await shoe.start()
    await rfid.start()
    daemon = Daemon(load_config(config))
    running = asyncio.create_task(daemon.run())
    files: Counter[str] = Counter()
    try:
        await until(lambda: all(d.online for d in daemon.table.state.devices.values()))
        shoe.load_shoe(6, cards=[parse_card(c) for c in ("5h", "9d", "2c")], cut_at=0)
        rfid.place(1, [("00000000000001f4", 500)])
        await until(lambda: "deal" in daemon.table.live_buttons())
        dealt = await daemon.command({"cmd": "act", "action": "deal"})
        if not dealt.get("ok"):
            raise SystemExit(f"the deal was refused: {dealt}")
        shoe.draw(2)
        await until(lambda: "stand" in daemon.table.live_buttons())

        def profile(frame: FrameType, event: str, arg: object) -> None:
            if event == "call":
                name = frame.f_code.co_filename
                if name.startswith(str(ROOT)):
                    files[str(Path(name).relative_to(ROOT))] += 1

        sys.setprofile(profile)
        try:
            reply = await daemon.command({"cmd": "act", "action": "stand"})
        finally:
            sys.setprofile(None)
        if not reply.get("ok"):
            raise SystemExit(f"the touch was refused: {reply}")
    finally:
        daemon.stopping.set()
        await running
        await shoe.close()
        await rfid.close()
    return files


def main() -> None:
    """Print the count of files, by package, that one touch crosses (``--list``: and the files)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name every file crossed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = asyncio.run(traced_touch(Path(folder)))
    shipped = {name: calls for name, calls in files.items() if name.startswith(PACKAGES)}
    by_package = Counter(name.split("/")[1] if name.startswith("controller/") else name.split("/")[0]
                         for name in shipped)
    print(f"one touch (act stand) in the daemon crosses {len(shipped)} files of the project")
    for package, count in sorted(by_package.items(), key=lambda item: (-item[1], item[0])):
        print(f"  {package:<20} {count}")
    if args.list:
        for name, calls in sorted(shipped.items()):
            print(f"    {name} ({calls} calls)")


if __name__ == "__main__":
    main()
