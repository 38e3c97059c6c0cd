"""``firmware-bridge codes``: the code sheet of a house's decks, so that it can mark its own cards.

Every card of every deck gets the code the reference shoe reads
(firmware_bridge/firmware/cardcode.py): ``TC`` + deck mark + rank + suit +
check character; the cut card gets one code for all shoes. Print each code as
a barcode (Code 128 or Code 39) where the shoe's scanner sees the card as it
leaves (docs/boards.md). Text (one line per card) or CSV.

>>> rows = code_sheet(1)
>>> len(rows), rows[0], rows[-1]
(53, ('1', 'Ac', 'TC1AC1'), ('-', 'cut', 'TCCUTW'))
"""

from __future__ import annotations

import csv
from typing import TextIO

from firmware_bridge.firmware import cardcode
from firmware_bridge.kernel.cards import RANK_CHARS, SUIT_CHARS, Card


def code_sheet(decks: int) -> list[tuple[str, str, str]]:
    """``(deck mark, card, code)`` for every card of ``decks`` decks, deck by deck, then the cut card."""
    if not 1 <= decks <= cardcode.MAX_DECK:
        raise ValueError(f"decks is 1 to {cardcode.MAX_DECK}, not {decks}")
    rows = []
    for deck in range(1, decks + 1):
        for suit in range(len(SUIT_CHARS)):
            for rank in range(1, len(RANK_CHARS) + 1):
                code = str(cardcode.code(deck, rank, suit))
                rows.append((str(cardcode.ALPHABET[deck]), str(Card(rank, suit)), code))
    rows.append(("-", "cut", str(cardcode.code_cut())))
    return rows


def write_sheet(decks: int, out: TextIO, *, as_csv: bool = False) -> None:
    """Write the sheet of ``decks`` decks to ``out``: aligned text, or CSV with a header."""
    rows = code_sheet(decks)
    if as_csv:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("deck", "card", "code"))
        writer.writerows(rows)
        return
    for deck, card, code in rows:
        out.write(f"{deck:>4}  {card:<4} {code}\n")
