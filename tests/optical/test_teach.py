"""Teaching a design from one clean pass, and the taught file: saved, loaded, and refused when corrupt."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drivers.optical.designs import deck
from drivers.optical.frames import FrameMaker
from drivers.optical.taught import FORMAT, Taught, TaughtError, _checksum, load
from drivers.optical.teach import TeachError, teach
from firmware_bridge.kernel.cards import Card


@pytest.fixture(scope="module")
def taught(standard: FrameMaker) -> Taught:
    return teach("standard", ((card, standard.frame(card)) for card in deck()))


def test_a_clean_pass_teaches_every_rank_and_suit_and_where_the_index_lies(taught: Taught) -> None:
    assert set(taught.rank_of.tolist()) == set(range(1, 14)) and set(taught.suit_of.tolist()) == set(range(4))
    assert len(taught.ranks) >= 52 and taught.ranks.shape == (len(taught.rank_of), 32, 32)
    x, y = taught.layout.pip_centre
    assert 20 < x < 80 and 60 < y < 160                  # the index pip, under the rank, at the card's left
    assert taught.layout.red > taught.layout.black + 0.5


def test_the_taught_file_loads_as_it_was_saved(taught: Taught, tmp_path: Path) -> None:
    path = tmp_path / "standard.npz"
    taught.save(path)
    again = load(path)
    assert again.design == "standard" and again.layout == taught.layout
    assert np.array_equal(again.ranks, taught.ranks) and np.array_equal(again.suit_of, taught.suit_of)


def test_a_corrupt_taught_file_is_refused(taught: Taught, tmp_path: Path) -> None:
    path = tmp_path / "standard.npz"
    taught.save(path)
    changed = Taught(taught.design, taught.layout, taught.ranks.copy(), taught.pips, taught.rank_of,
                     taught.suit_of, taught.sizes, taught.grown, taught.places)
    changed.ranks[3, 10, 10] += 0.5                  # one template changed, the checksum kept
    arrays = changed._arrays()
    with np.load(path) as stored:
        np.savez(path, checksum=stored["checksum"], **arrays)
    with pytest.raises(TaughtError, match="checksum"):
        load(path)
    path.write_bytes(b"PK\x03\x04 not a zip at all")
    with pytest.raises(TaughtError, match="not a taught design file"):
        load(path)
    path.write_bytes(b"")
    with pytest.raises(TaughtError):
        load(path)


def test_a_file_of_another_format_is_refused(taught: Taught, tmp_path: Path) -> None:
    path = tmp_path / "standard.npz"
    arrays = taught._arrays()
    meta = json.loads(str(arrays["meta"]))
    meta["format"] = FORMAT + 1
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, checksum=np.array(_checksum(arrays)), **arrays)      # whole, of a later format
    with pytest.raises(TaughtError, match=f"format {FORMAT + 1}"):
        load(path)


def test_a_file_of_the_format_before_is_refused_saying_teach_again(taught: Taught, tmp_path: Path) -> None:
    path = tmp_path / "standard.npz"
    arrays = taught._arrays()
    del arrays["places"]                              # format 2 had no glyphs' places
    meta = json.loads(str(arrays["meta"]))
    meta["format"] = 2
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, checksum=np.array(_checksum(arrays)), **arrays)
    with pytest.raises(TaughtError, match="format 2, this reader reads format 3: teach the design again"):
        load(path)


def test_a_pass_without_a_rank_or_with_no_index_is_refused(standard: FrameMaker) -> None:
    no_kings = [card for card in deck() if card.rank != 13]
    with pytest.raises(TeachError, match="lacks rank 13"):
        teach("standard", ((card, standard.frame(card)) for card in no_kings))
    blank = np.full_like(standard.frame(Card.parse("As")), 230)
    with pytest.raises(TeachError, match="no index found on As"):
        teach("standard", [(Card.parse("As"), blank)])
