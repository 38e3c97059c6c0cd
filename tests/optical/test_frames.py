"""Frames of a rendered card: the size a camera gives, deterministic for a seed, distorted by each draw."""

from __future__ import annotations

import numpy as np

from drivers.optical.distort import Distortion
from drivers.optical.frames import FRAME_SIZE, FrameMaker
from firmware_bridge.kernel.cards import Card


def test_a_frame_is_a_bgr_image_of_the_frame_size(standard: FrameMaker) -> None:
    frame = standard.frame(Card.parse("Qh"))
    assert frame.shape == (FRAME_SIZE[1], FRAME_SIZE[0], 3) and frame.dtype == np.uint8
    card_part = frame[30:150, 25:60].astype(int)
    assert (card_part[:, :, 2] - card_part[:, :, 0] > 120).any()      # the red index of a heart


def test_the_same_seed_makes_the_same_frame_and_another_seed_another(standard: FrameMaker) -> None:
    card = Card.parse("7s")
    first = standard.frame(card, Distortion.draw(np.random.default_rng(3)))
    again = standard.frame(card, Distortion.draw(np.random.default_rng(3)))
    other = standard.frame(card, Distortion.draw(np.random.default_rng(4)))
    assert np.array_equal(first, again) and not np.array_equal(first, other)


def test_the_lip_hides_the_top_of_the_frame(standard: FrameMaker) -> None:
    hidden = standard.frame(Card.parse("Ks"), Distortion(lip=0.5))
    assert hidden[:95].max() < 40 and hidden[110:].max() > 200


def test_the_turned_card_shows_its_other_corner_upright(standard: FrameMaker) -> None:
    upright = standard.frame(Card.parse("9c")).astype(int)
    turned = standard.frame(Card.parse("9c"), turned=True).astype(int)
    assert np.abs(upright - turned).mean() < 12             # the same index, drawn the same at both corners
