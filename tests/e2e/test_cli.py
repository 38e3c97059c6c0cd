"""``table-controller`` commands other than ``run``, as a user runs them (subprocesses)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from controller.devkit.simulated import write_config
from controller.security.supervisor_pins import verify_pin

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def example_config(tmp_path: Path, *changes: tuple[str, str]) -> Path:
    """deploy/table.toml with its state in ``tmp_path`` and each ``(old, new)`` text replaced."""
    text = (ROOT / "deploy" / "table.toml").read_text()
    for old, new in (('state_dir = "/var/lib/table-controller"', f'state_dir = "{tmp_path}"'),
                     *changes):
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "table.toml"
    path.write_text(text)
    (tmp_path / "chips.csv").write_text((ROOT / "deploy" / "chips.csv").read_text())
    return path


def test_math_prints_each_wager_house_edge_as_json(tmp_path: Path) -> None:
    result = cli("math", "--config", str(example_config(tmp_path)), "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["game"] == "easy-jack"
    assert set(figures["wagers"]) == {"main", "side"}
    assert abs(figures["wagers"]["main"]["house_edge"] - 0.009336) < 0.00001
    assert abs(figures["wagers"]["side"]["house_edge"] - 0.094976) < 0.00001


def test_math_follows_the_configured_rules(tmp_path: Path) -> None:
    peek = example_config(tmp_path, ("peek_for_ace = false", "peek_for_ace = true"))
    result = cli("math", "--config", str(peek))
    assert result.returncode == 0, result.stderr
    assert "main" in result.stdout and "%" in result.stdout
    six_five = example_config(tmp_path, ("natural_pays_6_5 = false", "natural_pays_6_5 = true"))
    result = cli("math", "--config", str(six_five), "--json")
    assert abs(json.loads(result.stdout)["wagers"]["main"]["house_edge"] - 0.023880) < 0.00001


def test_math_for_blackjack_extreme_reports_the_bank_by_simulation(tmp_path: Path) -> None:
    path = write_config(tmp_path, game_name="blackjack-extreme", spots=("main",),
                        buttons=("deal", "check", "raise", "fold", "stand", "next"))
    result = cli("math", "--config", str(path), "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)["wagers"]
    low, high = figures["bank"]["interval"]
    assert low < figures["bank"]["house_edge"] < high
    assert figures["bank"]["hands"] == 60_000 and "simulation" in figures["bank"]["method"]
    assert "bluffing" in figures["not computed"]["value"]


def test_a_bad_config_stops_every_command_with_one_line_per_mistake(tmp_path: Path) -> None:
    path = example_config(tmp_path, ("decks = 6", "decks = 7"), ("max_bet = 50000", "max_bet = 100"))
    result = cli("math", "--config", str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2, lines
    assert any("game.decks" in line for line in lines)
    assert any("max_bet" in line for line in lines)


def test_the_state_machine_document_is_generated_from_the_code() -> None:
    result = cli("diagram")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (ROOT / "docs" / "state-machine.md").read_text(), (
        "docs/state-machine.md is stale: run table-controller diagram > docs/state-machine.md")


def test_hash_pin_asks_twice_and_makes_a_hash_that_verifies() -> None:
    result = cli("hash-pin", stdin="4711\n4711\n")
    assert result.returncode == 0, result.stderr
    stored = result.stdout.strip()
    assert verify_pin(stored, "4711") and not verify_pin(stored, "4712")


def test_hash_pin_refuses_a_short_pin_and_two_that_differ() -> None:
    """Issue 18 item 17: at least 4 characters, typed twice alike."""
    short = cli("hash-pin", stdin="12\n12\n")
    assert (short.returncode, short.stdout) == (1, "")
    assert short.stderr == "table-controller: a PIN of 2 characters: a PIN has at least 4\n"
    differ = cli("hash-pin", stdin="4711\n4712\n")
    assert (differ.returncode, differ.stdout) == (1, "")
    assert differ.stderr == "table-controller: the two PINs differ: nothing was hashed\n"


def test_recall_without_a_journal_says_so(tmp_path: Path) -> None:
    result = cli("recall", "--config", str(example_config(tmp_path)))
    assert (result.returncode, result.stdout) == (
        0, f"no journal at {tmp_path / 'journal.log'}: no hand was played at this table yet\n")


def test_progressive_on_a_game_without_one_says_so(tmp_path: Path) -> None:
    for extra in ((), ("--json",)):
        result = cli("progressive", "--config", str(example_config(tmp_path)), *extra)
        assert (result.returncode, result.stdout) == (1, "")
        assert result.stderr == "table-controller: easy-jack has no progressive jackpot\n"


def test_every_command_s_help_reads_plainly_and_explains_config() -> None:
    """No literal double backquotes in the help, and every --config has a help line."""
    from controller.cli import build_parser

    parser = build_parser()
    texts = [parser.format_help()]
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        for name, sub in action.choices.items():
            texts.append(sub.format_help())
            for option in sub._actions:
                if "--config" in option.option_strings:
                    assert option.help, f"{name} --config has no help"
    assert not [text for text in texts if "``" in text]


def test_run_without_gpio_says_so_in_one_line_and_journals_nothing(tmp_path: Path) -> None:
    """Off a Pi (no pin factory found, or a wrong one named): one line saying what is missing and
    how to choose a pin factory, exit status 2, no traceback, and nothing journaled (issue 18 item 9)."""
    import os

    path = write_config(tmp_path)
    for factory in (None, "bogus"):
        env = {name: value for name, value in os.environ.items() if name != "GPIOZERO_PIN_FACTORY"}
        if factory is not None:
            env["GPIOZERO_PIN_FACTORY"] = factory
        result = subprocess.run([sys.executable, "-m", "controller.cli", "run", "--config", str(path)],
                                capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
        assert result.returncode == 2, result.stderr
        (line,) = result.stderr.splitlines()
        assert line.startswith("table-controller: the dealer's buttons and lights cannot be driven: ")
        assert "GPIOZERO_PIN_FACTORY=mock" in line and "lgpio" in line
        assert not list(tmp_path.glob("**/journal.log")) or not any(
            journal.stat().st_size for journal in tmp_path.glob("**/journal.log"))
