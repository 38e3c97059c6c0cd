"""The configuration of a table on simulated boards: for the demo, the tests and the benchmarks.

Six seats, each with the game's spots on antennas numbered from
``5 * (seat - 1) + 1`` in the order of :data:`SPOTS` (Easy Jack's ``main`` and
``side`` unless others are given); the boards on ptys behind the symlinks
``<folder>/shoe`` and ``<folder>/rfid`` (see ``firmware-bridge simulate
--link``); the journal in ``<folder>/state``; the pit sockets on ``ipc://``
paths in the folder unless others are given.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

SEATS = 6
SPOTS = ("main", "side", "progressive", "insurance", "bet")
"""Every spot name, in the order of their antennas at each seat."""

BUTTON_PINS = {"deal": (5, 16), "stand": (6, 20), "next": (13, 21), "void": (19, 26)}
"""BCM pins of the button and the light of Easy Jack's buttons; others take free pins."""


def antenna(seat: int, spot: str) -> int:
    """The antenna under a spot of a simulated table.

    >>> antenna(1, "main"), antenna(3, "side"), antenna(2, "bet")
    (1, 12, 10)
    """
    return len(SPOTS) * (seat - 1) + SPOTS.index(spot) + 1


def pins(buttons: Iterable[str]) -> dict[str, tuple[int, int]]:
    """Button name -> (button pin, light pin), Easy Jack's as in :data:`BUTTON_PINS`.

    >>> pins(["deal", "raise"])
    {'deal': (5, 16), 'raise': (0, 1)}
    """
    used = {pin for pair in BUTTON_PINS.values() for pin in pair}
    free = iter(pin for pin in range(28) if pin not in used)
    return {name: BUTTON_PINS.get(name) or (next(free), next(free)) for name in buttons}


def ipc_endpoints(folder: Path) -> tuple[str, str, str]:
    """Publish, sync and control endpoints on ipc paths in ``folder``."""
    return (f"ipc://{folder}/pub", f"ipc://{folder}/sync", f"ipc://{folder}/control")


def write_config(folder: Path, *, table: str = "SIM", chips: Iterable[tuple[str, int, str]] = (),
                 endpoints: tuple[str, str, str] | None = None, display: str = "off",
                 game: str = "", curve: tuple[Path, Path] | None = None, game_name: str = "easy-jack",
                 spots: tuple[str, ...] = ("main", "side"),
                 buttons: tuple[str, ...] = ("deal", "stand", "next", "void"),
                 limits: tuple[int, int] = (500, 50000),
                 supervisors: Mapping[str, str] | None = None, screen: int | None = None,
                 payout_check: bool = True, tray: int | None = None,
                 floor_call_window: int | None = None, repeat_window_ms: int = 0, mispay: str = "hold",
                 devices: Mapping[str, str] | None = None,
                 dealers: Mapping[str, str] | None = None) -> Path:
    """Write ``table.toml`` and ``chips.csv`` (``(uid, cents, status)`` rows) in ``folder``.

    ``game`` is the text of the ``[game]`` section of the game ``game_name``,
    whose ``spots`` have antennas and whose ``buttons`` have pins; ``curve`` is
    ``(the table's secret key file, the folder of the clients' public keys)``;
    ``supervisors`` the ``[supervisors]`` section (id -> PIN hash), left out when None;
    ``screen`` the dealer screen's port (``[screen]``, left out when None); ``payout_check``
    False for a table whose tests do not pay and collect the chips at settlement; ``tray`` the
    chip tray's antenna (left out when None); ``floor_call_window`` ``[table] floor_call_window``
    (left out when None); ``repeat_window_ms`` ``[table] repeat_window_ms`` (0 here, not the
    default 1000: a scripted dealer presses for the next seat faster than a person); ``mispay``
    ``[table] mispay``; ``devices``
    more lines of a board's ``[devices.<role>]`` beside its ``port`` (another ``driver`` and its
    options), by role; ``dealers`` the ``[dealers]`` section (id -> PIN hash), left out when None.
    """
    rows = ["uid,value_cents,status", *(f"{uid},{cents},{status}" for uid, cents, status in chips)]
    (folder / "chips.csv").write_text("\n".join(rows) + "\n")
    publish, sync, control = endpoints or ipc_endpoints(folder)
    antennas = "\n".join(f'{antenna(seat, spot)} = "{seat}:{spot}"'
                         for seat in range(1, SEATS + 1) for spot in spots)
    if tray is not None:
        antennas += f'\n{tray} = "tray"'
    wired = pins(buttons)
    button_pins = "\n".join(f"{name} = {pin}" for name, (pin, _) in wired.items())
    light_pins = "\n".join(f"{name} = {pin}" for name, (_, pin) in wired.items())
    curve_keys = "" if curve is None else (
        f'curve_secret_key = "{curve[0]}"\ncurve_clients = "{curve[1]}"\n')
    supervisor_section = "" if supervisors is None else "[supervisors]\n" + "".join(
        f'{name} = "{stored}"\n' for name, stored in supervisors.items()) + "\n"
    if dealers is not None:
        supervisor_section += "[dealers]\n" + "".join(
            f'{name} = "{stored}"\n' for name, stored in dealers.items()) + "\n"
    screen_section = "" if screen is None else f"[screen]\nport = {screen}\n\n"
    path = folder / "table.toml"
    path.write_text(f"""\
[table]
id = "{table}"
game = "{game_name}"
seats = {SEATS}
state_dir = "state"
payout_check = {str(payout_check).lower()}
{"" if floor_call_window is None else f"floor_call_window = {floor_call_window}"}
repeat_window_ms = {repeat_window_ms}
mispay = "{mispay}"

[limits]
min_bet = {limits[0]}
max_bet = {limits[1]}

[game]
{game}

[devices.shoe]
port = "{folder / 'shoe'}"
{(devices or {}).get("shoe", "")}

[devices.rfid]
port = "{folder / 'rfid'}"
{(devices or {}).get("rfid", "")}

[antennas]
{antennas}

[chips]
registry = "chips.csv"

[buttons]
{button_pins}

[lights]
{light_pins}

[pit]
publish = "{publish}"
sync = "{sync}"
control = "{control}"
{curve_keys}
{supervisor_section}{screen_section}[display]
mode = "{display}"
""")
    return path
