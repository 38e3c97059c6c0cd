"""The bench scripts still run and print their figures (tiny runs; no timing is asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *args: str) -> str:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / script), *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_link_bench() -> None:
    figures = json.loads(run("link_bench.py", "--frames", "300", "--paced", "30", "--json"))
    assert figures, figures


def test_daemon_bench() -> None:
    output = run("daemon_bench.py", "--hands", "2", "--burst", "300")
    figures = json.loads(output[output.index("{"):])
    assert figures["card_to_event_samples"] > 0
    assert figures["floor_samples"] > 0 and figures["p50_over_floor"] > 0
    assert figures["rss_mib"] > 0


def test_host_reading_bench() -> None:
    figures = json.loads(run("host_reading_bench.py", "--readings", "50", "--runs", "1", "--json"))
    assert figures["readings"] == 50 and figures["runs"][0]["total_us"] > 0
    assert figures["wagers"] >= 50  # each reading changed seat 1's wager


def test_protection_list_bench() -> None:
    output = run("protection_list_bench.py", "--tables", "3", "--events", "60")
    assert output.startswith("3 tables, 18 subjects") and output.count("| every table dealt a hand |") == 5


def test_service_bench_starts_and_stops_the_daemon_as_systemd_does() -> None:
    figures = json.loads(run("service_bench.py"))
    assert figures["exit_status"] == 0
    assert 0 < figures["ready_s"] <= figures["boards_online_s"]
    assert figures["stopping_after_sigterm_s"] <= figures["exited_after_sigterm_s"]


def test_service_bench_fails_when_the_daemon_never_reports_ready() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "bench" / "service_bench.py"), "--command", "false",
                             "--timeout", "30"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and result.stdout == ""
    assert "no 'READY=1' from the daemon before it exited (status 1)" in result.stderr


def test_startup_bench() -> None:
    assert "from a checkpoint" in run("startup_bench.py", "--events", "1500")


def test_clear_bench() -> None:
    figures = json.loads(run("clear_bench.py", "--mib", "0.2", "--segment-mib", "0.05", "--json"))
    assert figures["closed_segments"] >= 3 and figures["clear_mib_per_s"] > 0
    assert figures["clear_ticks"] > 0 and figures["on_loop_longest_stall_ms"] >= 0


def test_table_bench() -> None:
    output = run("table_bench.py", "--hands", "20")
    assert "20 hands" in output and "per card drawn" in output


def test_monitor_bench() -> None:
    figures = json.loads(run("monitor_bench.py", "--events", "200", "--record-tables", "2", "--tables", "2",
                             "--seconds", "1", "--sqlite-only", "--json"))
    assert figures["recorder"]["sqlite"]["events"] == 400
    assert figures["monitor"][0]["updates"] > 0



def test_ratings_bench() -> None:
    figures = json.loads(run("ratings_bench.py", "--tables", "8", "--seconds", "1", "--stored-events", "40",
                             "--record-tables", "1", "--events", "400", "--rated-tables", "3",
                             "--close-every", "10", "--openings", "20", "--sqlite-only", "--json"))
    recorder = figures["sqlite"]["recorder"]
    assert recorder["without_ratings"]["events"] == recorder["with_ratings"]["events"] == 400
    rated = recorder["with_ratings"]
    assert rated["ratings_open_before"] == (3 + 1) * 6 and rated["table_closed_events"] > 0
    assert rated["closed_by_table_closed"] >= 6         # the recorded table's six, at its first closing
    (monitor,) = figures["sqlite"]["monitor"]
    assert monitor["ratings"] == 8 * 6 and monitor["updates"] > 0
    assert monitor["detail_rated"] == 6                        # B0000's page shows its six open ratings
    assert figures["postgresql"] == {"skipped": "--sqlite-only"}

def test_reader_bench() -> None:
    figures = json.loads(run("reader_bench.py", "--trials", "1", "--sizes", "1", "5", "--spots", "2",
                             "--spot-chips", "3", "--json"))
    assert [stack["chips"] for stack in figures["stacks"]] == [1, 5]
    assert all(0 < stack["reread_ratio_to_ideal"] <= 1 for stack in figures["stacks"])
    assert figures["table"]["chips"] == 6 and figures["table"]["reread_ms"] > 0


def test_bjx_math_bench() -> None:
    figures = json.loads(run("bjx_math_bench.py", "--hands", "300", "--json"))
    assert set(figures) == {"2 decks (default)", "1 deck", "2 decks, no heads-up draws"}
    assert all(figure["hands"] == 300 for figure in figures.values())


def test_buster_math_bench() -> None:
    figures = json.loads(run("buster_math_bench.py", "--precision", "1", "--workers", "1", "--json"))
    assert figures["rounds"] == 250_000 and figures["interval_pct"][0] < figures["house_edge_pct"]


def test_buster_figures(tmp_path: Path) -> None:
    out = tmp_path / "stored.py"
    run("buster_figures.py", "--precision", "1", "--workers", "1", "--out", str(out))
    written: dict[str, Any] = {}
    exec(out.read_text(), written)                       # the module as the game would import it
    (figure,) = written["STORED"].values()               # the defaults and the example table: one simulation
    assert figure["rounds"] == 250_000 and len(figure["rules"]) == 2
    assert {rules["collection_fee"] for rules in figure["rules"]} == {0, 100}


def test_protection_bench() -> None:
    figures = json.loads(run("protection_bench.py", "--flat", "6", "--others", "6", "--shoes", "2",
                             "--json"))
    kinds = {r["kind"]: r for r in figures["results"]}
    assert set(kinds) == {"flat", "flat, noisy", "random", "counter 1-8", "wonger"}
    assert kinds["flat"]["players"] == 6 and kinds["flat"]["alerted"] == 0
    assert kinds["counter 1-8"]["shoes"] == 2 and 0 <= kinds["counter 1-8"]["alerted"] <= 6
    assert all(r["events"] > 0 and r["us_per_event"] > 0 for r in kinds.values())


def test_decode_bench() -> None:
    figures = json.loads(run("decode_bench.py", "--hands", "3", "--repeat", "1", "--json"))
    assert figures["events"] > 20 and figures["us_per_event"] > 0
    assert "player.action" in figures["us_per_event_by_type"]
    assert figures["pictures"] > 200 and figures["us_per_picture"] > 0 and figures["us_per_tile_view"] > 0
    assert figures["checkpoints"] == 13 and figures["us_per_checkpoint"] > 0


def test_mistake_bench() -> None:
    output = run("mistake_bench.py", "--hands", "5", "--mistakes", "1")
    assert "0 false alarms" in output and "| underpay |" in output


def test_optical_bench() -> None:
    output = run("optical_bench.py", "--draws", "5", "--designs", "standard")
    assert "| standard | 5 |" in output or "cannot be had" in output, output
