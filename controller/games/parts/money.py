"""Money in a game's words: cents as dollars for the dealer's prompts and refusals.

>>> dollars(150050), dollars(-500), dollars(7)
('$1,500.50', '-$5.00', '$0.07')
"""

from __future__ import annotations


def dollars(cents: int) -> str:
    """Cents as dollars with thousands separators, as the dealer display shows money."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{rest:02d}"
