"""Driver for an NXP PN5180 NFC front end on SPI, with its BUSY and RST lines (MicroPython and CPython).

The host interface (PN5180 datasheet, section 11.4 "Host interface"): every instruction is one SPI
frame, first byte the command, and a reply is read in a second frame. The BUSY handshake around each
frame: wait for BUSY low, pull NSS low, clock the frame, wait for BUSY high, release NSS, wait for BUSY
low (the order ATrappmann/PN5180-Library's ``transceiveCommand`` uses). Every wait has a deadline, so a
PN5180 that stops answering (BUSY stuck) raises ``PN5180Error`` instead of hanging the board; the
line or register is looked at once more after the deadline, so that code held up past it (an
interrupt, or a busy host in the tests) is not taken for a silent chip.

Register addresses and bits are those of NXP's PN5180 register map (as in NXP's NFC Reader Library
``phhalHw_Pn5180_Reg.h`` and bofh69/PN5180-tagomatic's ``constants.py``). RF configuration 0x0D/0x8D is
ISO 15693 at 26 kbit/s, ASK 100 % (jef-sure/esp32-component-pn5180, ``pn5180-15693.c``).
"""

TYPE_CHECKING = False
if TYPE_CHECKING:
    from machine import SPI, Pin

CMD_WRITE_REGISTER = 0x00
CMD_WRITE_REGISTER_OR_MASK = 0x01
CMD_WRITE_REGISTER_AND_MASK = 0x02
CMD_READ_REGISTER = 0x04
CMD_SEND_DATA = 0x09
CMD_READ_DATA = 0x0A
CMD_LOAD_RF_CONFIG = 0x11
CMD_RF_ON = 0x16
CMD_RF_OFF = 0x17

REG_SYSTEM_CONFIG = 0x00
REG_IRQ_ENABLE = 0x01
REG_IRQ_STATUS = 0x02
REG_IRQ_CLEAR = 0x03
REG_TIMER1_RELOAD = 0x0C
REG_TIMER1_CONFIG = 0x0F
REG_CRC_RX_CONFIG = 0x12
REG_RX_STATUS = 0x13
REG_TX_CONFIG = 0x18
REG_CRC_TX_CONFIG = 0x19

IRQ_RX = 1 << 0
IRQ_TX = 1 << 1
IRQ_IDLE = 1 << 2
IRQ_TX_RFOFF = 1 << 8
IRQ_TX_RFON = 1 << 9
IRQ_TIMER1 = 1 << 12
IRQ_RX_SOF = 1 << 14
IRQ_GENERAL_ERROR = 1 << 17
IRQ_ALL = 0x000FFFFF

RX_BYTES_MASK = 0x1FF
RX_INTEGRITY_ERROR = 1 << 16
RX_PROTOCOL_ERROR = 1 << 17
RX_COLLISION = 1 << 18

SYSTEM_COMMAND_MASK = 0x7              # SYSTEM_CONFIG bits 2:0: 0 idle, 3 transceive
COMMAND_TRANSCEIVE = 0x3
TX_SYMBOLS_ONLY = 0xFFFFFB3F           # TX_CONFIG & this: no data nor start symbol: SEND_DATA sends an EOF
TIMER1_ENABLE = 1 << 0
TIMER1_START_ON_TX_ENDED = 1 << 11
TIMER1_STOP_ON_RX_STARTED = 1 << 20
RF_ISO15693_26K_TX = 0x0D
RF_ISO15693_26K_RX = 0x8D

IRQ_MARKER = IRQ_RX | IRQ_TX | IRQ_IDLE | IRQ_TIMER1 | IRQ_GENERAL_ERROR
"""Written to IRQ_ENABLE at start-up (reset value 0): a PN5180 that restarted on its own reads 0 there."""

NO_RESPONSE_US = 500
"""Timer 1's wait for a tag's first bit after the request ends: t1 max 323.3 us + the SOF + margin."""
BUSY_TIMEOUT_US = 20_000
IRQ_TIMEOUT_US = 30_000
RESET_PULSE_US = 100


class PN5180Error(Exception):
    """The PN5180 did not answer in time (BUSY stuck, no interrupt): it needs a reset."""


class PN5180:
    """One PN5180 on ``spi`` with chip select ``nss``, the ``busy`` input and the ``rst`` output; ``time``
    is MicroPython's ``time`` module (``ticks_us``, ``ticks_diff``, ``sleep_us``) or a stand-in of it."""

    def __init__(self, spi: "SPI", nss: "Pin", busy: "Pin", rst: "Pin", time) -> None:
        self.spi = spi
        self.time = time
        self.nss = nss
        self.busy = busy
        self.rst = rst
        self._tx_config = 0
        nss.value(1)
        rst.value(1)

    # -- the host interface -------------------------------------------------------------------

    def _wait_busy(self, level: int) -> None:
        time = self.time
        start = time.ticks_us()
        while self.busy.value() != level:
            if time.ticks_diff(time.ticks_us(), start) > BUSY_TIMEOUT_US:
                if self.busy.value() == level:      # late only because this code was held up
                    return
                self.nss.value(1)
                raise PN5180Error("BUSY stuck " + ("low" if level else "high"))

    def _frame(self, out: bytes, reply: int = 0) -> bytearray:
        self._wait_busy(0)
        self.nss.value(0)
        self.spi.write(out)
        self._wait_busy(1)
        self.nss.value(1)
        self._wait_busy(0)
        buf = bytearray(reply)
        if reply:
            self.nss.value(0)
            self.spi.readinto(buf, 0xFF)
            self._wait_busy(1)
            self.nss.value(1)
            self._wait_busy(0)
        return buf

    def write_register(self, reg: int, value: int) -> None:
        """WRITE_REGISTER: ``value`` (u32) into ``reg``."""
        self._frame(bytes([CMD_WRITE_REGISTER, reg]) + value.to_bytes(4, "little"))

    def or_register(self, reg: int, mask: int) -> None:
        """WRITE_REGISTER_OR_MASK: set the bits of ``mask`` in ``reg``."""
        self._frame(bytes([CMD_WRITE_REGISTER_OR_MASK, reg]) + mask.to_bytes(4, "little"))

    def and_register(self, reg: int, mask: int) -> None:
        """WRITE_REGISTER_AND_MASK: keep only the bits of ``mask`` in ``reg``."""
        self._frame(bytes([CMD_WRITE_REGISTER_AND_MASK, reg]) + mask.to_bytes(4, "little"))

    def read_register(self, reg: int) -> int:
        """READ_REGISTER: the u32 in ``reg``."""
        return int.from_bytes(bytes(self._frame(bytes([CMD_READ_REGISTER, reg]), 4)), "little")

    # -- start-up and the field ----------------------------------------------------------------

    def reset(self) -> None:
        """Pulse RST and set the chip up for ISO 15693; raises ``PN5180Error`` if it does not come back."""
        self.rst.value(0)
        self.time.sleep_us(RESET_PULSE_US)
        self.rst.value(1)
        self._wait_irq(IRQ_IDLE)
        self.write_register(REG_IRQ_CLEAR, IRQ_ALL)
        self._frame(bytes([CMD_LOAD_RF_CONFIG, RF_ISO15693_26K_TX, RF_ISO15693_26K_RX]))
        self.or_register(REG_CRC_TX_CONFIG, 1)                 # the chip appends the request's CRC
        self.and_register(REG_CRC_RX_CONFIG, 0xFFFFFFFE)       # responses arrive with theirs: checked here
        self.write_register(REG_TIMER1_RELOAD, NO_RESPONSE_US * 1356 // 100)   # 13.56 MHz ticks
        timer = TIMER1_ENABLE | TIMER1_START_ON_TX_ENDED | TIMER1_STOP_ON_RX_STARTED
        self.write_register(REG_TIMER1_CONFIG, timer)
        self.write_register(REG_IRQ_ENABLE, IRQ_MARKER)
        self._tx_config = self.read_register(REG_TX_CONFIG)

    def still_set_up(self) -> bool:
        """Whether the chip still holds the set-up of ``reset`` (False once it restarted on its own)."""
        return self.read_register(REG_IRQ_ENABLE) == IRQ_MARKER

    def rf_on(self) -> None:
        """Switch the field on and wait until it is."""
        self.write_register(REG_IRQ_CLEAR, IRQ_ALL)
        self._frame(bytes([CMD_RF_ON, 0]))
        self._wait_irq(IRQ_TX_RFON)

    def rf_off(self) -> None:
        """Switch the field off (tags lose power and forget Quiet and Selected)."""
        self._frame(bytes([CMD_RF_OFF, 0]))

    # -- exchanges with tags -------------------------------------------------------------------

    def _wait_irq(self, wanted: int) -> int:
        time = self.time
        start = time.ticks_us()
        late = False
        while True:
            irq = self.read_register(REG_IRQ_STATUS)
            if irq & wanted:
                return irq
            if late:
                raise PN5180Error(f"no interrupt (IRQ_STATUS 0x{irq:08x})")
            late = time.ticks_diff(time.ticks_us(), start) > IRQ_TIMEOUT_US   # then one more look

    def transceive(self, data: bytes) -> "tuple[int, bytes] | None":
        """Send ``data`` (the chip adds the CRC) and receive: None when no tag answered, else
        (RX_STATUS, the bytes received with their CRC). An empty ``data`` after ``symbols_only(True)``
        sends an EOF alone: the next slot of an inventory."""
        self.write_register(REG_IRQ_CLEAR, IRQ_ALL)
        self.and_register(REG_SYSTEM_CONFIG, 0xFFFFFFFF ^ SYSTEM_COMMAND_MASK)    # Idle
        self.or_register(REG_SYSTEM_CONFIG, COMMAND_TRANSCEIVE)
        self._frame(bytes([CMD_SEND_DATA, 0]) + data)
        irq = self._wait_irq(IRQ_RX | IRQ_TIMER1 | IRQ_GENERAL_ERROR)
        if not irq & (IRQ_RX | IRQ_GENERAL_ERROR):
            return None
        status = self.read_register(REG_RX_STATUS)
        if irq & IRQ_GENERAL_ERROR:
            return status | RX_PROTOCOL_ERROR, b""
        count = status & RX_BYTES_MASK
        if not count:
            return status, b""
        return status, bytes(self._frame(bytes([CMD_READ_DATA, 0]), count))

    def symbols_only(self, on: bool) -> None:
        """Make SEND_DATA send the EOF symbol alone (``on``), or whole frames again."""
        if on:
            self.and_register(REG_TX_CONFIG, TX_SYMBOLS_ONLY)
        else:
            self.write_register(REG_TX_CONFIG, self._tx_config)
