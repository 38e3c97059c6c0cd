"""Playing cards as the controller sees them, and their pit notation (``Qh``, ``Th``, ``As``).

>>> card = Card.parse("Qh")
>>> card.rank, card.suit, str(card)
(12, 2, 'Qh')
>>> Card(1, 3)
Card('As')
"""

from __future__ import annotations

from dataclasses import dataclass

RANK_CHARS = "A23456789TJQK"
"""Rank characters in pit notation; rank ``n`` (1 = Ace ... 13 = King) is ``RANK_CHARS[n - 1]``."""

SUIT_CHARS = "cdhs"
"""Suit characters; suit 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades (the link protocol's order)."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card: ``rank`` 1 (Ace) to 13 (King), ``suit`` 0 to 3 (clubs, diamonds, hearts, spades)."""

    rank: int
    suit: int

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or not 0 <= self.suit <= 3:
            raise ValueError(f"no such card: rank {self.rank}, suit {self.suit}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card in pit notation.

        >>> Card.parse("Tc")
        Card('Tc')
        >>> Card.parse("1x")
        Traceback (most recent call last):
        ...
        ValueError: not a card: '1x'
        """
        if len(text) != 2 or text[0] not in RANK_CHARS or text[1] not in SUIT_CHARS:
            raise ValueError(f"not a card: {text!r}")
        return cls(RANK_CHARS.index(text[0]) + 1, SUIT_CHARS.index(text[1]))

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 1] + SUIT_CHARS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"
