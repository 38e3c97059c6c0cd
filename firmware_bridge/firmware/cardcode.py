"""The code printed on each card of a reference shoe, and its check character.

A playing card's code is six characters, ``TC`` + deck mark + rank + suit +
check, for example ``TC3QH`` + check: deck mark ``1`` to ``9`` then ``A`` to
``Z`` (decks 1 to 35), rank ``A23456789TJQK``, suit ``CDHS`` (clubs, diamonds,
hearts, spades). The cut card's code is ``TCCUT`` + check. The check character
is Luhn mod 36 over the characters ``0-9A-Z`` (it catches every single wrong
character and every swap of two neighbours), so scanner garbage never reads as
a card. The codes use only characters every barcode symbology has (Code 128,
Code 39). ``firmware-bridge codes`` prints the sheet of a house's decks.

>>> code(3, 12, 2)
'TC3QH7'
>>> parse(b"TC3QH7\\r\\n"), parse(code_cut()), parse(b"TC3QH8"), parse(b"TC3HQ7")
((3, 12, 2), (0, 0, 0), None, None)
"""

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
PREFIX = "TC"
RANKS = "A23456789TJQK"
SUITS = "CDHS"
CUT_BODY = "CUT"
CUT = (0, 0, 0)
"""What :func:`parse` returns for the cut card."""
MAX_DECK = 35


def check_char(text: str) -> str:
    """The Luhn mod 36 check character of ``text`` (characters of :data:`ALPHABET`)."""
    factor = 2
    total = 0
    for char in reversed(text):
        addend = factor * ALPHABET.index(char)
        factor = 1 if factor == 2 else 2
        total += addend // 36 + addend % 36
    return ALPHABET[(36 - total % 36) % 36]


def _valid(text: str) -> bool:
    factor = 1
    total = 0
    for char in reversed(text):
        addend = factor * ALPHABET.index(char)
        factor = 1 if factor == 2 else 2
        total += addend // 36 + addend % 36
    return total % 36 == 0


def code(deck: int, rank: int, suit: int) -> str:
    """The code of card ``rank`` (1 Ace to 13 King) of ``suit`` (0 clubs to 3 spades) in deck ``deck``."""
    if not 1 <= deck <= MAX_DECK or not 1 <= rank <= 13 or not 0 <= suit <= 3:
        raise ValueError("no such card")
    text = PREFIX + ALPHABET[deck] + RANKS[rank - 1] + SUITS[suit]
    return text + check_char(text)


def code_cut() -> str:
    """The cut card's code."""
    text = PREFIX + CUT_BODY
    return text + check_char(text)


def parse(line: "bytes | bytearray | str") -> "tuple[int, int, int] | None":
    """``(deck, rank, suit)`` of a scanned line (bytes or str, CR/LF allowed), :data:`CUT`, or None."""
    if not isinstance(line, str):
        try:
            line = bytes(line).decode()
        except UnicodeError:
            return None
    text = line.strip().upper()
    if len(text) != 6 or not text.startswith(PREFIX):
        return None
    for char in text:
        if char not in ALPHABET:
            return None
    if not _valid(text):
        return None
    body = text[2:5]
    if body == CUT_BODY:
        return CUT
    deck = ALPHABET.index(body[0])
    if not 1 <= deck <= MAX_DECK or body[1] not in RANKS or body[2] not in SUITS:
        return None
    return deck, RANKS.index(body[1]) + 1, SUITS.index(body[2])
