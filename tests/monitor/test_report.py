"""The rating report from events whose results are known.

Crafted events (the real envelope encoder, known timestamps) stored in a real
SQLite file: three hands twenty minutes apart, one voided hand, one hand the
next day. And the events of real hands of the games where the table keeps
stacks (the in-process table): each seat's net must be what its stack gained
or lost, the player-dealer's bank included, and the table's net what the
house kept (the rake of a pot game, nothing where a player banks).
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events.envelope import encode_event
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits
from controller.podium.monitor.cli import main
from controller.podium.monitor.reports.table import CSV_COLUMNS, TYPES, as_csv, as_text, bound, rate
from controller.podium.monitor.stores.events import Row, SqliteStore
from tests.monitor.hands import random_holdem_hand
from tests.rigs.holdem_hands import DECK
from tests.rigs.table_rig import Rig

DAY = "2026-11-21"
HOLDEM_BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")
BJX_BUTTONS = ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void")


def row(table: str, seq: int, ts: str, type: str, hand: int | None, data: dict[str, object]) -> Row:
    topic, body = encode_event(table, seq, ts, type, hand, data)
    return Row(table, "", seq, ts, type, hand, topic.decode(), body.decode())


def result(seat: int, spot: str, wager: int, payout: int) -> dict[str, object]:
    outcome = "win" if payout > 0 else "lose" if payout < 0 else "push"
    return {"seat": seat, "spot": spot, "hand_index": 0, "outcome": outcome, "wager": wager,
            "payout": payout}


def floor_events() -> list[Row]:
    rows: list[Row] = []

    def add(table: str, ts: str, type: str, hand: int | None, data: dict[str, object]) -> None:
        seq = sum(1 for r in rows if r.table == table) + 1
        rows.append(row(table, seq, ts, type, hand, data))

    hands = [  # (start, end, results)
        ("10:00:00", "10:00:30", [result(1, "main", 1000, 1000), result(2, "main", 500, -500)]),
        ("10:20:00", "10:20:30", [result(1, "main", 2000, -2000), result(1, "side", 500, 1500)]),
        ("10:40:00", "10:40:30", [result(1, "main", 1000, 0), result(2, "main", 2500, 3750)]),
    ]
    for number, (start, end, results) in enumerate(hands, 1):
        bets = [{"seat": r["seat"], "spot": r["spot"], "amount": r["wager"]} for r in results]
        add("T01", f"{DAY}T{start}.000Z", "bets.closed", number, {"bets": bets})
        add("T01", f"{DAY}T{end}.000Z", "hand.settled", number, {"results": results})
    add("T01", f"{DAY}T10:50:00.000Z", "bets.closed", 4,
        {"bets": [{"seat": 3, "spot": "main", "amount": 9900}]})
    add("T01", f"{DAY}T10:50:05.000Z", "hand.voided", 4, {"reason": "voided by the dealer"})
    for n in range(2):
        add("T01", f"{DAY}T10:5{n}:10.000Z", "alert", None,
            {"code": "card_unreadable", "severity": "warning", "message": "unreadable", "index": n})
    add("T01", f"{DAY}T11:00:00.000Z", "alert", 5, {"code": "past_post", "severity": "critical",
                                                     "message": "late chips", "seat": 1, "spot": "main"})
    add("T01", f"{DAY}T11:00:01.000Z", "hand.settled", 6, {"results": [{"seat": "one", "wager": 5}]})
    add("T02", "2026-11-22T09:00:00.000Z", "bets.closed", 1,
        {"bets": [{"seat": 4, "spot": "main", "amount": 500}]})
    add("T02", "2026-11-22T09:00:40.000Z", "hand.settled", 1, {"results": [result(4, "main", 500, -500)]})
    return rows


def test_figures_per_table_and_seat_from_known_hands(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "pit.sqlite")
    events = floor_events()
    store.add(events)
    store.add(events[2:5])                        # stored again: nothing changes
    assert store.count() == len(events)
    reports = rate(store.rows(("bets.closed", "hand.settled", "alert"), bound(DAY, end=False),
                              bound(DAY, end=True)))
    assert [r.table for r in reports] == ["T01"]   # T02 played the next day
    t01 = reports[0]
    span = 40.5 / 60                               # 10:00:00 to 10:40:30
    assert (t01.total.hands, t01.total.wagered, t01.total.net) == (3, 7500, 3750)
    assert t01.total.hold == -50.0 and t01.total.hands_per_hour == round(3 / span, 1)
    seat1, seat2 = t01.seats[1], t01.seats[2]
    assert (seat1.hands, seat1.wagered, seat1.average_bet, seat1.net) == (3, 4500, 1500, 500)
    assert seat1.hold == round(-500 * 100 / 4500, 2) and seat1.hands_per_hour == round(3 / span, 1)
    assert (seat2.hands, seat2.wagered, seat2.average_bet, seat2.net) == (2, 3000, 1500, 3250)
    assert seat2.hold == round(-325000 / 3000, 2)
    assert seat2.hands_per_hour == round(2 / span, 1)   # its first hand at 10:00, its last ended 10:40:30
    assert 3 not in t01.seats                     # the voided hand counts for nothing
    assert dict(t01.alerts) == {"card_unreadable": 2, "past_post": 1}

    text = as_text(reports, None, None)
    assert "Table T01: 3 hands, wagered $75.00, player net $37.50, hold -50.0 %, 4.4 hands/h" in text
    assert "alerts: card_unreadable 2, past_post 1" in text
    table = list(csv.DictReader(io.StringIO(as_csv(reports))))
    assert table[0] == {"kind": "table", "table": "T01", "seat": "all", "hands": "3", "banked": "0",
                        "wagered_cents": "7500", "average_bet_cents": "2500", "net_cents": "3750",
                        "hold_percent": "-50.0", "hands_per_hour": "4.4", "alert_code": "", "alerts": "",
                        **dict.fromkeys(CSV_COLUMNS[12:], "")}      # a count's columns: none here
    assert [(r["kind"], r["seat"], r["alert_code"], r["alerts"]) for r in table[1:]] == [
        ("seat", "1", "", ""), ("seat", "2", "", ""), ("alert", "", "card_unreadable", "2"),
        ("alert", "", "past_post", "1")]
    store.close()


def test_the_report_command_takes_a_period_and_a_format(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "pit.sqlite"
    store = SqliteStore(db)
    store.add(floor_events())
    store.close()
    assert main(["report", f"--db={db}", "--format=json", "--from=2026-11-22"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["from"] == "2026-11-22T00:00:00.000Z" and out["to"] is None
    assert [(t["table"], t["hands"], t["net"], t["hold_percent"]) for t in out["tables"]] == [
        ("T02", 1, -500, 100.0)]
    assert main(["report", f"--db={db}", "--to=2026-11-21T10:30"]) == 0
    text = capsys.readouterr().out
    assert "Table T01: 2 hands" in text and "T02" not in text
    assert main(["report", f"--db={db}", "--from=yesterday"]) == 2
    assert "not a date" in capsys.readouterr().err
    assert main(["report", f"--db={tmp_path / 'none.sqlite'}"]) == 2
    assert "no database at" in capsys.readouterr().err and not (tmp_path / "none.sqlite").exists()


def rows_of(rig: Rig) -> list[Row]:
    """What a recorder stores of an in-process table's events."""
    return [Row("T01", "", e["seq"], e["ts"], e["type"], e["hand"], f"T01/{e['type']}", json.dumps(e))
            for e in rig.published]


def stack_changes(rig: Rig) -> dict[int, int]:
    """Each seat's stack now less the stack it bought in with (no top-up in these hands)."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for event in rig.published:
        if event["type"] == "seat.stack":
            first.setdefault(event["data"]["seat"], event["data"]["amount"])
            last[event["data"]["seat"]] = event["data"]["amount"]
    return {seat: last[seat] - first[seat] for seat in first}


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(),
       stacks=st.dictionaries(st.integers(1, 6), st.sampled_from([300, 1000, 4000, 20000]),
                              min_size=2, max_size=4),
       rake=st.sampled_from([0, 10]), deck=st.permutations(DECK))
def test_holdem_blackjack_figures_are_the_stacks_and_the_house_keeps_the_rake(
        data: st.DataObject, stacks: dict[int, int], rake: int, deck: list[str]) -> None:
    rules = HoldemBlackjackRules(rake_percent=rake, rake_cap=500, min_buy_in=100)
    with TemporaryDirectory() as folder:
        rig = Rig(Path(folder), game=HoldemBlackjack(rules, Limits(100, 100_000)), buttons=HOLDEM_BUTTONS)
        rig.ready()
        random_holdem_hand(rig, rules, data, stacks, deck)
        (report,) = rate(rows_of(rig))
    settled = next(e for e in rig.published if e["type"] == "hand.settled")["data"]["results"]
    changes = stack_changes(rig)
    assert {seat: f.net for seat, f in report.seats.items()} == {
        seat: change for seat, change in changes.items() if seat in report.seats}
    assert sorted(report.seats) == sorted(r["seat"] for r in settled)          # one result per seat dealt in
    assert all((f.hands, f.banked, f.wagered) == (1, 0, r["wager"])
               for r in settled for seat, f in report.seats.items() if seat == r["seat"])
    rake_paid = sum(e["data"]["rake"] for e in rig.published if e["type"] == "pot.awarded")
    assert report.total.net == sum(changes.values()) == -rake_paid             # the house keeps the rake
    assert report.total.wagered == sum(r["wager"] for r in settled) and report.total.hands == 1


def test_blackjack_extreme_figures_count_the_player_dealer_s_bank(tmp_path: Path) -> None:
    game = BlackjackExtreme(BlackjackExtremeRules(), Limits(500, 50000))
    rig = Rig(tmp_path, game=game, buttons=BJX_BUTTONS)
    for seat, amount in {1: 50000, 2: 20000, 3: 20000, 4: 20000}.items():
        assert rig.table.command("buy_in", {"seat": seat, "amount": amount}) is None
    rig.ready(s2_main=1000, s3_main=1000, s4_main=1000)
    rig.press("deal")                           # seat 1 deals
    for card in ("8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s"):
        rig.card(card)
    rig.press("turn_up", 2)
    rig.bet(2, "main", 3000)
    rig.press("raise")
    rig.press("check")
    rig.press("fold")                           # seat 4 gives the dealer half its blind
    rig.bet(4, "main", 0)
    rig.press("play")
    rig.bet(2, "main", 6000)
    rig.press("split")
    for card in ("3c", "Tc", "Kc"):
        rig.card(card)
    rig.press("stand")
    rig.press("stand")
    rig.press("next")
    (report,) = rate(rows_of(rig))
    figures = {seat: (f.hands, f.banked, f.wagered, f.net) for seat, f in report.seats.items()}
    assert figures == {1: (1, 1, 0, -6500), 2: (1, 0, 6000, 6000), 3: (1, 0, 1000, 1000),
                       4: (1, 0, 1000, -500)}
    assert {seat: f[3] for seat, f in figures.items()} == stack_changes(rig)
    assert report.seats[1].average_bet is None and report.seats[1].hold is None
    total = report.total
    assert (total.hands, total.wagered, total.net, total.hold) == (1, 8000, 0, 0.0)
    text = as_text([report], None, None)
    assert "Table T01: 1 hands, wagered $80.00, player net $0.00, hold 0.0 %" in text
    assert [row["banked"] for row in csv.DictReader(io.StringIO(as_csv([report])))][:2] == ["1", "1"]


def test_a_jackpot_counts_in_the_net_result_once_when_it_is_paid() -> None:
    """A Blazing 7's jackpot settles as ``waiting`` (the wager collected); its ``progressive.paid``
    is the payment, counted once in the seat's and the table's net (issue 18 item 7)."""
    waiting = {"seat": 1, "spot": "progressive", "hand_index": 0, "outcome": "waiting", "wager": 100,
               "payout": -100, "label": "three suited 7s: jackpot $1,000.05 waits for a supervisor"}
    rows = [row("T1", 1, f"{DAY}T10:00:00.000Z", "bets.closed", 1, {"bets": []}),
            row("T1", 2, f"{DAY}T10:00:30.000Z", "hand.settled", 1,
                {"results": [result(1, "main", 1000, 1000), waiting]}),
            row("T1", 3, f"{DAY}T10:05:00.000Z", "progressive.paid", None,
                {"seat": 1, "amount": 100_005, "supervisor": "S101"})]
    (table,) = rate(row for row in rows if row.type in TYPES)     # what the store gives the report
    assert table.seats[1].net == 1000 - 100 + 100_005
    assert table.total.net == 1000 - 100 + 100_005
    assert table.seats[1].hands == 1 and table.seats[1].wagered == 1100
