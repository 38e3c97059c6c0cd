"""Tests for game recall: hands rebuilt from a real journal's published bodies only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.history.recall import recall_hands
from controller.journal.lines import Record
from controller.journal.log import Journal


def event(seq: int, kind: str, hand: int | None, data: dict[str, Any], second: int = 0) -> bytes:
    ts = f"2026-11-21T22:{14 + hand if hand else 0:02d}:{second:02d}.123Z"
    body = {"v": 1, "table": "T07", "seq": seq, "ts": ts, "type": kind, "hand": hand, "data": data}
    return json.dumps(body, separators=(",", ":")).encode()


def card(index: int, seat: int | None, text: str | None, up: bool = True) -> dict[str, Any]:
    to = "dealer" if seat is None else "seat"
    return {"index": index, "to": to, "seat": seat, "hand_index": 0, "card": text, "face_up": up}


HIDDEN = card(3, None, None, up=False)
EVENTS: list[tuple[str, int | None, dict[str, Any], dict[str, Any]]] = [
    ("table.opened", None, {"game": "easy-jack", "seats": 6, "recovered": False}, {}),
    ("hand.started", 1, {"seats": [3, 5], "dealer_seat": None}, {}),
    ("bet.placed", 1, {"seat": 3, "spot": "main", "amount": 1000}, {}),
    ("bet.placed", 1, {"seat": 5, "spot": "side", "amount": 500}, {}),
    (
        "bets.closed",
        1,
        {
            "bets": [
                {"seat": 3, "spot": "main", "amount": 1000},
                {"seat": 5, "spot": "side", "amount": 500},
            ]
        },
        {},
    ),
    ("card.dealt", 1, card(1, 3, "Qh"), {}),
    ("card.dealt", 1, card(2, None, "5c"), {}),
    ("card.dealt", 1, HIDDEN, {"card": "Kd"}),
    ("player.action", 1, {"seat": 3, "hand_index": 0, "action": "split", "amount": 1000}, {}),
    ("card.dealt", 1, card(4, 3, "7d"), {}),                    # the seat's first hand, now "hand 1"
    ("player.action", 1, {"seat": 3, "hand_index": 1, "action": "stand"}, {}),
    (
        "card.revealed",
        1,
        {"index": 3, "to": "dealer", "seat": None, "hand_index": 0, "card": "Kd"},
        {},
    ),
    (
        "hand.settled",
        1,
        {
            "results": [
                {
                    "seat": 3,
                    "spot": "main",
                    "hand_index": 0,
                    "outcome": "win",
                    "wager": 2000,
                    "payout": 2000,
                },
                {
                    "seat": 5,
                    "spot": "side",
                    "hand_index": 0,
                    "outcome": "lose",
                    "wager": 500,
                    "payout": -500,
                },
                {
                    "seat": 3,
                    "spot": "main",
                    "hand_index": 1,
                    "outcome": "natural",
                    "wager": 100,
                    "payout": 150,
                    "label": "natural-11",
                },
            ]
        },
        {},
    ),
    ("hand.ended", 1, {"hand": 1}, {}),
    ("device.offline", None, {"device": "shoe", "reason": "silent"}, {}),
    ("hand.started", 2, {"seats": [1], "dealer_seat": None}, {}),
    ("card.dealt", 2, card(7, None, None, up=False), {"card": "As"}),
    (
        "alert",
        2,
        {
            "code": "past_post",
            "severity": "critical",
            "message": "chips added",
            "seat": 1,
            "spot": "main",
        },
        {},
    ),
    ("hand.voided", 2, {"reason": "dealer void"}, {}),
]

HAND_1 = [
    "Hand 1  (2026-11-21 22:15:02Z)",
    "  started: seats 3, 5",
    "  bet seat 3 main $10.00",
    "  bet seat 5 side $5.00",
    "  bets closed: seat 3 main $10.00, seat 5 side $5.00",
    "  seat 3 <- Qh",
    "  dealer <- 5c",
    "  dealer <- face down",
    "  seat 3: split $10.00",
    "  seat 3 hand 1 <- 7d",
    "  seat 3 hand 2: stand",
    "  dealer shows Kd",
    "  seat 3 main hand 1: win +$20.00",
    "  seat 5 side: lose -$5.00",
    "  seat 3 main hand 2: natural +$1.50 (natural-11)",
    "  ended",
]
HAND_2 = [
    "Hand 2  (2026-11-21 22:16:16Z)",
    "  started: seats 1",
    "  dealer <- face down",
    "  ALERT critical past_post: chips added (seat 1, spot main)",
    "  voided: dealer void",
]


def write_journal(path: Path) -> Journal:
    journal = Journal.open(path)
    for seq, (kind, hand, data, private) in enumerate(EVENTS, start=1):
        journal.append(Record(seq, f"T07/{kind}", event(seq, kind, hand, data, seq), private))
    return journal


def test_two_hands_step_by_step(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal")
    lines = recall_hands(journal.records())
    journal.close()
    assert lines == HAND_1 + HAND_2


def test_hole_card_stays_hidden_until_revealed(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal")
    lines = recall_hands(journal.records())
    journal.close()
    reveal = lines.index("  dealer shows Kd")
    assert not any("Kd" in line for line in lines[:reveal])
    assert not any("As" in line for line in lines)  # mucked unseen: never shown


def test_count_takes_the_last_hands(tmp_path: Path) -> None:
    journal = write_journal(tmp_path / "journal")
    assert recall_hands(journal.records(), 1) == HAND_2
    assert recall_hands(journal.records(), 0) == []
    journal.close()


def test_unknown_events_and_unreadable_bodies(tmp_path: Path) -> None:
    records = [
        Record(1, "T07/meter", event(1, "meter", 9, {"name": "blazing", "value": 1200})),
        Record(2, "T07/x", b"not json"),
        Record(3, "T07/x", b'{"hand": "9", "type": "hand.ended"}'),
    ]
    assert recall_hands(records) == [
        "Hand 9  (2026-11-21 22:23:00Z)",
        '  meter name "blazing" value $12.00',
    ]
