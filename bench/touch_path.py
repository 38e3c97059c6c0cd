"""The path one touch on the dealer screen takes through the daemon: the project's files it crosses,
in order, each with its layer.

A touch of STAND reaches the daemon as the control socket's ``act`` command
(docs/control.md). This script runs the daemon in this process, on simulated
boards over real ptys, deals a hand of Easy Jack up to the player's decision,
and then traces one ``act stand`` from the decoded request to the published
step: every function of ``controller/``, ``drivers/`` and ``firmware_bridge/``
that runs on the way is recorded with ``sys.setprofile``, and the script prints
the files they are in, in the order the touch first reaches each, with the
layer each stands in (the layer contracts of ``[tool.importlinter]`` in
pyproject.toml, docs/architecture.md) and its count of calls. It sets no goal
for the number of files: the path is there to be read (docs/benchmarks.md).

    .venv/bin/python bench/touch_path.py
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import tomllib
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


def contracts() -> list[dict[str, object]]:
    """The layer contracts of pyproject.toml, each with its ``containers`` (none: the root packages)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return [contract for contract in config["contracts"] if contract["type"] == "layers"]


def part_of(module: str, container: str, layers: list[str]) -> str | None:
    """The part of ``container``'s ``layers`` that holds ``module`` (a layer's parts are split by ``|``)."""
    for layer in layers:
        for part in (name.strip() for name in layer.split("|")):
            named = f"{container}.{part}" if container else part
            if module == named or module.startswith(named + "."):
                return named
    return None


def layer_of(path: str, layered: list[dict[str, object]]) -> str:
    """The layers ``path`` stands in, from its root package down: ``controller > daemon > control``."""
    module = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    found: list[str] = []
    container = ""
    while True:
        named = None
        for contract in layered:
            containers = contract.get("containers", [""])
            layers = contract["layers"]
            assert isinstance(containers, list) and isinstance(layers, list)
            if container in containers:
                named = part_of(module, container, layers)
                if named is not None:
                    break
        if named is None:
            return " > ".join(found)
        found.append(named.removeprefix(container + ".") if container else named)
        container = named


def report(title: str, files: Counter[str]) -> None:
    """Print the shipped files in ``files`` in the order the touch reached them, each with its layer
    and its count of calls."""
    shipped = {name: calls for name, calls in files.items() if name.startswith(PACKAGES)}
    layered = contracts()
    width = max(len(name) for name in shipped)
    print(f"{title}, file by file in the order it reaches them:")
    for name, calls in shipped.items():
        print(f"  {name:<{width}}  {layer_of(name, layered):<32} {calls} call{'' if calls == 1 else 's'}")


def main() -> None:
    """Print the files one touch crosses, in order, with the layer of each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        first, later = asyncio.run(traced_touches(Path(folder)))
    report("the first touch (act stand) after start", first)
    report("the same touch a hand later", later)


if __name__ == "__main__":
    main()
