"""The reference firmware's SpotReader on the PN5180 model, in process: what the reader tests drive.

The reader's messages are decoded with the host's own decoder (firmware_bridge.link.messages), so a
payload the host would refuse fails the test.
"""

from __future__ import annotations

import random

from firmware_bridge.firmware.pn5180 import PN5180
from firmware_bridge.firmware.spot_reader import PinLights, SpotReader
from firmware_bridge.firmware_host.pn5180_model import HostTime, ModelPin, PN5180Model
from firmware_bridge.firmware_host.tags import Tag
from firmware_bridge.link import messages
from firmware_bridge.link.messages import Fault, Inventory


def chips_of(tags: list[Tag]) -> dict[str, int]:
    """The chips ``tags`` are, as an INVENTORY lists them (uid in hex -> value)."""
    return {f"{tag.uid:016x}": tag.value for tag in tags}


def stack(count: int, seed: int = 0, value: int = 500) -> list[Tag]:
    """``count`` tags with distinct random ICODE-like UIDs."""
    rng = random.Random(seed)
    uids: set[int] = set()
    while len(uids) < count:
        uids.add(0xE004010000000000 | rng.getrandbits(40))
    return [Tag(uid, value + i) for i, uid in enumerate(sorted(uids))]


class ReaderRig:
    """A reader of ``antennas`` with the model behind it; ``now_ms`` is the board core's clock."""

    def __init__(self, antennas: list[int], interval_ms: int = 0, wired: int = 16) -> None:
        """``wired``: the antennas the multiplexer has (16 on 4 select pins, 32 on 5)."""
        self.model = PN5180Model(antennas=wired)
        self.chip = PN5180(self.model.spi, self.model.nss, self.model.busy, self.model.rst, HostTime())
        self.lights = [ModelPin() for _ in range(16)]
        self.reader = SpotReader(self.chip, self.model.select, PinLights(self.lights), antennas, interval_ms)
        self.reader.slice_us = 10**9
        """A read in one poll however slow the machine (a test of slices sets its own)."""
        self.now_ms = 0
        self.sent: list[Inventory | Fault] = []

    def poll(self, times: int = 1, step_ms: int = 1) -> list[Inventory | Fault]:
        """Poll ``times``, ``step_ms`` apart; the messages produced, decoded (also kept in ``sent``)."""
        out: list[Inventory | Fault] = []
        for _ in range(times):
            self.reader.poll(self.now_ms)
            self.now_ms += step_ms
            for msg_type, payload in self.reader.take_messages():
                message = messages.unpack(msg_type, payload)
                assert isinstance(message, Inventory | Fault), message
                out.append(message)
        self.sent += out
        return out

    def read_all(self) -> list[Inventory | Fault]:
        """Poll until every antenna was read once more (and any rescans it asked for are done)."""
        out = self.poll(len(self.reader.antennas))
        for _ in range(20):
            if not self.reader._urgent:
                break
            out += self.poll()
        return out

    def latest(self, antenna: int) -> dict[str, int] | None:
        """The chips of the last INVENTORY sent for ``antenna`` (None if none was)."""
        for message in reversed(self.sent):
            if isinstance(message, Inventory) and message.antenna == antenna:
                return {chip.uid: chip.value for chip in message.chips}
        return None

    def faults(self) -> list[Fault]:
        """Every FAULT sent so far."""
        return [message for message in self.sent if isinstance(message, Fault)]
