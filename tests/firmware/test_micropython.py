"""The firmware is really MicroPython for the Pico: it imports only what the rp2 port has, mpy-cross
compiles every file, it type-checks against the rp2 stubs; and the tools that ship it (flash, codes)."""

from __future__ import annotations

import ast
import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.cli import main
from firmware_bridge.firmware import FOLDER, cardcode
from firmware_bridge.firmware_host.flash import BY_KIND, COMMON, firmware_files

RP2_MODULES = {
    "array", "binascii", "builtins", "cmath", "collections", "cryptolib", "deflate", "errno", "framebuf",
    "gc", "hashlib", "heapq", "io", "json", "machine", "math", "micropython", "network", "os", "platform",
    "random", "re", "rp2", "select", "socket", "ssl", "struct", "sys", "time", "uctypes", "vfs",
    "asyncio", "_thread",
}
"""The modules of MicroPython's rp2 port (docs.micropython.org, the rp2 quick reference and library)."""


def imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs: not those under ``if TYPE_CHECKING:`` (for the type
    checker only), where TYPE_CHECKING must be the module's own ``False``."""
    tree = ast.parse(path.read_text())
    nodes: list[ast.AST] = [tree]
    names: set[str] = set()
    while nodes:
        node = nodes.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            assert "\nTYPE_CHECKING = False\n" in path.read_text(), path.name
            nodes += node.orelse
            continue
        nodes += ast.iter_child_nodes(node)
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: a relative import"
            names.add(node.module or "")
    return names


@pytest.mark.parametrize("path", firmware_files(), ids=lambda path: path.name)
def test_a_firmware_file_imports_only_what_micropython_on_the_pico_has(path: Path) -> None:
    own = {Path(name).stem for name in (*COMMON, *(name for names in BY_KIND.values() for name in names))}
    assert imports(path) - RP2_MODULES - own == set()


def test_every_firmware_file_compiles_with_mpy_cross(tmp_path: Path) -> None:
    files = firmware_files()
    assert {"link.py", "board.py", "shoe.py", "main.py"} <= {path.name for path in files}
    for path in files:
        out = tmp_path / (path.stem + ".mpy")
        done = subprocess.run([sys.executable, "-m", "mpy_cross", "-o", str(out), str(path)],
                              capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert out.read_bytes()[:1] == b"M"


def test_mpy_cross_fails_on_what_micropython_cannot_compile(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    done = subprocess.run([sys.executable, "-m", "mpy_cross", str(bad)], capture_output=True, check=False)
    assert done.returncode != 0


def test_the_firmware_type_checks_against_the_rp2_stubs(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "firmware_bridge.firmware_host.typecheck"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout
    (tmp_path / "blink.py").write_text(
        "import machine\nimport time\n\n\ndef blink() -> None:\n"
        "    machine.Pin(25, machine.Pin.OUT).toggle()\n    time.sleep_us(10)\n"
        "    machine.Pin(25).blink()\n    time.ticks_ns()\n")
    done = subprocess.run([sys.executable, "-m", "firmware_bridge.firmware_host.typecheck", str(tmp_path)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 1
    errors = [line for line in done.stdout.splitlines() if ": error: " in line]
    assert len(errors) == 2, done.stdout
    assert '"Pin" has no attribute "blink"' in errors[0] and 'has no attribute "ticks_ns"' in errors[1]


def test_flash_copies_the_shoe_files_and_its_config_with_mpremote() -> None:
    out = io.StringIO()
    assert main(["flash", "shoe", "--serial", "SH-00017", "--port", "/dev/ttyACM0", "--decks", "8",
                 "--dry-run"], out) == 0
    text = out.getvalue()
    config = json.loads(text[: text.index("}\n}") + 3])
    assert (config["kind"], config["serial"], config["decks"]) == ("shoe", "SH-00017", 8)
    (command,) = [line.split() for line in text[text.index("}\n}") + 3 :].splitlines() if line]
    assert command[:3] == ["mpremote", "connect", "/dev/ttyACM0"]
    steps = " ".join(command[3:]).split(" + ")
    copies = [step.split() for step in steps[:-1]]
    assert [copy[3] for copy in copies] == [":board.py", ":cardcode.py", ":flashstore.py", ":link.py",
                                            ":main.py", ":shoe.py", ":board.json"]
    assert all(copy[:2] == ["fs", "cp"] and Path(copy[2]).name == copy[3][1:] for copy in copies[:-1])
    assert all(Path(copy[2]).parent == FOLDER for copy in copies[:-1])
    assert steps[-1] == "reset"


def test_flash_copies_the_rfid_readers_files_and_its_antennas() -> None:
    out = io.StringIO()
    assert main(["flash", "rfid", "--serial", "RF-3", "--antennas", "1", "2", "3", "--dry-run"], out) == 0
    text = out.getvalue()
    end = text.index("\n}\n") + 3
    config = json.loads(text[:end])
    assert (config["kind"], config["antennas"], config["pins"]["busy"]) == ("rfid", [1, 2, 3], 20)
    names = [word for word in text[end:].split() if word.startswith(":")]
    assert names == [":board.py", ":chiptable.py", ":iso15693.py", ":link.py", ":main.py", ":pn5180.py",
                     ":spot_reader.py", ":board.json"]
    wide = io.StringIO()
    assert main(["flash", "rfid", "--serial", "RF-4", "--antennas", "1", "30", "--dry-run"], wide) == 0
    text = wide.getvalue()
    config = json.loads(text[:text.index("\n}\n") + 3])
    assert config["antennas"] == [1, 30] and config["pins"]["select"] == [10, 11, 12, 13, 14]
    assert config["pins"]["light_chain"] == {"data": 0, "clock": 1, "latch": 2, "count": 32}


def test_flash_refuses_bad_arguments() -> None:
    out = io.StringIO()
    assert main(["flash", "shoe", "--serial", "SH-1", "--decks", "0", "--dry-run"], out) == 2
    assert main(["flash", "rfid", "--serial", "RF-1", "--antennas", "33", "--dry-run"], out) == 2
    assert main(["flash", "rfid", "--serial", "RF-1", "--antennas", "0", "--dry-run"], out) == 2
    with pytest.raises(SystemExit):
        main(["flash", "shoe", "--dry-run"], io.StringIO())            # no serial number
    with pytest.raises(SystemExit):
        main(["flash", "dice", "--serial", "X", "--dry-run"], io.StringIO())


def test_the_code_sheet_gives_every_card_of_every_deck_a_code_the_shoe_reads_back() -> None:
    out = io.StringIO()
    assert main(["codes", "--decks", "6", "--csv"], out) == 0
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(rows) == 6 * 52 + 1 and len({row["code"] for row in rows}) == len(rows)
    ranks, suits = "A23456789TJQK", "cdhs"
    for row in rows[:-1]:
        card = row["card"]
        assert cardcode.parse(row["code"]) == (int(row["deck"], 36), ranks.index(card[0]) + 1,
                                               suits.index(card[1]))
    assert cardcode.parse(rows[-1]["code"]) == cardcode.CUT
    assert main(["codes", "--decks", "36"], io.StringIO()) == 2


def test_a_single_wrong_character_or_a_swap_never_reads_as_a_card() -> None:
    alphabet = cardcode.ALPHABET
    for deck in (1, 9, 35):
        for rank in range(1, 14):
            for suit in range(4):
                code = cardcode.code(deck, rank, suit)
                for at in range(len(code)):
                    for char in alphabet:
                        if char != code[at]:
                            assert cardcode.parse(code[:at] + char + code[at + 1 :]) is None
                for at in range(len(code) - 1):
                    swapped = code[:at] + code[at + 1] + code[at] + code[at + 2 :]
                    if swapped != code:
                        assert cardcode.parse(swapped) is None
