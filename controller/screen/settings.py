"""What the screen needs from the table's configuration: the pit endpoints, its port, the chips.

The screen reads the same ``table.toml`` as the daemon. ``[screen] port`` (8070
by default) is read here from the file itself when the configuration loader does
not know the section yet, so a file with ``[screen]`` works either way. The chip
denominations come from the table's picture (``chips``) once the table publishes
them; until then from the chip registry the configuration names.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.config.loader import Config, ConfigError, parse_config
from controller.pit.monitor.tables import Curve, TableSource, load_certificate
from drivers.chips import ChipRegistry, RegistryError

DEFAULT_PORT = 8070
"""``[screen] port`` when the section leaves it out."""


@dataclass(frozen=True)
class ScreenSettings:
    """The table the screen follows and how it is served."""

    source: TableSource
    control: str
    port: int
    denominations: tuple[int, ...]
    """The active chips' values in cents, highest first (``()`` if the registry cannot be read)."""


def denominations(registry: Path) -> tuple[int, ...]:
    """The values of the registry's active chips, highest first; ``()`` when it cannot be read."""
    try:
        chips = ChipRegistry.load(registry)
    except (RegistryError, ValueError):
        return ()
    return tuple(sorted({chip.value for chip in chips if chip.is_active}, reverse=True))


def screen_port(data: dict[str, Any]) -> int:
    """``[screen] port`` of the parsed file, checked; ConfigError if it is not a port.

    >>> screen_port({}), screen_port({"screen": {"port": 9000}})
    (8070, 9000)
    >>> screen_port({"screen": {"port": "x"}})
    Traceback (most recent call last):
    ...
    controller.config.loader.ConfigError: screen.port: must be a whole number 1..65535
    """
    section = data.get("screen", {})
    port = section.get("port", DEFAULT_PORT) if isinstance(section, dict) else None
    if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
        raise ConfigError(["screen.port: must be a whole number 1..65535"])
    return port


def load_settings(path: str | Path, *, client_key: Path | None = None,
                  server_key: Path | None = None) -> ScreenSettings:
    """The screen's settings from the table's configuration file; ConfigError lists the mistakes.

    With CURVE on (``pit.curve_secret_key``) the screen needs its own certificate
    (``client_key``, a ``zmq.auth`` secret key file whose public key is in
    ``pit.curve_clients``) and the table's public key (``server_key``).
    """
    source = Path(path).absolute()
    try:
        data = tomllib.loads(source.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError([f"{source}: cannot be read as TOML: {exc}"]) from None
    port = screen_port(data)
    config: Config = parse_config({k: v for k, v in data.items() if k != "screen"}, source)
    pit = config.pit
    return ScreenSettings(TableSource(config.table_id, _local(pit.publish), _local(pit.sync),
                                      _curve(pit.curve_secret_key, client_key, server_key)),
                          _local(pit.control), port, denominations(config.chip_registry))


def _local(endpoint: str) -> str:
    """A bound endpoint as a client connects to it: ``tcp://*:5556`` is ``tcp://127.0.0.1:5556``.

    >>> _local("tcp://*:5556"), _local("ipc:///run/pub")
    ('tcp://127.0.0.1:5556', 'ipc:///run/pub')
    """
    return endpoint.replace("tcp://*:", "tcp://127.0.0.1:").replace("tcp://0.0.0.0:", "tcp://127.0.0.1:")


def _curve(table_secret: Path | None, client_key: Path | None, server_key: Path | None) -> Curve | None:
    if table_secret is None:
        return None
    if client_key is None or server_key is None:
        raise ConfigError(["the table's pit sockets use CURVE: give the screen its certificate "
                           "(--curve-client-key, its public key in pit.curve_clients) and the table's "
                           "public key (--curve-server-key)"])
    public, secret = load_certificate(client_key, secret=True)
    server, _ = load_certificate(server_key, secret=False)
    assert secret is not None
    return (server, public, secret)
