"""What a floor decides for game protection: the count system, the thresholds, live or held figures.

A floor file (``pit-monitor serve --tables floor.toml``) may have::

    [protection]
    enabled = true             # false: the monitor keeps no game protection (the report still can)
    count = "hi-lo"            # hi-lo (default), ko, hi-opt-i, omega-ii, or one declared below
    figures = "live"           # "live", or "held": a shoe's figures wait for its cut card
    min_hands = 50             # hands with a wager before the bets may raise the alert
    min_correlation = 0.3      # bet against true count (Pearson)
    min_spread = 2.0           # the largest bet over the smallest
    min_ramp = 1.5             # the average bet at +2 or more over the average at 0 or less (0: none asked)
    wong_count = 2.0           # a true count from which an entry is "at a high count"
    min_entries = 2            # entries after sitting out before wonging may raise the alert
    min_count_plays = 6        # deviations with the count before the play may raise the alert
    confidence = 0.999         # how sure each test must be
    insurance_index = 3.0      # the true count from which insurance is a counter's play
    keep_hours = 24.0          # the monitor forgets a player not seen for this long

    [protection.systems.zen]   # a count of one's own, as data
    tags = { "2" = 1, "3" = 1, "4" = 2, "5" = 2, "6" = 2, "7" = 1, "T" = -2, "A" = -1 }

Every key may be left out; :data:`DEFAULT` holds the defaults (docs/pit-monitor-reference.md,
"Game protection", says why each).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path

from controller.podium.protection.systems import SYSTEMS, CountSystem, system_from
from firmware_bridge.kernel.json import JsonObject

FIGURES = ("live", "held")


@dataclass(frozen=True)
class Settings:
    """A floor's game-protection settings."""

    system: CountSystem = SYSTEMS["hi-lo"]
    enabled: bool = True
    figures: str = "live"
    min_hands: int = 50
    min_correlation: float = 0.3
    min_spread: float = 2.0
    min_ramp: float = 1.5
    wong_count: float = 2.0
    min_entries: int = 2
    min_count_plays: int = 6
    confidence: float = 0.999
    insurance_index: float = 3.0
    keep_hours: float = 24.0

    @property
    def held(self) -> bool:
        """A shoe's figures wait for its cut card."""
        return self.figures == "held"

    def to_json(self) -> JsonObject:
        """The settings as a subject's page shows them (the count system by its name)."""
        return {f.name: getattr(self, f.name) if f.name != "system" else self.system.name
                for f in fields(self)}


DEFAULT = Settings()

_NUMBERS = {"min_hands": int, "min_entries": int, "min_count_plays": int, "min_correlation": float,
            "min_spread": float, "min_ramp": float, "wong_count": float, "confidence": float,
            "insurance_index": float, "keep_hours": float}


class SettingsError(ValueError):
    """The floor file's ``[protection]`` cannot work; the message says why."""


def settings_from(data: Mapping[str, object], where: str = "[protection]") -> Settings:
    """The settings of a floor file's ``[protection]`` table; SettingsError naming what is wrong."""
    problems: list[str] = []
    systems = dict(SYSTEMS)
    declared = data.get("systems", {})
    if not isinstance(declared, Mapping):
        problems.append(f"{where} systems: a table of count systems")
        declared = {}
    for name, entry in declared.items():
        try:
            systems[name] = system_from(entry if isinstance(entry, Mapping) else {}, name)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
    system, enabled, figures = DEFAULT.system, DEFAULT.enabled, DEFAULT.figures
    count = data.get("count", "hi-lo")
    if not isinstance(count, str) or count not in systems:
        problems.append(f"{where} count: one of {', '.join(sorted(systems))}, not {count!r}")
    else:
        system = systems[count]
    on = data.get("enabled", True)
    if not isinstance(on, bool):
        problems.append(f"{where} enabled: true or false, not {on!r}")
    else:
        enabled = on
    shown = data.get("figures", "live")
    if not isinstance(shown, str) or shown not in FIGURES:
        problems.append(f"{where} figures: \"live\" or \"held\", not {shown!r}")
    else:
        figures = shown
    numbers: dict[str, float] = {}
    for key, kind in _NUMBERS.items():
        if key not in data:
            continue
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int | float) or (kind is int and
                                                                             not isinstance(value, int)):
            problems.append(f"{where} {key}: a {'whole ' if kind is int else ''}number, not {value!r}")
        elif key == "confidence" and not 0.5 <= value < 1:
            problems.append(f"{where} confidence: from 0.5 to below 1, not {value!r}")
        elif key.startswith("min_") and value < 0:
            problems.append(f"{where} {key}: not below 0")
        else:
            numbers[key] = kind(value)
    stray = sorted(set(data) - {"systems", "count", "enabled", "figures", *_NUMBERS})
    if stray:
        problems.append(f"{where}: no such setting {', '.join(stray)}")
    if problems:
        raise SettingsError("\n".join(problems))

    def number(key: str) -> float:
        given: float = numbers.get(key, getattr(DEFAULT, key))
        return given

    return replace(DEFAULT, system=system, enabled=enabled, figures=figures,
                   min_hands=int(number("min_hands")), min_entries=int(number("min_entries")),
                   min_count_plays=int(number("min_count_plays")), min_correlation=number("min_correlation"),
                   min_spread=number("min_spread"), min_ramp=number("min_ramp"),
                   wong_count=number("wong_count"), confidence=number("confidence"),
                   insurance_index=number("insurance_index"), keep_hours=number("keep_hours"))


def read_protection(path: Path) -> Settings:
    """The ``[protection]`` settings of a floor file (the defaults without one); SettingsError."""
    try:
        floor = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SettingsError(f"{path}: {exc}") from exc
    section = floor.get("protection", {})
    if not isinstance(section, Mapping):
        raise SettingsError(f"{path}: [protection] is a table")
    return settings_from(section, f"{path}: [protection]")
