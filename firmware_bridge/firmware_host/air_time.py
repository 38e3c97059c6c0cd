"""Air time of ISO/IEC 15693 exchanges, for the PN5180 model's clock and the reader benchmark.

From ISO/IEC 15693-2 (air interface) and -3 (anticollision), with fc = 13.56 MHz:

- VCD to tag, 1-out-of-4 pulse position coding, 26.48 kbit/s: each pair of bits is one 75.52 us
  symbol (512/fc), so a byte takes 302.08 us; SOF 75.52 us, EOF 37.76 us (-2, 7.2).
- Tag to VCD, high data rate, one subcarrier, 26.48 kbit/s: a bit is 37.76 us (512/fc), a byte
  302.08 us; SOF and EOF 56.64 us each (-2, 8.2 - 8.3).
- t1 = 4352/fc = 320.9 us nominal from the end of the VCD's EOF to the tag's answer; t2 = 4192/fc =
  309.2 us at least from the end of a tag's answer to the VCD's next EOF or request; with no answer in
  a slot the VCD may send the next EOF after t3 = 4384/fc (t1 max) + the tag SOF, 379.9 us (-3, 9.1).

Every request carries a 2-byte CRC, and so does every answer.
"""

import math

FC_HZ = 13_560_000
VCD_SYMBOL_US = 1024 / FC_HZ * 1e6                  # 75.52: one 1-out-of-4 symbol carries 2 bits
VCD_SOF_US = VCD_SYMBOL_US                          # 75.52
VCD_EOF_US = VCD_SYMBOL_US / 2                      # 37.76
VCD_BYTE_US = 4 * VCD_SYMBOL_US                     # 302.08
TAG_SOF_US = 3 * 256 / FC_HZ * 1e6                  # 56.64
TAG_EOF_US = TAG_SOF_US
TAG_BYTE_US = 8 * 512 / FC_HZ * 1e6                 # 302.08
T1_US = 4352 / FC_HZ * 1e6                          # 320.9
T2_US = 4192 / FC_HZ * 1e6                          # 309.1
T3_US = 4384 / FC_HZ * 1e6 + TAG_SOF_US             # 379.9

INVENTORY_REQUEST = 3            # flags, command, mask length (+ the mask's bytes)
INVENTORY_ANSWER = 10            # flags, DSFID, UID
READ_BLOCK_REQUEST = 11          # flags, command, UID, block number
READ_BLOCK_ANSWER = 5            # flags, the block's 4 bytes
CRC = 2


def request_us(data_bytes: int) -> float:
    """A VCD frame of ``data_bytes`` bytes plus its CRC, SOF to EOF."""
    return VCD_SOF_US + (data_bytes + CRC) * VCD_BYTE_US + VCD_EOF_US


def answer_us(data_bytes: int) -> float:
    """A tag's frame of ``data_bytes`` bytes plus its CRC, SOF to EOF."""
    return TAG_SOF_US + (data_bytes + CRC) * TAG_BYTE_US + TAG_EOF_US


def answered_us(data_bytes: int) -> float:
    """The wait and the answer after a request or EOF that one tag (or a collision) answers."""
    return T1_US + answer_us(data_bytes) + T2_US


def ideal_us(chips: int, *, values: bool) -> float:
    """Reading ``chips`` tags if every slot held exactly one: a 16-slot request per 16 chips, one
    answered slot per chip (EOF between slots) and, with ``values``, one READ SINGLE BLOCK per chip."""
    if not chips:
        return request_us(INVENTORY_REQUEST) + T3_US + 15 * (VCD_EOF_US + T3_US)
    rounds = math.ceil(chips / 16)
    total = rounds * request_us(INVENTORY_REQUEST) + chips * answered_us(INVENTORY_ANSWER)
    total += (chips - rounds) * VCD_EOF_US
    if values:
        total += chips * (request_us(READ_BLOCK_REQUEST) + answered_us(READ_BLOCK_ANSWER))
    return total
