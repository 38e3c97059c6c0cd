"""The physical side of the reference RFID spot reader: a PN5180 (the register-level model) with chips'
tags in the fields of its antennas, and the spot lights.

:class:`RfidWorld` wires the model into a
:class:`~firmware_bridge.firmware_host.machine_fake.FakeMachine` (its SPI bus and its NSS, BUSY, RST and
multiplexer select pins, and the lights' shift registers on a 32-antenna board, on the pin numbers of
the board's config) and keeps what is on each spot. Commands put tags in an antenna's field or take them
out, never touch the firmware; :meth:`RfidWorld.settled` says whether the firmware's last INVENTORY of
an antenna lists exactly what is on it (what the runner waits for). The PN5180 driver's microsecond
waits run on :class:`VirtualTime`, which skips them: the model answers at once. The model and its tags
are ``firmware_bridge.firmware_host.pn5180_model`` and ``tags``, the RFID reader's own host parts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from firmware_bridge.firmware_host.machine_fake import FakeMachine
from firmware_bridge.firmware_host.pn5180_model import ModelPin, PN5180Model
from firmware_bridge.firmware_host.tags import Tag
from firmware_bridge.kernel.json import JsonObject, int_at, ints_at, object_at
from firmware_bridge.link.messages import Inventory, unpack

if TYPE_CHECKING:
    from firmware_bridge.firmware_host.machine_fake import DevicePin

INVENTORY = 0x30


class VirtualTime:
    """MicroPython's ``time`` for the PN5180 driver: the host's clock in µs, and ``sleep_us`` that skips
    ahead instead of sleeping."""

    def __init__(self) -> None:
        self.skipped_us = 0

    def ticks_us(self) -> int:
        """Microseconds, the host's monotonic clock plus every wait skipped."""
        return time.perf_counter_ns() // 1000 + self.skipped_us

    def ticks_ms(self) -> int:
        """Milliseconds of the same clock."""
        return self.ticks_us() // 1000

    @staticmethod
    def ticks_diff(a: int, b: int) -> int:
        """``a - b`` (these ticks do not wrap)."""
        return a - b

    def sleep_us(self, us: int) -> None:
        """The wait passes at once."""
        self.skipped_us += max(0, us)

    def sleep_ms(self, ms: int) -> None:
        """The wait passes at once."""
        self.sleep_us(ms * 1000)


class ShiftChain:
    """The chain of power shift registers (TPIC6B595) of the 32-antenna reader's spot lights: ``data``,
    ``clock`` and ``latch`` pins; a rising clock shifts ``data`` into output 0 of the first register (the
    others move one along the chain), a rising latch shows what was shifted. Its outputs outlive a reboot
    of the board (the firmware darkens them when it starts)."""

    def __init__(self, count: int) -> None:
        self.shifted = [0] * count
        self.outputs = 0
        """The lit outputs as a mask (bit n: output n, the light of antenna n + 1)."""
        self.data = ModelPin()
        self.clock = ModelPin(0, self._on_clock)
        self.latch = ModelPin(0, self._on_latch)

    def _on_clock(self, level: int) -> None:
        if level:
            self.shifted = [self.data.level, *self.shifted[:-1]]

    def _on_latch(self, level: int) -> None:
        if level:
            self.outputs = sum(bit << n for n, bit in enumerate(self.shifted))


class ReaderApp(Protocol):
    """What the board core uses of the firmware's reader application (spot_reader.SpotReader)."""

    kind: int
    snapshot_types: tuple[int, ...]

    def poll(self, now_ms: int) -> None:
        """Run the reader."""

    def take_messages(self) -> list[tuple[int, bytes]]:
        """The messages to send, taken."""

    def snapshot(self) -> list[tuple[int, bytes]]:
        """The messages that say everything (at a session's start)."""

    def status_flags(self) -> int:
        """The STATUS flags."""

    def on_spot_lights(self, mask: int) -> None:
        """The host's SPOT_LIGHTS."""

    def next_deadline_ms(self, now_ms: int) -> int | None:
        """When to poll again at the latest."""


class WatchedApp:
    """The reader's application as the board core sees it, telling ``on_inventory`` each INVENTORY."""

    def __init__(self, app: ReaderApp, on_inventory: Callable[[Inventory], None]) -> None:
        self.app = app
        self.kind = app.kind
        self.snapshot_types: tuple[int, ...] = app.snapshot_types
        self.on_inventory = on_inventory

    def poll(self, now_ms: int) -> None:
        self.app.poll(now_ms)

    def take_messages(self) -> list[tuple[int, bytes]]:
        out = self.app.take_messages()
        for msg_type, payload in out:
            if msg_type == INVENTORY:
                inventory = unpack(msg_type, payload)
                assert isinstance(inventory, Inventory)
                self.on_inventory(inventory)
        return out

    def snapshot(self) -> list[tuple[int, bytes]]:
        return list(self.app.snapshot())

    def status_flags(self) -> int:
        return int(self.app.status_flags())

    def on_spot_lights(self, mask: int) -> None:
        self.app.on_spot_lights(mask)

    def next_deadline_ms(self, now_ms: int) -> int | None:
        return self.app.next_deadline_ms(now_ms)


@dataclass(frozen=True)
class ChainPins:
    """The pins of the lights' shift registers (a 32-antenna board), and how many outputs they have."""

    data: int
    clock: int
    latch: int
    count: int = 32


@dataclass(frozen=True)
class RfidPins:
    """The reader's pins in its ``board.json`` (docs/boards.md): the PN5180's, the antenna multiplexer's
    ``select``, and the lights (a pin each, or the ``chain`` of shift registers of a 32-antenna board)."""

    nss: int
    busy: int
    rst: int
    select: tuple[int, ...]
    lights: tuple[int, ...]
    chain: ChainPins | None
    """The lights' shift registers, or None (a pin a light)."""

    @classmethod
    def from_json(cls, pins: JsonObject) -> RfidPins:
        """Decode the ``pins`` object; raises ``ValueError`` naming a missing or mistyped pin."""
        chain = None
        if pins.get("light_chain") is not None:
            found = object_at(pins, "light_chain")
            chain = ChainPins(int_at(found, "data"), int_at(found, "clock"), int_at(found, "latch"),
                              int_at(found, "count", 32))
        return cls(int_at(pins, "nss"), int_at(pins, "busy"), int_at(pins, "rst"),
                   tuple(ints_at(pins, "select")), tuple(ints_at(pins, "lights")) if "lights" in pins else (),
                   chain)


class RfidWorld:
    """The PN5180 model, the tags on each antenna, and the lights, for the board of ``config``."""

    def __init__(self, config: JsonObject) -> None:
        self.pins = RfidPins.from_json(object_at(config, "pins"))
        self.model = PN5180Model(antennas=1 << len(self.pins.select))
        chain = self.pins.chain
        self.chain = None if chain is None else ShiftChain(chain.count)
        """The lights' shift registers (a 32-antenna board), or None (a GPIO a light)."""
        self.antennas: list[int] = ints_at(config, "antennas")
        self.levels: dict[int, int] = {}
        """The GPIO levels (the lights), kept across the board's reboots."""
        self.chips: dict[int, dict[str, int]] = {}
        """What is on each spot: uid (16 hex digits) -> value in cents."""
        self.reported: dict[int, dict[str, int]] = {}
        """The chips of the firmware's last INVENTORY of each antenna."""
        self.time = VirtualTime()

    def attach(self, machine: FakeMachine) -> None:
        """The board (re)booted with this machine: the PN5180 is on its SPI bus and pins."""
        machine.spi = self.model.spi
        devices: dict[int, DevicePin] = {self.pins.nss: self.model.nss, self.pins.busy: self.model.busy,
                                         self.pins.rst: self.model.rst}
        for select, pin in zip(self.pins.select, self.model.select, strict=True):
            devices[select] = pin
        if self.chain is not None and self.pins.chain is not None:
            chain = self.pins.chain
            devices.update({chain.data: self.chain.data, chain.clock: self.chain.clock,
                            chain.latch: self.chain.latch})
        machine.devices = devices

    def watch(self, app: ReaderApp) -> WatchedApp:
        """The application, watched for what it reports."""
        return WatchedApp(app, self._reported)

    def _reported(self, inventory: Inventory) -> None:
        self.reported[inventory.antenna] = {chip.uid: chip.value for chip in inventory.chips}

    def _antenna(self, antenna: int) -> list[Tag]:
        if antenna not in self.antennas:
            raise ValueError(f"antenna {antenna}: this board reads antennas {self.antennas}")
        return self.model.fields[antenna]

    def place(self, antenna: int, chips: list[tuple[str, int]]) -> None:
        """Put chips (uid in hex, value in cents) in ``antenna``'s field; a uid already there is replaced."""
        field = self._antenna(antenna)
        tags = [Tag(int(uid, 16), value) for uid, value in chips]
        uids = {tag.uid for tag in tags}
        field[:] = [tag for tag in field if tag.uid not in uids] + tags
        self.chips[antenna] = {f"{tag.uid:016x}": tag.value for tag in field}

    def remove(self, antenna: int, uids: list[str]) -> None:
        """Take the chips with these uids out of ``antenna``'s field."""
        gone = {int(uid, 16) for uid in uids}
        field = self._antenna(antenna)
        field[:] = [tag for tag in field if tag.uid not in gone]
        self.chips[antenna] = {f"{tag.uid:016x}": tag.value for tag in field}

    def clear(self, antenna: int) -> None:
        """Take every chip out of ``antenna``'s field."""
        self._antenna(antenna).clear()
        self.chips[antenna] = {}

    def settled(self, antenna: int) -> bool:
        """Whether the firmware's last INVENTORY of ``antenna`` lists what is on it."""
        return self.reported.get(antenna, {}) == self.chips.get(antenna, {})

    def spot_lights(self) -> int:
        """The lit spots as a mask (bit n-1: the light of antenna n)."""
        if self.chain is not None:
            return self.chain.outputs
        return sum(1 << n for n, pin in enumerate(self.pins.lights) if self.levels.get(pin))
