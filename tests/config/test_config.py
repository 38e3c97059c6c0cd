"""Tests for the table configuration, the typed ``[game]`` options and supervisor PIN hashes."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
import zmq.auth

from controller.config.loader import ConfigError, load_config
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.options import parse_options
from controller.security.supervisor_pins import hash_pin, looks_like_pin_hash, verify_pin

REPO = Path(__file__).resolve().parents[2]
PIN_HASH = hash_pin("2468", salt=bytes(range(16)))

VALID = f"""
[table]
id = "T07"
game = "easy-jack"
seats = 6
state_dir = "state"

[limits]
min_bet = 500
max_bet = 50000

[game]
decks = 8
side_max_bet = 10000

[game.dealer_bust_pays]
2 = 3
3 = 5

[devices.shoe]
port = "/dev/table-shoe"

[devices.rfid]
port = "/dev/table-rfid"

[antennas]
1 = "1:main"
2 = "1:side"
3 = "6:main"

[chips]
registry = "chips.csv"

[buttons]
deal = 5
stand = 6
next = 13

[lights]
deal = 16
next = 21

[pit]
publish = "tcp://*:6000"
control = "ipc:///run/table-controller/control"

[supervisors]
S101 = "{PIN_HASH}"

[display]
mode = "terminal"
"""

MINIMAL = """
[table]
id = "T07"
game = "easy-jack"
seats = 6
[limits]
min_bet = 500
max_bet = 50000
[devices.shoe]
port = "/dev/ttyUSB0"
[devices.rfid]
port = "/dev/ttyUSB1"
[antennas]
1 = "1:main"
[buttons]
deal = 5
stand = 6
next = 13
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(text)
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert str(caught.value) == "\n".join(caught.value.problems)
    return caught.value.problems


def edit(old: str, new: str, base: str = MINIMAL) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def test_full_config_loads(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, VALID))
    assert config.source == tmp_path / "table.toml"
    assert (config.table_id, config.game, config.seats) == ("T07", "easy-jack", 6)
    assert config.state_dir == tmp_path / "state"
    assert (config.limits.min_bet, config.limits.max_bet) == (500, 50000)
    assert config.rules == EasyJackRules(decks=8, dealer_bust_pays={2: 3, 3: 5}, side_max_bet=10000)
    assert {role: (board.driver, board.options.port) for role, board in config.boards.items()} == {
        "shoe": ("link", "/dev/table-shoe"), "rfid": ("link", "/dev/table-rfid")}
    assert config.antennas == {1: (1, "main"), 2: (1, "side"), 3: (6, "main")}
    assert config.chip_registry == tmp_path / "chips.csv"
    assert config.buttons == {"deal": 5, "stand": 6, "next": 13}
    assert config.lights == {"deal": 16, "next": 21}
    assert config.pit.publish == "tcp://*:6000"
    assert config.pit.sync == "tcp://127.0.0.1:5557"
    assert config.pit.control == "ipc:///run/table-controller/control"
    assert config.pit.curve_secret_key is None
    assert verify_pin(config.supervisors["S101"], "2468")
    assert config.display.mode == "terminal"


def test_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, MINIMAL))
    assert config.state_dir == Path("/var/lib/table-controller")
    assert config.chip_registry == Path("/etc/table-controller/chips.csv")
    assert (config.pit.publish, config.pit.sync, config.pit.control) == (
        "tcp://127.0.0.1:5556",
        "tcp://127.0.0.1:5557",
        "tcp://127.0.0.1:5558",
    )
    assert config.rules == EasyJackRules()
    assert config.lights == {} and config.supervisors == {}
    assert config.display.mode == "log"


def test_shipped_example_loads() -> None:
    config = load_config(REPO / "deploy" / "table.toml")
    assert config.chip_registry == REPO / "deploy" / "chips.csv"
    assert len(config.antennas) == 2 * config.seats
    lines = config.chip_registry.read_text().splitlines()
    assert lines[0] == "uid,value_cents,status"
    for line in lines[1:]:
        uid, cents, status = line.split(",")
        assert len(uid) == 16 and int(uid, 16) >= 0 and uid == uid.lower()
        assert int(cents) > 0 and status in ("active", "void")


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('id = "T07"', 'id = ""', "table.id: must not be empty"),
        (
            'id = "T07"',
            'id = "T 07"',
            "table.id: 'T 07' may hold only letters, digits, '-' and '_'",
        ),
        ('id = "T07"', "id = 7", "table.id: must be a string, not an integer"),
        ('id = "T07"\n', "", "table.id: missing (required)"),
        ("seats = 6", 'seats = "6"', "table.seats: must be an integer, not a string"),
        ("seats = 6", "seats = true", "table.seats: must be an integer, not a boolean"),
        ("seats = 6", "seats = 0", "table.seats: must be 1..32, not 0"),
        ("seats = 6", "seats = 33", "table.seats: must be 1..32, not 33"),
        ("seats = 6", "seats = 6\nrepeat_window_ms = 10001",
         "table.repeat_window_ms: must be 0..10000 milliseconds, not 10001"),
        (
            'game = "easy-jack"',
            'game = "poker"',
            "table.game: 'poker' is not an installed game (installed: blackjack-extreme, buster-blackjack-x, "
            "easy-jack, holdem-blackjack)",
        ),
        ("[table]", "[table]\ncolour = 1", "table.colour: unknown key"),
        ("[limits]", "[lighting]\nx = 1\n[limits]", "lighting: unknown section"),
        ("[table]", 'colour = "red"\n[table]', "colour: unknown key"),
        ("min_bet = 500", "min_bet = 0", "limits.min_bet: must be more than 0 cents, not 0"),
        ("min_bet = 500", "min_bet = 60000", "limits.min_bet: 60000 is above limits.max_bet 50000"),
        ("min_bet = 500", "min_bet = 5.5", "limits.min_bet: must be an integer, not a float"),
        ("max_bet = 50000", "max_bet = 1000000000000000000000000000000",
         "limits.max_bet: must be at most 1000000000 ($10,000,000.00, the most any amount may be)"),
        ("next = 13", "next = 13\n[game]\nside_max_bet = 1000000001",
         "game.side_max_bet: must be at most 1000000000 ($10,000,000.00, the most any amount may be)"),
        ("next = 13", "next = 13\n[game]\nside_max_bet = -1000000001",
         "game.side_max_bet: must be at least -1000000000"),
        ("[limits]\nmin_bet = 500\nmax_bet = 50000\n", "", "limits: missing (required section)"),
        ("max_bet = 50000\n", "", "limits.max_bet: missing (required)"),
        ('[devices.rfid]\nport = "/dev/ttyUSB1"\n', "", "devices.rfid: missing (required section)"),
        ('port = "/dev/ttyUSB0"', "port = 'x'\nspeed = 9600", "devices.shoe.speed: unknown key"),
        (
            "[devices.shoe]",
            "[devices.printer]\nport = 'x'\n[devices.shoe]",
            "devices.printer: 'printer' is not an installed board (installed: rfid, shoe)",
        ),
        ('port = "/dev/ttyUSB0"', 'port = "/dev/ttyUSB0"\ndriver = "serial-text"',
         "devices.shoe.driver: 'serial-text' is not an installed driver (installed: link, optical)"),
        ('port = "/dev/ttyUSB0"', 'port = "/dev/ttyUSB0"\ndriver = 3',
         "devices.shoe.driver: must be a string, not an integer"),
        ('port = "/dev/ttyUSB0"', "port = 7", "devices.shoe.port: must be a string, not an integer"),
        ('1 = "1:main"', '33 = "1:main"', "antennas.33: the antenna number must be 1..32"),
        ('1 = "1:main"', 'x = "1:main"', "antennas.x: the antenna number must be 1..32"),
        ('1 = "1:main"', '1 = "7:main"', "antennas.1: seat 7 is not at this table (seats 1..6)"),
        (
            '1 = "1:main"',
            '1 = "1-main"',
            'antennas.1: must be "seat:spot" like "1:main", or "tray", not \'1-main\'',
        ),
        ('1 = "1:main"', "1 = 1", 'antennas.1: must be a string "seat:spot" or "tray", not an integer'),
        ('1 = "1:main"', '1 = "1:main"\n7 = "tray"\n8 = "tray"',
         "antennas.8: the tray is already on antenna 7"),
        (
            '1 = "1:main"',
            '1 = "1:progressive"',
            "antennas.1: easy-jack has no spot 'progressive' (main, side)",
        ),
        (
            '1 = "1:main"',
            '1 = "1:main"\n2 = "1:main"',
            "antennas.2: 1:main is already on antenna 1",
        ),
        ('1 = "1:main"\n', "", "antennas: no antenna is configured"),
        ("deal = 5", "deal = 28", "buttons.deal: BCM pin must be 0..27, not 28"),
        ("deal = 5", 'deal = "5"', "buttons.deal: must be an integer, not a string"),
        ("deal = 5", "deal = 6", "buttons.stand: pin 6 is already used by buttons.deal"),
        ("next = 13\n", "", "buttons.next: missing: easy-jack needs this button"),
        (
            "deal = 5",
            "deal = 5\nspin = 7",
            "buttons.spin: not a dealer button (deal, stand, hit, "
            "double, split, surrender, insurance, check, raise, call, fold, next, void, bet, play)",
        ),
        (
            "deal = 5",
            "deal = 5\nsplit = 7",
            "buttons.split: easy-jack has no use for it (deal, stand, next, void)",
        ),
        (
            "next = 13",
            "next = 13\n[lights]\ndeal = 13",
            "lights.deal: pin 13 is already used by buttons.next",
        ),
        (
            "next = 13",
            "next = 13\n[lights]\nvoid = 20",
            "lights.void: has no button of that name in [buttons]",
        ),
        (
            "[buttons]\ndeal = 5\nstand = 6\nnext = 13\n",
            "[lights]\ndeal = 16\n",
            "buttons: missing (required section)",
        ),
        (
            "next = 13",
            'next = 13\n[pit]\npublish = "http://x:1"',
            "pit.publish: must be like tcp://127.0.0.1:5556 or ipc:///path, not 'http://x:1'",
        ),
        (
            "next = 13",
            'next = 13\n[pit]\nsync = "tcp://127.0.0.1:5556"',
            "pit.sync: tcp://127.0.0.1:5556 is already the endpoint of another pit socket",
        ),
        (
            "next = 13",
            'next = 13\n[pit]\ncontrol = "tcp://0.0.0.0:5558"',
            "pit.control: tcp://0.0.0.0:5558 is not loopback: "
            "bind it to 127.0.0.1, [::1] or ipc:// "
            "unless CURVE is on (pit.curve_secret_key)",
        ),
        (
            "next = 13",
            'next = 13\n[pit]\ncurve_clients = "c"',
            "pit.curve_clients: has no effect without pit.curve_secret_key",
        ),
        (
            "next = 13",
            'next = 13\n[supervisors]\nS1 = "1234"',
            "supervisors.S1: must be a PIN hash "
            "made by controller.security.supervisor_pins.hash_pin (scrypt$16384$8$1$<salt>$<key>), "
            "never the PIN itself",
        ),
        (
            "next = 13",
            'next = 13\n[dealers]\nD1 = "1234"',
            "dealers.D1: must be a PIN hash "
            "made by controller.security.supervisor_pins.hash_pin (scrypt$16384$8$1$<salt>$<key>), "
            "never the PIN itself",
        ),
        (
            "next = 13",
            'next = 13\n[dealers]\n"D 1" = "scrypt$16384$8$1$0011223344556677$'
            '00112233445566778899aabbccddeeff"',
            "dealers.D 1: a dealer's id is 1 to 32 letters, digits, - or _ (what the screen takes)",
        ),
        (
            "next = 13",
            'next = 13\n[display]\nmode = "lcd"',
            "display.mode: must be one of terminal, log, off, not 'lcd'",
        ),
        ("next = 13", "next = 13\n[game]\ndecks = 7", "game.decks: must be 6 or 8, not 7"),
        (
            "next = 13",
            'next = 13\n[game]\ndecks = "6"',
            "game.decks: must be an integer, not a string",
        ),
        ("next = 13", "next = 13\n[game]\nshuffle = 1", "game.shuffle: unknown key"),
        ("[table]", "game = 1\n[table]", "game: must be a table, not an integer"),
    ],
)
def test_each_mistake_names_its_key(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert problems(tmp_path, edit(old, new)) == [expected]


def curve_keys(folder: Path) -> tuple[Path, Path]:
    """A table's secret key file and an (empty) folder of client keys, made in ``folder``."""
    (folder / "k" / "c").mkdir(parents=True)
    _, secret = zmq.auth.create_certificates(folder / "k", "table")
    return Path(secret), folder / "k" / "c"


def test_curve_lets_control_leave_loopback(tmp_path: Path) -> None:
    secret, clients = curve_keys(tmp_path)
    pit = f'[pit]\ncontrol = "tcp://*:5558"\ncurve_secret_key = "{secret}"\ncurve_clients = "k/c"\n'
    config = load_config(write(tmp_path, MINIMAL + pit))
    assert config.pit.control == "tcp://*:5558"
    assert config.pit.curve_secret_key == secret
    assert config.pit.curve_clients == clients


def test_curve_key_files_that_cannot_be_used_are_configuration_mistakes(tmp_path: Path) -> None:
    secret, _ = curve_keys(tmp_path)
    public = secret.with_suffix(".key")
    for key, clients, expected in [
        ("k/missing", "k/c", f"pit.curve_secret_key: {tmp_path / 'k/missing'}: no such file"),
        ("k", "k/c", f"pit.curve_secret_key: {tmp_path / 'k'}: not a file"),
        (public, "k/c", f"pit.curve_secret_key: {public}: holds no secret key (give the *.key_secret file)"),
        ("k/c", "k/c", f"pit.curve_secret_key: {tmp_path / 'k/c'}: not a file"),
        (secret, "k/none", f"pit.curve_clients: {tmp_path / 'k/none'}: not a folder of client public keys"),
    ]:
        pit = f'[pit]\ncurve_secret_key = "{key}"\ncurve_clients = "{clients}"\n'
        assert problems(tmp_path, MINIMAL + pit) == [expected]
    (tmp_path / "junk").write_text("not a certificate")
    pit = '[pit]\ncurve_secret_key = "junk"\ncurve_clients = "k/c"\n'
    assert problems(tmp_path, MINIMAL + pit)[0].startswith(f"pit.curve_secret_key: {tmp_path / 'junk'}: ")
    pit = '[pit]\ncurve_secret_key = "k/missing"\n'
    assert problems(tmp_path, MINIMAL + pit) == [
        f"pit.curve_secret_key: {tmp_path / 'k/missing'}: no such file",
        "pit.curve_clients: required when pit.curve_secret_key is set"]


def test_every_mistake_is_reported(tmp_path: Path) -> None:
    text = edit("seats = 6", "seats = 40")
    text = edit("min_bet = 500", "min_bet = -1", text)
    text = edit("deal = 5", "deal = 99", text)
    text = edit("[antennas]", "[antennas]\n2 = 'bad'", text)
    assert problems(tmp_path, text) == [
        "table.seats: must be 1..32, not 40",
        "limits.min_bet: must be more than 0 cents, not -1",
        'antennas.2: must be "seat:spot" like "1:main", or "tray", not \'bad\'',
        "buttons.deal: BCM pin must be 0..27, not 99",
    ]


def test_missing_sections(tmp_path: Path) -> None:
    assert problems(tmp_path, "") == [
        "table: missing (required section)",
        "limits: missing (required section)",
        "devices: missing (required section)",
        "antennas: missing (required section)",
        "buttons: missing (required section)",
    ]


def test_unreadable_and_broken_files_give_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(tmp_path / "absent.toml")
    assert caught.value.problems == [
        f"{tmp_path / 'absent.toml'}: cannot read the file: No such file or directory"
    ]
    [line] = problems(tmp_path, "[table\nid = 1")
    assert line.startswith(f"{tmp_path / 'table.toml'}: not valid TOML: ")
    assert "line 1" in line
    (tmp_path / "table.toml").write_bytes(b"id = '\xff'")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(tmp_path / "table.toml")


@dataclass(frozen=True)
class Sample:
    """A stand-in rules type covering every supported field type."""

    decks: int = 6
    peek: bool = False
    name: str = "x"
    cap: int | None = None
    pays: dict[int, int] = field(default_factory=lambda: {2: 3})

    def problems(self) -> list[str]:
        return ["decks: must be even"] if self.decks % 2 else []


@dataclass(frozen=True)
class Required:
    """A rules type with a field that has no default."""

    stake: int


def test_options_build_the_instance() -> None:
    table = {"decks": 8, "peek": True, "name": "y", "cap": 5, "pays": {"2": 4, "10": 9}}
    rules, found = parse_options(Sample, table, "game")
    assert found == []
    assert rules == Sample(8, True, "y", 5, {2: 4, 10: 9})
    assert parse_options(Sample, {}, "game") == (Sample(), [])


def test_options_report_every_mistake() -> None:
    table = {"decks": True, "peek": 1, "name": 2, "cap": "5", "pays": {"two": 3, "4": "x"}, "z": 0}
    assert parse_options(Sample, table, "game") == (
        None,
        [
            "game.z: unknown key",
            "game.decks: must be an integer, not a boolean",
            "game.peek: must be a boolean, not an integer",
            "game.name: must be a string, not an integer",
            "game.cap: must be an integer, not a string",
            "game.pays: key 'two' must be a whole number",
            "game.pays.4: must be an integer, not a string",
        ],
    )
    assert parse_options(Sample, {"pays": [1]}, "game") == (
        None,
        ["game.pays: must be a table, not an array"],
    )


def test_options_add_the_rules_own_problems_and_required_fields() -> None:
    assert parse_options(Sample, {"decks": 7}, "game") == (None, ["game.decks: must be even"])
    assert parse_options(Required, {}, "opts") == (None, ["opts.stake: missing (required)"])
    assert parse_options(Required, {"stake": 3}, "opts") == (Required(3), [])


def test_pin_hashes() -> None:
    first, second = hash_pin("2468"), hash_pin("2468")
    assert first != second  # a fresh salt each time
    assert first.startswith("scrypt$16384$8$1$") and looks_like_pin_hash(first)
    assert verify_pin(first, "2468") and verify_pin(second, "2468")
    assert not verify_pin(first, "2469")
    tampered = first[:-1] + ("0" if first[-1] != "0" else "1")
    assert not verify_pin(tampered, "2468")
    for bad in ("", "2468", "scrypt$16384$8$1$zz$00", "scrypt$3$8$1$" + first.split("$", 4)[4]):
        assert not verify_pin(bad, "2468")


def test_dealers_pins_are_kept_as_their_hashes(tmp_path: Path) -> None:
    stored = hash_pin("2468", salt=bytes(16))
    config = load_config(write(tmp_path, MINIMAL + f'\n[dealers]\nD207 = "{stored}"\n'))
    assert dict(config.dealers) == {"D207": stored}
    assert dict(load_config(write(tmp_path, MINIMAL)).dealers) == {}


def test_the_integrity_manifest_is_optional_and_resolved_from_the_config_folder(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, MINIMAL)).integrity_manifest is None
    config = load_config(write(tmp_path, MINIMAL + '\n[integrity]\nmanifest = "manifest.json"\n'))
    assert config.integrity_manifest == tmp_path / "manifest.json"
    assert problems(tmp_path, MINIMAL + "\n[integrity]\nmanifest = 5\nsize = 1\n") == [
        "integrity.size: unknown key", "integrity.manifest: must be a string, not an integer"]


def test_a_table_with_a_screen_needs_no_button(tmp_path: Path) -> None:
    without_buttons = edit("[buttons]\ndeal = 5\nstand = 6\nnext = 13\n", "")
    assert problems(tmp_path, without_buttons) == ["buttons: missing (required section)"]
    assert problems(tmp_path, edit("stand = 6\n", "")) == [
        "buttons.stand: missing: easy-jack needs this button"]
    config = load_config(write(tmp_path, without_buttons + "[screen]\n"))
    assert config.buttons == {} and config.screen is not None
    assert (config.screen.listen, config.screen.port) == ("127.0.0.1", 8070)
    config = load_config(write(tmp_path, edit("stand = 6\n", "") + "[screen]\nport = 8081\n"))
    assert config.buttons == {"deal": 5, "next": 13} and config.screen is not None
    assert config.screen.port == 8081
    assert load_config(write(tmp_path, MINIMAL)).screen is None


def test_the_screen_listens_on_loopback_only(tmp_path: Path) -> None:
    assert problems(tmp_path, MINIMAL + '[screen]\nlisten = "0.0.0.0"\nport = 0\nkiosk = 1\n') == [
        "screen.kiosk: unknown key",
        "screen.listen: must be a loopback address (127.0.0.1, ::1, localhost): the screen's kiosk "
        "runs on the table's computer, not '0.0.0.0'",
        "screen.port: must be 1..65535, not 0"]


def test_every_example_configuration_in_deploy_loads_and_every_game_has_one() -> None:
    """Each deploy/*.toml is a configuration the daemon starts on (issue 18 item 17)."""
    from controller.games.catalog import find_game, game_names

    games = set()
    for path in sorted((REPO / "deploy").glob("*.toml")):
        config = load_config(path)
        assert config.chip_registry == REPO / "deploy" / "chips.csv", path
        spots = set(find_game(config.game).game_type.spots)
        assert {spot for _, spot in config.antennas.values()} == spots, path
        games.add(config.game)
    assert games == set(game_names())


def test_the_journal_section_sets_rotation_and_retention(tmp_path: Path) -> None:
    default = load_config(write(tmp_path, MINIMAL)).journal
    assert (default.segment_bytes, default.keep_days) == (16 * 1024 * 1024, 400)
    config = load_config(write(tmp_path, MINIMAL + "\n[journal]\nsegment_bytes = 65536\nkeep_days = 0\n"))
    assert (config.journal.segment_bytes, config.journal.keep_days) == (65536, 0)
    assert problems(tmp_path, MINIMAL + "\n[journal]\nsegment_bytes = 100\nkeep_days = -1\nkeep = 3\n") == [
        "journal.keep: unknown key",
        "journal.segment_bytes: must be at least 4096, not 100",
        "journal.keep_days: must be 0 or more days, not -1"]
