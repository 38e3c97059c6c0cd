"""The monitor's picture of a table against the table's own: the real table in process, event by event.

The in-process table (``tests/rigs/table_rig.py``: the real state machine and
Easy Jack on a real journal) publishes its events; the monitor's model applies
them one by one, and after every step its seats, cards, totals, dealer, phase
and results must be exactly what the table's own snapshot says. Alerts are
kept until acknowledged, and acknowledgements survive a restart of the monitor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import zmq.asyncio

from controller.pit.monitor.alerts import AlertBook
from controller.pit.monitor.floor import Floor, TableModel
from controller.pit.monitor.follower import Follower
from controller.pit.monitor.tables import TableSource
from controller.table.views import public_state
from drivers.inputs import DeviceOffline, DeviceOnline, RejectedChip
from tests.rigs.table_rig import Rig


def picture(state: dict[str, Any]) -> dict[str, Any]:
    """What the monitor and the table's snapshot must agree on."""
    return {
        "phase": state["phase"], "hand": state["hand"],
        "seats": [(s["seat"], s["bets"], s["cards"], s["total"]) for s in state["seats"]],
        "dealer": state["dealer"], "results": state["results"],
        "devices": {name: d["online"] for name, d in state["devices"].items()},
        "cut_card_out": state["shoe"].get("cut_card_out"),
    }


class Watch:
    """Feeds the rig's new events to a model and compares after each step."""

    def __init__(self, rig: Rig, model: TableModel) -> None:
        self.rig = rig
        self.model = model
        self.fed = len(rig.published)

    def check(self) -> None:
        for event in self.rig.published[self.fed:]:
            self.model.apply(event, live=True)
        self.fed = len(self.rig.published)
        assert picture(self.model.state) == picture(public_state(self.rig.table))
        assert self.model.seq == self.rig.published[-1]["seq"]


def snapshot(rig: Rig) -> dict[str, Any]:
    return {"seq": rig.published[-1]["seq"], "state": public_state(rig.table)}


def test_the_picture_follows_the_table_event_by_event_through_hands(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    model = TableModel("T01")
    model.load_snapshot(snapshot(rig), "")
    watch = Watch(rig, model)
    rig.ready(s1_main=1000, s3_main=2000, s3_side=500)
    watch.check()
    assert model.wagers_in_play() == 3500
    rig.press("deal")
    watch.check()
    for card in ("5h", "4c", "9d"):            # the 9d is the dealer's hole card: never seen
        rig.card(card)
        watch.check()
    assert model.state["phase"] == "players" and model.state["dealer"]["cards"] == [None]
    assert "9d" not in json.dumps(model.detail([], []))
    rig.card("3s")
    watch.check()
    rig.press("stand")
    watch.check()
    rig.card("6d")
    watch.check()
    rig.press("stand")                          # reveal and settle
    watch.check()
    assert model.last_result is not None and model.last_result["house"] == -500
    assert model.tile([])["last_result"]["results"] == [
        "seat 1 main lose -$10.00", "seat 3 main win +$20.00", "seat 3 side lose -$5.00"]
    for seat, spot in ((1, "main"), (3, "main"), (3, "side")):   # the dealer collects
        rig.bet(seat, spot, 0)
    rig.press("next")
    watch.check()

    rig.bet(2, "main", 500)
    rig.bet(2, "side", 500)
    rig.press("deal")
    watch.check()
    late = TableModel("T01")                    # a monitor that starts in the middle of hand 2
    late.load_snapshot(snapshot(rig), "")
    late_watch = Watch(rig, late)
    for card in ("Ks", "2d"):
        rig.card(card)
        watch.check()
        late_watch.check()
    rig.do(DeviceOffline("shoe", "no answer"))  # a board drops mid-hand
    watch.check()
    late_watch.check()
    assert model.tile([])["offline"] == ["shoe"]
    rig.do(DeviceOnline("shoe", "shoe-1.0", "SH-1"))
    watch.check()
    rig.press("stand")
    for card in ("3c", "4c"):                   # the dealer draws for the side wager
        rig.card(card)
        watch.check()
        late_watch.check()
    assert [h["hand"] for h in model.hands] == [2, 1]
    steps = [s["text"] for s in model.hands[0]["steps"]]
    assert "seat 2: Ks" in steps and "dealer: a card face down" in steps and "dealer turns up 2d" in steps
    assert model.hands[0]["result"] == ["seat 2 main win +$5.00", "seat 2 side lose -$5.00"]


def test_a_voided_hand_and_a_cut_card(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    model = TableModel("T01")
    model.load_snapshot(snapshot(rig), "")
    watch = Watch(rig, model)
    rig.ready(s4_main=2500)
    rig.press("deal")
    rig.card("5h")
    watch.check()
    rig.press("void")
    watch.check()
    assert model.last_result is not None and model.last_result["voided"] == "voided by the dealer"
    assert model.state["phase"] == "betting" and model.wagers_in_play() == 2500   # the chips stay
    assert model.hands[0]["voided"] == "voided by the dealer"


def test_events_the_model_does_not_know_or_cannot_read_are_logged_not_fatal() -> None:
    model = TableModel("T09")
    model.load_snapshot({"seq": 0, "state": {"table": "T09", "game": "poker", "seats": [
        {"seat": 1, "bets": {}, "cards": [], "total": None}]}}, "")
    events: list[dict[str, Any]] = [
        {"seq": 1, "type": "seat.stack", "hand": None,
         "data": {"seat": 1, "amount": 20000, "reason": "buy_in"}},
        {"seq": 2, "type": "meter", "hand": None, "data": {"name": "progressive", "value": 1234567}},
        {"seq": 3, "type": "pot", "hand": 1, "data": {"pots": [{"amount": 900, "seats": [1]}], "rake": 50}},
        {"seq": 4, "type": "card.dealt", "hand": 1, "data": {"to": "seat", "seat": 1, "card": "Zz",
                                                            "face_up": True, "index": 1}},
        {"seq": 5, "type": "card.dealt", "hand": 1, "data": "not an object"},
        {"seq": 6, "type": "tournament.level", "hand": None, "data": {"level": 3, "blinds": [100, 200]}},
    ]
    for event in events:
        model.apply(event, live=True)
    detail = model.detail([], [])
    assert detail["state"]["seats"][0]["stack"] == 20000 and detail["meters"] == {"progressive": 1234567}
    assert detail["pots"] == {"pots": [{"amount": 900, "seats": [1]}], "rake": 50}
    assert detail["state"]["seats"][0]["total"] is None          # no totals for a game it does not know
    assert model.seq == 6 and detail["table_log"][0]["text"] == "tournament.level: level 3"


def test_alerts_wait_for_an_acknowledgement_that_is_recorded_and_survives_a_restart(tmp_path: Path) -> None:
    log = tmp_path / "acks.jsonl"
    rig = Rig(tmp_path / "table")
    rig.ready()
    rig.bet(2, "main", 500, rejected=(RejectedChip("ffee", 500, "counterfeit"),))
    alert = next(e for e in rig.published if e["type"] == "alert")
    book = AlertBook(log)
    added = book.add("T01", "", alert["seq"], alert["hand"], alert["ts"], alert["data"])
    assert added is not None and book.add("T01", "", alert["seq"], None, None, alert["data"]) is None
    shown = book.open("T01")[0].to_json()
    assert (shown["code"], shown["severity"], shown["concerns"]) == ("counterfeit_chip", "critical",
                                                                     "seat 2 main, chip ffee")
    with pytest.raises(ValueError):
        book.ack(shown["key"], "  ")
    with pytest.raises(KeyError):
        book.ack("T01//999", "Anna")
    acked = book.ack(shown["key"], "Anna")
    assert acked.acked_by == "Anna" and acked.acked_at is not None
    assert book.open() == [] and book.acknowledged("T01")[0].key == shown["key"]
    record = json.loads(log.read_text())
    assert (record["who"], record["seq"], record["code"]) == ("Anna", alert["seq"], "counterfeit_chip")

    again = AlertBook(log)                      # the monitor restarts; the snapshot brings the alert back
    again.add("T01", "", alert["seq"], alert["hand"], None, alert["data"])
    assert again.open() == [] and again.acknowledged()[0].acked_by == "Anna"
    again.add("T01", "e2", alert["seq"], alert["hand"], None, alert["data"])   # same seq, new epoch
    assert len(again.open()) == 1


def test_a_snapshot_that_cannot_be_read_leaves_an_empty_picture_not_a_crash() -> None:
    context = zmq.asyncio.Context()
    try:
        floor = Floor(["T1"], AlertBook())
        follower = Follower(TableSource("T1", "tcp://127.0.0.1:9", "tcp://127.0.0.1:10"), floor,
                            context=context)
        floor.snapshot(follower, {"seq": 7, "state": {"seats": [{"no seat number": 1}],
                                                      "alerts": [{"seq": "x"}]}})
        assert floor.tile("T1")["seq"] == 7 and floor.tile("T1")["seat_count"] == 0
        floor.snapshot(follower, {"seq": 8, "state": {"game": "easy-jack", "seats": [], "alerts": [
            {"seq": 3, "hand": None, "code": "card_gap", "severity": "critical", "message": "gap"}]}})
        assert [a["code"] for a in floor.tile("T1")["alerts"]] == ["card_gap"]
        floor.event(follower, {"seq": 9, "type": "alert", "hand": None, "data": "odd"}, b"", b"", True)
        assert floor.tile("T1")["seq"] == 9 and len(floor.tile("T1")["alerts"]) == 1
    finally:
        context.destroy(linger=0)
