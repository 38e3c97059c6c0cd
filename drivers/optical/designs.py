"""Debian's ``kdegames-card-data-kf5`` deck designs, as ``tests/optical/decks.sh`` unpacks them.

Each design is one SVG (``.svgz``) holding every card as an element id, ``<rank>_<suit>`` in KDE's words
(``1_club`` ... ``10_spade``, ``jack_heart``, ``queen_diamond``, ``king_spade``). The designs are kept in two
groups for the figures: casino-style (an index of rank over suit at the top left, plain French suits) and
novelty (the index elsewhere or drawn as a picture, or German suits).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.kernel.cards import Card

CACHE = Path(__file__).resolve().parents[2] / ".cache" / "decks"
"""Where ``tests/optical/decks.sh`` unpacks the package in a work tree (``DECKS_DIR`` there to change it)."""

CARDDECKS = Path("usr/share/carddecks")

CASINO_STYLE = ("standard", "nicu-white", "nicu-ornamental", "tigullio-international", "dondorf", "gm-paris",
                "jolly-royal", "xskat-french")
NOVELTY = ("ancient-egyptians", "future", "konqi-modern", "oxygen", "oxygen-air", "oxygen-white", "penguins",
           "xskat-german")

_RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_SUITS = ("club", "diamond", "heart", "spade")      # Card.suit's order


def element_id(card: Card) -> str:
    """The card's element id in a design's SVG.

    >>> element_id(Card.parse("Qh")), element_id(Card.parse("Tc"))
    ('queen_heart', '10_club')
    """
    return f"{_RANKS[card.rank - 1]}_{_SUITS[card.suit]}"


def deck() -> list[Card]:
    """The 52 cards in the order a teach pass deals them: clubs, diamonds, hearts, spades, each Ace to King.

    >>> cards = deck(); len(cards), cards[0], cards[13], cards[-1]
    (52, Card('Ac'), Card('Ad'), Card('Ks'))
    """
    return [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]


@dataclass(frozen=True)
class Design:
    """One deck design: its ``name`` (the folder's, less ``svg-``) and its SVG file."""

    name: str
    svg: Path

    @property
    def casino_style(self) -> bool:
        return self.name in CASINO_STYLE


def designs(root: Path = CACHE) -> list[Design]:
    """Every design unpacked under ``root``, casino-style first, each group by name; [] when none is."""
    found = []
    for folder in sorted((root / CARDDECKS).glob("svg-*")):
        svgs = sorted(folder.glob("*.svg*"))
        if svgs:
            found.append(Design(folder.name.removeprefix("svg-"), svgs[0]))
    return sorted(found, key=lambda design: (not design.casino_style, design.name))


def design(name: str, root: Path = CACHE) -> Design:
    """The design called ``name``; LookupError naming ``root`` when it is not there."""
    for each in designs(root):
        if each.name == name:
            return each
    raise LookupError(f"no deck design {name!r} under {root / CARDDECKS} (tests/optical/decks.sh fetches "
                      "them)")
