"""The dealer-mistake model on the real table core, in process (issue 33, Deliver 4).

Random hands dealt right raise no alert and no refusal, and at each hand's end the table's
account (tray, spots, stacks, drop) equals the physical table's; chips are conserved at every
step (the model checks it at every reading). Every mistake of the catalogue is made on random
hands, and what the table does about it must be its cell of :data:`tests.model.catalogue.EXPECTED`
exactly: a cell fails when the table does better than it says, and is then brought up to date.
A bounded number of examples here; ``bench/mistake_bench.py`` runs thousands. All four games
are dealt: the two the house banks, and the two of stacks (Blackjack Extreme with its rotating
player-dealer and short-stack payment walk, Hold'em Blackjack with its pot).
"""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.model.catalogue import EXPECTED, GAMES, KINDS
from tests.model.dealer import deal, outcome_of
from tests.words.bare import bare_amounts

DEALT = GAMES
"""The games the model deals: all four."""


@pytest.mark.parametrize("game", DEALT)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_hands_dealt_right_raise_nothing_and_the_accounts_agree(game: str, seed: int) -> None:
    with TemporaryDirectory() as folder:
        outcomes = list(deal(Path(folder), game, seed, None, before=4))
    assert len(outcomes) == 4 and all(o.ledger_equal for o in outcomes)


@pytest.mark.parametrize("game", DEALT)
@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_each_mistake_is_what_its_cell_says(game: str, kind: str, seed: int) -> None:
    cell = EXPECTED[(kind, game)]
    with TemporaryDirectory() as folder:
        found = list(deal(Path(folder), game, seed, kind))[-1]
    if "cannot" in cell.allowed:
        assert not found.injected, f"{kind} was made in {game}: its cell says it cannot be"
        return
    if not found.injected:
        return                          # no moment for it came up in the hands dealt
    outcome = outcome_of(found)
    assert outcome in cell.allowed, (kind, game, outcome, found.codes, found.refusals, cell.why)
    if outcome != "missed":
        assert all(words for words in found.told), found.told
    said = found.told + [str(data.get("message", "")) for data in found.alerts]
    assert [words for words in said if bare_amounts(words)] == []   # money in dollars (Deliver 2)
