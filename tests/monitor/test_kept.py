"""A monitor started again on its database keeps its books and game protection (podium/monitor/kept.py).

The real Easy Jack table core (:class:`~controller.devkit.protection_sim.SimTable`, a flat bettor at
seat 1 and a counter at seat 2, nobody rated) with a tray read through the real chip registry, its
books taken by the table's own commands: dealer D1 signs in and signs the opener, a supervisor signs
it, 60 hands are dealt, the pit fills and credits the tray, dealer D2 signs in (the rotation) and
signs the closer, the supervisor signs it and enters the drop. A monitor (:class:`Floor` with
:class:`Rated`, game protection and its :class:`Keeper`) follows it, keeping into a real SQLite file,
beside a floor that follows it all along and keeps nothing. The monitor is then opened again on the
same file, and hears none of those events again (the table's journal no longer holds them): its books
and every seat's figures are those of the floor that ran all along; the events a follower repeats
are not counted twice; and play goes on the same.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller.commands import books as orders
from controller.commands.table import TrayCredit, TrayFill
from controller.devkit.protection_sim import Counter, FlatBettor, SimTable
from controller.events.envelope import compact_json
from controller.podium.monitor.models.alerts import AlertBook
from controller.podium.monitor.models.floor import Floor
from controller.podium.monitor.models.kept import Keeper
from controller.podium.monitor.models.rated import Rated
from controller.podium.monitor.stores.events import Store, open_store
from controller.podium.monitor.stores.kept import KeptEvent
from controller.podium.protection.watch import Protection
from controller.podium.ratings.edges import Edges
from controller.podium.ratings.figures import edges_of
from controller.podium.ratings.shift import Shifts
from drivers.chips import ChipRegistry, RegisteredChip

CHIPS = {"a": 500, "b": 2500, "c": 10000}


def chip(kind: str, number: int) -> tuple[str, int]:
    """A registered chip, as the reader reads it: its uid and value."""
    return f"{kind}{number:015x}", CHIPS[kind]


REGISTRY = ChipRegistry([RegisteredChip(chip(kind, n)[0], value, "active")
                         for kind, value in CHIPS.items() for n in range(1, 20)])


@dataclass
class Heard:
    """Where an event was heard from, as a follower tells the floor (its table and epoch)."""

    name: str
    epoch: str = ""


@dataclass
class Monitor:
    """``serve --db``'s parts over one table, on the store at ``path``."""

    path: Path
    store: Store = field(init=False)
    floor: Floor = field(init=False)
    rated: Rated = field(init=False)
    keeper: Keeper = field(init=False)

    async def start(self) -> Monitor:
        self.store = open_store(str(self.path))
        self.floor = Floor(["T01"], AlertBook(self.path.with_suffix(".acks.jsonl")))
        self.rated = Rated(self.store, ["T01"], Shifts(), {}, compute=in_process)
        await self.rated.load()
        self.floor.rate(self.rated)
        self.floor.protect(Protection())
        self.keeper = Keeper(self.rated, self.floor, Protection().settings.keep_hours)
        await self.keeper.load()
        self.floor.keep = self.keeper.heard
        return self

    async def stop(self) -> None:
        await self.keeper.close()
        self.rated.let_go()
        self.store.close()


async def in_process(game: str, rules: Mapping[str, object]) -> Edges:
    """The edges worked out here (no worker process to outlive the test's loop)."""
    return edges_of(game, rules)


def hear(floor: Floor, message: dict[str, Any]) -> None:
    """``message`` as a follower delivers it to the floor."""
    heard: Any = Heard("T01")
    floor.event(heard, message, f"T01/{message['type']}".encode(), compact_json(message), True)


def tray(sim: SimTable, *chips: tuple[str, int]) -> None:
    """The tray antenna reads exactly these chips."""
    sim.table.handle(REGISTRY.wager(0, "tray", 32, chips))


def shift(sim: SimTable) -> None:
    """A shift's books at the table, hands between, as its commands make them."""
    sim.table.settings = dataclasses.replace(sim.table.settings, tray=True)
    tray(sim, *(chip("b", n) for n in range(1, 5)), chip("c", 1), chip("c", 2))       # 4 x $25, 2 x $100
    assert sim.table.books_command(orders.DealerIn("D1", "pin"), None) is None
    assert sim.table.books_command(orders.SignOpener("pin"), None) is None
    assert sim.table.books_command(orders.SignSlip("opener"), "S101") is None
    for _ in range(60):
        sim.hand()
    assert sim.table.pit_command(TrayFill(10000), "S101") is None
    tray(sim, *(chip("b", n) for n in range(1, 5)), *(chip("c", n) for n in range(1, 4)))
    assert sim.table.pit_command(TrayCredit(2000), "S101") is None                 # $20.00 to the cage:
    tray(sim, *(chip("b", n) for n in range(1, 4)), *(chip("c", n) for n in range(1, 4)), chip("a", 1))
    assert sim.table.books_command(orders.DealerIn("D2", "pin"), None) is None
    assert sim.table.books_command(orders.SignCloser("pin"), None) is None
    assert sim.table.books_command(orders.SignSlip("closer"), "S101") is None
    assert sim.table.books_command(orders.EnterDrop(7000), "S101") is None


async def test_a_monitor_opened_again_has_its_books_and_every_seat_s_figures_without_the_events(
        tmp_path: Path) -> None:
    monitor = await Monitor(tmp_path / "pit.sqlite").start()
    all_along = Floor(["T01"], AlertBook(tmp_path / "all-along.jsonl"))
    all_along.protect(Protection())
    events: list[dict[str, Any]] = []

    def published(message: dict[str, Any]) -> None:
        events.append(message)
        hear(monitor.floor, message)
        hear(all_along, message)

    sim = SimTable({1: FlatBettor(), 2: Counter()}, seed=1, on_event=published)
    try:
        shift(sim)
    finally:
        await monitor.stop()                                   # what it kept is all there is of it
    books = all_along.books_of("T01")
    # the count room's formula on the slips: 38000 - 30000 + 2000 (credit) - 10000 (fill) + 7000 (drop)
    count = books["count"]
    assert (count["opener"], count["fills"], count["credits"], count["closer"], count["drop"],
            count["win"]) == (30000, 10000, 2000, 38000, 7000, 7000)
    assert count["opener_chips"] == [{"value": 2500, "count": 4, "amount": 10000},
                                     {"value": 10000, "count": 2, "amount": 20000}]
    assert count["closer_chips"] == [{"value": 500, "count": 1, "amount": 500},
                                     {"value": 2500, "count": 3, "amount": 7500},
                                     {"value": 10000, "count": 3, "amount": 30000}]
    assert (count["opener_signed_by"], count["closer_signed_by"], count["drop_by"]) == ("S101",) * 3
    dealt = sum(e["type"] == "hand.ended" for e in events)
    assert dealt > 50 and [(d["dealer"], d["hands"]) for d in books["dealers"]] == [("D1", dealt), ("D2", 0)]
    protection = all_along.protection
    assert protection is not None
    subjects = protection.subjects()
    seats = {s["subject"]: s for s in subjects}
    assert sorted(name.rsplit(":", 1)[0] for name in seats) == ["seat:T01:1", "seat:T01:2"]  # nobody rated
    assert all(s["figures"]["hands"] > 40 for s in subjects)

    again = await Monitor(monitor.path).start()                # from its database alone
    try:
        assert again.floor.books == all_along.books
        kept = again.floor.protection
        assert kept is not None
        assert kept.subjects() == subjects
        for subject in seats:
            assert kept.subject(subject) == protection.subject(subject)
        assert kept.count_of("T01") == protection.count_of("T01")

        for message in events[-30:]:                           # a follower's last few, heard again
            hear(again.floor, message)
        assert again.floor.books == all_along.books and kept.subjects() == subjects
        assert again.floor.books_of("T01") == books            # D2's time signed in to the table's last event

        def both(message: dict[str, Any]) -> None:
            hear(again.floor, message)
            hear(all_along, message)

        sim.on_event = both
        for _ in range(5):                                     # and play goes on
            sim.hand()
        assert again.floor.books_of("T01") == all_along.books_of("T01")
        assert kept.subjects() == protection.subjects() != subjects
        for subject in seats:
            assert kept.subject(subject) == protection.subject(subject)
    finally:
        await again.stop()
    stored = open_store(str(monitor.path))
    try:
        assert json.loads(stored.kept_books()["T01"])["dealer"] == "D2"
        assert stored.count() == 0                             # no recorder ran: all of it the monitor's own
    finally:
        stored.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "pit.sqlite")
    url: str = request.getfixturevalue("pg_url")
    return url


def test_a_table_s_kept_events_are_cut_to_what_protection_still_needs(target: str) -> None:
    store = open_store(target)
    try:
        timeline = [("table.opened", "00:00"), ("shoe.loaded", "01:00"), ("card.dealt", "01:01"),
                    ("table.closed", "02:00"), ("shoe.loaded", "03:00"), ("card.dealt", "03:01"),
                    ("table.closed", "04:00"), ("shoe.loaded", "05:00"), ("card.dealt", "05:01")]
        kept = [KeptEvent("T01", "1", seq, f"2026-11-21T{time}:00.000Z", kind, None, "{}")
                for seq, (kind, time) in enumerate(timeline, start=1)]
        store.keep([*kept, KeptEvent("T02", "1", 1, "2026-11-21T00:00:00.000Z", "shoe.loaded", None, "{}")],
                   {"T01": "{}"})
        store.keep(kept[:2], {})                                # kept twice: kept once
        assert store.prune_kept("T01", "2026-11-21T01:30:00.000Z") == 0        # no closing that old
        # the seats of before 02:00 are forgotten by 03:30, but the shoe loaded at 01:00 runs past the
        # closing: nothing to cut
        assert store.prune_kept("T01", "2026-11-21T03:30:00.000Z") == 0
        # by 04:30 the closing of 04:00 is as old: what came before its shoe (03:00) goes, but the
        # table's opening (its game and rules)
        assert store.prune_kept("T01", "2026-11-21T04:30:00.000Z") == 3
        left = [(e.table, e.seq) for _, e in store.kept_events()]
        assert left == [("T01", 1), ("T01", 5), ("T01", 6), ("T01", 7), ("T01", 8), ("T01", 9), ("T02", 1)]
        assert store.kept_since() == {"T01": "2026-11-21T00:00:00.000Z", "T02": "2026-11-21T00:00:00.000Z"}
        store.keep([], {"T01": '{"dealer": "D2"}'})              # the books written over
        assert store.kept_books() == {"T01": '{"dealer": "D2"}'}
    finally:
        store.close()
