"""Link statistics: counters kept by a session and logged periodically (cf. Klipper's serialhdl stats).

Every frame and byte in either direction, and every frame the link had to drop
or ignore, is counted here, so line noise and protocol trouble show up in the
logs instead of crashing anything.

>>> stats = LinkStats()
>>> stats.frames_sent += 2
>>> stats.crc_errors += 1
>>> stats.snapshot()["frames_sent"], stats.snapshot()["crc_errors"]
(2, 1)
>>> stats.summary()[:40]
'sent=2 frames/0 B received=0 frames/0 B '
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass
class LinkStats:
    """Counters of one link (one board), over the life of its host or board object.

    ``framing_errors`` counts every dropped frame (COBS, length, version and
    CRC failures); ``crc_errors`` is the part of them that failed only the CRC.
    ``retransmissions`` counts data frames sent again (each frame of a
    go-back-N round counts once). ``resets`` counts RESETs sent (host) or
    answered (board). ``ignored`` counts valid frames received outside a
    session, stale HELLOs and control frames the role does not expect.
    """

    frames_sent: int = 0
    frames_received: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0
    crc_errors: int = 0
    framing_errors: int = 0
    retransmissions: int = 0
    resets: int = 0
    sessions: int = 0
    unknown_frames: int = 0
    malformed_payloads: int = 0
    out_of_order: int = 0
    ignored: int = 0

    def snapshot(self) -> dict[str, int]:
        """A copy of all counters by name."""
        return asdict(self)

    def summary(self) -> str:
        """All counters on one log line."""
        return (
            f"sent={self.frames_sent} frames/{self.bytes_sent} B"
            f" received={self.frames_received} frames/{self.bytes_received} B"
            f" framing_errors={self.framing_errors} (crc={self.crc_errors})"
            f" retransmissions={self.retransmissions} resets={self.resets} sessions={self.sessions}"
            f" unknown={self.unknown_frames} malformed={self.malformed_payloads}"
            f" out_of_order={self.out_of_order} ignored={self.ignored}"
        )
