"""A card held in a hand, as the games keep it: the card, its index in the shoe, face up or down.

>>> from firmware_bridge.kernel.cards import Card
>>> HandCard(Card.parse("Qh"), 12, face_up=False)
HandCard(card=Card('Qh'), index=12, face_up=False)
"""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.kernel.cards import Card


@dataclass(frozen=True)
class HandCard:
    """A card in a hand: the card, its shoe index, and whether it was dealt face up."""

    card: Card
    index: int
    face_up: bool
