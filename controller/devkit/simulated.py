"""The configuration of a table on simulated boards: for the demo, the tests and the benchmarks.

Six seats, each with a ``main`` spot on antenna ``2 * seat - 1`` and a ``side``
spot on antenna ``2 * seat``; the boards on ptys behind the symlinks
``<folder>/shoe`` and ``<folder>/rfid`` (see ``firmware-bridge simulate
--link``); the journal in ``<folder>/state``; the pit sockets on ``ipc://``
paths in the folder unless others are given.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SEATS = 6


def antenna(seat: int, spot: str) -> int:
    """The antenna under a spot of a simulated table.

    >>> antenna(1, "main"), antenna(3, "side")
    (1, 6)
    """
    return 2 * seat - (1 if spot == "main" else 0)


def ipc_endpoints(folder: Path) -> tuple[str, str, str]:
    """Publish, sync and control endpoints on ipc paths in ``folder``."""
    return (f"ipc://{folder}/pub", f"ipc://{folder}/sync", f"ipc://{folder}/control")


def write_config(folder: Path, *, table: str = "SIM", chips: Iterable[tuple[str, int, str]] = (),
                 endpoints: tuple[str, str, str] | None = None, display: str = "off",
                 game: str = "", curve: tuple[Path, Path] | None = None) -> Path:
    """Write ``table.toml`` and ``chips.csv`` (``(uid, cents, status)`` rows) in ``folder``.

    ``game`` is the text of the ``[game]`` section (Easy Jack's options); ``curve`` is
    ``(the table's secret key file, the folder of the clients' public keys)``.
    """
    rows = ["uid,value_cents,status", *(f"{uid},{cents},{status}" for uid, cents, status in chips)]
    (folder / "chips.csv").write_text("\n".join(rows) + "\n")
    publish, sync, control = endpoints or ipc_endpoints(folder)
    antennas = "\n".join(f'{antenna(seat, spot)} = "{seat}:{spot}"'
                         for seat in range(1, SEATS + 1) for spot in ("main", "side"))
    curve_keys = "" if curve is None else (
        f'curve_secret_key = "{curve[0]}"\ncurve_clients = "{curve[1]}"\n')
    path = folder / "table.toml"
    path.write_text(f"""\
[table]
id = "{table}"
game = "easy-jack"
seats = {SEATS}
state_dir = "state"

[limits]
min_bet = 500
max_bet = 50000

[game]
{game}

[devices.shoe]
port = "{folder / 'shoe'}"

[devices.rfid]
port = "{folder / 'rfid'}"

[antennas]
{antennas}

[chips]
registry = "chips.csv"

[buttons]
deal = 5
stand = 6
next = 13
void = 19

[lights]
deal = 16
stand = 20
next = 21
void = 26

[pit]
publish = "{publish}"
sync = "{sync}"
control = "{control}"
{curve_keys}
[display]
mode = "{display}"
""")
    return path
