"""Property test of the table: any sequence of inputs, however wrong, keeps the table's promises.

Hypothesis plays random interleavings of everything a dealer, the players and
the boards can do: wagers and counterfeit chips on any spot, cards in and out
of turn, the same card again, gaps, unreadable cards, every button, boards
going offline and back, new shoes and cut cards. After every step:

- nothing raised;
- ``seq`` of the published events is 1, 2, 3, ... with no gap or repeat;
- a table rebuilt from the journal file alone is in the same phase and state;
- no face-down card is named in any published event before its ``card.revealed``.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from controller.events.codec import record_json
from controller.table.views import public_state
from drivers.inputs import (
    CardDrawn,
    CardUnreadable,
    CutCard,
    DeviceOffline,
    DeviceOnline,
    RejectedChip,
    ShoeLoaded,
    SpotWager,
)
from firmware_bridge.kernel.cards import Card
from tests.rigs.table_rig import Rig, phase_of

BUTTONS = ("deal", "stand", "next", "void", "hit")
CARDS = st.builds(Card, st.integers(1, 13), st.integers(0, 3))


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="table-props-"))
        self.rig = Rig(self.folder)
        self.rig.ready(s1_main=1000, s2_main=500, s2_side=500)
        self.shoe_id = 42
        self.checked = 0
        self.shoe: int | None = None
        self.hidden: dict[tuple[int | None, int | None], str] = {}

    def teardown(self) -> None:
        self.rig.journal.close()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- what can happen ---------------------------------------------------------

    def _dealer_step(self, card: Card, stand: bool) -> None:
        phase = phase_of(self.rig.table)
        if phase == "betting":
            self.rig.table.press("deal")
        elif phase == "settled":
            self.rig.table.press("next")
        elif phase == "players" and stand:
            self.rig.table.press("stand")
        else:
            self.draw(card)

    @rule(card=CARDS, stand=st.booleans())
    def dealer_does_the_next_thing(self, card: Card, stand: bool) -> None:
        self._dealer_step(card, stand)

    @rule(card=CARDS, stand=st.booleans())
    def dealer_does_the_next_thing_again(self, card: Card, stand: bool) -> None:
        self._dealer_step(card, stand)

    @rule(seat=st.integers(1, 3), spot=st.sampled_from(["main", "side"]),
          amount=st.sampled_from([0, 300, 500, 1000, 2500, 60000]), counterfeit=st.booleans())
    def chips(self, seat: int, spot: str, amount: int, counterfeit: bool) -> None:
        rejected = (RejectedChip("00000000deadbeef", 500, "counterfeit"),) if counterfeit else ()
        antenna = 2 * seat - (spot == "main")
        self.rig.table.handle(SpotWager(seat, spot, antenna, amount, ("c",) if amount else (), rejected))

    @rule(card=CARDS)
    def draw(self, card: Card) -> None:
        self.rig.table.handle(CardDrawn(self.shoe_id, self.rig.table.state.shoe.last_index + 1, card))

    @rule(card=CARDS, back=st.integers(0, 3))
    def same_card_again(self, card: Card, back: int) -> None:
        index = max(1, self.rig.table.state.shoe.last_index - back)
        self.rig.table.handle(CardDrawn(self.shoe_id, index, card))

    @rule(card=CARDS, skipped=st.integers(1, 3))
    def gap(self, card: Card, skipped: int) -> None:
        index = self.rig.table.state.shoe.last_index + 1 + skipped
        self.rig.table.handle(CardDrawn(self.shoe_id, index, card))

    @rule()
    def unreadable(self) -> None:
        self.rig.table.handle(CardUnreadable(self.shoe_id, self.rig.table.state.shoe.last_index + 1))

    @rule(button=st.sampled_from(BUTTONS))
    def press(self, button: str) -> None:
        self.rig.table.press(button)

    @rule(device=st.sampled_from(["shoe", "rfid"]), online=st.booleans())
    def device(self, device: str, online: bool) -> None:
        item = DeviceOnline(device, "f", "s") if online else DeviceOffline(device, "no answer")
        self.rig.table.handle(item)

    @rule(decks=st.sampled_from([6, 6, 6, 8]))
    def new_shoe(self, decks: int) -> None:
        self.shoe_id += 1
        self.rig.table.handle(ShoeLoaded(self.shoe_id, decks))

    @rule()
    def cut_card(self) -> None:
        self.rig.table.handle(CutCard(self.shoe_id, self.rig.table.state.shoe.last_index))

    # -- what must always hold ---------------------------------------------------

    @invariant()
    def seq_has_no_gap_or_repeat(self) -> None:
        seqs = [event["seq"] for event in self.rig.published]
        assert seqs == list(range(1, len(seqs) + 1))

    @invariant()
    def the_journal_alone_rebuilds_the_table(self) -> None:
        rebuilt = self.rig.rebuilt()
        assert phase_of(rebuilt) == phase_of(self.rig.table)
        mine, theirs = record_json(public_state(self.rig.table)), record_json(public_state(rebuilt))
        for state in (mine, theirs):
            state.pop("live_buttons")          # depends on live spot readings, which are not journaled
        assert theirs == mine

    @invariant()
    def no_face_down_card_is_named_before_it_is_revealed(self) -> None:
        records = self.rig.journal.since(1)
        for record, event in zip(records[self.checked:], self.rig.published[self.checked:], strict=True):
            data: dict[str, Any] = event["data"]
            if event["type"] == "shoe.loaded":
                self.shoe = data["shoe_id"]          # card indices start again with each shoe
            key = (self.shoe, data.get("index"))
            if event["type"] == "card.dealt" and not data["face_up"]:
                assert data["card"] is None
                self.hidden[key] = record.private["card"]
            elif event["type"] == "card.revealed":
                self.hidden = {k: v for k, v in self.hidden.items() if v != data["card"]}
            elif key in self.hidden:
                assert data.get("card") is None, event
                assert self.hidden[key] not in data.get("message", ""), event
            if event["type"] in ("hand.ended", "hand.voided"):
                self.hidden.clear()            # a hand mucked unseen is never revealed
        self.checked = len(self.rig.published)


TableMachine.TestCase.settings = settings(
    max_examples=25, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
test_any_sequence_of_inputs_keeps_the_tables_promises = TableMachine.TestCase
