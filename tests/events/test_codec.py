"""The one codec: each record's published ``data`` and journaled ``private``, byte for byte as pit-events
v1 has them, and back to the same record; the registry refuses what it cannot hold."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from controller.events import table as events
from controller.events.books import Closer, Opener
from controller.events.codec import decode, encode
from controller.events.hand import (
    Acted,
    Alerted,
    Dealt,
    Pot,
    PotAwarded,
    PotsChanged,
    Revealed,
    Settled,
    Target,
    WagerResult,
)
from controller.events.registry import Event, event, unregister
from controller.events.tray import TrayCounted
from controller.games.interface import (
    ButtonMoved,
    LevelStarted,
    MeterChanged,
    PlayerEliminated,
    ProgressiveHit,
    ProgressivePaid,
    StackChanged,
    TournamentEnded,
)
from firmware_bridge.kernel.cards import Card

QH = Card.parse("Qh")

WIRE: list[tuple[Event, str, dict[str, Any], dict[str, Any]]] = [
    (events.TableOpened("easy-jack", 6, {"min_bet": 500, "max_bet": 50000}, True), "table.opened",
     {"game": "easy-jack", "seats": 6, "limits": {"min_bet": 500, "max_bet": 50000}, "recovered": True}, {}),
    (events.DeviceOnline("shoe", "shoe-1.0", None), "device.online",
     {"device": "shoe", "firmware": "shoe-1.0", "serial": None}, {}),
    (events.DeviceOffline("rfid", "nothing valid received for 3 s"), "device.offline",
     {"device": "rfid", "reason": "nothing valid received for 3 s"}, {}),
    (events.ShoeLoaded(42, 6), "shoe.loaded", {"shoe_id": 42, "decks": 6}, {}),
    (events.CutCardOut(250), "shoe.cut_card", {"index": 250}, {}),
    (events.BetPlaced(3, "main", 0), "bet.placed", {"seat": 3, "spot": "main", "amount": 0}, {}),
    (events.HandStarted((1, 3), None), "hand.started", {"seats": [1, 3], "dealer_seat": None}, {}),
    (events.BetsClosed((events.Wager(1, "main", 1000),)), "bets.closed",
     {"bets": [{"seat": 1, "spot": "main", "amount": 1000}]}, {}),
    (events.HandEnded(7), "hand.ended", {"hand": 7}, {}),
    (events.HandVoided("voided by the dealer"), "hand.voided", {"reason": "voided by the dealer"}, {}),
    (Dealt(Target("seat", 1, 0, True), QH, 1), "card.dealt",
     {"index": 1, "to": "seat", "seat": 1, "hand_index": 0, "card": "Qh", "face_up": True}, {}),
    (Dealt(Target("dealer", None, 0, False), QH, 3), "card.dealt",
     {"index": 3, "to": "dealer", "seat": None, "hand_index": 0, "card": None, "face_up": False},
     {"card": "Qh"}),
    (Revealed("dealer", 4, 0, QH, 3), "card.revealed",
     {"index": 3, "to": "dealer", "seat": 4, "hand_index": 0, "card": "Qh"}, {}),
    (Acted(2, 0, "stand"), "player.action", {"seat": 2, "hand_index": 0, "action": "stand"}, {}),
    (Acted(2, 1, "raise", 800), "player.action",
     {"seat": 2, "hand_index": 1, "action": "raise", "amount": 800}, {}),
    (Settled((WagerResult(1, "main", 0, "natural", 1000, 1500, "natural 3:2"),
              WagerResult(2, "side", 0, "lose", 500, -500))), "hand.settled",
     {"results": [{"seat": 1, "spot": "main", "hand_index": 0, "outcome": "natural", "wager": 1000,
                   "payout": 1500, "label": "natural 3:2"},
                  {"seat": 2, "spot": "side", "hand_index": 0, "outcome": "lose", "wager": 500,
                   "payout": -500}]}, {}),
    (PotsChanged((Pot(1200, (1, 2)),), 60), "pot",
     {"pots": [{"amount": 1200, "seats": [1, 2]}], "rake": 60}, {}),
    (PotAwarded(0, (1,), 1140, 60), "pot.awarded", {"pot": 0, "seats": [1], "amount": 1140, "rake": 60}, {}),
    (Alerted("progressive_hit", "warning", "seat 1 hit", 1), "alert",
     {"code": "progressive_hit", "severity": "warning", "message": "seat 1 hit", "seat": 1}, {}),
    (Alerted("card_out_of_turn", "warning", "put it aside", None, {"index": 9}, {"card": "Qh"}), "alert",
     {"code": "card_out_of_turn", "severity": "warning", "message": "put it aside", "index": 9},
     {"card": "Qh"}),
    (StackChanged(3, 2500, "buy_in"), "seat.stack", {"seat": 3, "amount": 2500, "reason": "buy_in"}, {}),
    (ButtonMoved(None), "button.moved", {"seat": None}, {}),
    (LevelStarted(2, (4000, 8000), "2027-03-01T20:40:00.000Z"), "tournament.level",
     {"level": 2, "blinds": [4000, 8000], "ends_at": "2027-03-01T20:40:00.000Z"}, {}),
    (PlayerEliminated(4, 3), "player.eliminated", {"seat": 4, "place": 3}, {}),
    (TournamentEnded(2), "tournament.ended", {"seat": 2}, {}),
    (MeterChanged("blazing_7s", 100_000), "meter", {"name": "blazing_7s", "value": 100_000}, {}),
    (ProgressiveHit(1, 0, "three suited 7s", 100_005), "progressive.hit",
     {"seat": 1, "hand_index": 0, "prize": "three suited 7s", "amount": 100_005}, {}),
    (ProgressivePaid(1, 100_005, "S3"), "progressive.paid",
     {"seat": 1, "amount": 100_005, "supervisor": "S3"}, {}),
    (TrayCounted(11_500, {500: 3, 2500: 4}), "tray.counted",
     {"amount": 11_500, "chips": {500: 3, 2500: 4}}, {}),
    (TrayCounted(10_000), "tray.counted", {"amount": 10_000}, {}),     # as journals before ``chips`` hold it
    (Opener(10_000, "D1", {2500: 4}), "table.opener",
     {"amount": 10_000, "dealer": "D1", "chips": {2500: 4}}, {}),
    (Closer(10_000, "D1"), "table.closer", {"amount": 10_000, "dealer": "D1"}, {}),
]


@pytest.mark.parametrize(("record", "kind", "data", "private"), WIRE)
def test_a_record_is_its_pit_event_and_back(record: Event, kind: str, data: dict[str, Any],
                                            private: dict[str, Any]) -> None:
    encoded = encode(record)
    assert encoded == (kind, data, private)
    assert json.dumps(encoded[1]) == json.dumps(data)          # the keys in published order too
    assert decode(kind, json.loads(json.dumps(data)), private) == record


def test_an_alert_raised_by_the_table_reads_back_to_the_same_bytes() -> None:
    data = {"code": "past_post", "severity": "critical", "message": "m", "seat": 2, "spot": "main",
            "amount": 900, "closed": 1000}
    again = decode("alert", data, {})
    assert isinstance(again, Alerted) and again.seat == 2 and again.about == {"spot": "main", "amount": 900,
                                                                            "closed": 1000}
    assert json.dumps(encode(again)[1]) == json.dumps(data)


def test_an_unknown_type_decodes_to_nothing() -> None:
    assert decode("no.such", {}, {}) is None


def test_the_registry_holds_one_frozen_record_per_type() -> None:
    with pytest.raises(ValueError, match="already"):
        @event("seat.stack")
        @dataclass(frozen=True)
        class Other(Event):
            seat: int

    with pytest.raises(TypeError, match="frozen"):
        @event("example.loose")
        @dataclass
        class Loose(Event):
            seat: int
    unregister("example.loose")
