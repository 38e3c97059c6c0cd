"""The table state machine with Easy Jack, in process: inputs in, journaled pit events out.

Every test runs on a real journal file. After every step the rig checks that a
table rebuilt from the journal alone is in exactly the same state and phase,
which is what a restart after ``kill -9`` relies on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.events.codec import record_json
from controller.journal.log import Journal
from controller.table.views import dealer_view, public_state, table_picture
from drivers.display import render_text
from drivers.inputs import (
    CardDrawn,
    CardUnreadable,
    CutCard,
    DeviceOffline,
    DeviceOnline,
    DeviceStatus,
    RejectedChip,
    ShoeLoaded,
    SpotWager,
)
from firmware_bridge.kernel.cards import Card
from tests.rigs.table_rig import Rig, phase_of, types


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    return Rig(tmp_path)


def test_a_full_hand_publishes_every_step_in_order(rig: Rig) -> None:
    rig.ready(s1_main=1000, s3_main=2000, s3_side=500)
    assert [e["data"]["amount"] for e in rig.published if e["type"] == "bet.placed"] == [1000, 2000, 500]
    assert all(e["hand"] == 1 for e in rig.published if e["type"] == "bet.placed")
    started = rig.press("deal")
    assert types(started) == ["hand.started", "bets.closed"]
    assert started[0]["hand"] == started[1]["hand"] == 1
    assert started[0]["data"] == {"seats": [1, 3], "dealer_seat": None}
    assert started[1]["data"]["bets"] == [
        {"seat": 1, "spot": "main", "amount": 1000}, {"seat": 3, "spot": "main", "amount": 2000},
        {"seat": 3, "spot": "side", "amount": 500}]
    first = rig.card("5h")[0]["data"]
    assert (first["to"], first["seat"], first["card"], first["face_up"]) == ("seat", 1, "5h", True)
    rig.card("4c")
    hole = rig.card("9d")
    assert hole[0]["data"] == {"index": 3, "to": "dealer", "seat": None, "hand_index": 0,
                               "card": None, "face_up": False}
    assert "9d" not in json.dumps(rig.published)
    assert record_json(public_state(rig.table))["dealer"]["cards"] == [None]
    assert phase_of(rig.table) == "players"
    rig.card("3s")                       # seat 1 hits to 8
    stood = rig.press("stand")
    assert types(stood) == ["player.action"]
    assert stood[0]["data"] == {"seat": 1, "hand_index": 0, "action": "stand"}
    rig.card("6d")                       # seat 3: 4 + 6 = 10
    end_of_players = rig.press("stand")
    assert types(end_of_players) == ["player.action", "card.revealed", "hand.settled"]
    assert end_of_players[1]["data"] == {"index": 3, "to": "dealer", "seat": None, "hand_index": 0,
                                         "card": "9d"}
    assert phase_of(rig.table) == "settled"  # 9 needs no card
    settled = next(e for e in rig.published if e["type"] == "hand.settled")["data"]["results"]
    assert settled == [
        {"seat": 1, "spot": "main", "hand_index": 0, "outcome": "lose", "wager": 1000, "payout": -1000},
        {"seat": 3, "spot": "main", "hand_index": 0, "outcome": "win", "wager": 2000, "payout": 2000},
        {"seat": 3, "spot": "side", "hand_index": 0, "outcome": "lose", "wager": 500, "payout": -500},
    ]
    view = dealer_view(rig.table)
    assert "Seat 3 main: PAY $20.00" in view.payouts
    ended = rig.press("next")
    assert types(ended) == ["hand.ended"]
    assert ended[0]["hand"] == 1 and ended[0]["data"] == {"hand": 1}
    assert phase_of(rig.table) == "betting"
    assert [e["seq"] for e in rig.published] == list(range(1, len(rig.published) + 1))


def test_dealer_draws_while_a_side_wager_is_in_action(rig: Rig) -> None:
    rig.ready(s2_main=500, s2_side=500)
    rig.press("deal")
    rig.card("Ks")                       # seat 2: 10
    rig.card("2d")                       # hole
    rig.press("stand")
    assert phase_of(rig.table) == "dealer"
    rig.card("3c")                       # dealer 5
    rig.card("4c")                       # dealer 9: stands
    results = rig.table.state.results
    assert results is not None
    assert [(r.spot, r.outcome, r.payout) for r in results] == [
        ("main", "win", 500), ("side", "lose", -500)]


def test_deal_is_refused_with_reasons_and_changes_nothing(rig: Rig) -> None:
    assert rig.table.press("deal") is not None
    rig.do(DeviceOnline("shoe", "f", "s"))
    rig.do(DeviceOnline("rfid", "f", "s"))
    reason = rig.table.press("deal")
    assert reason is not None
    assert "the shoe is not loaded" in reason and "no seat has a main wager" in reason
    rig.do(ShoeLoaded(42, 6))
    rig.bet(2, "main", 300)
    rig.bet(4, "side", 500)
    reason = rig.table.press("deal")
    assert reason is not None and "below the table minimum" in reason and "no main wager" in reason
    assert "deal" not in rig.table.live_buttons()
    assert phase_of(rig.table) == "betting"
    assert "hand.started" not in types(rig.published)


def test_a_natural_ends_the_turn_and_a_bust_too(rig: Rig) -> None:
    rig.ready(s1_main=1000, s2_main=1000)
    rig.press("deal")
    rig.card("As")                       # seat 1 natural
    rig.card("9h")                       # seat 2
    rig.card("7d")                       # hole
    assert rig.table.state.hand.turn == 2
    rig.card("5c")                       # seat 2 busts at 14: turn over
    assert phase_of(rig.table) == "settled"  # nothing depends on the dealer any more
    assert [r.outcome for r in rig.table.state.results or ()] == ["natural", "lose"]


def test_void_cancels_the_hand(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")
    voided = rig.press("void")
    assert types(voided) == ["hand.voided"]
    assert phase_of(rig.table) == "betting"
    assert "hand.settled" not in types(rig.published)
    rig.press("deal")
    assert rig.published[-2]["hand"] == 2


def test_card_alerts(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    out_of_turn = rig.card("5h")
    assert [(e["type"], e["data"]["code"]) for e in out_of_turn] == [("alert", "card_out_of_turn")]
    assert "5h" not in json.dumps(out_of_turn)
    rig.press("deal")
    gap = rig.do(CardDrawn(42, 4, Card.parse("6h")))
    assert types(gap) == ["alert", "card.dealt"]
    assert gap[0]["data"]["code"] == "card_gap" and gap[0]["data"]["index"] == 2
    unreadable = rig.do(CardUnreadable(42, 5))
    assert unreadable[0]["data"]["code"] == "card_unreadable"
    assert rig.do(CardDrawn(42, 4, Card.parse("6h"))) == []   # the same card again: ignored
    rig.card("Kd")                       # the hole card: the first of 6 kings of diamonds
    for copy in range(2, 8):
        events = rig.do(CardDrawn(42, rig.table.state.shoe.last_index + 1, Card.parse("Kd")))
        codes = [e["data"].get("code") for e in events]
        assert ("card_over_count" in codes) == (copy == 7), (copy, codes)


def test_chips_and_past_posting(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    fake = RejectedChip("00000000deadbeef", 10000, "counterfeit")
    alerts = rig.bet(1, "side", 0, (fake,))
    assert alerts[0]["data"]["code"] == "counterfeit_chip"
    assert rig.bet(1, "side", 0, (fake,)) == []           # the same chip again: one alert
    rig.press("deal")
    moved = rig.bet(1, "main", 5000)
    assert moved[0]["data"]["code"] == "past_post" and moved[0]["data"]["seat"] == 1
    assert rig.table.hand is not None and rig.table.hand.committed() == {(1, "main"): 1000}
    rig.card("5h")
    rig.card("9d")
    rig.press("stand")
    rig.card("2c")
    assert phase_of(rig.table) == "settled"
    assert rig.bet(1, "main", 0) == []                    # collecting after settlement is allowed
    rig.press("next")
    assert rig.published[-1]["type"] == "bet.placed" and rig.published[-1]["data"]["amount"] == 0


def test_device_offline_mid_hand_waits_and_resumes(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")
    events = rig.do(DeviceOffline("shoe", "no answer for 3 s"))
    assert types(events) == ["device.offline", "alert"]
    assert events[1]["data"]["code"] == "device_offline"
    assert "offline" in dealer_view(rig.table).instruction
    rig.do(DeviceOnline("shoe", "f", "s"))
    rig.card("9d")
    assert phase_of(rig.table) == "players"
    assert "stand" in [a["name"] for a in record_json(table_picture(rig.table))["actions"]]
    rig.do(DeviceOffline("rfid", "no answer for 3 s"))
    picture = record_json(table_picture(rig.table))         # no STAND offered, none taken, "Wait" said
    assert [a["name"] for a in picture["actions"]] == ["void", "call_floor"]
    assert picture["instruction"] == "Wait: the rfid is offline: the hand waits until it is back."
    assert rig.table.press("stand") == "stand: the rfid is offline: the hand waits until it is back"
    assert rig.table.live_buttons() == ("void",)
    rig.do(DeviceOnline("rfid", "f", "s"))
    assert "STAND" in record_json(table_picture(rig.table))["instruction"]
    rig.press("stand")


def test_cut_card_ends_the_shoe_after_the_hand(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    rig.do(CutCard(42, 0))
    reason = rig.table.press("deal")
    assert reason is not None and "cut card" in reason


def _cut_journal(rig: Rig, folder: Path, lines: int) -> Journal:
    """The rig's journal as a crash would leave it with only its first ``lines`` lines on disk."""
    folder.mkdir()
    kept = rig.journal.path.read_bytes().splitlines(keepends=True)[:lines]
    (folder / "journal.log").write_bytes(b"".join(kept))
    return Journal.open(folder / "journal.log")


def test_a_step_cut_short_by_a_crash_is_dropped_whole(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.ready(s1_main=1000, s2_main=1000)
    rig.press("deal")                    # hand.started + bets.closed in one step
    rig.card("5h")
    rig.card("6h")
    rig.card("9d")
    rig.press("stand")
    before = rig.journal.last_seq
    assert types(rig.card("Kc")) == ["card.dealt", "card.revealed", "hand.settled"]  # one step
    for lines in (before + 1, before + 2):
        journal = _cut_journal(rig, tmp_path / f"cut-{lines}", lines)
        assert journal.last_seq == before and journal.cut_step
        assert journal.path.stat().st_size == len(b"".join(
            rig.journal.path.read_bytes().splitlines(keepends=True)[:before]))
        crashed = rig.rebuilt(list(journal.records()))
        assert public_state(crashed) == public_state(rig.rebuilt(rig.journal.since(1)[:before]))
        assert phase_of(crashed) == "players" and crashed.seat_in_turn() == 2
        journal.close()


def test_a_crash_after_any_record_resumes_at_the_last_whole_step(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    rig.ready(s1_main=1000, s2_main=1000, s2_side=500)
    rig.press("deal")
    for card in ("5h", "6h", "9d", "2c"):
        rig.card(card)
    rig.press("stand")                       # seat 1 at 7
    rig.card("Kc")                           # seat 2 busts: revealed; the dealer plays for the side bet
    rig.card("3d")
    rig.press("next")
    rig.press("deal")
    rig.card("As")                           # a natural
    rig.card("4c")
    rig.press("void")
    records = rig.journal.since(1)
    ends = [r.seq for r in records if not r.private.get("more")]
    assert len(ends) < len(records)          # some steps really have more than one record
    for lines in range(1, len(records) + 1):
        journal = _cut_journal(rig, tmp_path / f"cut-{lines}", lines)
        whole = max(end for end in ends if end <= lines)
        assert journal.last_seq == whole, lines
        assert journal.damage is None
        crashed = rig.rebuilt(list(journal.records()))
        expected = rig.rebuilt(records[:whole])
        assert public_state(crashed) == public_state(expected), lines
        published: list[dict[str, object]] = []
        crashed._write = lambda step, j=journal: j.append(*step)
        crashed.set_publisher(lambda topic, body, out=published: out.append(json.loads(body)))
        crashed.open(recovered=True)
        assert published[0]["seq"] == whole + 1  # no seq was published twice or skipped
        journal.close()


def test_status_flags_show_on_the_dealer_display(rig: Rig) -> None:
    rig.ready()
    # Not an event: shown, not journaled (the driver names the bits: tests/drivers/test_link_drivers.py).
    assert rig.do(DeviceStatus("shoe", ("lid open", "optical sensor fault"))) == []
    assert dealer_view(rig.table).devices["shoe"] == "online (lid open, optical sensor fault)"
    rig.do(DeviceStatus("shoe", ()))
    assert dealer_view(rig.table).devices["shoe"] == "online"


def test_a_card_from_a_shoe_never_loaded_alerts_and_leaves_the_shoe_count_alone(rig: Rig) -> None:
    rig.ready(s1_main=1000)
    stray = rig.do(CardDrawn(99, 5, Card.parse("Ah")))
    assert [(e["data"]["code"], e["data"]["shoe_id"]) for e in stray] == [("card_out_of_turn", 99)]
    assert "Ah" not in json.dumps(stray)
    unreadable = rig.do(CardUnreadable(99, 6))
    assert [e["data"]["code"] for e in unreadable] == ["card_out_of_turn"]
    assert rig.table.state.shoe.last_index == 0
    rig.press("deal")
    assert rig.card("5h")[0]["data"]["index"] == 1                # no gap, no repeat


def test_a_spot_with_more_chips_than_the_reader_can_list_holds_the_deal(rig: Rig) -> None:
    rig.ready()
    # readings are live, not journaled (the reader repeats them): no restart check for this input
    rig.table.handle(SpotWager(1, "main", 1, 42500, tuple(f"{n:016x}" for n in range(85)), complete=False))
    reason = rig.table.press("deal")
    assert reason is not None and "more chips than the reader can count" in reason


def test_the_phase_is_the_table_states_and_the_machine_cannot_move_against_it(rig: Rig) -> None:
    table = rig.table
    assert table.phase == table.state.phase == "betting"
    with pytest.raises(RuntimeError, match="journaled state is 'betting'"):
        table.machine.set_state("in_hand")              # no hand.started journaled
    rig.ready(s1_main=1000)
    rig.press("deal")
    assert table.phase == table.state.phase == "in_hand" and table.state.in_hand
    with pytest.raises(RuntimeError, match="journaled state is 'in_hand'"):
        table.machine.set_state("settled")              # no results yet
    with pytest.raises(RuntimeError, match="journaled state is 'in_hand'"):
        table.machine.set_state("betting")              # no hand.ended journaled
    rig.press("void")
    assert table.phase == table.state.phase == "betting" and not table.state.in_hand


def test_the_display_clears_a_refusal_once_the_state_changes_and_marks_it_apart_from_alerts(
        rig: Rig) -> None:
    """Issue 18 item 15: a refused press's notice goes with the next change of state; a refusal is
    not marked like a critical alert; a past-post mark goes once the chips are put right."""
    rig.ready()
    assert rig.table.press("deal") is not None
    view = dealer_view(rig.table)
    assert view.notice is not None and view.notice.startswith("deal: ")
    text = render_text(view)
    assert "?? deal: " in text and "!! deal: " not in text
    rig.bet(1, "main", 1000)
    view = dealer_view(rig.table)
    assert view.notice is None and "deal:" not in render_text(view)
    rig.press("deal")
    (alert,) = [e for e in rig.bet(1, "main", 5000) if e["type"] == "alert"]
    assert alert["data"]["code"] == "past_post"
    assert [s.alert for s in dealer_view(rig.table).seats if s.seat == 1] == ["past post"]
    assert "!! past_post: " in render_text(dealer_view(rig.table))
    rig.bet(1, "main", 1000)                                   # the chips put right
    assert [s.alert for s in dealer_view(rig.table).seats if s.seat == 1] == [None]


def test_the_instruction_names_no_button_the_table_lacks(tmp_path: Path) -> None:
    """Easy Jack's "press STAND" at a table whose STAND is only on the screen: the screen's label,
quoted, as its button says it (issue 18 item 15, issue 25 item 6)."""
    rig = Rig(tmp_path, buttons=("deal", "next", "void"))
    rig.ready(s1_main=1000)
    rig.press("deal")
    rig.card("5h")
    rig.card("9d")
    instruction = dealer_view(rig.table).instruction
    assert "STAND" not in instruction and "\u201cStand\u201d" in instruction, instruction
    assert "by control" not in instruction and "stand" not in instruction, instruction
