"""The picture and the checkpoint as records are exactly the bytes main's dict-built ones were.

Every step of the scenarios of :mod:`tests.table.picture_scenarios` (every game
through its phases, the pit's and the books' doings) is encoded by the one codec
(:func:`controller.events.codec.to_json`) and compared byte for byte with what
main's dict-built views published at that step (``tests/data/pictures.jsonl.gz``):
the same keys, in the same order, left out exactly where they were. Each picture
read back (:func:`controller.events.codec.from_json`) is the record again. The
checkpoint each scenario's table takes at its end is main's too
(``tests/data/checkpoints.jsonl.gz``), and a table restored from it takes it again
byte for byte.
"""

from __future__ import annotations

import json

from controller.events.codec import from_json, record_json, to_json
from controller.events.envelope import compact_json
from controller.events.picture import Picture, PublicState
from controller.games.easy_jack.game import EasyJack
from controller.games.easy_jack.rules import EasyJackRules
from controller.games.interface import Limits
from controller.table.state import TableState
from tests.table.picture_scenarios import SAVED, checkpoints, pictures, read_golden


def test_every_picture_of_every_game_is_main_s_bytes_and_reads_back_equal() -> None:
    golden = read_golden()
    made = list(pictures())
    assert [name for name, _, _ in made] == [name for name, _, _ in golden]
    for (name, state, picture), (_, old_state, old_picture) in zip(made, golden, strict=True):
        assert state == old_state, name
        assert picture == old_picture, name
        record = from_json(Picture, json.loads(picture))
        assert compact_json(record_json(record)) == picture, name
        assert from_json(Picture, to_json(record)) == record, name
        assert compact_json(record_json(from_json(PublicState, json.loads(state)))) == state, name


def test_the_golden_steps_cover_every_game_and_every_phase() -> None:
    seen = {(name.split("/")[0], json.loads(picture)["phase"]) for name, _, picture in read_golden()}
    games = {game for game, _ in seen}
    assert {"easy-jack", "buster-blackjack-x", "buster-banked", "blackjack-extreme", "holdem-blackjack",
            "pit", "jackpot", "tournament"} <= games
    for game in ("easy-jack", "blackjack-extreme", "holdem-blackjack", "buster-blackjack-x"):
        phases = {phase for g, phase in seen if g == game}
        assert {"betting", "settled"} <= phases and len(phases) >= 4, (game, phases)


def test_every_checkpoint_is_main_s_bytes_and_a_restored_table_takes_it_again() -> None:
    golden = [(name, data) for name, data, _ in read_golden(SAVED)]
    made = list(checkpoints())
    assert [name for name, _ in made] == [name for name, _ in golden] and len(made) == 13
    game = EasyJack(EasyJackRules(), Limits(500, 50000))
    for (name, data), (_, old) in zip(made, golden, strict=True):
        assert data == old, name
        restored = TableState.from_checkpoint(game, json.loads(data))
        assert compact_json(restored.checkpoint()) == data, name
    assert any(b'"books"' in data and b'"tray_chips"' in data for _, data in golden)   # books, tray
    assert all(b'"alerts":[{' in data for name, data in golden if name.startswith("pit"))
