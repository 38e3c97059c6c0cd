"""Amounts in a dealer's words: cents as dollars, for refusals, prompts and payout lines.

The one money format of the controller: the games' words, the dealer display
(which is handed amounts already written), the pit monitor and the reports.

>>> dollars(150050), dollars(-500), dollars(7)
('$1,500.50', '-$5.00', '$0.07')
"""

from __future__ import annotations


def dollars(cents: int) -> str:
    """Cents as dollars with thousands separators."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{rest:02d}"
