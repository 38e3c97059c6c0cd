"""The monitor's picture of a table against the table's own: the real table in process, step by step.

The in-process table (``tests/rigs/table_rig.py``: the real state machine and
a real game on a real journal) publishes its events; after every step the
monitor's model takes them and then the table's picture as the daemon
publishes it (``table.view``: :func:`table_picture`). Between the events and
the picture the model says it is stale; with the picture its whole state must
be exactly the table's snapshot state (but the keys it leaves out), and it
never needs a snapshot after its first.

Easy Jack, Hold'em Blackjack (random hands too) and Blackjack Extreme (a
split, the short-stack payments, a tournament's levels). Alerts are kept until
acknowledged, and acknowledgements survive a restart of the monitor.
"""

from __future__ import annotations

import json
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
import zmq.asyncio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.events.codec import record_json
from controller.events.envelope import compact_json
from controller.follow.aio import Follower
from controller.follow.records import FollowedEvent
from controller.follow.sources import TableSource
from controller.games.blackjack_extreme.game import BlackjackExtreme
from controller.games.blackjack_extreme.rules import BlackjackExtremeRules
from controller.games.holdem_blackjack.game import HoldemBlackjack
from controller.games.holdem_blackjack.rules import HoldemBlackjackRules
from controller.games.interface import Limits
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import SKIPPED, Floor, TableModel, empty_state
from controller.table.machine import Table, TableSettings
from controller.table.views import public_state, table_picture
from drivers.inputs import DeviceOffline, DeviceOnline, RejectedChip
from tests.monitor.hands import random_holdem_hand
from tests.rigs.holdem_hands import DECK
from tests.rigs.table_rig import Rig
from tests.table.picture_scenarios import read_golden

HOLDEM_BUTTONS = ("deal", "check", "call", "bet", "raise", "fold", "stand", "next", "void")
BJX_BUTTONS = ("deal", "check", "raise", "fold", "stand", "split", "surrender", "play", "next", "void")


def picture(state: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's state as the monitor keeps it."""
    return {k: v for k, v in state.items() if k not in SKIPPED}


def followed(message: dict[str, Any]) -> FollowedEvent:
    """An event as a follower delivers it (its envelope made whole: ``v``, ``table``, ``ts``)."""
    whole = {"v": 1, "table": "T01", "ts": "2027-03-01T20:00:00.000Z", "hand": None, **message}
    return FollowedEvent.of(whole, f"T01/{whole['type']}".encode(), compact_json(whole))


def full(name: str, **state: Any) -> dict[str, Any]:
    """A picture as a table publishes one: ``state`` over the picture of a table not heard yet, whose
    game, phases, next hand and shoe are a table's (the codec refuses a picture without them)."""
    heard = {"game": "easy-jack", "phase": "betting", "table_phase": "betting", "next_hand": 1,
             "shoe": {"shoe_id": None, "decks": 0, "cards_drawn": 0, "cut_card_out": False}}
    return {**empty_state(name), **heard, **state}


def snapshot(rig: Rig) -> dict[str, Any]:
    return {"seq": rig.published[-1]["seq"], "state": record_json(public_state(rig.table))}


class Watch:
    """Feeds the rig's new events and then the table's picture to a model, and compares."""

    def __init__(self, rig: Rig, model: TableModel) -> None:
        self.rig = rig
        self.model = model
        self.fed = len(rig.published)

    def check(self) -> None:
        new = self.rig.published[self.fed:]
        for event in new:
            self.model.apply(followed(event), live=True)
        self.fed = len(self.rig.published)
        assert self.model.stale is bool(new)
        seq = self.rig.published[-1]["seq"]
        self.model.view(json.loads(json.dumps({"seq": seq, "type": "table.view",
                                               "data": record_json(table_picture(self.rig.table))})))
        assert self.model.state == picture(record_json(public_state(self.rig.table)))
        assert self.model.seq == seq and not self.model.stale


class Watched(Rig):
    """A rig whose every step (each input, press and check of recovery) is checked by its watches."""

    def __init__(self, folder: Path, **options: Any) -> None:
        self.watches: list[Watch] = []
        super().__init__(folder, **options)

    def watch(self) -> TableModel:
        """A monitor that starts now, from a snapshot."""
        model = TableModel("T01")
        model.load_snapshot(snapshot(self), "")
        self.watches.append(Watch(self, model))
        return model

    def check_recovery(self) -> None:
        super().check_recovery()
        for watch in self.watches:
            watch.check()

    def command(self, name: str, **fields: Any) -> None:
        assert self.table.command(name, {"cmd": name, **fields}) is None
        self.check_recovery()


def test_the_picture_follows_easy_jack_step_by_step_through_hands(tmp_path: Path) -> None:
    rig = Watched(tmp_path)
    model = rig.watch()
    rig.ready(s1_main=1000, s3_main=2000, s3_side=500)
    assert model.wagers_in_play() == 3500
    rig.press("deal")
    for card in ("5h", "4c", "9d"):            # the 9d is the dealer's hole card: never seen
        rig.card(card)
    assert model.state["phase"] == "players" and model.state["dealer"]["cards"] == [None]
    assert model.state["seats"][0]["total"] == "5" and model.wagers_in_play() == 3500
    assert "9d" not in json.dumps(model.detail([], []))
    rig.card("3s")
    rig.press("stand")
    rig.card("6d")
    rig.press("stand")                          # reveal and settle
    assert model.last_result is not None and model.last_result["house"] == -500
    assert model.tile([])["last_result"]["results"] == [
        "seat 1 main lose -$10.00", "seat 3 main win +$20.00", "seat 3 side lose -$5.00"]
    for seat, spot in ((1, "main"), (3, "main"), (3, "side")):   # the dealer collects
        rig.bet(seat, spot, 0)
    rig.press("next")

    rig.bet(2, "main", 500)
    rig.bet(2, "side", 500)
    rig.press("deal")
    late = rig.watch()                          # a monitor that starts in the middle of hand 2
    for card in ("Ks", "2d"):
        rig.card(card)
    rig.do(DeviceOffline("shoe", "no answer"))  # a board drops mid-hand
    assert model.tile([])["offline"] == ["shoe"]
    rig.do(DeviceOnline("shoe", "shoe-1.0", "SH-1"))
    rig.press("stand")
    for card in ("3c", "4c"):                   # the dealer draws for the side wager
        rig.card(card)
    assert [h["hand"] for h in model.hands] == [2, 1] and late.state == model.state
    steps = [s["text"] for s in model.hands[0]["steps"]]
    assert "seat 2: Ks" in steps and "dealer: a card face down" in steps and "dealer turns up 2d" in steps
    assert model.hands[0]["result"] == ["seat 2 main win +$5.00", "seat 2 side lose -$5.00"]


def test_a_voided_hand_and_a_cut_card(tmp_path: Path) -> None:
    rig = Watched(tmp_path)
    model = rig.watch()
    rig.ready(s4_main=2500)
    rig.press("deal")
    rig.card("5h")
    rig.press("void")
    assert model.last_result is not None and model.last_result["voided"] == "voided by the dealer"
    assert model.state["phase"] == "betting" and model.wagers_in_play() == 2500   # the chips stay
    assert model.hands[0]["voided"] == "voided by the dealer"


def holdem(folder: Path, rules: HoldemBlackjackRules | None = None) -> Watched:
    rig = Watched(folder, game=HoldemBlackjack(rules or HoldemBlackjackRules(), Limits(200, 2000)),
                  buttons=HOLDEM_BUTTONS)
    rig.watch()
    rig.ready()
    return rig


def test_a_holdem_blackjack_hand_with_its_stacks_pots_and_button(tmp_path: Path) -> None:
    rig = holdem(tmp_path)
    model = rig.watches[0].model
    for seat in (1, 2, 3):
        rig.command("buy_in", seat=seat, amount=10000)
    rig.bet(2, "bet", 100)
    rig.bet(3, "bet", 200)
    rig.press("deal")
    assert model.state["session"]["button"] == 1 and model.state["phase"] == "first_card"
    for card in ("7h", "Kc", "2s"):
        rig.card(card)
    assert [s["seat"] for s in model.occupied() if s["in_turn"]] == [1]
    rig.bet(2, "bet", 300)                      # past posting: an alert, and the picture holds
    rig.bet(2, "bet", 100)
    rig.bet(1, "bet", 200)
    rig.press("call")
    rig.bet(2, "bet", 200)
    rig.press("call")
    rig.press("check")                          # the big blind's option; the round's pot
    assert model.state["pots"] == [{"amount": 600, "seats": [1, 2, 3]}]
    for seat in (1, 2, 3):
        rig.bet(seat, "bet", 0)
    for card in ("9d", "Qs", "3h"):
        rig.card(card)
    rig.bet(2, "bet", 400)
    rig.press("bet")
    rig.bet(3, "bet", 800)
    rig.press("raise")
    rig.press("fold")                           # seat 1 folds: the pot's seats change with no pot event
    assert model.seat_wagers() == {1: 200, 2: 600, 3: 1000}
    rig.bet(2, "bet", 800)
    rig.press("call")
    for seat in (1, 2, 3):
        rig.bet(seat, "bet", 0)
    rig.card("3d")
    rig.press("stand")
    rig.press("stand")
    rig.press("check")
    rig.bet(3, "bet", 1000)
    rig.press("raise")
    rig.bet(2, "bet", 1000)
    rig.press("call")                           # the showdown: pot awarded, settled
    tile = model.tile([])
    assert tile["pots"] == 4200 and tile["last_result"]["house"] == 0
    assert tile["last_result"]["results"] == ["seat 1 bet fold -$2.00", "seat 2 bet lose -$20.00",
                                              "seat 3 bet win (20) +$22.00"]
    for seat in (2, 3):
        rig.bet(seat, "bet", 0)
    rig.press("next")
    assert [(s["seat"], s["stack"]) for s in model.occupied()] == [(1, 9800), (2, 8000), (3, 12200)]
    assert model.tile([])["button"] == 2
    assert "7h" not in json.dumps(model.detail([], []))   # seat 2's hand, mucked unseen
    rig.command("cash_out", seat=1)
    assert "stack" not in model.state["seats"][0]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(),
       stacks=st.dictionaries(st.integers(1, 6), st.sampled_from([300, 1000, 4000, 20000]),
                              min_size=2, max_size=4),
       ante=st.sampled_from([0, 100]), deck=st.permutations(DECK))
def test_random_holdem_blackjack_hands_keep_the_picture_the_tables(
        data: st.DataObject, stacks: dict[int, int], ante: int, deck: list[str]) -> None:
    rules = HoldemBlackjackRules(ante=ante, rake_percent=10, rake_cap=500, min_buy_in=100)
    with TemporaryDirectory() as folder:
        rig = holdem(Path(folder), rules)
        random_holdem_hand(rig, rules, data, stacks, deck)
        assert rig.watches[0].model.state == picture(record_json(public_state(rig.table)))


def extreme(folder: Path, stacks: dict[int, int], rig_class: type[Watched] = Watched,
            **rules: Any) -> Watched:
    rig = rig_class(folder, game=BlackjackExtreme(BlackjackExtremeRules(**rules), Limits(500, 50000)),
                    buttons=BJX_BUTTONS)
    rig.watch()
    for seat, amount in stacks.items():
        rig.command("buy_in", seat=seat, amount=amount)
    return rig


def test_a_blackjack_extreme_hand_with_a_player_dealer_a_fold_and_a_split(tmp_path: Path) -> None:
    rig = extreme(tmp_path, {1: 50000, 2: 20000, 3: 20000, 4: 20000})
    model = rig.watches[0].model
    rig.ready(s2_main=1000, s3_main=1000, s4_main=1000)
    rig.press("deal")
    assert model.tile([])["dealer_seat"] == 1 and model.occupied()[0] == {
        "seat": 1, "wager": 0, "stack": 50000, "dealer": True, "in_turn": False}
    for card in ("8h", "9c", "7d", "Ts", "8d", "Tc", "Td", "7s"):
        rig.card(card)
    rig.press("turn_up", 2)
    rig.bet(2, "main", 3000)
    rig.press("raise")
    assert model.seat_wagers()[2] == 3000
    rig.bet(4, "main", 5000)                    # past posting, and back
    rig.bet(4, "main", 1000)
    rig.press("check")
    rig.press("fold")
    rig.bet(4, "main", 500)
    rig.bet(4, "main", 0)
    rig.press("play")                           # the players' down cards turned up
    rig.bet(2, "main", 6000)
    rig.press("split")                          # a card moves to a new hand: no card event says so
    assert [len(h["cards"]) for h in model.state["seats"][1]["hands"]] == [1, 1]
    for card in ("3c", "Tc", "Kc"):
        rig.card(card)
    rig.press("stand")
    rig.press("stand")
    assert model.last_result is not None and model.last_result["results"][:2] == [
        "seat 2 main win +$30.00", "seat 2 main hand 2 win +$30.00"]
    assert (model.last_result["house"], model.last_result["bank"]) == (0, {"seat": 1, "net": -6500})
    rig.press("next")
    assert [(s["seat"], s["stack"]) for s in model.occupied()] == [(1, 43500), (2, 26000), (3, 21000),
                                                                   (4, 19500)]
    assert model.tile([])["button"] == 2 and model.tile([])["dealer_seat"] is None


def test_blackjack_extreme_short_stack_payments_and_a_dealer_who_leaves(tmp_path: Path) -> None:
    rig = extreme(tmp_path, {1: 3000, 2: 20000, 3: 20000, 4: 20000, 5: 20000}, format="ring")
    rig.ready(s2_main=1000, s3_main=1500, s4_main=1000, s5_main=1500)
    rig.press("deal")
    for card in ("Ah", "9c", "Td", "Th", "Ts", "Kh", "9d", "6c", "9s", "6s"):
        rig.card(card)
    rig.press("turn_up", 2)
    rig.press("check")
    rig.bet(3, "main", 3000)
    rig.press("raise")
    rig.press("check")
    rig.press("check")
    rig.press("play")
    rig.bet(3, "main", 6000)
    rig.press("split")
    for card in ("Tc", "Jc", "Kc"):
        rig.card(card)
        rig.press("stand")
    rig.card("9h")
    rig.press("leave")
    rig.bet(4, "main", 0)
    rig.press("next")
    rig.bet(3, "main", 6000)
    rig.bet(2, "main", 2500)
    for _ in range(5):
        rig.press("next")
    rig.bet(3, "main", 0)
    rig.bet(5, "main", 0)
    rig.press("next")                           # settled
    rig.press("next")                           # the dealer is cashed out at zero
    model = rig.watches[0].model
    assert "stack" not in model.state["seats"][0] and model.last_result is not None
    assert any("the dealer ran out" in r for r in model.last_result["results"])


class ClockRig(Watched):
    """A rig whose table clock the test sets."""

    now = "2027-03-01T20:00:00.000Z"

    def _table(self, write: Any) -> Table:
        settings = TableSettings("T01", "blackjack-extreme", 6, {"min_bet": 500, "max_bet": 50000},
                                 self.buttons, ("shoe", "rfid"))
        return Table(settings, self.game, clock=lambda: type(self).now, write=write)


def test_a_tournament_s_levels_and_places(tmp_path: Path) -> None:
    rig = extreme(tmp_path, {}, ClockRig, format="tournament", level_minutes=10)
    for seat in (1, 2):
        rig.command("buy_in", seat=seat)
    rig.command("button", seat=1)
    rig.table.tick()
    rig.check_recovery()
    model = rig.watches[0].model
    assert model.tournament() == {"level": 1, "blinds": [2000, 4000, 6000],
                                  "blinds_text": "$20.00/$40.00/$60.00",
                                  "ends_at": "2027-03-01T20:10:00.000Z", "places": [], "winner": None}
    ClockRig.now = "2027-03-01T20:10:00.500Z"
    rig.table.tick()
    rig.check_recovery()
    assert model.tile([])["tournament"]["level"] == 2
    model.apply(followed({"seq": 999, "type": "player.eliminated", "data": {"seat": 2, "place": 2}}),
                live=False)
    model.apply(followed({"seq": 999, "type": "player.eliminated", "data": {"seat": "x", "place": 1}}),
                live=False)
    assert model.tournament()["places"] == [{"seat": 2, "place": 2}]  # type: ignore[index]


def test_events_the_model_does_not_know_or_cannot_read_are_logged_not_fatal() -> None:
    model = TableModel("T09")
    model.load_snapshot({"seq": 0, "state": full("T09", game="poker", seats=[
        {"seat": 1, "bets": {}, "cards": [], "total": None}])}, "")
    events: list[dict[str, Any]] = [
        {"seq": 1, "type": "table.opened", "hand": None,
         "data": {"game": "poker", "seats": 6, "limits": {"min_bet": 100}, "recovered": False}},
        {"seq": 2, "type": "hand.started", "hand": 1, "data": {"seats": [1], "dealer_seat": None}},
        {"seq": 3, "type": "pot", "hand": 1, "data": {"pots": [{"amount": 900, "seats": [1]}], "rake": 50}},
        {"seq": 4, "type": "card.dealt", "hand": 1, "data": "not an object"},
        {"seq": 5, "type": "gizmo.spun", "hand": None, "data": {"speed": 3}},
        {"seq": 6, "type": "tournament.level", "hand": None, "data": {"level": 3, "blinds": [100, 200],
                                                                      "ends_at": "2027-03-01T20:10:00.000Z"}},
        {"seq": 7, "type": "hand.settled", "hand": 1, "data": {"results": "not a list"}},
        {"seq": 8, "type": "player.eliminated", "hand": None, "data": {"seat": "x"}},
    ]
    for event in events:
        model.apply(followed(event), live=True)
    assert model.stale and model.seq == 8
    model.view({"seq": 8, "type": "table.view", "data": full(
        "T09", game="poker", hand=1, table_phase="in_hand", phase="dealing",
        seats=[{"seat": 1, "bets": {}, "cards": ["Zz"], "total": None, "stack": 20000}],
        pots=[{"amount": 900, "seats": [1]}], meters={"hands": 1, "progressive": 1234567})})
    detail = model.detail([], [])
    assert detail["state"]["seats"][0]["stack"] == 20000 and detail["meters"] == {"progressive": 1234567}
    assert detail["state"]["pots"] == [{"amount": 900, "seats": [1]}] and detail["rake"] == 50
    assert detail["state"]["seats"][0]["cards"] == ["Zz"] and detail["stale"] is False
    assert detail["limits"] == {"min_bet": 100}
    assert detail["last_result"]["results"] == ["(results not understood)"]
    assert detail["table_log"][2]["text"] == "gizmo.spun: speed 3"
    assert detail["table_log"][1]["text"] == "level 3: blinds $1.00/$2.00"
    assert [s["text"] for s in detail["hands"][0]["steps"]][2:] == [
        "card.dealt (not understood)", "hand.settled (not understood)"]
    model.view({"seq": 8, "type": "table.view", "data": {"seats": "no list"}})
    assert model.state["game"] == "poker"                     # a picture not understood: the last one stays


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
        floor.snapshot(follower, {"seq": 8, "state": full("T1", game="easy-jack", alerts=[
            {"seq": 3, "hand": None, "code": "card_gap", "severity": "critical", "message": "gap"}])})
        assert [a["code"] for a in floor.tile("T1")["alerts"]] == ["card_gap"]
        odd = {"v": 1, "table": "T1", "seq": 9, "ts": "2027-03-01T20:00:00.000Z", "type": "alert",
               "hand": None, "data": "odd"}
        floor.event(follower, odd, b"T1/alert", compact_json(odd), True)
        assert floor.tile("T1")["seq"] == 9 and len(floor.tile("T1")["alerts"]) == 1
        floor.refreshed(follower, {"seq": 9, "state": {"seats": "no list"}})
        assert floor.tile("T1")["seq"] == 9 and floor.tile("T1")["game"] == "easy-jack"
    finally:
        context.destroy(linger=0)



def test_a_picture_let_go_once_drawn_is_read_again_the_same_and_an_unreadable_one_keeps_the_last() -> None:
    model = TableModel("T09")
    model.load_snapshot({"seq": 0, "state": full("T09")}, "")
    text = json.dumps(full("T09", game="easy-jack", hand=4, seats=[
        {"seat": 2, "bets": {"main": 500}, "cards": ["Ah"], "total": "11"}])).encode()
    model.view({"seq": 5, "type": "table.view", "raw": text})
    drawn = model.tile([])
    model.let_go()                                   # drawn: the decoded state is forgotten ...
    assert model.picture._state is None and model._shown == (-1, None)
    assert model.tile([]) == drawn                   # ... and read again, the same, when next asked for
    model.let_go()
    model.view({"seq": 6, "type": "table.view", "raw": b"{not json"})
    assert model.state["hand"] == 4                  # a picture that cannot be read: the last one stays
    model.let_go()
    assert model.state["hand"] == 4 and model.tile([])["seats"] == drawn["seats"]
    model.view({"seq": 7, "type": "table.view", "raw": json.dumps({"seats": "no list"}).encode()})
    assert model.state["hand"] == 4                  # read, but not understood: the last one stays too
    model.let_go()
    assert model.state["hand"] == 4


def test_the_floor_says_once_when_every_table_has_answered() -> None:
    context = zmq.asyncio.Context()
    try:
        floor = Floor(["T1", "T2"], AlertBook())
        heard: list[int] = []
        floor.on_heard = lambda: heard.append(len(heard))
        one, two = (Follower(TableSource(name, "tcp://127.0.0.1:9", "tcp://127.0.0.1:10"), floor,
                             context=context) for name in ("T1", "T2"))
        floor.snapshot(one, {"seq": 1, "state": {}})
        floor.snapshot(one, {"seq": 2, "state": {}})
        assert heard == []
        floor.snapshot(two, {"seq": 1, "state": {}})
        floor.snapshot(two, {"seq": 5, "state": {}})          # a table started again: said once all the same
        assert heard == [0]
    finally:
        context.destroy(linger=0)

@pytest.fixture(autouse=True)
def _clock_reset() -> None:
    ClockRig.now = "2027-03-01T20:00:00.000Z"


def test_every_golden_picture_reaches_the_page_as_the_table_published_it() -> None:
    """The pictures main published at each step of every game (tests/data/pictures.jsonl.gz): read
    as records, the table's page gets each one's JSON byte for byte (but the keys it leaves out),
    and the tile says of it what the JSON says."""
    model = TableModel("T01")
    model.load_snapshot({"seq": 0, "state": empty_state("T01")}, "")
    for seq, (name, _, published) in enumerate(read_golden(), start=1):
        model.view({"seq": seq, "type": "table.view", "raw": published})
        sent = json.loads(published)
        assert compact_json(model.state) == compact_json(
            {k: v for k, v in sent.items() if k not in SKIPPED}), name
        tile = model.tile([])
        in_hand = sent["hand"] is not None
        wagers = {seat["seat"]: max(sum(seat["bets"].values()),
                                    sum(h["wager"] or 0 for h in seat["hands"]) if in_hand else 0)
                  for seat in sent["seats"]}
        assert (tile["game"], tile["hand"], tile["phase"], tile["closed"]) == (
            sent["game"], sent["hand"], sent["phase"], sent["closed"]), name
        assert tile["wagers"] == sum(wagers.values()) and tile["seat_count"] == len(sent["seats"]), name
        assert [s["seat"] for s in tile["seats"]] == [
            s["seat"] for s in sent["seats"]
            if wagers[s["seat"]] or "stack" in s or s["seat"] == sent["dealer"]["seat"]], name
        assert (tile["dealer_seat"], tile["button"]) == (sent["dealer"]["seat"], sent["session"]["button"])
        assert tile["pots"] == sum(p["amount"] for p in sent["pots"]), name
        assert tile["offline"] == sorted(d for d, v in sent["devices"].items() if not v["online"]), name
        model.let_go()
