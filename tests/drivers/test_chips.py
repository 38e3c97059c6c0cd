"""Tests for drivers.chips: loading the chip registry CSV and checking chips read on spots."""

from __future__ import annotations

from pathlib import Path

import pytest

from drivers.chips import ChipCheck, ChipRegistry, RegisteredChip, RegistryError, read_elsewhere
from drivers.inputs import RejectedChip, SpotWager

FIVE = "04a1b2c3d4e5f601"
TWENTY_FIVE = "04a1b2c3d4e5f602"
HUNDRED = "04a1b2c3d4e5f603"
VOIDED = "04a1b2c3d4e5f604"
UNKNOWN = "ffffffffffffffff"

GOOD_CSV = f"""uid,value_cents,status
# issued 2026-11
{FIVE},500,active
{TWENTY_FIVE.upper()},2500,active

{HUNDRED}, 10000 , Active
# lost at table T03
{VOIDED},500,void
"""


def write(tmp_path: Path, text: str, name: str = "chips.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def registry(tmp_path: Path) -> ChipRegistry:
    return ChipRegistry.load(write(tmp_path, GOOD_CSV))


def test_load_reads_chips_skipping_header_comments_and_blank_lines(registry: ChipRegistry) -> None:
    assert len(registry) == 4
    assert registry.get(TWENTY_FIVE) == RegisteredChip(TWENTY_FIVE, 2500, "active")
    assert registry.get(HUNDRED) == RegisteredChip(HUNDRED, 10000, "active")
    assert registry.get(VOIDED) == RegisteredChip(VOIDED, 500, "void")
    assert [chip.uid for chip in registry] == sorted([FIVE, TWENTY_FIVE, HUNDRED, VOIDED])


def test_load_without_header_with_crlf_and_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "chips.csv"
    path.write_bytes(f"\ufeff{FIVE},500,active\r\n{VOIDED},500,void\r\n".encode())
    registry = ChipRegistry.load(path)
    assert len(registry) == 2
    assert FIVE.upper() in registry


def test_empty_file_is_an_empty_registry(tmp_path: Path) -> None:
    registry = ChipRegistry.load(write(tmp_path, "uid,value_cents,status\n# none yet\n"))
    assert len(registry) == 0
    assert registry.check(FIVE, 500).reason == "counterfeit"


def test_every_bad_line_is_listed_with_its_number(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "uid,value_cents,status",  # 1
            f"{FIVE},abc,active",  # 2
            "xyz,500,active",  # 3
            f"{TWENTY_FIVE},0,active",  # 4
            f"{HUNDRED},-100,active",  # 5
            f"{VOIDED},500,lost",  # 6
            f"{UNKNOWN},500",  # 7
            "",  # 8
            f"{FIVE.upper()},500,active",  # 9: fine on its own, but FIVE is on line 2
            f"{FIVE},500,active",  # 10
            "uid,value_cents,status",  # 11
            "04a1b2c3d4e5f60g,1.50,active",  # 12
        ]
    )
    path = write(tmp_path, text)
    with pytest.raises(RegistryError) as caught:
        ChipRegistry.load(path)
    where = str(path)
    assert caught.value.problems == (
        f"{where} line 2: value 'abc' is not a whole number of cents",
        f"{where} line 3: uid 'xyz' is not 16 hex digits",
        f"{where} line 4: value '0' is not positive",
        f"{where} line 5: value '-100' is not positive",
        f"{where} line 6: status 'lost' is not active or void",
        f"{where} line 7: expected 3 fields uid,value_cents,status, got 2",
        f"{where} line 9: uid {FIVE} is already listed on line 2",
        f"{where} line 10: uid {FIVE} is already listed on line 2",
        f"{where} line 11: the header line uid,value_cents,status must come first",
        f"{where} line 12: uid '04a1b2c3d4e5f60g' is not 16 hex digits",
        f"{where} line 12: value '1.50' is not a whole number of cents",
    )
    assert str(caught.value).splitlines() == list(caught.value.problems)


def test_missing_file_is_a_registry_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.csv"
    with pytest.raises(RegistryError, match=r"nowhere\.csv: cannot read"):
        ChipRegistry.load(path)


def test_binary_file_is_a_registry_error(tmp_path: Path) -> None:
    path = tmp_path / "chips.csv"
    path.write_bytes(b"\x80\x81\x82,500,active\n")
    with pytest.raises(RegistryError, match="not UTF-8 text"):
        ChipRegistry.load(path)


def test_parse_names_its_source() -> None:
    with pytest.raises(RegistryError) as caught:
        ChipRegistry.parse("x,1,active", source="T07 chips")
    assert caught.value.problems == ("T07 chips line 1: uid 'x' is not 16 hex digits",)


def test_constructor_refuses_bad_records() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        ChipRegistry([RegisteredChip(FIVE, 500, "active"), RegisteredChip(FIVE.upper(), 500, "void")])
    with pytest.raises(ValueError, match="not positive"):
        ChipRegistry([RegisteredChip(FIVE, 0, "active")])
    with pytest.raises(ValueError, match="not active or void"):
        ChipRegistry([RegisteredChip(FIVE, 500, "gone")])
    with pytest.raises(ValueError, match="16 hex digits"):
        ChipRegistry([RegisteredChip("12", 500, "active")])


def test_check_good_chip(registry: ChipRegistry) -> None:
    result = registry.check(TWENTY_FIVE.upper(), 2500)
    assert result == ChipCheck(TWENTY_FIVE, 2500, None, 2500)
    assert result.is_good


def test_check_counterfeit_chip(registry: ChipRegistry) -> None:
    assert registry.check(UNKNOWN, 500) == ChipCheck(UNKNOWN, 500, "counterfeit", None)


@pytest.mark.parametrize("uid", ["", "xyz", "04a1b2c3d4e5f6", "04a1b2c3d4e5f60100", "04a1-b2c3d4e5f601"])
def test_check_malformed_uid_is_counterfeit_not_a_crash(registry: ChipRegistry, uid: str) -> None:
    result = registry.check(uid, 500)
    assert result.reason == "counterfeit"
    assert result.registry_value is None


def test_check_void_chip_even_with_the_right_value(registry: ChipRegistry) -> None:
    assert registry.check(VOIDED, 500) == ChipCheck(VOIDED, 500, "void", 500)
    assert registry.check(VOIDED, 100000).reason == "void"


def test_check_value_mismatch(registry: ChipRegistry) -> None:
    assert registry.check(FIVE, 10000) == ChipCheck(FIVE, 10000, "value_mismatch", 500)


def test_good_chip_cannot_be_rejected() -> None:
    with pytest.raises(ValueError, match="is good"):
        ChipCheck(FIVE, 500, None, 500).rejected()


def test_wager_counts_only_good_chips(registry: ChipRegistry) -> None:
    wager = registry.wager(
        3,
        "main",
        5,
        [
            (HUNDRED, 10000),
            (UNKNOWN, 2500),
            (FIVE.upper(), 500),
            (VOIDED, 500),
            (TWENTY_FIVE, 50000),
        ],
    )
    assert wager == SpotWager(
        seat=3,
        spot="main",
        antenna=5,
        amount=10500,
        chips=(FIVE, HUNDRED),
        rejected=(
            RejectedChip(TWENTY_FIVE, 50000, "value_mismatch", 2500),
            RejectedChip(VOIDED, 500, "void", 500),
            RejectedChip(UNKNOWN, 2500, "counterfeit", None),
        ),
        complete=True,
        values=(10000, 500),                   # the good chips' values, in the order read
    )
    assert wager.by_value == {500: 1, 10000: 1}


def test_wager_of_an_empty_spot(registry: ChipRegistry) -> None:
    assert registry.wager(1, "side", 2, []) == SpotWager(1, "side", 2, 0, ())


def test_wager_passes_incomplete_through(registry: ChipRegistry) -> None:
    wager = registry.wager(1, "main", 1, iter([(FIVE, 500)]), complete=False)
    assert wager.complete is False
    assert wager.amount == 500


def test_wager_counts_a_repeated_uid_once_and_flags_the_copy(registry: ChipRegistry) -> None:
    wager = registry.wager(2, "main", 3, [(FIVE, 500), (FIVE.upper(), 500)])
    assert wager.amount == 500
    assert wager.chips == (FIVE,)
    assert wager.rejected == (RejectedChip(FIVE, 500, "duplicate", 500),)


def test_a_chip_read_on_two_antennas_counts_on_neither(registry: ChipRegistry) -> None:
    spots = {1: (1, "main"), 2: (1, "side"), 3: (2, "main")}
    shared = read_elsewhere({1: [FIVE, TWENTY_FIVE], 2: [FIVE.upper()], 3: [TWENTY_FIVE, UNKNOWN]}, spots)
    assert shared == {1: {FIVE: ((2, 1, "side"),), TWENTY_FIVE: ((3, 2, "main"),)},
                      2: {FIVE: ((1, 1, "main"),)}, 3: {TWENTY_FIVE: ((1, 1, "main"),)}}
    wager = registry.wager(1, "main", 1, [(FIVE, 500), (TWENTY_FIVE, 2500)], elsewhere=shared[1])
    assert (wager.amount, wager.chips) == (0, ())
    assert [(c.uid, c.reason, c.elsewhere) for c in wager.rejected] == [
        (FIVE, "crosstalk", ((2, 1, "side"),)), (TWENTY_FIVE, "crosstalk", ((3, 2, "main"),))]
    counterfeit = registry.wager(2, "main", 3, [(UNKNOWN, 500)], elsewhere={UNKNOWN: ((1, 1, "main"),)})
    assert [c.reason for c in counterfeit.rejected] == ["counterfeit"]   # what it is comes first
