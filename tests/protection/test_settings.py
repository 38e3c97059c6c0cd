"""A floor's [protection]: its settings read and checked, and figures held until the cut card."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from controller.devkit.protection_sim import Counter, FlatBettor, SimTable
from controller.podium.protection.settings import DEFAULT, SettingsError, read_protection
from controller.podium.protection.tally import binomial_tail, correlation, correlation_confidence
from controller.podium.protection.watch import Protection
from drivers.inputs import CutCard
from tests.rigs.followed import followed


def test_the_floor_file_sets_the_count_the_thresholds_and_held_figures(tmp_path: Path) -> None:
    floor = tmp_path / "floor.toml"
    floor.write_text('[tables.T1]\npublish = "tcp://127.0.0.1:5556"\n\n[protection]\ncount = "zen"\n'
                     'figures = "held"\nmin_hands = 30\nconfidence = 0.99\n\n[protection.systems.zen]\n'
                     'tags = { "2" = 1, "3" = 1, "4" = 2, "5" = 2, "6" = 2, "7" = 1, "T" = -2, "A" = -1 }\n')
    settings = read_protection(floor)
    assert (settings.system.name, settings.held, settings.min_hands, settings.confidence) == ("zen", True, 30,
                                                                                              0.99)
    assert settings.min_correlation == DEFAULT.min_correlation
    floor.write_text("[tables.T1]\n")
    assert read_protection(floor) == DEFAULT


@pytest.mark.parametrize(("text", "said"), [
    ('count = "red-seven"', "count: one of"),
    ('figures = "later"', "figures:"),
    ("min_hands = 2.5", "min_hands: a whole number"),
    ("confidence = 1.0", "confidence: from 0.5"),
    ("thresholds = 1", "no such setting thresholds"),
    ('[protection.systems.odd]\ntags = { "2" = 1 }', "sum to 1"),
])
def test_a_setting_that_cannot_work_is_refused_with_what_is_wrong(tmp_path: Path, text: str,
                                                                  said: str) -> None:
    floor = tmp_path / "floor.toml"
    floor.write_text(f"[protection]\n{text}\n")
    with pytest.raises(SettingsError, match=said):
        read_protection(floor)


def test_held_figures_wait_for_the_cut_card_then_count_whole() -> None:
    held = Protection(replace(DEFAULT, figures="held"))
    live = Protection(DEFAULT)
    seen: list[tuple[str, int, int]] = []

    def feed(event: dict[str, Any]) -> None:
        live.feed("T01", "", followed(event, "T01"))
        held.feed("T01", "", followed(event, "T01"))
        if event["type"] in ("bets.closed", "shoe.cut_card"):
            rounds = [sum(t.rounds for t in p.tallies.values()) for p in (live, held)]
            seen.append((event["type"], rounds[0], rounds[1]))

    table = SimTable({1: FlatBettor(), 2: Counter()}, seed=4, on_event=feed)
    while table.shoe_id < 2:
        table.hand()
    cut = next(n for n, (kind, _, _) in enumerate(seen) if kind == "shoe.cut_card")
    assert all(kept == 0 for _, _, kept in seen[:cut])            # nothing shown during the first shoe
    assert seen[cut - 1][1] > 0
    assert seen[cut][2] == seen[cut][1] == seen[cut - 1][1]       # the whole shoe at its cut card
    live_figures = [t.figures().to_json() for t in live.tallies.values()]
    held_figures = [t.figures().to_json() for t in held.tallies.values()]
    assert held_figures != live_figures                           # the new shoe's first hand waits
    table.table.handle(CutCard(table.shoe_id, table.index))
    assert [t.figures().to_json() for t in held.tallies.values()] == live_figures


def test_the_statistics() -> None:
    assert correlation([(float(n), 100 * n) for n in range(10)]) == pytest.approx(1.0)
    assert correlation([(float(n), 100 * (10 - n)) for n in range(10)]) == pytest.approx(-1.0)
    assert correlation_confidence(0.0, 100) == pytest.approx(0.5)
    assert correlation_confidence(0.35, 100) > 0.999 > correlation_confidence(0.2, 100)
    assert binomial_tail(3, 10, 0.5) == pytest.approx(1 - (1 + 10 + 45) / 1024)


def test_a_floor_may_turn_game_protection_off(tmp_path: Path) -> None:
    floor = tmp_path / "floor.toml"
    floor.write_text("[protection]\nenabled = false\n")
    assert read_protection(floor).enabled is False and DEFAULT.enabled is True
    floor.write_text('[protection]\nenabled = "no"\n')
    with pytest.raises(SettingsError, match="enabled: true or false"):
        read_protection(floor)
