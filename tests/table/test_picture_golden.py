"""The picture as records publishes exactly the bytes main's dict-built picture published.

Every step of the scenarios of :mod:`tests.table.picture_scenarios` (every game
through its phases, the pit's and the books' doings) is encoded by the one codec
(:func:`controller.events.codec.to_json`) and compared byte for byte with what
main's dict-built views published at that step (``tests/data/pictures.jsonl.gz``):
the same keys, in the same order, left out exactly where they were. Each picture
read back (:func:`controller.events.codec.from_json`) is the record again.
"""

from __future__ import annotations

import json

from controller.events.codec import from_json, to_json
from controller.events.envelope import compact_json
from controller.events.picture import Picture, PublicState
from tests.table.picture_scenarios import pictures, read_golden


def test_every_picture_of_every_game_is_main_s_bytes_and_reads_back_equal() -> None:
    golden = read_golden()
    made = list(pictures())
    assert [name for name, _, _ in made] == [name for name, _, _ in golden]
    for (name, state, picture), (_, old_state, old_picture) in zip(made, golden, strict=True):
        assert state == old_state, name
        assert picture == old_picture, name
        record = from_json(Picture, json.loads(picture))
        assert compact_json(to_json(record)) == picture, name           # type: ignore[arg-type]
        assert from_json(Picture, to_json(record)) == record, name
        assert compact_json(to_json(from_json(PublicState, json.loads(state)))) == state, name  # type: ignore[arg-type]


def test_the_golden_steps_cover_every_game_and_every_phase() -> None:
    seen = {(name.split("/")[0], json.loads(picture)["phase"]) for name, _, picture in read_golden()}
    games = {game for game, _ in seen}
    assert {"easy-jack", "buster-blackjack-x", "buster-banked", "blackjack-extreme", "holdem-blackjack",
            "pit", "jackpot", "tournament"} <= games
    for game in ("easy-jack", "blackjack-extreme", "holdem-blackjack", "buster-blackjack-x"):
        phases = {phase for g, phase in seen if g == game}
        assert {"betting", "settled"} <= phases and len(phases) >= 4, (game, phases)
