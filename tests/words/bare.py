"""What counts as a bare amount of money in words a person reads, for the tests that look for one.

Every amount a dealer, a supervisor or a pit boss reads is written as the screen writes money,
``$1,234.50`` (:func:`firmware_bridge.kernel.money.dollars`); the pit events' data keep cents.
The rule: once every dollar amount is taken out of a text, any run of three or more digits that
stands alone (not inside a word, an id like ``E0040150AB``, a time or a date) is a bare amount
of cents. A seat, a hand, a count or a card's rank has fewer digits in the sample data the tests
use, so the rule needs no list of exceptions.

>>> bare_amounts("seat 2 main $3.00 is below the table minimum $5.00")
[]
>>> bare_amounts("seat 1 Dealer Bust 60000 is above the table maximum 50000")
['60000', '50000']
>>> bare_amounts("reads -2500. It should read 500: 2,500")
['2500', '500', '500']
>>> bare_amounts("chip E0040150AB at 22:14:05 on 2026-11-21, -$1,234.50 back")
[]
"""

from __future__ import annotations

import re

DOLLARS = re.compile(r"[-+]?\$\d{1,3}(?:,\d{3})*\.\d{2}")
"""A dollar amount as the screen writes it."""

BARE = re.compile(r"(?<![\w.:])(?<!\d-)\d{3,}(?!\w|[.:-]\d)")
"""Three or more digits standing alone."""


def bare_amounts(text: str) -> list[str]:
    """Every bare amount of cents in ``text`` (see the module's rule), in order."""
    return BARE.findall(DOLLARS.sub("", text))
