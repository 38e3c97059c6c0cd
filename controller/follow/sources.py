"""Where a table publishes, for every consumer that follows one (the pit monitor, the recorder, the
dealer screen): ``--table NAME=PUBLISH[,SYNC]`` arguments and a TOML file.

A table is named by its table id (the prefix of its topics). Its sync address
is the publish port + 1 unless given. With CURVE, the monitor needs its own
certificate (``zmq.auth`` format, public and secret key) and each table's
public key. The TOML file::

    [curve]                                  # optional
    client_key = "keys/podium.key_secret"    # this monitor's certificate
    server_key = "keys/table.key"            # tables' public key, unless a table names its own

    [shifts]                                 # optional: read by the monitor's shift figures
    starts = ["06:00", "14:00", "22:00"]
    zone = "America/Los_Angeles"

    [tables.T07]
    publish = "tcp://10.1.0.7:5556"
    sync = "tcp://10.1.0.7:5557"             # optional
    server_key = "keys/T07.key"              # optional
    pit = "Pit 1"                            # optional: the pit the table stands in
    control = "tcp://10.1.0.7:5558"          # optional: its control socket (the pit's actions)

Relative paths are taken from the file's folder. A table's control socket
takes the same CURVE keys as its publish socket. ``--table`` arguments carry
neither pit nor control socket: a table that has them is given in the file.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import zmq.auth

Curve = tuple[bytes, bytes, bytes]
"""``(table public key, own public key, own secret key)``, Z85, as
:class:`~controller.follow.blocking.PitClient` takes them."""


FILE_KEYS = frozenset({"curve", "tables", "shifts", "protection"})
"""The floor file's top-level tables (``[shifts]`` is read by the shift figures, not here)."""

TABLE_KEYS = frozenset({"publish", "sync", "server_key", "pit", "control"})
"""The keys of a ``[tables.NAME]`` entry."""


class TablesError(ValueError):
    """The table arguments or file are wrong; the message lists every mistake, one per line."""


@dataclass(frozen=True)
class TableSource:
    """Where one table publishes: its id, publish and sync endpoints, CURVE keys if it needs them;
    from a floor file, the pit it stands in and its control socket (the same keys)."""

    name: str
    publish: str
    sync: str
    curve: Curve | None = None
    pit: str | None = None
    control: str | None = None


def valid_name(name: str) -> bool:
    """Whether ``name`` can be a table id (and so a topic prefix).

    >>> valid_name("T07"), valid_name("T/7"), valid_name("")
    (True, False, False)
    """
    return bool(name) and "/" not in name and name.isascii() and name.isprintable() and " " not in name


def sync_of(publish: str) -> str:
    """The sync endpoint by convention: the publish port + 1.

    >>> sync_of("tcp://10.1.0.7:5556")
    'tcp://10.1.0.7:5557'
    >>> sync_of("ipc:///run/pub")
    Traceback (most recent call last):
    ...
    ValueError: cannot derive a sync address from 'ipc:///run/pub': give it (NAME=PUBLISH,SYNC)
    """
    scheme, _, address = publish.partition("://")
    host, colon, port = address.rpartition(":")
    if scheme != "tcp" or not colon or not port.isdigit():
        raise ValueError(f"cannot derive a sync address from {publish!r}: give it (NAME=PUBLISH,SYNC)")
    return f"tcp://{host}:{int(port) + 1}"


def parse_table(arg: str, curve: Curve | None = None) -> TableSource:
    """A table from ``NAME=PUBLISH`` or ``NAME=PUBLISH,SYNC``.

    >>> parse_table("T1=tcp://127.0.0.1:5556")  # doctest: +NORMALIZE_WHITESPACE
    TableSource(name='T1', publish='tcp://127.0.0.1:5556', sync='tcp://127.0.0.1:5557', curve=None,
                pit=None, control=None)
    >>> parse_table("T2=ipc:///tmp/p,ipc:///tmp/s").sync
    'ipc:///tmp/s'
    """
    name, eq, rest = arg.partition("=")
    if not eq or not rest:
        raise ValueError(f"{arg!r}: expected NAME=tcp://HOST:PORT")
    if not valid_name(name):
        raise ValueError(f"{arg!r}: a table name is printable ASCII without '/' or spaces")
    publish, _, sync = rest.partition(",")
    if "://" not in publish or (sync and "://" not in sync):
        raise ValueError(f"{arg!r}: endpoints look like tcp://HOST:PORT")
    return TableSource(name, publish, sync or sync_of(publish), curve)


def load_certificate(path: Path, *, secret: bool) -> tuple[bytes, bytes | None]:
    """``(public, secret)`` keys of a ``zmq.auth`` certificate; ``TablesError`` if unusable."""
    try:
        public, secret_key = zmq.auth.load_certificate(path)
    except (OSError, ValueError) as exc:
        raise TablesError(f"CURVE key file {path}: {exc}") from exc
    if secret and secret_key is None:
        raise TablesError(f"CURVE key file {path} holds no secret key (use the .key_secret file)")
    return public, secret_key


def _curve(client_key: Path | None, server_key: Path | None) -> Curve | None:
    if client_key is None and server_key is None:
        return None
    if client_key is None or server_key is None:
        raise TablesError("CURVE needs both this monitor's key (client_key) and the table's (server_key)")
    public, secret = load_certificate(client_key, secret=True)
    server, _ = load_certificate(server_key, secret=False)
    assert secret is not None
    return (server, public, secret)


def load_sources(tables: Sequence[str] = (), tables_file: Path | None = None, *,
                 client_key: Path | None = None, server_key: Path | None = None) -> list[TableSource]:
    """Every table from the arguments and the file, in that order; ``TablesError`` lists all mistakes."""
    problems: list[str] = []
    sources: list[TableSource] = []
    file: dict[str, object] = {}
    base = Path(".")
    if tables_file is not None:
        base = tables_file.parent
        try:
            file = tomllib.loads(tables_file.read_text())
        except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise TablesError(f"{tables_file}: {exc}") from exc
        unknown = set(file) - FILE_KEYS
        if unknown:
            problems.append(f"{tables_file}: unknown sections {sorted(unknown)} "
                            f"(it takes {sorted(FILE_KEYS)})")
        if not isinstance(file.get("shifts", {}), dict):
            problems.append(f"{tables_file}: [shifts] must be a table")
        keys = file.get("curve", {})
        if not isinstance(keys, dict) or set(keys) - {"client_key", "server_key"}:
            problems.append(f"{tables_file}: [curve] takes client_key and server_key")
            keys = {}
        client_key = client_key or (base / keys["client_key"] if "client_key" in keys else None)
        server_key = server_key or (base / keys["server_key"] if "server_key" in keys else None)
    default_curve = _curve(client_key, server_key) if server_key is not None else None
    for arg in tables:
        try:
            sources.append(parse_table(arg, default_curve))
        except ValueError as exc:
            problems.append(f"--table {exc}")
    if tables and client_key is not None and server_key is None:
        problems.append("a CURVE client key is given but no table public key (--curve-server-key)")
    entries = file.get("tables", {})
    if not isinstance(entries, dict):
        problems.append(f"{tables_file}: [tables] must be a table of tables")
        entries = {}
    for name, entry in entries.items():
        where = f"{tables_file}: [tables.{name}]"
        if not valid_name(name):
            problems.append(f"{where}: a table name is printable ASCII without '/' or spaces")
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("publish"), str):
            problems.append(f"{where}: needs publish = \"tcp://HOST:PORT\"")
            continue
        unknown = set(entry) - TABLE_KEYS
        if unknown:
            problems.append(f"{where}: unknown keys {sorted(unknown)}")
        pit, control = entry.get("pit"), entry.get("control")
        if pit is not None and not (isinstance(pit, str) and pit.strip() and pit.isprintable()):
            problems.append(f"{where}: pit is a name (printable text), as pit = \"Pit 1\"")
            continue
        if control is not None and not (isinstance(control, str) and "://" in control):
            problems.append(f"{where}: control is the table's control socket, as control = \"tcp://HOST:PORT\"")
            continue
        try:
            sync = entry.get("sync") or sync_of(entry["publish"])
            own = entry.get("server_key")
            curve = _curve(client_key, base / own) if own else default_curve
            sources.append(TableSource(name, entry["publish"], str(sync), curve,
                                       pit.strip() if pit else None, control))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
    seen: set[str] = set()
    for source in sources:
        if source.name in seen:
            problems.append(f"table {source.name} is given twice")
        seen.add(source.name)
    if not sources and not problems:
        problems.append("no table to follow: give --table NAME=tcp://HOST:PORT or --tables FILE")
    if problems:
        raise TablesError("\n".join(problems))
    return sources
