"""The physical table of the dealer-mistake model: where every chip is, moved only by hands.

Every chip is a ``(uid, cents)`` pair in exactly one place: the chip **tray**, a betting
**spot** (``(seat, spot)``), the **pot** (the chips the dealer has taken into the middle of the
table: a pot game's gathered bets, a player-banked game's collections), the **drop** box (the
rake), or a player's **stack** (the chips in front of a seat, in hand or on the rail). Fills
come in from the cage and credits go out to it (a colour change, a chip sent to the cage for its
value in smaller chips when the tray has no change, is both, worth the same), and a player who
buys chips brings them into the opening; nothing else creates or destroys a chip, so at every
step :meth:`Chips.total` is ``opening + fills - credits`` (:meth:`Chips.conserved`).

Its readings are what the RFID reader would report: one :class:`~drivers.inputs.SpotWager` per
spot whose chips changed since it last reported (and the tray's, at
:data:`controller.table.tray.TRAY`), nothing while the reader is unplugged, and every spot that
changed meanwhile once it is plugged back in.
"""

from __future__ import annotations

from collections.abc import Iterator

from controller.devkit.demo_dealer import chip_uid
from controller.devkit.simulated import antenna
from controller.table.tray import TRAY
from drivers.inputs import SpotWager

Chip = tuple[str, int]
"""A chip: its uid and its value in cents."""

Spot = tuple[int, str]
"""A betting spot: ``(seat, spot name)``."""

DENOMINATIONS = (10000, 2500, 500, 100, 25, 5, 1)
"""The model's chips, in cents, largest first (the demo's four and small change for odd payouts,
a 3:2 on $5.00 or a rake of a few cents)."""

TRAY_ANTENNA = 99
"""The antenna the model's tray is read on."""


class ChipsShort(RuntimeError):
    """A place does not hold the chips a move asks of it."""


class Chips:
    """Every chip of the table and where it is; readings as the RFID reader reports them."""

    def __init__(self, tray: int, stacks: dict[int, int]) -> None:
        """``tray``: the tray's opening (in cents, made of every denomination); ``stacks``: the
        chips each seated player brings to the table."""
        self._minted = 0
        self.tray: list[Chip] = self.mint(tray, spread=True)
        self.spots: dict[Spot, list[Chip]] = {}
        self.pot: list[Chip] = []
        self.drop: list[Chip] = []
        self.stacks: dict[int, list[Chip]] = {seat: self.mint(cents) for seat, cents in stacks.items()}
        self.aside: list[Chip] = []
        """Chips a player took off a spot into the hand mid-hand: still the player's (a stack)."""
        self.opening = tray + sum(stacks.values())
        self.fills = 0
        self.credits = 0
        self.reader_online = True
        self._reported: dict[Spot, tuple[str, ...]] = {}

    # -- chips made and counted ----------------------------------------------------------

    def mint(self, cents: int, *, spread: bool = False, below: int | None = None) -> list[Chip]:
        """New chips worth ``cents`` (``spread``: the tray's opening, a share in every denomination
        so that it can make change for anything; ``below``: only chips smaller than that, a share
        of each; else the fewest chips)."""
        made: list[Chip] = []
        left = cents
        if spread or below is not None:
            for value in DENOMINATIONS[1:]:
                if below is not None and value >= below:
                    continue
                share = min(left // value, 40 if below is None else 4)
                made.extend(self._chip(value) for _ in range(share))
                left -= share * value
        for value in DENOMINATIONS:
            while left >= value:
                made.append(self._chip(value))
                left -= value
        return made

    def _chip(self, value: int) -> Chip:
        self._minted += 1
        return (chip_uid(value, self._minted), value)

    @staticmethod
    def worth(pile: list[Chip]) -> int:
        """What a pile of chips is worth, in cents."""
        return sum(value for _, value in pile)

    def spot(self, seat: int, spot: str) -> list[Chip]:
        """The chips on a spot (an empty pile if none were ever put there)."""
        return self.spots.setdefault((seat, spot), [])

    def stack(self, seat: int) -> list[Chip]:
        """The chips in front of a seat."""
        return self.stacks.setdefault(seat, [])

    def total(self) -> int:
        """Every chip at the table: tray + spots + pot + drop + stacks (and a hand's chips aside)."""
        piles = [self.tray, self.pot, self.drop, self.aside, *self.spots.values(), *self.stacks.values()]
        return sum(self.worth(pile) for pile in piles)

    def conserved(self) -> bool:
        """Whether the chips add up: tray + spots + pots + drop + stacks = opening + fills - credits."""
        return self.total() == self.opening + self.fills - self.credits

    # -- moves ---------------------------------------------------------------------------

    def move(self, source: list[Chip], target: list[Chip], cents: int) -> None:
        """Move chips worth exactly ``cents`` from ``source`` to ``target``, breaking a chip
        against the tray where the exact amount needs change (the tray's value stays)."""
        if cents < 0:
            raise ValueError(f"a move of {cents} cents")
        if self.worth(source) < cents:
            raise ChipsShort(f"{cents} cents asked of a pile of {self.worth(source)}")
        left = cents
        while left:
            source.sort(key=lambda chip: chip[1], reverse=True)
            chip = next((c for c in source if c[1] <= left), None)
            if chip is None:                            # only bigger chips: change one at the tray
                self._change(source, min(source, key=lambda c: c[1]))
                continue
            source.remove(chip)
            target.append(chip)
            left -= chip[1]

    def _change(self, pile: list[Chip], chip: Chip) -> None:
        """Swap ``chip`` of ``pile`` for smaller chips of the same value out of the tray."""
        value = chip[1]
        smaller = sorted((c for c in self.tray if c[1] < value), key=lambda c: c[1], reverse=True)
        change: list[Chip] = []
        left = value
        for candidate in smaller:
            if candidate[1] <= left:
                change.append(candidate)
                left -= candidate[1]
            if not left:
                break
        if left:                                # a colour change at the cage: the same value back
            pile.remove(chip)
            pile.extend(self.mint(value, below=value))
            self.credits += value
            self.fills += value
            return
        pile.remove(chip)
        for small in change:
            self.tray.remove(small)
        self.tray.append(chip)
        pile.extend(change)

    def bring(self, pile: list[Chip], cents: int, *, source: list[Chip], sink: list[Chip]) -> None:
        """Make ``pile`` worth ``cents``: chips added out of ``source``, or taken into ``sink``."""
        now = self.worth(pile)
        if now < cents:
            self.move(source, pile, cents - now)
        elif now > cents:
            self.move(pile, sink, now - cents)

    def fill(self, cents: int) -> None:
        """Chips from the cage into the tray."""
        self.tray.extend(self.mint(cents))
        self.fills += cents

    def buy(self, seat: int, cents: int) -> None:
        """A player buys chips at the cage and brings them to the table: they join the opening
        (chips the players bring count in it, as at the first buy-in)."""
        self.stack(seat).extend(self.mint(cents))
        self.opening += cents

    def credit(self, cents: int) -> None:
        """Chips from the tray back to the cage."""
        gone: list[Chip] = []
        self.move(self.tray, gone, cents)
        self.credits += cents

    # -- what the reader reports --------------------------------------------------------

    def readings(self) -> Iterator[SpotWager]:
        """A reading for each spot (and the tray) whose chips changed since the reader last
        reported it; none while the reader is unplugged."""
        if not self.reader_online:
            return
        places: list[tuple[Spot, list[Chip]]] = [(TRAY, self.tray), *sorted(self.spots.items())]
        for where, pile in places:
            uids = tuple(sorted(uid for uid, _ in pile))
            if self._reported.get(where, ()) == uids:
                continue
            self._reported[where] = uids
            seat, name = where
            yield SpotWager(seat, name, TRAY_ANTENNA if where == TRAY else antenna(seat, name),
                            self.worth(pile), uids, values=tuple(value for _, value in pile))
