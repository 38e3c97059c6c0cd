"""The stakes in the seed's notation, ``A/B/C-D``, read into cents.

``A`` is the first round's bet and raise, which is the big blind; ``B`` the
second round's bet and raise; ``C`` to ``D`` what a bet or raise may add in
the final round. The amounts are in currency units as the table's sign shows
them (dollars), whole or with up to two decimals: ``"2/4/4-20"`` is a $2 big
blind, $4 in the second round and $4 to $20 in the final round. The rule
text's standard structure is ``A/2A/2A-10A``; other amounts are accepted as
written. The small blind and the ante are options of their own, in cents.

>>> parse_stakes("2/4/4-20")
Stakes(first=200, second=400, final_low=400, final_high=2000)
>>> parse_stakes("0.50/1/1-5").first
50
>>> parse_stakes("2/4/20-4")
Traceback (most recent call last):
...
ValueError: the final round's range 20-4 goes down
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from controller.games.parts.betting import Sizes

_AMOUNT = r"(\d{1,7}(?:\.\d{1,2})?)"
_NOTATION = re.compile(rf"{_AMOUNT}/{_AMOUNT}/{_AMOUNT}-{_AMOUNT}")


def _cents(text: str) -> int:
    return int(Decimal(text) * 100)


@dataclass(frozen=True)
class Stakes:
    """The stakes in cents: the first and second rounds' bet (fixed limit) and the final round's
    smallest and largest bet or raise (spread limit). The big blind is ``first``."""

    first: int
    second: int
    final_low: int
    final_high: int

    @property
    def big_blind(self) -> int:
        """The big blind: the first round's bet."""
        return self.first

    def sizes(self, betting_round: int) -> Sizes:
        """What a bet or raise adds in round 1, 2 or 3 (the final round).

        >>> parse_stakes("2/4/4-20").sizes(3)
        Sizes(low=400, high=2000)
        """
        if betting_round == 1:
            return Sizes(self.first, self.first)
        if betting_round == 2:
            return Sizes(self.second, self.second)
        return Sizes(self.final_low, self.final_high)

    def words(self) -> str:
        """The stakes as the sign shows them.

        >>> parse_stakes("0.50/1/1-5").words()
        '0.50/1/1-5'
        """
        def unit(cents: int) -> str:
            return str(cents // 100) if cents % 100 == 0 else f"{cents // 100}.{cents % 100:02d}"
        return f"{unit(self.first)}/{unit(self.second)}/{unit(self.final_low)}-{unit(self.final_high)}"


def parse_stakes(text: str) -> Stakes:
    """The stakes written ``A/B/C-D``; raises ValueError saying what is wrong."""
    found = _NOTATION.fullmatch(text.strip()) if isinstance(text, str) else None
    if found is None:
        raise ValueError(f"{text!r} is not written A/B/C-D like \"2/4/4-20\" "
                         "(amounts in dollars, up to two decimals)")
    first, second, low, high = (_cents(part) for part in found.groups())
    if min(first, second, low, high) <= 0:
        raise ValueError(f"every amount of {text!r} must be more than 0")
    if low > high:
        raise ValueError(f"the final round's range {found.group(3)}-{found.group(4)} goes down")
    return Stakes(first, second, low, high)
