"""Air time of the RFID spot reader's firmware reading stacks of chips, on the PN5180 model (no assertions).

The reference firmware (firmware_bridge/firmware: SpotReader, the ISO 15693 inventory, the PN5180 driver)
reads stacks of simulated tags through the register-level PN5180 model, which counts the air time of
every exchange from ISO/IEC 15693-2 and -3 (firmware_host/air_time.py). Printed for stacks of 1, 5, 20
and 40 chips on one antenna, and for a 6-spot table of 20-chip stacks:

- the first read (every chip's value read with READ SINGLE BLOCK) and a re-read (values known), in
  modeled air time and chips per second;
- the ratio to the ideal: the same read if every response slot held exactly one tag (no empty or
  collided slot; firmware_host/air_time.ideal_us);
- a table's re-read: the air time of its six antennas plus the field switching between them (5.1 ms off,
  1 ms to power the tags up, spot_reader.py).

UIDs are ICODE SLIX-like (E0 04 01 + 40 random bits), a new random set each trial; ``--sequential``
numbers them in a row instead, as chips from one batch may be. Host time (SPI, the Pico's Python) is
not in these figures; the PN5180 commands (SPI frames, not counting the frames that read a reply) of
a re-read are counted, for an estimate of it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics

from firmware_bridge.firmware import spot_reader
from firmware_bridge.firmware.pn5180 import PN5180
from firmware_bridge.firmware.spot_reader import PinLights, SpotReader
from firmware_bridge.firmware_host.air_time import ideal_us
from firmware_bridge.firmware_host.pn5180_model import HostTime, ModelPin, PN5180Model
from firmware_bridge.firmware_host.tags import Tag

SWITCH_US = spot_reader.FIELD_OFF_US + spot_reader.POWER_UP_US


def uids(rng: random.Random, count: int, sequential: bool) -> list[int]:
    """``count`` distinct ICODE-like UIDs."""
    if sequential:
        start = rng.getrandbits(40)
        return [0xE004010000000000 | ((start + i) & ((1 << 40) - 1)) for i in range(count)]
    chosen: set[int] = set()
    while len(chosen) < count:
        chosen.add(0xE004010000000000 | rng.getrandbits(40))
    return sorted(chosen)


def read_table(stacks: list[list[int]], quiet: bool = False) -> tuple[list[float], list[float], list[int]]:
    """Read every antenna twice through the firmware: the air time (us) of each first read and re-read,
    and the PN5180 commands of each re-read."""
    model = PN5180Model(antennas=32 if len(stacks) > 16 else 16)   # past 16: the 32-antenna wiring
    chip = PN5180(model.spi, model.nss, model.busy, model.rst, HostTime())
    antennas = list(range(1, len(stacks) + 1))
    lights = PinLights([ModelPin() for _ in antennas])
    reader = SpotReader(chip, model.select, lights, antennas, interval_ms=1000)
    reader.inventory.quiet = quiet
    reader.slice_us = 10**9                         # a read in one poll: slices change no air time
    for antenna, stack in zip(antennas, stacks, strict=True):
        model.place(antenna, *(Tag(uid, 100 * (1 + uid % 50)) for uid in stack))
    first: list[float] = []
    again: list[float] = []
    frames: list[int] = []
    for now, times in ((0, first), (10_000, again)):
        for step in range(len(antennas)):
            before, frames_before = model.stats.air_us, model.frames
            reader.poll(now + step)
            times.append(model.stats.air_us - before)
            frames.append(model.frames - frames_before)
        reader.take_messages()
    return first, again, frames[len(antennas):]


def stack_figures(size: int, trials: int, sequential: bool, seed: int, quiet: bool = False
                  ) -> dict[str, float]:
    """Mean figures of reading a stack of ``size`` chips on one antenna, over ``trials`` UID sets."""
    rng = random.Random(seed)
    first, again, frames = [], [], []
    for _ in range(trials):
        one, two, spi = read_table([uids(rng, size, sequential)], quiet)
        first.append(one[0])
        again.append(two[0])
        frames.append(spi[0])
    first_us, again_us = statistics.mean(first), statistics.mean(again)
    return {
        "chips": size,
        "first_read_ms": first_us / 1000,
        "first_chips_per_s": size / first_us * 1e6,
        "first_ratio_to_ideal": round(ideal_us(size, values=True) / first_us, 3),
        "reread_ms": again_us / 1000,
        "reread_chips_per_s": size / again_us * 1e6,
        "reread_ratio_to_ideal": round(ideal_us(size, values=False) / again_us, 3),
        "reread_worst_ms": max(again) / 1000,
        "reread_spi_commands": statistics.mean(frames),
    }


def table_figures(spots: int, size: int, trials: int, sequential: bool, seed: int) -> dict[str, float]:
    """Mean figures of reading a table of ``spots`` stacks of ``size`` chips, field switching included."""
    rng = random.Random(seed)
    first, again = [], []
    for _ in range(trials):
        one, two, _frames = read_table([uids(rng, size, sequential) for _ in range(spots)])
        first.append(sum(one) + spots * SWITCH_US)
        again.append(sum(two) + spots * SWITCH_US)
    return {
        "spots": spots,
        "chips": spots * size,
        "first_read_ms": statistics.mean(first) / 1000,
        "reread_ms": statistics.mean(again) / 1000,
        "reread_worst_ms": max(again) / 1000,
        "reread_chips_per_s": spots * size / statistics.mean(again) * 1e6,
    }


def main() -> None:
    """Print the figures (text, or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=30, help="random UID sets per figure (default 30)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 5, 20, 40])
    parser.add_argument("--spots", type=int, default=6)
    parser.add_argument("--spot-chips", type=int, default=20)
    parser.add_argument("--sequential", action="store_true", help="UIDs in a row, not random")
    parser.add_argument("--seed", type=int, default=15693)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    stacks = [stack_figures(size, args.trials, args.sequential, args.seed + size) for size in args.sizes]
    table = table_figures(args.spots, args.spot_chips, args.trials, args.sequential, args.seed)
    quiet = [stack_figures(size, args.trials, args.sequential, args.seed + size, quiet=True)
             for size in args.sizes if size > 1]
    if args.json:
        print(json.dumps({"stacks": stacks, "table": table, "stay_quiet": quiet}, indent=2))
        return
    kind = "sequential" if args.sequential else "random"
    print(f"RFID spot reader, modeled ISO 15693 air time ({args.trials} {kind} UID sets each)")
    print(f"{'chips':>5} {'first read':>11} {'chips/s':>8} {'vs ideal':>8} {'re-read':>9} {'chips/s':>8}"
          f" {'vs ideal':>8} {'worst':>8} {'SPI cmds':>8}")
    for figures in stacks:
        print(row(figures))
    print(f"table of {table['spots']} spots x {args.spot_chips} chips ({table['chips']} chips),"
          f" field switching included: first read {table['first_read_ms']:.0f} ms,"
          f" re-read {table['reread_ms']:.0f} ms (worst {table['reread_worst_ms']:.0f} ms,"
          f" {table['reread_chips_per_s']:.0f} chips/s)")
    print("the same stacks read by 1-slot requests split bit by bit, each tag sent to Stay Quiet (rejected):")
    for figures in quiet:
        print(row(figures))


def row(s: dict[str, float]) -> str:
    """One line of the stacks' table."""
    return (f"{s['chips']:>5} {s['first_read_ms']:>8.1f} ms {s['first_chips_per_s']:>8.0f}"
            f" {s['first_ratio_to_ideal']:>8.2f} {s['reread_ms']:>6.1f} ms {s['reread_chips_per_s']:>8.0f}"
            f" {s['reread_ratio_to_ideal']:>8.2f} {s['reread_worst_ms']:>5.1f} ms"
            f" {s['reread_spi_commands']:>8.0f}")

if __name__ == "__main__":
    main()
