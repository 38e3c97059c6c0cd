"""Buster Blackjack X on the real table and journal, in process: buttons and spot readings in, pit
events out; after every step a table rebuilt from the journal alone must be the same."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from controller.events.codec import record_json
from controller.games.buster_blackjack_x.game import BusterBlackjackX
from controller.games.buster_blackjack_x.rules import BusterRules
from controller.games.interface import Limits, Progressive
from controller.journal.log import Journal
from controller.journal.segments import read_records
from controller.screen.advice import banners
from controller.table.views import dealer_view, public_state, table_picture
from tests.rigs.table_rig import Rig, types

BUTTONS = ("deal", "stand", "next", "void", "double", "split", "surrender", "insurance")


def rig(folder: Path, **options: Any) -> Rig:
    table = Rig(folder, game=BusterBlackjackX(BusterRules(**options), Limits(500, 50000)), buttons=BUTTONS)
    table.ready()
    return table


def command(table: Rig, name: str, **args: Any) -> list[dict[str, Any]]:
    before = len(table.published)
    assert table.table.command(name, args) is None, table.table.notice
    table.check_recovery()
    return table.published[before:]


def meter(table: Rig) -> int:
    value: int = record_json(public_state(table.table))["meters"]["blazing_7s"]
    return value


def test_a_banked_hand_with_a_split_a_double_after_it_and_the_bank_settled(tmp_path: Path) -> None:
    table = rig(tmp_path, collection_fee=100)
    assert types(command(table, "buy_in", seat=5, amount=50_000)) == ["seat.stack"]
    table.table.tick()
    assert meter(table) == 100_000
    table.bet(1, "main", 1000)
    table.bet(1, "progressive", 100)
    table.bet(2, "main", 2000)
    started = table.press("deal")
    assert types(started) == ["hand.started", "bets.closed", "button.moved", "meter"]
    assert started[0]["data"] == {"seats": [1, 2], "dealer_seat": 5}
    assert started[2]["data"] == {"seat": 5}          # the first hand sets the button (issue 18 item 16)
    assert record_json(public_state(table.table))["session"]["button"] == 5
    assert started[3]["data"] == {"name": "blazing_7s", "value": 100_005}
    for text in ("8h", "Tc", "6d", "8c", "9s", "Ts"):           # seat 1: 8 8; seat 2: 19; 16 up/hole
        table.card(text)
    assert table.table.live_buttons() == ("stand", "void", "double", "split", "surrender")
    table.bet(1, "main", 2000)                                   # the split's wager: no past posting
    split = table.press("split")
    assert split[0]["data"] == {"seat": 1, "hand_index": 0, "action": "split", "amount": 1000}
    table.card("3d")                                             # hand 1: 11
    table.bet(1, "main", 3000)
    assert table.press("double")[0]["data"]["amount"] == 1000
    dealt = table.card("Kh")
    assert (dealt[0]["data"]["seat"], dealt[0]["data"]["hand_index"]) == (1, 0)
    table.card("2d")                                             # hand 2: 8 2
    table.press("stand")
    table.press("stand")                                         # seat 2
    events = table.card("5c")                                    # the player-dealer: 21
    assert types(events) == ["card.dealt", "hand.settled"]
    results = [(r["seat"], r["spot"], r["hand_index"], r["payout"]) for r in events[1]["data"]["results"]]
    assert results == [(1, "main", 0, 0), (1, "main", 1, -1000), (1, "progressive", 0, -100),
                       (2, "main", 0, -2000)]
    view = dealer_view(table.table)
    assert view.dealer_seat == 5 and "Bank at seat 5: $500.00 -> $529.00, fee $1.00" in view.payouts
    assert not [e for e in table.published if e["type"] == "alert"]
    ended = table.press("next")
    assert [(e["type"], e["data"]) for e in ended[:2]] == [         # the only bank keeps the deal
        ("seat.stack", {"seat": 5, "amount": 52_900, "reason": "result"}), ("hand.ended", {"hand": 1})]


def test_a_split_seat_numbers_every_hand_from_1_in_prompts_refusals_and_payouts(tmp_path: Path) -> None:
    # "hand N" is hand_index N-1 for a seat that split; a seat with one hand shows no number.
    table = rig(tmp_path, banker="house")
    table.bet(1, "main", 1000)
    table.bet(1, "progressive", 100)
    table.bet(2, "main", 1000)
    table.press("deal")
    for text in ("8h", "Tc", "6d", "8c", "9s", "Ts"):           # seat 1: 8 8; seat 2: 19
        table.card(text)
    assert dealer_view(table.table).instruction == (
        "Seat 1: draw a card to hit, or press STAND, DOUBLE, SPLIT, SURRENDER")
    table.bet(1, "main", 2000)
    table.press("split")
    assert dealer_view(table.table).instruction == "Deal seat 1 hand 1 a card"
    assert table.table.press("stand") == "stand: seat 1 hand 1 is waiting for a card"
    dealt = table.card("3d")
    assert (dealt[0]["data"]["seat"], dealt[0]["data"]["hand_index"]) == (1, 0)
    assert dealer_view(table.table).instruction == (
        "Seat 1 hand 1: draw a card to hit, or press STAND, DOUBLE, SURRENDER")
    table.press("stand")
    assert dealer_view(table.table).instruction == "Deal seat 1 hand 2 a card"
    dealt = table.card("2d")
    assert (dealt[0]["data"]["seat"], dealt[0]["data"]["hand_index"]) == (1, 1)
    assert dealer_view(table.table).instruction.startswith("Seat 1 hand 2: draw a card to hit")
    table.press("stand")
    assert dealer_view(table.table).instruction.startswith("Seat 2: draw a card to hit")
    table.press("stand")
    settled = table.card("5c")[-1]["data"]["results"]            # the player-dealer: 21
    assert [(r["seat"], r["spot"], r["hand_index"]) for r in settled] == [
        (1, "main", 0), (1, "main", 1), (1, "progressive", 0), (2, "main", 0)]
    assert dealer_view(table.table).payouts == (
        "Seat 1 main hand 1: COLLECT $10.00", "Seat 1 main hand 2: COLLECT $10.00",
        "Seat 1 progressive: COLLECT $1.00", "Seat 2 main: COLLECT $10.00")


def test_past_posting_is_what_no_decision_explains(tmp_path: Path) -> None:
    table = rig(tmp_path, banker="house")
    table.bet(1, "main", 1000)
    table.bet(2, "main", 1000)
    table.press("deal")
    for text in ("8h", "Tc", "6d", "3c", "9s", "Ts"):
        table.card(text)
    table.bet(1, "main", 3000)                                   # more than a double or split allows
    table.bet(2, "main", 1500)                                   # seat 2 is not deciding
    table.bet(1, "side", 500)
    alerts = [(e["data"]["seat"], e["data"]["spot"]) for e in table.published if e["type"] == "alert"]
    assert alerts == [(1, "main"), (2, "main"), (1, "side")]
    assert table.table.press("double") is not None               # the spot reads $30.00
    assert "a double adds up to $10.00" in (table.table.notice or "")


def test_insurance_from_the_insurance_spot_and_paid_on_a_natural(tmp_path: Path) -> None:
    table = rig(tmp_path, banker="house")
    table.bet(1, "main", 1000)
    table.press("deal")
    for text in ("9h", "Ac", "9s", "Kd"):
        table.card(text)
    assert table.table.live_buttons() == ("next", "void", "insurance")
    table.bet(1, "insurance", 500)
    events = table.press("insurance")
    assert types(events) == ["player.action", "card.revealed", "hand.settled"]
    assert events[0]["data"]["amount"] == 500
    assert [(r["spot"], r["payout"]) for r in events[2]["data"]["results"]] == [("main", -1000),
                                                                                 ("insurance", 1000)]


def test_a_jackpot_waits_for_the_supervisor_and_the_meter_is_exact(tmp_path: Path) -> None:
    table = rig(tmp_path, banker="house")
    table.table.tick()
    table.bet(1, "main", 1000)
    table.bet(1, "progressive", 100)
    table.press("deal")
    for text in ("7c", "7c", "7c", "Td"):
        table.card(text)
    events = table.press("stand")
    assert types(events) == ["player.action", "card.revealed", "progressive.hit", "alert", "meter",
                             "hand.settled"]
    assert events[2]["data"] == {"seat": 1, "hand_index": 0, "prize": "three suited 7s", "amount": 100_005}
    assert events[3]["data"]["code"] == "progressive_hit" and events[4]["data"]["value"] == 100_000
    (progressive,) = [r for r in events[5]["data"]["results"] if r["spot"] == "progressive"]
    assert progressive == {"seat": 1, "spot": "progressive", "hand_index": 0, "outcome": "waiting",
                           "wager": 100, "payout": -100, "label": "three suited 7s: jackpot $1,000.05 "
                           "waits for a supervisor (paid by progressive.paid)"}
    table.press("next")
    assert "waits for a supervisor" in "; ".join(table.table.deal_problems())
    paid = command(table, "confirm_progressive", seat=1, supervisor="S101")
    assert [(e["type"], e["data"]) for e in paid] == [
        ("progressive.paid", {"seat": 1, "amount": 100_005, "supervisor": "S101"})]
    assert table.table.command("confirm_progressive", {"seat": 1, "supervisor": "S101"}) is not None
    assert table.table.state.session[Progressive].hits[-1].amount == 100_005
    assert not table.table.state.session[Progressive].unpaid


def test_a_deal_cut_short_by_a_crash_adds_nothing_to_the_meter_and_a_void_takes_it_back(
        tmp_path: Path) -> None:
    table = rig(tmp_path, banker="house")
    table.table.tick()
    table.bet(1, "main", 1000)
    table.bet(1, "progressive", 100)
    table.press("deal")
    assert meter(table) == 100_005
    # A crash in the middle of writing the deal's step: its last record never reached the disk.
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    lines = (tmp_path / "journal.log").read_bytes().splitlines(keepends=True)
    (crashed / "journal.log").write_bytes(b"".join(lines[:-1]))
    journal = Journal.open(crashed / "journal.log")
    assert journal.cut_step
    journal.close()
    rebuilt = table.rebuilt(list(read_records(crashed / "journal.log")))
    assert rebuilt.phase == "betting" and public_state(rebuilt).meters["blazing_7s"] == 100_000
    # Whole, the step is there exactly once.
    shutil.rmtree(crashed)
    assert record_json(public_state(table.rebuilt()))["meters"]["blazing_7s"] == 100_005
    table.card("7c")
    voided = table.press("void")
    assert types(voided) == ["meter", "hand.voided"]
    assert meter(table) == 100_000


def test_a_settlement_cut_short_by_a_crash_leaves_no_hit_and_the_hand_resumes(tmp_path: Path) -> None:
    table = rig(tmp_path, banker="house")
    table.table.tick()
    table.bet(1, "main", 1000)
    table.bet(1, "progressive", 100)
    table.press("deal")
    for text in ("7d", "7d", "7d", "Td"):
        table.card(text)
    table.press("stand")                                   # the step with the hit and the settlement
    assert len(table.table.state.session[Progressive].unpaid) == 1
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    lines = (tmp_path / "journal.log").read_bytes().splitlines(keepends=True)
    (crashed / "journal.log").write_bytes(b"".join(lines[:-2]))   # the hit is on the disk, not the rest
    Journal.open(crashed / "journal.log").close()                 # opening cuts the torn step off
    rebuilt = table.rebuilt(list(read_records(crashed / "journal.log")))
    session = rebuilt.state.session
    progressive = session[Progressive]
    assert (rebuilt.phase, progressive.unpaid, progressive.meters["blazing_7s"]) == ("in_hand", (), 100_005)
    assert rebuilt.press("stand") is None                          # the dealer presses again
    assert [hit.amount for hit in rebuilt.state.session[Progressive].unpaid] == [100_005]
    assert rebuilt.state.session[Progressive].meters["blazing_7s"] == 100_000


def test_a_confirmed_jackpot_stays_cleared_when_a_new_one_waits_at_the_same_seat(tmp_path: Path) -> None:
    """Issue 33, "Alerts that come back": each jackpot's alert is its own; the first, confirmed and
    paid, is cleared by its ``progressive.paid`` and its banner does not come back beside the second."""
    table = rig(tmp_path, banker="house")
    table.table.tick()
    for _ in range(2):
        table.bet(1, "main", 1000)
        table.bet(1, "progressive", 100)
        table.press("deal")
        for text in ("7c", "7c", "7c", "Td"):
            table.card(text)
        table.press("stand")
        table.press("next")
        if len(hits(table)) == 1 and "cleared" not in hits(table)[0]:
            paid = command(table, "confirm_progressive", seat=1, supervisor="S101")
            (first,) = hits(table)
            assert first["cleared"] == paid[0]["seq"]
    first, second = hits(table)
    assert "cleared" not in second and first["seq"] < second["seq"]
    shown = [b["seq"] for b in banners(table_picture(table.table), "1", dismissed=())
             if b["seq"] in (first["seq"], second["seq"])]
    assert shown == [second["seq"]]


def hits(table: Rig) -> list[dict[str, Any]]:
    """The table's ``progressive_hit`` alerts as its picture shows them."""
    alerts: list[dict[str, Any]] = record_json(public_state(table.table))["alerts"]
    return [a for a in alerts if a["code"] == "progressive_hit"]
