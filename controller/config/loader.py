"""The table's TOML configuration (``docs/configuration.md``) and its validation.

:func:`load_config` reads the file and :func:`parse_config` checks every section,
collecting *all* the mistakes; if there is any, :class:`ConfigError` carries one line
per mistake, each naming its key (``table.seats: must be 1..32, not 40``).

Defaults: ``table.state_dir`` "/var/lib/table-controller", ``chips.registry``
"/etc/table-controller/chips.csv", ``pit.publish`` / ``sync`` / ``control``
"tcp://127.0.0.1:5556" / "5557" / "5558", no CURVE, no supervisors. Relative paths
(``state_dir``, ``registry``, the CURVE files) are taken from the configuration
file's folder. The CURVE key files are checked here (the secret key must be a
``zmq.auth`` certificate holding it, the clients folder a folder), so that a
missing key stops the start like any other mistake, before the journal is
opened; the chip registry is checked by the part that reads it.

Beyond the spec's keys, each of these is a problem too: a button the game has no use
for, a light for a button not in ``[buttons]``, two pit sockets on one endpoint,
``pit.curve_clients`` without ``pit.curve_secret_key``, and ``pit.control`` off loopback
without CURVE.

Compatible extension, section ``[integrity]``: ``manifest`` (optional) is the file of
SHA-256 hashes that ``table-controller manifest`` wrote at installation; when it is set,
the daemon checks every installed file against it at start and raises
``software_integrity`` for each one that differs.

Compatible extension, section ``[display]``: the dealer display.

``mode`` = ``"terminal"`` | ``"log"`` | ``"off"`` (default ``"log"``)
    ``terminal`` draws the dealer's view on the controlling terminal, ``log``
    writes each change of the view as a log line, ``off`` shows nothing.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from controller.boards import DEFAULT_DRIVER, REQUIRED, find_board, find_driver
from controller.games.catalog import find_game
from controller.games.interface import Limits, Rules
from controller.games.options import describe, parse_options, type_mismatch
from controller.games.spec import GameSpec
from controller.pit.server import is_local_endpoint, load_secret_key
from controller.plugins import PluginError
from controller.security.supervisor_pins import looks_like_pin_hash
from controller.table.settings import MISPAY_POLICIES
from controller.table.tray import TRAY, TRAY_WORD

BUTTON_NAMES = (
    "deal",
    "stand",
    "hit",
    "double",
    "split",
    "surrender",
    "insurance",
    "check",
    "raise",
    "call",
    "fold",
    "next",
    "void",
    "bet",
    "play",
)
"""The dealer button names of the configuration contract, and this controller's compatible
additions (docs/configuration.md): ``bet`` (a round's opening bet, for pot games) and ``play``
(Blackjack Extreme's dealer plays on rather than surrender)."""

DISPLAY_MODES = ("terminal", "log", "off")
"""The values of ``[display] mode``."""

MAX_SEATS = 32
MAX_ANTENNA = 32
MAX_PIN = 27
MAX_FLOOR_CALL_WINDOW = 3600
MAX_REPEAT_WINDOW_MS = 10_000

_SECTIONS = {
    "table": ("id", "game", "seats", "state_dir", "payout_check", "mispay", "floor_call_window",
              "repeat_window_ms"),
    "limits": ("min_bet", "max_bet"),
    "game": None,
    "devices": None,
    "antennas": None,
    "chips": ("registry",),
    "buttons": None,
    "lights": None,
    "pit": ("publish", "sync", "control", "curve_secret_key", "curve_clients"),
    "supervisors": None,
    "dealers": None,
    "display": ("mode",),
    "screen": ("listen", "port"),
    "integrity": ("manifest",),
    "journal": ("segment_bytes", "keep_days"),
}
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]+")
_DEALER_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
_ENDPOINT = re.compile(r"tcp://(?:\*|\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):[0-9]{1,5}|ipc://.+")

T = TypeVar("T")


@dataclass(frozen=True)
class PitConfig:
    """The pit sockets' endpoints and, when CURVE is on, its key files."""

    publish: str
    sync: str
    control: str
    curve_secret_key: Path | None
    curve_clients: Path | None


@dataclass(frozen=True)
class DisplayConfig:
    """The dealer display: ``mode`` is "terminal", "log" or "off"."""

    mode: str


@dataclass(frozen=True)
class ScreenConfig:
    """The dealer's touch screen server: the loopback address and port it listens on."""

    listen: str
    port: int


@dataclass(frozen=True)
class JournalConfig:
    """The journal's rotation and retention (``[journal]``, docs/configuration.md): the live file is
    closed as a segment between hands once it holds ``segment_bytes``; a closed segment is deleted
    once it was closed more than ``keep_days`` ago and start-up no longer needs it."""

    segment_bytes: int = 16 * 1024 * 1024
    keep_days: int = 400


MIN_SEGMENT_BYTES = 4096
"""The smallest ``[journal] segment_bytes`` (a segment closes between hands, whatever it holds)."""


SCREEN_PORT = 8070
"""The dealer screen's port when ``[screen] port`` is not given."""
LOOPBACK = ("127.0.0.1", "::1", "localhost")
"""The addresses the dealer screen may listen on: the kiosk runs on the table's own computer."""


@dataclass(frozen=True)
class BoardConfig:
    """One ``[devices.<role>]``: the installed ``driver`` that talks to the board, and its ``options``
    (an instance of the driver's ``Options``, checked by it: the section's keys beside ``driver``)."""

    driver: str
    options: object


@dataclass(frozen=True)
class Config:
    """A checked table configuration. ``antennas`` maps antenna -> (seat, spot); the chip tray's
    antenna, if one is ``"tray"``, maps to :data:`~controller.table.tray.TRAY`."""

    source: Path
    table_id: str
    game: str
    seats: int
    state_dir: Path
    limits: Limits
    rules: Rules
    boards: Mapping[str, BoardConfig]
    """Each board the table runs (``[devices.<role>]``, an installed role) -> its driver and options."""
    antennas: Mapping[int, tuple[int, str]]
    chip_registry: Path
    buttons: Mapping[str, int]
    lights: Mapping[str, int]
    pit: PitConfig
    supervisors: Mapping[str, str]
    display: DisplayConfig
    integrity_manifest: Path | None = None
    screen: ScreenConfig | None = None
    """The dealer screen, when the table has one (``[screen]``): then no button is required."""
    payout_check: bool = True
    """Whether NEXT checks that every settled spot was paid and collected (``payout_mismatch``)."""
    floor_call_window: int = 60
    """Seconds a floor call stays open: the dealer's further calls are counted on it."""
    mispay: str = "hold"
    """What a payment walk's NEXT does with a spot that reads short or over: hold, or alert."""
    repeat_window_ms: int = 1000
    """Milliseconds in which a game action pressed again for the next seat is refused once as a
    double press (0: never)."""
    journal: JournalConfig = JournalConfig()
    """The journal's rotation and retention (``[journal]``)."""
    dealers: Mapping[str, str] = field(default_factory=dict)
    """Each dealer's id -> the hash of the dealer's PIN (``[dealers]``, like ``[supervisors]``)."""

    @property
    def tray(self) -> bool:
        """Whether an antenna is the chip tray (``[antennas] N = "tray"``)."""
        return TRAY in self.antennas.values()


class ConfigError(Exception):
    """A configuration that cannot be used; ``problems`` has one line per mistake."""

    def __init__(self, problems: list[str]) -> None:
        """Keep the lines; ``str()`` joins them with newlines."""
        super().__init__("\n".join(problems))
        self.problems = problems


def load_config(path: str | Path) -> Config:
    """Read and check the TOML file at ``path``; raise :class:`ConfigError` if it is not usable."""
    source = Path(path).absolute()
    return parse_config(_read(source), source)


def _read(source: Path) -> dict[str, object]:
    try:
        return tomllib.loads(source.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ConfigError([f"{source}: cannot read the file: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise ConfigError([f"{source}: not UTF-8 text (byte {exc.start})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError([f"{source}: not valid TOML: {exc}"]) from None


def board_options(path: str | Path, role: str) -> BoardConfig:
    """The driver and the options of ``[devices.<role>]`` in the file at ``path`` alone, checked as
    :func:`load_config` checks them but for the files they name beside the configuration
    (:meth:`~drivers.board.BoardDriver.beside` is not called: ``table-controller teach`` makes a taught
    design that the section may already name); :class:`ConfigError` if they are not usable."""
    source = Path(path).absolute()
    data = _read(source)
    parser = _Parser(data, source)
    key = f"devices.{role}"
    board = parser.section(parser.section(data, "devices", True), key, True)
    driver = parser.value(board, f"{key}.driver", str, DEFAULT_DRIVER)
    options: object = None
    if board is not None and driver is not None:
        try:
            options_type = find_driver(driver, role).Options
        except PluginError as error:
            parser.fail(f"{key}.driver", str(error))
        else:
            settings = {name: value for name, value in board.items() if name != "driver"}
            options, problems = parse_options(options_type, settings, key)
            parser.problems += problems
    if parser.problems:
        raise ConfigError(parser.problems)
    return BoardConfig(_known(driver), options)


def parse_config(data: Mapping[str, object], source: Path) -> Config:
    """Check parsed TOML ``data`` (read from ``source``) and build the :class:`Config`."""
    return _Parser(data, Path(source).absolute()).parse()


def _known(value: T | None) -> T:
    """A value that the checks have proven present (only used once there are no problems)."""
    if value is None:
        raise AssertionError("a checked value is missing")
    return value


class _Parser:
    """One pass over the configuration, collecting problems as it goes."""

    def __init__(self, data: Mapping[str, object], source: Path) -> None:
        self.data = data
        self.source = source
        self.problems: list[str] = []
        self.used_pins: dict[int, str] = {}
        self.game_name = ""

    def fail(self, key: str, message: str) -> None:
        self.problems.append(f"{key}: {message}")

    def section(
        self, parent: Mapping[str, object] | None, key: str, required: bool
    ) -> dict[str, object] | None:
        """The table at dotted ``key``, its unknown keys reported.

        An optional table left out is empty; a missing required one, one that is not a
        table, or one whose ``parent`` is already wrong (None) gives None.
        """
        if parent is None:
            return None
        value = parent.get(key.rpartition(".")[2])
        if value is None:
            if required:
                self.fail(key, "missing (required section)")
                return None
            return {}
        if not isinstance(value, dict):
            self.fail(key, f"must be a table, not {describe(value)}")
            return None
        allowed = _SECTIONS.get(key)
        for name in value:
            if allowed is not None and name not in allowed:
                self.fail(f"{key}.{name}", "unknown key")
        return value

    def value(
        self, table: Mapping[str, object] | None, key: str, kind: type[T], default: T | None
    ) -> T | None:
        """The ``kind`` value at dotted ``key``, ``default`` when absent (None: required).

        Nothing is reported when ``table`` itself is already wrong (None).
        """
        if table is None:
            return None
        name = key.rpartition(".")[2]
        if name not in table:
            if default is None:
                self.fail(key, "missing (required)")
            return default
        value = table[name]
        problem = type_mismatch(kind, value)
        if problem is not None or not isinstance(value, kind):
            self.fail(key, problem or f"must be a {kind.__name__}")
            return None
        if kind is str and not value:
            self.fail(key, "must not be empty")
            return None
        return value

    def path(self, table: Mapping[str, object] | None, key: str, default: str | None) -> Path | None:
        text = self.value(table, key, str, default)
        return None if text is None else self.source.parent / text

    def optional_path(self, table: Mapping[str, object], key: str) -> Path | None:
        """The path at ``key``, or None when the key is absent."""
        return self.path(table, key, None) if key.rpartition(".")[2] in table else None

    def parse(self) -> Config:
        for name, value in self.data.items():
            if name not in _SECTIONS:
                self.fail(name, "unknown section" if isinstance(value, dict) else "unknown key")
        table = self.section(self.data, "table", True)
        table_id = self.value(table, "table.id", str, None)
        if table_id is not None and not _TABLE_ID.fullmatch(table_id):
            self.fail("table.id", f"{table_id!r} may hold only letters, digits, '-' and '_'")
        game = self.game(table)
        seats = self.value(table, "table.seats", int, None)
        if seats is not None and not 1 <= seats <= MAX_SEATS:
            self.fail("table.seats", f"must be 1..{MAX_SEATS}, not {seats}")
            seats = None
        state_dir = self.path(table, "table.state_dir", "/var/lib/table-controller")
        payout_check = self.value(table, "table.payout_check", bool, True)
        mispay = self.value(table, "table.mispay", str, "hold")
        if mispay is not None and mispay not in MISPAY_POLICIES:
            self.fail("table.mispay", f"must be one of {', '.join(MISPAY_POLICIES)}, not {mispay!r}")
        window = self.value(table, "table.floor_call_window", int, 60)
        if window is not None and not 1 <= window <= MAX_FLOOR_CALL_WINDOW:
            self.fail("table.floor_call_window", f"must be 1..{MAX_FLOOR_CALL_WINDOW} seconds, not {window}")
        repeat = self.value(table, "table.repeat_window_ms", int, 1000)
        if repeat is not None and not 0 <= repeat <= MAX_REPEAT_WINDOW_MS:
            self.fail("table.repeat_window_ms",
                      f"must be 0..{MAX_REPEAT_WINDOW_MS} milliseconds, not {repeat}")
        limits = self.limits()
        rules = self.rules(game)
        boards = self.boards()
        antennas = self.antennas(seats, game)
        chips = self.section(self.data, "chips", False)
        registry = self.path(chips, "chips.registry", "/etc/table-controller/chips.csv")
        screen = self.screen()
        buttons = self.pins("buttons", game, screen is not None)
        lights = self.pins("lights", game)
        named = self.data.get("buttons")
        for name in lights:
            if isinstance(named, dict) and name not in named:
                self.fail(f"lights.{name}", "has no button of that name in [buttons]")
        pit = self.pit()
        supervisors = self.pin_hashes("supervisors", "supervisor")
        dealers = self.pin_hashes("dealers", "dealer")
        display = self.section(self.data, "display", False)
        mode = self.value(display, "display.mode", str, "log")
        if mode is not None and mode not in DISPLAY_MODES:
            self.fail("display.mode", f"must be one of {', '.join(DISPLAY_MODES)}, not {mode!r}")
        integrity = self.section(self.data, "integrity", False)
        manifest = self.optional_path(integrity or {}, "integrity.manifest")
        journal = self.journal()
        if self.problems:
            raise ConfigError(self.problems)
        return Config(
            source=self.source,
            table_id=_known(table_id),
            game=self.game_name,
            seats=_known(seats),
            state_dir=_known(state_dir),
            limits=_known(limits),
            rules=_known(rules),
            boards=boards,
            antennas=antennas,
            chip_registry=_known(registry),
            buttons=buttons,
            lights=lights,
            pit=_known(pit),
            supervisors=supervisors,
            display=DisplayConfig(_known(mode)),
            integrity_manifest=manifest,
            screen=screen,
            payout_check=payout_check is not False,
            floor_call_window=_known(window),
            repeat_window_ms=_known(repeat),
            mispay=_known(mispay),
            journal=journal,
            dealers=dealers,
        )

    def game(self, table: Mapping[str, object] | None) -> GameSpec | None:
        """The installed game ``[table] game`` names (its name kept in :attr:`game_name`)."""
        name = self.value(table, "table.game", str, None)
        if name is None:
            return None
        self.game_name = name
        try:
            return find_game(name)
        except PluginError as error:
            self.fail("table.game", str(error))
        return None

    def boards(self) -> dict[str, BoardConfig]:
        """``[devices]``: a section per board, each an installed role whose ``driver`` (the link
        protocol's when left out) checks the section's other keys, then the files they name beside
        the configuration (:meth:`~drivers.board.BoardDriver.beside`); the shoe and the RFID reader
        are required (:data:`controller.boards.REQUIRED`)."""
        devices = self.section(self.data, "devices", True)
        if devices is None:
            return {}
        found: dict[str, BoardConfig] = {}
        for name in [*REQUIRED, *(name for name in devices if name not in REQUIRED)]:
            board = self.section(devices, f"devices.{name}", name in REQUIRED)
            if board is None:
                continue
            try:
                find_board(name)
            except PluginError as error:
                self.fail(f"devices.{name}", str(error))
                continue
            driver = self.value(board, f"devices.{name}.driver", str, DEFAULT_DRIVER)
            if driver is None:
                continue
            try:
                driver_type = find_driver(driver, name)
            except PluginError as error:
                self.fail(f"devices.{name}.driver", str(error))
                continue
            settings = {key: value for key, value in board.items() if key != "driver"}
            options, problems = parse_options(driver_type.Options, settings, f"devices.{name}")
            self.problems += problems
            if options is None:
                continue
            placed, problems = driver_type.beside(options, self.source.parent)
            self.problems += [f"devices.{name}.{line}" for line in problems]
            if not problems:
                found[name] = BoardConfig(driver, placed)
        return found

    def limits(self) -> Limits | None:
        section = self.section(self.data, "limits", True)
        low = self.value(section, "limits.min_bet", int, None)
        high = self.value(section, "limits.max_bet", int, None)
        if low is not None and low <= 0:
            self.fail("limits.min_bet", f"must be more than 0 cents, not {low}")
        elif low is not None and high is not None and low > high:
            self.fail("limits.min_bet", f"{low} is above limits.max_bet {high}")
        elif low is not None and high is not None:
            return Limits(low, high)
        return None

    def rules(self, game: GameSpec | None) -> Rules | None:
        options = self.section(self.data, "game", False)
        if game is None or options is None:
            return None
        rules, problems = parse_options(game.rules_type, options, "game")
        self.problems += problems
        return rules

    def antennas(self, seats: int | None, game: GameSpec | None) -> dict[int, tuple[int, str]]:
        found: dict[int, tuple[int, str]] = {}
        owners: dict[tuple[int, str], int] = {}
        spots = game.game_type.spots if game is not None else None
        section = self.section(self.data, "antennas", True) or {}
        if not section and isinstance(self.data.get("antennas"), dict):
            self.fail("antennas", "no antenna is configured")
        for name, value in section.items():
            key = f"antennas.{name}"
            if not re.fullmatch(r"[1-9][0-9]*", name) or int(name) > MAX_ANTENNA:
                self.fail(key, f"the antenna number must be 1..{MAX_ANTENNA}")
                continue
            if not isinstance(value, str):
                self.fail(key, f'must be a string "seat:spot" or "tray", not {describe(value)}')
                continue
            if value == TRAY_WORD:
                if TRAY in owners:
                    self.fail(key, f"the tray is already on antenna {owners[TRAY]}")
                else:
                    owners[TRAY] = int(name)
                    found[int(name)] = TRAY
                continue
            match = re.fullmatch(r"([0-9]+):([a-z_]+)", value)
            if match is None:
                self.fail(key, f'must be "seat:spot" like "1:main", or "tray", not {value!r}')
                continue
            seat, spot = int(match[1]), match[2]
            if seats is not None and not 1 <= seat <= seats:
                self.fail(key, f"seat {seat} is not at this table (seats 1..{seats})")
            elif spots is not None and spot not in spots:
                self.fail(key, f"{self.game_name} has no spot {spot!r} ({', '.join(spots)})")
            elif (seat, spot) in owners:
                self.fail(key, f"{value} is already on antenna {owners[seat, spot]}")
            else:
                owners[seat, spot] = int(name)
                found[int(name)] = (seat, spot)
        return found

    def journal(self) -> JournalConfig:
        """``[journal]``: the rotation's segment size and the retention of closed segments."""
        section = self.section(self.data, "journal", False)
        default = JournalConfig()
        size = self.value(section, "journal.segment_bytes", int, default.segment_bytes)
        days = self.value(section, "journal.keep_days", int, default.keep_days)
        if size is not None and size < MIN_SEGMENT_BYTES:
            self.fail("journal.segment_bytes", f"must be at least {MIN_SEGMENT_BYTES}, not {size}")
        if days is not None and days < 0:
            self.fail("journal.keep_days", f"must be 0 or more days, not {days}")
        return JournalConfig(size or default.segment_bytes, default.keep_days if days is None else days)

    def screen(self) -> ScreenConfig | None:
        if "screen" not in self.data:
            return None
        section = self.section(self.data, "screen", True)
        listen = self.value(section, "screen.listen", str, "127.0.0.1")
        port = self.value(section, "screen.port", int, SCREEN_PORT)
        if listen is not None and listen not in LOOPBACK:
            self.fail("screen.listen", f"must be a loopback address ({', '.join(LOOPBACK)}): the "
                                       f"screen's kiosk runs on the table's computer, not {listen!r}")
        if port is not None and not 1 <= port <= 65535:
            self.fail("screen.port", f"must be 1..65535, not {port}")
        if section is None or listen is None or port is None:
            return None
        return ScreenConfig(listen, port)

    def pins(self, kind: str, game: GameSpec | None, screen: bool = False) -> dict[str, int]:
        """The ``[buttons]`` or ``[lights]`` pins by button name. ``[buttons]`` and the buttons
        the game needs are required unless the table has a dealer screen (``screen``), on which
        every action has a button of its own."""
        found: dict[str, int] = {}
        section = self.section(self.data, kind, kind == "buttons" and not screen) or {}
        usable = () if game is None else game.buttons_required + game.buttons_optional
        for name in section:
            key = f"{kind}.{name}"
            if name not in BUTTON_NAMES:
                self.fail(key, f"not a dealer button ({', '.join(BUTTON_NAMES)})")
                continue
            if kind == "buttons" and game is not None and name not in usable:
                self.fail(key, f"{self.game_name} has no use for it ({', '.join(usable)})")
            pin = self.value(section, key, int, None)
            if pin is None:
                continue
            if not 0 <= pin <= MAX_PIN:
                self.fail(key, f"BCM pin must be 0..{MAX_PIN}, not {pin}")
            elif pin in self.used_pins:
                self.fail(key, f"pin {pin} is already used by {self.used_pins[pin]}")
            else:
                self.used_pins[pin] = key
                found[name] = pin
        if kind == "buttons" and game is not None and not screen and isinstance(self.data.get(kind), dict):
            for name in game.buttons_required:
                if name not in section:
                    self.fail(f"buttons.{name}", f"missing: {self.game_name} needs this button")
        return found

    def pit(self) -> PitConfig | None:
        section = self.section(self.data, "pit", False)
        if section is None:
            return None
        endpoints: dict[str, str] = {}
        for port, name in enumerate(("publish", "sync", "control"), start=5556):
            key = f"pit.{name}"
            value = self.value(section, key, str, f"tcp://127.0.0.1:{port}")
            if value is None:
                continue
            if not _ENDPOINT.fullmatch(value):
                self.fail(key, f"must be like tcp://127.0.0.1:{port} or ipc:///path, not {value!r}")
            elif value in endpoints.values():
                self.fail(key, f"{value} is already the endpoint of another pit socket")
            endpoints[name] = value
        secret = self.optional_path(section, "pit.curve_secret_key")
        clients = self.optional_path(section, "pit.curve_clients")
        if secret is not None:
            try:
                load_secret_key(secret)
            except ValueError as exc:
                self.fail("pit.curve_secret_key", str(exc))
        if secret is not None and clients is not None and not clients.is_dir():
            self.fail("pit.curve_clients", f"{clients}: not a folder of client public keys")
        if "curve_secret_key" in section and "curve_clients" not in section:
            self.fail("pit.curve_clients", "required when pit.curve_secret_key is set")
        if "curve_clients" in section and "curve_secret_key" not in section:
            self.fail("pit.curve_clients", "has no effect without pit.curve_secret_key")
        control = endpoints.get("control")
        if control and "curve_secret_key" not in section and not is_local_endpoint(control):
            self.fail(
                "pit.control",
                f"{control} is not loopback: bind it to 127.0.0.1, [::1]"
                " or ipc:// unless CURVE is on (pit.curve_secret_key)",
            )
        if len(endpoints) < 3:
            return None
        return PitConfig(
            endpoints["publish"], endpoints["sync"], endpoints["control"], secret, clients
        )

    def pin_hashes(self, section: str, who: str) -> dict[str, str]:
        """``[supervisors]`` or ``[dealers]``: each id -> the hash of its PIN."""
        found: dict[str, str] = {}
        for name, value in (self.section(self.data, section, False) or {}).items():
            key = f"{section}.{name}"
            if not name.strip():
                self.fail(key, f"the {who} id must not be empty")
            elif who == "dealer" and not _DEALER_ID.fullmatch(name):
                self.fail(key, "a dealer's id is 1 to 32 letters, digits, - or _ (what the screen takes)")
            elif not isinstance(value, str) or not looks_like_pin_hash(value):
                self.fail(
                    key,
                    "must be a PIN hash made by controller.security.supervisor_pins.hash_pin "
                    "(scrypt$16384$8$1$<salt>$<key>), never the PIN itself",
                )
            else:
                found[name] = value
        return found
