"""A table in process on a real journal, for tests: inputs in, published events collected.

It runs Easy Jack unless given another game (the test game of ``tests/table``).

After every step the rig checks that a table rebuilt from the journal alone is
in exactly the same state and phase, which is what a restart after ``kill -9``
relies on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Game, Limits
from controller.journal.lines import Record
from controller.journal.log import Journal
from controller.journal.segments import read_records
from controller.table.machine import Table, TableSettings
from controller.table.views import public_state
from drivers.inputs import CardDrawn, DeviceOnline, RejectedChip, ShoeLoaded, SpotsRead, SpotWager
from firmware_bridge.kernel.cards import Card

BUTTONS = ("deal", "stand", "next", "void")


class Rig:
    """A table on a real journal, with the published events collected."""

    def __init__(self, folder: Path, rules: EasyJackRules | None = None, keep: int = 10_000,
                 game: Game[Any] | None = None, buttons: tuple[str, ...] = BUTTONS,
                 payout_check: bool = False) -> None:
        """``payout_check`` is off unless asked for: these tests pay and collect no chips at
        settlement (``payout_mismatch`` has its own tests)."""
        self.folder = folder
        self.rules = rules or EasyJackRules()
        self.game = game or EasyJack(self.rules, Limits(500, 50000))
        self.buttons = buttons
        self.payout_check = payout_check
        self.journal = Journal.open(folder / "journal.log", keep=keep)
        self.published: list[dict[str, Any]] = []
        self.table = self._table(lambda records: self.journal.append(*records))
        self.table.set_publisher(lambda topic, body: self.published.append(json.loads(body)))
        self.table.open(recovered=False)

    def _table(self, write: Any) -> Table:
        settings = TableSettings("T01", "easy-jack", 6, {"min_bet": 500, "max_bet": 50000},
                                 self.buttons, ("shoe", "rfid"), payout_check=self.payout_check)
        ticks = iter(range(10**9))
        return Table(settings, self.game,
                     clock=lambda: f"2026-11-21T00:00:00.{next(ticks) % 1000:03d}Z", write=write)

    def rebuilt(self, records: list[Record] | None = None) -> Table:
        """A new table from the journal's records alone (as after a restart)."""
        table = self._table(lambda records: None)
        table.recover(read_records(self.journal.path) if records is None else records)
        return table

    def check_recovery(self) -> None:
        """A table rebuilt from the journal is this one: its journaled state, and with this one's
        live readings (a restarted daemon reads the spots again) the same public state."""
        table = self.rebuilt()
        table.live_spots = dict(self.table.live_spots)
        table.ungathered = set(self.table.ungathered)
        assert table.phase == self.table.phase and phase_of(table) == phase_of(self.table)
        assert public_state(table) == public_state(self.table)

    def do(self, item: Any) -> list[dict[str, Any]]:
        """One input; returns the events it published. The reader coming online is followed by its
        :class:`SpotsRead`, as :class:`drivers.rfid.SpotReader` says it at once when no spot it read
        before is left to read again (this rig's readings are the spots' chips as they are)."""
        before = len(self.published)
        self.table.handle(item)
        if isinstance(item, DeviceOnline) and item.device == "rfid":
            self.table.handle(SpotsRead("rfid"))
        self.check_recovery()
        return self.published[before:]

    def press(self, button: str, amount: int | None = None) -> list[dict[str, Any]]:
        before = len(self.published)
        reason = self.table.press(button, amount)
        assert reason is None, reason
        self.check_recovery()
        return self.published[before:]

    def card(self, text: str) -> list[dict[str, Any]]:
        index = self.table.state.shoe.last_index + 1
        return self.do(CardDrawn(42, index, Card.parse(text)))

    def ready(self, **bets: int) -> None:
        """Both boards online, a shoe loaded, and wagers like ``s1_main=1000`` on the spots."""
        self.do(DeviceOnline("shoe", "shoe-1.0", "SH-1"))
        self.do(DeviceOnline("rfid", "rfid-1.0", "RF-1"))
        self.do(ShoeLoaded(42, self.game.decks))
        for name, amount in bets.items():
            seat, spot = name[1:].split("_")
            self.bet(int(seat), spot, amount)

    def bet(self, seat: int, spot: str, amount: int, rejected: tuple[RejectedChip, ...] = ()) -> list[
            dict[str, Any]]:
        antenna = seat * 2 - (spot == "main")
        chips = tuple(f"{seat:02d}{spot[0]}" for _ in range(1)) if amount else ()
        return self.do(SpotWager(seat, spot, antenna, amount, chips, rejected))


def phase_of(table: Table) -> str:
    """The phase a dealer sees: the game's own while a hand is in play, else the table's."""
    return public_state(table).phase


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]
