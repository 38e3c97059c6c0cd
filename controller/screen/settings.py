"""What the screen needs from the table's configuration: the pit endpoints, where to listen, the chips.

The screen reads the same ``table.toml`` as the daemon: ``[screen] listen`` and
``port`` (127.0.0.1 and 8070 unless set; docs/configuration.md). The chip
denominations come from the table's picture (``chips``); those of the chip
registry the configuration names are the screen's own until the first picture
arrives.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from controller.config.loader import SCREEN_PORT, ConfigError, load_config
from controller.follow.sources import Curve, TableSource, load_certificate
from drivers.chips import ChipRegistry, RegistryError


@dataclass(frozen=True)
class ScreenSettings:
    """The table the screen follows and how it is served."""

    source: TableSource
    control: str
    listen: str
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


def load_settings(path: str | Path, *, client_key: Path | None = None,
                  server_key: Path | None = None) -> ScreenSettings:
    """The screen's settings from the table's configuration file; ConfigError lists the mistakes.

    With CURVE on (``pit.curve_secret_key``) the screen needs its own certificate
    (``client_key``, a ``zmq.auth`` secret key file whose public key is in
    ``pit.curve_clients``) and the table's public key (``server_key``).
    """
    config = load_config(path)
    pit = config.pit
    listen, port = ("127.0.0.1", SCREEN_PORT) if config.screen is None else (
        config.screen.listen, config.screen.port)
    return ScreenSettings(TableSource(config.table_id, _local(pit.publish), _local(pit.sync),
                                      _curve(pit.curve_secret_key, client_key, server_key)),
                          _local(pit.control), listen, port, denominations(config.chip_registry))


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
