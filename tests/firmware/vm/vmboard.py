"""The board inside MicroPython's WebAssembly VM (vm.mjs): the firmware's ``main.build`` on the fake hardware.

This file runs on MicroPython (in the VM the firmware's files sit flat beside it, as on a Pico, and the
fakes ``firmware_bridge.firmware_host.machine_fake``, ``pn5180_model`` and ``tags`` are a package beside
them). vm.mjs calls three functions: :func:`start` (a boot), :func:`step` (one poll of the board core
with the link's bytes in and out, as main.py's loop does) and :func:`command` (the physical world: chips
on a spot, a marked card through the shoe, the heap). Under CPython (pytest imports every file) it only
imports.

The chips a test places are a :class:`PackedTags` field: a whole table's 1,600 ``tags.Tag`` objects
would not fit a Pico's heap beside the firmware (about 150 bytes each), so the fake world keeps a tag
in 13 bytes and makes a ``Tag`` of it (:class:`PackedTag`) only while the PN5180 model talks to it.
"""

import binascii
import gc
import io
import json
import struct
import sys

IDLE_MS = 10
SPOT = 0x30
GROWTH = 128 * 1024 * 1024 if sys.platform == "webassembly" else 0
"""What ``gc.mem_free`` adds on the WebAssembly port (MICROPY_GC_SPLIT_HEAP_AUTO: the largest new area);
nothing on the unix port, whose heap is fixed."""

_state = {}
STATES = ("ready", "quiet", "selected")
"""tags.READY, QUIET, SELECTED, as the byte a :class:`PackedTags` keeps."""


class PackedTags:
    """The plain tags (no faults) in one antenna's field, in three buffers: UIDs, values and states.
    Iterating gives a :class:`PackedTag` of each in turn, which is what the PN5180 model uses."""

    def __init__(self, chips):
        count = len(chips)
        self.uids = bytearray(8 * count)
        self.values = bytearray(4 * count)
        self.states = bytearray(count)
        for i, (uid, value) in enumerate(chips):
            self.uids[8 * i : 8 * i + 8] = uid.to_bytes(8, "big")
            self.values[4 * i : 4 * i + 4] = value.to_bytes(4, "little")

    def __len__(self):
        return len(self.states)

    def __iter__(self):
        for i in range(len(self.states)):
            yield PackedTag(self, i)


def _packed_tag():
    from firmware_bridge.firmware_host.tags import Tag

    class PackedTag(Tag):
        """Tag ``index`` of a :class:`PackedTags`: tags.Tag's answers, on the field's buffers."""

        bad_crc = False
        answer_every = 1

        def __init__(self, field, index):
            self.field = field
            self.index = index
            self._requests = 0

        @property
        def uid(self):
            return int.from_bytes(bytes(self.field.uids[8 * self.index : 8 * self.index + 8]), "big")

        @property
        def blocks(self):
            return [bytes(self.field.values[4 * self.index : 4 * self.index + 4])]

        @property
        def state(self):
            return STATES[self.field.states[self.index]]

        @state.setter
        def state(self, value):
            self.field.states[self.index] = STATES.index(value)

    return PackedTag


PackedTag = None
"""tags.Tag's subclass on a :class:`PackedTags` (made at the first boot: tags imports only in the VM)."""


def traced(function):
    """``function``, its exceptions raised again with their traceback as the text (vm.mjs prints it)."""
    def call(*args):
        try:
            return function(*args)
        except Exception as error:
            text = io.StringIO()
            sys.print_exception(error, text)
            raise RuntimeError(text.getvalue()) from None
    return call


def heap():
    """The heap after a collection: bytes allocated, free, and the heap's size (its areas' total)."""
    gc.collect()
    alloc, free = gc.mem_alloc(), gc.mem_free() - GROWTH
    return {"alloc": alloc, "free": free, "size": alloc + free}


class VirtualTime:
    """The PN5180 driver's ``time``: MicroPython's clock plus every wait skipped (the model answers at
    once)."""

    def __init__(self, time):
        self.time = time
        self.skipped_us = 0

    def ticks_us(self):
        return self.time.ticks_us() + self.skipped_us

    def ticks_ms(self):
        return self.ticks_us() // 1000

    def ticks_diff(self, a, b):
        return a - b

    def sleep_us(self, us):
        self.skipped_us += max(0, us)

    def sleep_ms(self, ms):
        self.sleep_us(ms * 1000)


class Port:
    """The USB serial port as the board core sees it: what vm.mjs handed in, and what goes out."""

    def __init__(self):
        self.incoming = b""
        self.out = bytearray()

    def read(self):
        data, self.incoming = self.incoming, b""
        return data

    def write(self, data):
        self.out.extend(data)


@traced
def start(config_text, cause):
    """Boot the board of ``config_text`` (board.json); ``cause`` 1 power-on, 3 watchdog."""
    import time

    import main

    from firmware_bridge.firmware_host.machine_fake import FakeMachine

    config = json.loads(config_text)
    levels = {}
    machine = FakeMachine(levels, cause)
    pins = config["pins"]
    model = None
    if config["kind"] == "rfid":
        from firmware_bridge.firmware_host.pn5180_model import PN5180Model

        model = PN5180Model(antennas=1 << len(pins["select"]))
        machine.spi = model.spi
        devices = {pins["nss"]: model.nss, pins["busy"]: model.busy, pins["rst"]: model.rst}
        for i, number in enumerate(pins["select"]):
            devices[number] = model.select[i]
        machine.devices = devices
    else:
        levels[pins["beam"]] = 1 - config.get("beam_blocked_level", 0)
        levels[pins["load"]] = 1
    clock = main.Clock(time)
    port = Port()
    scratch = [0, 0, 0, 0]
    core = main.build(config, machine, port, clock.now(), scratch, "shoe_ids.txt",
                      time=VirtualTime(time))
    global PackedTag
    if PackedTag is None:
        PackedTag = _packed_tag()
    _state.update(config=config, machine=machine, model=model, clock=clock, port=port, core=core,
                  actions=[], polls=0, boot_heap=heap())
    _state["most"] = _state["boot_heap"]["size"]


def _act(now):
    actions = _state["actions"]
    while actions and now - actions[0][0] >= 0:
        _, pin, level, data = actions.pop(0)
        machine = _state["machine"]
        if data is not None:
            machine.uarts[_state["config"].get("scanner_uart", 0)].receive(data)
        else:
            machine.drive(pin, level)


def _poll(now):
    _act(now)
    deadline = _state["core"].poll(now)
    _state["polls"] += 1
    model = _state["model"]
    if model is not None:
        del model.stats.field_off_gaps_s[:]       # the model's own record, one float a read: not the board's
    return deadline


@traced
def live():
    """Keep the most the heap has held live (after a collection; vm.mjs calls it every 100 polls, and
    every 100 steps with a host)."""
    gc.collect()
    _state["live"] = max(_state.get("live", 0), gc.mem_alloc())


def _measure():
    """Keep the largest the heap has been."""
    size = gc.mem_alloc() + gc.mem_free() - GROWTH
    if size > _state["most"]:
        _state["most"] = size


@traced
def step(hex_in):
    """One poll with the bytes the host sent (hex): the bytes to send (hex), a space, and the ms to wait."""
    clock, port = _state["clock"], _state["port"]
    port.incoming = bytes.fromhex(hex_in)
    now = clock.now()
    deadline = _poll(now)
    wait = IDLE_MS if deadline is None else min(IDLE_MS, max(0, deadline - clock.now()))
    if _state["actions"]:
        wait = min(wait, max(0, _state["actions"][0][0] - clock.now()))
    _measure()
    out = binascii.hexlify(port.out).decode()   # MicroPython: b"".hex() is b"", not ""
    port.out = bytearray()
    return out + " " + str(wait)


@traced
def poll_alone():
    """One poll with no host (vm.mjs's ``polls`` calls it, a call each: garbage made during one call from
    JavaScript can stay on the port's heap until it returns; :func:`live`, a call of its own, measures)."""
    port = _state["port"]
    port.incoming = b""
    _poll(_state["clock"].now())
    port.out = bytearray()
    _measure()


@traced
def command(text):
    """A command of the physical world (JSON); the answer (JSON)."""
    request = json.loads(text)
    name = request["cmd"]
    now = _state["clock"].now()
    if name == "place":
        field = PackedTags([(int(uid, 16), value) for uid, value in request["chips"]])
        _state["model"].fields[request["antenna"]] = field
        return json.dumps({"count": len(field)})
    if name == "load":
        load = _state["config"]["pins"]["load"]
        _state["actions"] += [(now, load, 0, None), (now + 100, load, 1, None)]
        return "{}"
    if name == "draw":
        beam = _state["config"]["pins"]["beam"]
        blocked = _state["config"].get("beam_blocked_level", 0)
        line = (request["code"] + "\r\n").encode()
        _state["actions"] += [(now, 0, 0, line), (now + 30, beam, blocked, None),
                              (now + 130, beam, 1 - blocked, None)]
        return "{}"
    if name == "heap":
        return json.dumps({"boot": _state["boot_heap"], "now": heap(), "most": _state["most"],
                           "live": _state.get("live", 0), "polls": _state["polls"]})
    if name == "status":
        core = _state["core"]
        flags = struct.unpack("<H", struct.pack("<H", core.app.status_flags()))[0]
        return json.dumps({"in_session": core.link.in_session, "flags": flags, "lost": core.lost,
                           "memory_errors": core.memory_errors})
    raise ValueError("unknown command " + name)
