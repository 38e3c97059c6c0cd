"""Amounts in a dealer's words (cents as dollars, for refusals, prompts and payout lines), and the
ceiling of every amount.

The one money format of the controller: the games' words, the dealer display
(which is handed amounts already written), the pit monitor and the reports.

>>> dollars(150050), dollars(-500), dollars(7)
('$1,500.50', '-$5.00', '$0.07')
"""

from __future__ import annotations

MAX_AMOUNT = 10**9
"""The most any amount may be, in cents ($10,000,000.00): a wager, a buy-in, a stack, a limit in the
configuration. Sums of a table's amounts stay far below 2**53, so a page's numbers keep every cent."""


def amount_problem(amount: int) -> str | None:
    """Why ``amount`` (cents, given with a command) cannot be taken, or None.

    >>> amount_problem(-400), amount_problem(0), amount_problem(MAX_AMOUNT)
    ('amount -400 is below 0 cents', None, None)
    >>> amount_problem(MAX_AMOUNT + 1)
    'amount is above 1000000000 cents ($10,000,000.00), the most any amount may be'
    """
    if amount < 0:
        return f"amount {amount} is below 0 cents"
    if amount > MAX_AMOUNT:
        return f"amount is above {MAX_AMOUNT} cents ({dollars(MAX_AMOUNT)}), the most any amount may be"
    return None


def dollars(cents: int) -> str:
    """Cents as dollars with thousands separators."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(int(cents)), 100)
    return f"{sign}${whole:,}.{rest:02d}"
