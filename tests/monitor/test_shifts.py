"""Shifts: their bounds across midnight and a change of summer time, the ``[shifts]`` table of a floor
file, and each table's and pit's figures in a shift from hands whose results are known."""

from __future__ import annotations

import datetime
from dataclasses import replace
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from controller.podium.ratings.edges import Edges
from controller.podium.ratings.shift import (
    Shifts,
    ShiftsError,
    ShiftSummary,
    TableShifts,
    parse_shifts,
    read_floor,
)
from tests.monitor.ratings_script import EASY_JACK, EJ_MAIN, EJ_SIDE, EXTREME, HOLDEM, Script, result
from tests.rigs.followed import followed

UTC = datetime.UTC
PARIS = ZoneInfo("Europe/Paris")
THREE = Shifts((datetime.time(6), datetime.time(14), datetime.time(22)), PARIS)


def at(*fields: int, tz: datetime.tzinfo = UTC) -> datetime.datetime:
    return datetime.datetime(*fields, tzinfo=tz)


def test_the_night_shift_runs_across_midnight() -> None:
    for when in (at(2026, 11, 21, 22, 0, tz=PARIS), at(2026, 11, 21, 23, 59, tz=PARIS),
                 at(2026, 11, 22, 0, 0, tz=PARIS), at(2026, 11, 22, 5, 59, 59, tz=PARIS)):
        assert THREE.bounds(when) == (at(2026, 11, 21, 21), at(2026, 11, 22, 5))   # CET is UTC+1
    assert THREE.bounds(at(2026, 11, 22, 6, 0, tz=PARIS)) == (at(2026, 11, 22, 5), at(2026, 11, 22, 13))
    assert THREE.name(at(2026, 11, 21, 21)) == "2026-11-21 22:00 Europe/Paris"
    one = Shifts()                                                          # the default: UTC days
    assert one.bounds(at(2026, 11, 21, 23, 59)) == (at(2026, 11, 21), at(2026, 11, 22))
    with pytest.raises(ValueError, match="aware"):
        one.bounds(datetime.datetime(2026, 11, 21))


def test_a_shift_over_a_change_of_summer_time_is_an_hour_shorter_or_longer() -> None:
    spring = THREE.bounds(at(2026, 3, 29, 3, 30, tz=PARIS))                  # clocks went 02:00 -> 03:00
    assert spring == (at(2026, 3, 28, 21), at(2026, 3, 29, 4))               # 22:00 CET to 06:00 CEST
    assert spring[1] - spring[0] == datetime.timedelta(hours=7)
    autumn = THREE.bounds(at(2026, 10, 25, 1, 0))                            # 03:00 CEST was 02:00 CET
    assert autumn == (at(2026, 10, 24, 20), at(2026, 10, 25, 5))
    assert autumn[1] - autumn[0] == datetime.timedelta(hours=9)
    day = THREE.bounds(at(2026, 10, 25, 6, 0))                               # 07:00 CET: the day shift
    assert day == (at(2026, 10, 25, 5), at(2026, 10, 25, 13)) and THREE.name(day[0]).startswith(
        "2026-10-25 06:00")
    in_gap = Shifts((datetime.time(2, 30),), PARIS)                          # a start the clocks skip
    start, end = in_gap.bounds(at(2026, 3, 29, 12))
    assert start == at(2026, 3, 29, 1, 30) and end == at(2026, 3, 30, 0, 30)


def test_the_shifts_table_of_a_floor_file(tmp_path: Path) -> None:
    floor = tmp_path / "floor.toml"
    floor.write_text('[shifts]\nstarts = ["22:00", "06:00", "14:00"]\nzone = "Europe/Paris"\n\n'
                     '[tables.T07]\npublish = "tcp://10.1.0.7:5556"\npit = "Pit 1"\n\n'
                     '[tables.T08]\npublish = "tcp://10.1.0.8:5556"\n')
    assert read_floor(floor) == (THREE, {"T07": "Pit 1"})
    floor.write_text('[tables.T07]\npublish = "tcp://10.1.0.7:5556"\n')
    assert read_floor(floor) == (Shifts(), {})
    with pytest.raises(ShiftsError) as wrong:
        parse_shifts({"starts": ["06:00", "6:00", "24:00", "06:00", 7], "zone": "Nowhere/Land", "end": 1})
    assert str(wrong.value).splitlines() == [
        "[shifts]: unknown key 'end' (starts, zone)",
        "[shifts]: a start is \"HH:MM\" (00:00 to 23:59), not '6:00'",
        "[shifts]: a start is \"HH:MM\" (00:00 to 23:59), not '24:00'",
        "[shifts]: 06:00 is given twice",
        "[shifts]: a start is \"HH:MM\" (00:00 to 23:59), not 7",
        "[shifts]: zone 'Nowhere/Land' is not a time zone of the IANA database (e.g. \"Europe/Paris\")"]
    for bad in ({"starts": []}, {"starts": "06:00"}, "06:00"):
        with pytest.raises(ShiftsError):
            parse_shifts(bad)
    floor.write_text("[shifts]\nstarts = [\n")
    with pytest.raises(ShiftsError, match=r"floor\.toml"):
        read_floor(floor)
    floor.write_text('[tables.T07]\npublish = "tcp://10.1.0.7:5556"\npit = 3\n')
    with pytest.raises(ShiftsError, match=r"\[tables.T07\] pit is a name, not 3"):
        read_floor(floor)


def lookup(game: str | None, rules: object) -> Edges | None:
    return {"easy-jack": EASY_JACK, "blackjack-extreme": EXTREME, "holdem-blackjack": HOLDEM}.get(game or "")


def shifted(script: Script, game: str) -> TableShifts:
    book = TableShifts(script.table, THREE)
    book.feed(followed({"seq": 1, "ts": script.ts("05:00:00"), "type": "table.opened", "hand": None,
                        "data": {"game": game, "seats": 7, "limits": {}, "recovered": False, "rules": {}}}),
              "1")                                  # the table's sequence before the script's
    for message in script.messages:
        book.feed(followed(message), "2")
    return book


def test_each_table_s_shift_figures_and_the_pit_s_sum() -> None:
    ej = Script("T07")
    ej.play("12:00:00", "12:00:30", [result(1, "main", 1000, 1000), result(3, "main", 2500, -2500),
                                     result(3, "side", 500, 4500)])
    ej.play("12:20:00", "12:30:00", [result(1, "main", 2000, -2000)])
    ej.play("13:59:00", "14:00:30", [result(1, "main", 9000, 9000)])          # settled in the next shift
    ej.add("12:40:00", "progressive.paid", None, {"seat": 1, "amount": 700, "supervisor": "S101"})
    ej_day = shifted(ej, "easy-jack").at(at(2026, 11, 21, 12)).summary(lookup)
    assert (ej_day.hands, ej_day.wagered, ej_day.players, ej_day.jackpots) == (2, 6000, 1700, 700)
    assert ej_day.house_result == -1700 and ej_day.rake == 0 and ej_day.bank == 0
    assert ej_day.hands_per_hour == round(2 / 0.5, 1)                        # 12:00:00 to 12:30:00
    assert ej_day.theo.value == pytest.approx(5500 * EJ_MAIN + 500 * EJ_SIDE, rel=1e-15)

    bje = Script("T08")
    bje.play("12:00:00", "12:15:00", [result(2, "main", 3000, 3000), result(3, "main", 1000, -1000)],
             dealer=1)
    bje_day = shifted(bje, "blackjack-extreme").at(at(2026, 11, 21, 12)).summary(lookup)
    assert (bje_day.banked, bje_day.bank, bje_day.house_result, bje_day.theo.value) == (1, -2000, 0, 0)
    with_fee = shifted(bje, "blackjack-extreme").at(at(2026, 11, 21, 12)).summary(
        lambda game, rules: replace(EXTREME, bank_fee=150))            # a bank that pays a fee each hand
    assert (with_fee.bank, with_fee.house_result, with_fee.theo.value) == (-2150, 150, 150)

    hbj = Script("T09")
    hbj.play("12:00:00", "12:06:00", [result(1, "bet", 3000, 2500), result(2, "bet", 3000, -3000)],
             rakes=(500,))
    hbj_day = shifted(hbj, "holdem-blackjack").at(at(2026, 11, 21, 12)).summary(lookup)
    assert (hbj_day.rake, hbj_day.house_result, hbj_day.theo.value) == (500, 500, 500)

    pit = ej_day + bje_day + hbj_day
    assert pit.tables == ("T07", "T08", "T09") and pit.hands == 4
    assert pit.hours == pytest.approx(0.5 + 0.25 + 0.1) and pit.hands_per_hour == round(4 / 0.85, 1)
    assert pit.house_result == -1700 + 0 + 500 and pit.rake == 500 and pit.bank == -2000
    assert pit.theo.value == pytest.approx(ej_day.theo.cents + 500)
    assert ShiftSummary(()).hands_per_hour is None

    unknown = shifted(ej, "no-such-game").at(at(2026, 11, 21, 12)).summary(lookup)
    assert unknown.theo.value is None and (unknown + ej_day).theo.value is None
