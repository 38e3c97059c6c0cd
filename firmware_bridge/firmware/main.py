"""The Pico's entry point: the board's config, its ``machine`` objects, USB serial and the poll loop.

On the board MicroPython runs this file at boot: :func:`run` first waits
:data:`SERVICE_WINDOW_MS` for the BOOTSEL button (pressed: service mode, the
firmware does not start and the REPL stays free for ``firmware-bridge flash``),
then reads ``board.json`` (see docs/boards.md), builds the board with
:func:`build`, turns off the REPL's Ctrl-C on USB (the link's bytes are
binary; so ``mpremote`` cannot stop a running board, hence the service mode),
starts the watchdog (which nothing can stop), and loops: one :meth:`board.Board.poll` slice, then wait for USB
input until the board's next deadline (at most :data:`IDLE_MS`: pin edges and
scanner bytes wait for the next slice). Only this file touches ``machine``;
the host's runner calls :func:`build` with fakes of it.

``time.ticks_ms`` wraps (at 2**30 ms on the rp2 port); :class:`Clock` unwraps
it into an int of ms that only grows (past 2**30, 12.4 days, a long int).
"""

import board

TYPE_CHECKING = False
if TYPE_CHECKING:  # for the type checker only: each board has only its own application's files
    import flashstore
    import shoe
    import spot_reader

VERSION = "1.0.0"
IDLE_MS = 10
SERVICE_WINDOW_MS = 1000
WATCHDOG_MS = 2000
WATCHDOG_SCRATCH = 0x4005800C
"""WATCHDOG_BASE + SCRATCH0: scratch registers 0 to 3 are free (the SDK uses 4 to 7)."""
CONFIG = "board.json"
SHOE_IDS = "shoe_ids.txt"
READ_MAX = 512


class Scratch:
    """The RP2040 watchdog's scratch registers 0 to 3 as a list of 32-bit words (kept across a reset)."""

    def __init__(self, machine) -> None:
        self.mem32 = machine.mem32

    def __getitem__(self, i: int) -> int:
        return int(self.mem32[WATCHDOG_SCRATCH + 4 * i]) & 0xFFFFFFFF

    def __setitem__(self, i: int, value: int) -> None:
        self.mem32[WATCHDOG_SCRATCH + 4 * i] = value


class UsbPort:
    """The USB CDC serial port: what ``stdin`` has (never blocking), and writes to ``stdout``."""

    def __init__(self, stdin, stdout, poller) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.poller = poller

    def read(self) -> bytes:
        """What the host has sent, up to READ_MAX bytes, without waiting."""
        data = bytearray()
        while len(data) < READ_MAX and self.poller.poll(0):
            data.extend(self.stdin.read(1))
        return bytes(data)

    def write(self, data: "bytes | memoryview") -> None:
        """Send to the host."""
        self.stdout.write(data)


class Clock:
    """``time.ticks_ms`` unwrapped into milliseconds that only grow."""

    def __init__(self, time) -> None:
        self.time = time
        self.last = time.ticks_ms()
        self.ms = 0

    def now(self) -> int:
        """Milliseconds since the clock was made."""
        ticks = self.time.ticks_ms()
        self.ms += self.time.ticks_diff(ticks, self.last)
        self.last = ticks
        return self.ms


def firmware_name(kind: str) -> str:
    """The firmware string in HELLO: ``ref-shoe-1.0.0``."""
    return f"ref-{kind}-{VERSION}"


def build_shoe(config: dict, machine, ids_path: str,
               scratch: "flashstore.Words") -> "shoe.ShoeApp":
    """The shoe application on the pins of ``config`` (docs/boards.md)."""
    import flashstore
    import shoe

    pins = config["pins"]
    scanner = machine.UART(config.get("scanner_uart", 0), baudrate=config.get("scanner_baud", 9600),
                           tx=machine.Pin(pins["scanner_tx"]), rx=machine.Pin(pins["scanner_rx"]))
    beam = machine.Pin(pins["beam"], machine.Pin.IN, machine.Pin.PULL_UP)
    load = machine.Pin(pins["load"], machine.Pin.IN, machine.Pin.PULL_UP)
    return shoe.ShoeApp(scanner, beam, load, flashstore.ShoeIds(ids_path), flashstore.ShoeMemory(scratch),
                        config.get("decks", 6), machine.Pin.IRQ_RISING | machine.Pin.IRQ_FALLING,
                        machine.Pin.IRQ_FALLING, config.get("beam_blocked_level", 0))


def build_rfid(config: dict, machine, time) -> "spot_reader.SpotReader":
    """The RFID spot reader on the pins of ``config`` (docs/boards.md); ``time`` for the PN5180's waits."""
    import pn5180
    import spot_reader

    pins = config["pins"]
    pin = machine.Pin
    spi = machine.SPI(config.get("spi", 0), baudrate=config.get("spi_baud", 7000000), polarity=0, phase=0,
                      sck=pin(pins["sck"]), mosi=pin(pins["mosi"]), miso=pin(pins["miso"]))
    chip = pn5180.PN5180(spi, pin(pins["nss"], pin.OUT, value=1), pin(pins["busy"], pin.IN),
                         pin(pins["rst"], pin.OUT, value=1), time)
    select = [pin(n, pin.OUT, value=0) for n in pins["select"]]
    chain = pins.get("light_chain")
    lights: spot_reader.PinLights | spot_reader.ShiftLights
    if chain is not None:
        data, clock, latch = (pin(chain[name], pin.OUT, value=0) for name in ("data", "clock", "latch"))
        lights = spot_reader.ShiftLights(data, clock, latch, chain.get("count", 32))
    else:
        lights = spot_reader.PinLights([pin(n, pin.OUT, value=0) for n in pins["lights"]])
    return spot_reader.SpotReader(chip, select, lights, config["antennas"])


def build(config: dict, machine, port: "board.Port", now_ms: int, scratch: "flashstore.Words",
          ids_path: str = SHOE_IDS, watchdog: bool = True, time=None) -> "board.Board":
    """The board of ``config`` (``kind`` shoe or rfid) on ``port``; FAULT 5 first if the watchdog reset it."""
    kind = config["kind"]
    app: board.App
    if kind == "shoe":
        app = build_shoe(config, machine, ids_path, scratch)
    elif kind == "rfid":
        app = build_rfid(config, machine, time)
    else:
        raise ValueError(f"board kind {kind}: not shoe or rfid")
    faults = []
    if machine.reset_cause() == machine.WDT_RESET:
        faults.append((board.FAULT_WATCHDOG, "watchdog reset"))
    wdt = machine.WDT(timeout=WATCHDOG_MS) if watchdog else None
    firmware = config.get("firmware") or firmware_name(kind)
    return board.Board(app, port, firmware, config["serial"], now_ms, wdt, 100, faults)


def service_requested(rp2, time) -> bool:
    """Whether BOOTSEL is pressed within SERVICE_WINDOW_MS of the start (watched every 10 ms)."""
    start = time.ticks_ms()
    while time.ticks_diff(time.ticks_ms(), start) < SERVICE_WINDOW_MS:
        if rp2.bootsel_button():
            return True
        time.sleep_ms(10)
    return False


def run() -> None:
    """The board's life: build it from ``board.json`` and poll it forever (unless in service mode)."""
    import json
    import select
    import sys
    import time

    import machine
    import micropython
    import rp2

    if service_requested(rp2, time):
        print("service mode: the firmware is not running; the REPL is free")
        return
    micropython.kbd_intr(-1)
    with open(CONFIG) as file:
        config = json.load(file)
    clock = Clock(time)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    port = UsbPort(sys.stdin.buffer, sys.stdout.buffer, poller)
    core = build(config, machine, port, clock.now(), Scratch(machine), time=time)
    while True:
        deadline = core.poll(clock.now())
        wait = IDLE_MS if deadline is None else min(IDLE_MS, max(0, deadline - clock.now()))
        poller.poll(wait)


if __name__ == "__main__":
    run()
