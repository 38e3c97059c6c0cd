"""Simulated players of known behaviour at the real Easy Jack table core, on a real journal: over a few
shoes the Hi-Lo counter (1-8 spread) and the wonger are flagged, the flat bettors and the random bettor
are not; the count at every ``bets.closed`` is an independent count of the same shoe."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.devkit.protection_sim import (
    Counter,
    FlatBettor,
    RandomBettor,
    SimTable,
    Wonger,
)
from controller.journal.segments import read_records
from controller.podium.protection.watch import CODE, Protection, Raised
from tests.rigs.followed import followed

HI_LO = {"2": 1, "3": 1, "4": 1, "5": 1, "6": 1, "T": -1, "J": -1, "Q": -1, "K": -1, "A": -1}
RANKS = "A23456789TJQK"


class Followed:
    """A simulated table whose events go, as published, to game protection; the counts it gave kept."""

    def __init__(self, folder: Path, seed: int, who: Any = None) -> None:
        self.protection = Protection() if who is None else Protection(who=who)
        self.raised: list[Raised] = []
        self.events: list[dict[str, Any]] = []
        self.counts: list[tuple[int, Any, int, float]] = []
        """At each bets.closed: (seq, shoe id, running count, true count) as protection had them."""
        self.sim = SimTable({1: FlatBettor(), 2: Counter(), 3: Wonger(), 4: RandomBettor(),
                             5: FlatBettor(noise=0.1, breaks=0.05)}, seed=seed, folder=folder,
                            on_event=self.event)

    def event(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        self.raised += self.protection.feed("T01", "", followed(event, "T01"))
        if event["type"] == "bets.closed":
            now = self.protection.tables["T01"].count.now()
            assert now is not None
            self.counts.append((event["seq"], now.shoe_id, now.running, now.true))

    def play(self, hands: int) -> None:
        for _ in range(hands):
            self.sim.hand()


def independent_counts(events: list[dict[str, Any]], shoes: dict[int, list[Any]]) -> list[tuple[int, Any, int,
                                                                                             float]]:
    """The Hi-Lo count at each bets.closed from the shoe's own cards: those at the places dealt face up
    or revealed so far (the card named by the shoe, not by the event)."""
    found = []
    shoe: list[Any] = []
    shoe_id = None
    shown: set[int] = set()
    drawn = 0
    for event in events:
        data = event["data"]
        if event["type"] == "shoe.loaded":
            shoe_id, shoe, shown, drawn = data["shoe_id"], shoes[data["shoe_id"]], set(), 0
        elif event["type"] == "card.dealt":
            drawn = max(drawn, data["index"])
            if data["face_up"]:
                shown.add(data["index"])
        elif event["type"] == "card.revealed":
            shown.add(data["index"])
        elif event["type"] == "bets.closed":
            running = sum(HI_LO.get(RANKS[shoe[i - 1].rank - 1], 0) for i in shown)
            found.append((event["seq"], shoe_id, running, running / max(0.25, (6 * 52 - drawn) / 52)))
    return found


def flagged(followed: Followed) -> dict[int, tuple[str, ...]]:
    """Seat -> the reasons its subject is flagged for."""
    return {seat: followed.protection.tallies[subject].figures().reasons
            for seat, subject in followed.protection.tables["T01"].seats.items()}


@pytest.mark.parametrize("seed", [1, 3])
def test_over_a_few_shoes_the_counter_and_the_wonger_are_flagged_and_no_one_else(tmp_path: Path,
                                                                                 seed: int) -> None:
    followed = Followed(tmp_path, seed)
    followed.play(150)
    assert 4 <= followed.sim.shoe_id <= 6                     # a few shoes
    assert read_records(tmp_path / "journal.log")            # dealt on a real journal
    reasons = flagged(followed)
    assert "bets" in reasons[2]                              # the counter
    assert reasons[3] == ("wonging",)                        # the wonger
    assert reasons[1] == reasons[4] == reasons[5] == ()      # flat, random, flat with noise and breaks
    alerts = {(r.data["seat"], tuple(r.data["reasons"])) for r in followed.raised}
    assert (3, ("wonging",)) in alerts and any(seat == 2 and "bets" in why for seat, why in alerts)
    assert {seat for seat, _ in alerts} == {2, 3}
    assert all(r.data["code"] == CODE and r.data["severity"] == "warning" for r in followed.raised)
    counter = followed.protection.tallies[followed.protection.tables["T01"].seats[2]].figures()
    assert counter.spread == 8.0 and counter.correlation > 0.4 and counter.bet_confidence > 0.999
    assert counter.high_bet is not None and counter.low_bet is not None
    assert counter.high_bet > 2 * counter.low_bet
    assert followed.protection.problems == []


def test_the_count_at_every_bets_closed_is_an_independent_count_of_the_same_shoe(tmp_path: Path) -> None:
    followed = Followed(tmp_path, 7)
    followed.play(120)
    expected = independent_counts(followed.events, followed.sim.shoes)
    assert len(expected) == len(followed.counts) >= 120
    assert [c[:3] for c in followed.counts] == [c[:3] for c in expected]
    assert [c[3] for c in followed.counts] == pytest.approx([c[3] for c in expected])


def test_a_rated_counter_is_flagged_by_name(tmp_path: Path) -> None:
    def who(table: str, seat: int, ts: str) -> tuple[str, str] | None:
        return ("P-1001", "12") if seat == 2 else None

    followed = Followed(tmp_path, 1, who)
    followed.play(80)
    subject = followed.protection.subject("player:P-1001")
    assert subject is not None and subject["ratings"] == [12] and subject["figures"]["reasons"] == ["bets"]
    assert len(subject["figures"]["plot"]) == subject["figures"]["hands"] == 80
    alert = next(r for r in followed.raised if r.data.get("player") == "P-1001")
    assert alert.data["seat"] == 2 and "player P-1001" in alert.data["message"]
    assert followed.protection.subjects()[0]["subject"] == "player:P-1001"      # the most suspicious first
